"""Typed metadata of a built dataset: what each config holds and how to evaluate it.

The evaluator reads :class:`TaskSpec` from ``build_manifest.json`` to know which metric applies
to a config, and which columns hold the image and the texts.

Column conventions shared by every builder:

* ``image_id`` (str), ``image_file`` (str, relative to an image folder), ``bbox``
  (``[x, y, w, h]`` floats or null), optional ``image`` (``datasets.Image``: the embedded crop);
* ``caption`` (str), ``hard_negatives`` (list of str), ``negative_types`` (list of str);
* 2×2 groups: ``caption_0``, ``caption_1``, ``image_0_file``, ``image_1_file``
  (``caption_i`` describes ``image_i``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

TaskType = Literal["retrieval", "binary", "group", "raw_retrieval", "captioning", "none"]
TASK_TYPES: tuple[str, ...] = (
    "retrieval",
    "binary",
    "group",
    "raw_retrieval",
    "captioning",
    "none",
)


@dataclass(frozen=True)
class TaskSpec:
    """How a config is evaluated.

    * ``retrieval``: image → text among ``[caption] + hard_negatives`` (R@1/3/5, mean rank).
    * ``binary``: the same with exactly one negative; reported as accuracy.
    * ``group``: 2 images × 2 captions, Winoground text / image / group scores.
    * ``raw_retrieval``: image ↔ text retrieval within a split, in K folds.
    * ``captioning``: generated captions scored against the reference ``captions``
      (``crepe evaluate-captions``; not a CLIP task).
    * ``none``: not an evaluation set (e.g. a table of training bindings).
    """

    type: TaskType = "retrieval"
    text_column: str = "caption"
    negatives_column: str | None = "hard_negatives"
    image_column: str = "image"
    image_file_column: str = "image_file"
    bbox_column: str | None = "bbox"
    caption_columns: tuple[str, str] = ("caption_0", "caption_1")
    image_file_columns: tuple[str, str] = ("image_0_file", "image_1_file")

    def __post_init__(self) -> None:
        if self.type not in TASK_TYPES:
            raise ValueError(f"unknown task type {self.type!r}; known: {', '.join(TASK_TYPES)}")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["caption_columns"] = list(self.caption_columns)
        data["image_file_columns"] = list(self.image_file_columns)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TaskSpec:
        data = dict(data)
        for key in ("caption_columns", "image_file_columns"):
            if key in data and data[key] is not None:
                data[key] = tuple(data[key])
        return cls(**data)


@dataclass
class ConfigInfo:
    """One config of a dataset (one ``load_dataset(folder, name)``)."""

    name: str
    description: str
    task: TaskSpec = field(default_factory=TaskSpec)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "task": self.task.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfigInfo:
        return cls(
            data["name"], data.get("description", ""), TaskSpec.from_dict(data.get("task", {}))
        )


@dataclass
class CardInfo:
    """Prose and metadata of a dataset card that the build manifest does not hold."""

    pretty_name: str
    summary: str
    license: str = "cc-by-4.0"
    task_categories: tuple[str, ...] = ("zero-shot-image-classification", "image-to-text")
    tags: tuple[str, ...] = ("compositionality", "vision-language", "benchmark")
    source_datasets: tuple[str, ...] = ()
    limitations: tuple[str, ...] = ()
    citations: tuple[str, ...] = ()
    how_built: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, tuple):
                data[key] = list(value)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CardInfo:
        data = dict(data)
        for key in ("task_categories", "tags", "source_datasets", "limitations", "citations"):
            if key in data:
                data[key] = tuple(data[key])
        return cls(**data)

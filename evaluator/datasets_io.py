"""Datasets to evaluate: crepe dataset folders, Hub repos, and released benchmark files.

Dataset specs:

* ``PATH`` or ``PATH:CONFIG`` — a dataset folder written by :func:`crepe_datasets.builders.writer.write_dataset`;
* ``ORG/NAME``, ``ORG/NAME:CONFIG``, ``ORG/NAME:CONFIG@REVISION`` — a Hub dataset repo
  (``build_manifest.json`` is fetched at the revision, splits with ``datasets.load_dataset``);
* ``crepe-release:PATH``, ``aro-vga:PATH``, ``aro-vgr:PATH``, ``sugarcrepe:PATH``,
  ``bivlc:PATH`` — released files read by the foundation readers (see :mod:`crepe_datasets.evaluator.compat`).

Each config's :class:`~crepe_datasets.cards.metadata.TaskSpec` (from the manifest) says which task applies and
which columns hold the image and the texts; rows become :class:`EvalItems`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.cards.manifest import MANIFEST_NAME, BuildManifest, read_manifest
from crepe_datasets.cards.metadata import TaskSpec
from crepe_datasets.infra.errors import CrepeInputError, MissingResourceError
from crepe_datasets.infra.provenance import DropLog, sha256_file

# Scalar columns that, when present, give per-value breakdowns (``split/column=value``).
BREAKDOWN_COLUMNS = ("bucket", "complexity", "n", "negative_type", "subset", "type", "held_out")
MAX_BREAKDOWN_VALUES = 50
HUB_RE = re.compile(r"^[\w.-]+/[\w.-]+$")


@dataclass(frozen=True)
class ImageRef:
    """An image region: a file (relative to the image folder) and a box, or embedded bytes."""

    file: str | None = None
    bbox: tuple[float, ...] | None = None
    data: bytes | None = field(default=None, compare=False, repr=False)
    digest: str | None = None

    @classmethod
    def embedded(cls, data: bytes) -> ImageRef:
        return cls(data=data, digest=hashlib.sha1(data).hexdigest())

    @property
    def key(self) -> str:
        """Identity of the crop: the bytes hash, or file + box."""
        if self.digest:
            return f"sha1:{self.digest}"
        box = "full" if self.bbox is None else ",".join(f"{v:g}" for v in self.bbox)
        return f"file:{self.file}|{box}"

    @property
    def available(self) -> bool:
        return self.data is not None or bool(self.file)


@dataclass
class EvalItems:
    """One split of one config, ready to score.

    ``images[i]`` holds 1 region (2 for ``group``); ``texts[i]`` the positive first and then the
    negatives (``retrieval`` / ``binary``), ``(caption_0, caption_1)`` (``group``), or
    ``(caption,)`` (``raw_retrieval``). A ``group`` row's image ``i`` is cropped to its
    ``image_{i}_bbox`` column when the row has one (``None``: the whole image).
    """

    benchmark: str
    config: str
    split: str
    task: TaskSpec
    ids: list[str]
    images: list[tuple[ImageRef, ...]]
    texts: list[tuple[str, ...]]
    negative_types: list[tuple[str, ...]] | None = None
    groups: dict[str, list[Any]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ids)

    def select(self, keep: Sequence[bool]) -> EvalItems:
        """The items where ``keep`` is true."""
        idx = [i for i, k in enumerate(keep) if k]
        pick = lambda seq: [seq[i] for i in idx]  # noqa: E731
        return EvalItems(
            self.benchmark, self.config, self.split, self.task, pick(self.ids), pick(self.images),
            pick(self.texts), None if self.negative_types is None else pick(self.negative_types),
            {k: pick(v) for k, v in self.groups.items()},
        )  # fmt: skip


def _image(row: Mapping[str, Any], image_col: str, file_col: str, bbox_col: str | None) -> ImageRef:
    value = row.get(image_col)
    if isinstance(value, dict) and value.get("bytes"):
        return ImageRef.embedded(value["bytes"])
    if isinstance(value, bytes | bytearray):
        return ImageRef.embedded(bytes(value))
    bbox = row.get(bbox_col) if bbox_col else None
    return ImageRef(
        row.get(file_col) or None, None if bbox is None else tuple(float(v) for v in bbox)
    )


def _negatives(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def items_from_rows(
    benchmark: str, config: str, split: str, task: TaskSpec, rows: Sequence[Mapping[str, Any]]
) -> EvalItems:
    """Turn dataset rows into :class:`EvalItems` following the task's column conventions."""
    ids, images, texts, neg_types = [], [], [], []
    bbox_col = task.bbox_column
    for index, row in enumerate(rows):
        ids.append(str(row.get("id", row.get("sample_id", index))))
        if task.type == "group":
            images.append(
                tuple(
                    _image(row, f"image_{i}", task.image_file_columns[i], f"image_{i}_bbox")
                    for i in (0, 1)
                )
            )
            texts.append((row[task.caption_columns[0]], row[task.caption_columns[1]]))
            continue
        images.append((_image(row, task.image_column, task.image_file_column, bbox_col),))
        if task.type == "raw_retrieval":
            texts.append((row[task.text_column],))
            continue
        negs = _negatives(row.get(task.negatives_column)) if task.negatives_column else ()
        texts.append((row[task.text_column], *negs))
        types = row.get("negative_types")
        neg_types.append(
            tuple(types) if types is not None and len(types) == len(negs) else ("",) * len(negs)
        )
    groups = {}
    for col in BREAKDOWN_COLUMNS:
        values = [row.get(col) for row in rows]
        scalar = rows and all(isinstance(v, str | int | bool) for v in values)
        if scalar and 1 < len(set(values)) <= MAX_BREAKDOWN_VALUES:
            groups[col] = values
    has_types = task.type in ("retrieval", "binary") and any(any(t) for t in neg_types)
    return EvalItems(
        benchmark, config, split, task, ids, images, texts, neg_types if has_types else None, groups
    )


@dataclass
class DatasetSource:
    """A dataset to evaluate: its configs and a way to load their splits.

    Attributes:
        spec: the dataset spec as given.
        name: the benchmark name used in metric keys (the manifest's ``dataset``).
        revision: version / Hub revision shown in records.
        fingerprint: content identity (manifest or input checksum) for the embedding cache.
        configs: config name → task.
        load_rows: ``load_rows(config)`` → ``{split: rows}``.
        drops: records the source readers skipped, by reason.
    """

    spec: str
    name: str
    revision: str
    fingerprint: str
    configs: dict[str, TaskSpec]
    load_rows: Callable[[str], dict[str, Sequence[Mapping[str, Any]]]]
    drops: DropLog = field(default_factory=DropLog)

    def load(self, config: str) -> dict[str, EvalItems]:
        """Every split of ``config`` as :class:`EvalItems` (sorted by split name)."""
        task = self.configs[config]
        splits = self.load_rows(config)
        return {s: items_from_rows(self.name, config, s, task, splits[s]) for s in sorted(splits)}


def _hf_rows(path: str, config: str, revision: str | None) -> dict[str, list[dict]]:
    from datasets import Image, load_dataset

    try:
        dd = load_dataset(path, config, revision=revision)
    except (FileNotFoundError, ConnectionError, OSError, ValueError) as err:
        raise CrepeInputError(f"cannot load config {config!r} of dataset {path}: {err}") from err
    out = {}
    for split, ds in dd.items():
        for col, feature in ds.features.items():
            if isinstance(feature, Image):
                ds = ds.cast_column(col, Image(decode=False))
        out[split] = ds.to_list()
    return out


def _select(configs: dict[str, TaskSpec], wanted: str | None, spec: str) -> dict[str, TaskSpec]:
    usable = {k: v for k, v in sorted(configs.items()) if v.type not in ("none", "captioning")}
    if wanted is None:
        return usable
    if wanted not in usable:
        raise CrepeInputError(
            f"dataset {spec} has no evaluable config {wanted!r}; it has {', '.join(usable) or 'none'}."
        )
    return {wanted: usable[wanted]}


def _built_configs(manifest: BuildManifest) -> dict[str, TaskSpec]:
    """Config → task of the manifest's configs that have rows (a small build may leave one
    empty, and an empty config has no data files to load); all of them when the manifest does
    not count rows."""
    counts = manifest.counts or {}
    return {
        k: v.task
        for k, v in manifest.configs.items()
        if not counts or sum((counts.get(k) or {}).values()) > 0
    }


def open_folder(spec: str, folder: Path, config: str | None) -> DatasetSource:
    """A local dataset folder (``build_manifest.json`` + parquet shards)."""
    manifest = read_manifest(folder)
    digest = sha256_file(folder / MANIFEST_NAME)
    configs = _select(_built_configs(manifest), config, spec)
    return DatasetSource(
        spec, manifest.dataset, manifest.version, f"manifest:{digest}", configs,
        lambda c: _hf_rows(str(folder), c, None),
    )  # fmt: skip


def open_hub(spec: str, repo: str, config: str | None, revision: str | None) -> DatasetSource:
    """A Hub dataset repo at a revision."""
    from huggingface_hub import hf_hub_download

    try:
        path = hf_hub_download(repo, MANIFEST_NAME, repo_type="dataset", revision=revision)
    except Exception as err:  # offline, unknown repo or revision: one sentence for the user
        raise MissingResourceError(
            f"cannot fetch {MANIFEST_NAME} of Hub dataset {repo} at revision {revision or 'main'} "
            f"({type(err).__name__}); check the name and revision, or download the folder and pass its path."
        ) from err
    manifest = read_manifest(Path(path).parent)
    digest = sha256_file(path)
    configs = _select(_built_configs(manifest), config, spec)
    rev = revision or "main"
    return DatasetSource(
        spec, manifest.dataset, f"{manifest.version}@{rev}", f"hub:{repo}@{rev}:{digest}", configs,
        lambda c: _hf_rows(repo, c, revision),
    )  # fmt: skip


def open_dataset(spec: str) -> DatasetSource:
    """Resolve a dataset spec (see the module docstring)."""
    from crepe_datasets.evaluator.compat import open_compat
    from crepe_datasets.sources.releases import RELEASES

    kind, _, rest = spec.partition(":")
    if kind in RELEASES and rest:
        return open_compat(spec, kind, rest)
    if Path(spec).is_dir():
        return open_folder(spec, Path(spec), None)
    base, revision = spec, None
    if "@" in base.rsplit(":", 1)[-1] or ("@" in base and ":" not in base):
        base, revision = base.rsplit("@", 1)
    base, _, config = base.partition(":") if not Path(base).is_dir() else (base, "", "")
    if Path(base).is_dir():
        return open_folder(spec, Path(base), config or None)
    if HUB_RE.match(base):
        return open_hub(spec, base, config or None, revision)
    raise CrepeInputError(
        f"dataset {spec!r} is neither a folder nor a Hub repo ORG/NAME[:CONFIG][@REVISION]; fix the path."
    )

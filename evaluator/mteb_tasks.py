"""Our datasets as mteb / MIEB tasks: image–text compositionality ("Compositionality", ``i2t``).

:func:`mteb_tasks` turns a dataset folder (or a Hub copy, ``ORG/NAME[@REVISION]``) into one
task per retrieval or binary config, an instance of mteb's own
``AbsTaskImageTextPairClassification`` (the class of its SugarCrepe and Winoground tasks), with
full metadata (name, description, reference, licence, main score ``text_acc``, the config's
splits as ``eval_splits``). ``mteb.evaluate(model, tasks=mteb_tasks(folder))`` then runs them
with any mteb model wrapper::

    import mteb
    from crepe_datasets.evaluator.mteb_tasks import mteb_tasks

    results = mteb.evaluate(mteb.get_model("openai/clip-vit-base-patch32"),
                            tasks=mteb_tasks("out/crepe-productivity"), cache=None)

Each row becomes one sample: its region crop (the ``image`` column, see ``crepe add-images``)
against the positive caption and its hard negatives (columns ``caption``, ``negative_0`` …).
mteb needs the same number of texts in every sample of a split, so a split's rows with fewer
negatives than its most common count, and rows without a crop, are left out and counted
(:attr:`CrepeCompositionalityTask.dropped`).

How mteb's ``text_acc`` relates to ``crepe evaluate``'s ``R@1`` on the same rows: both ask
whether the positive caption scores highest against the image, by cosine of the normalised
embeddings. They differ only on ties: mteb's ``argmax`` gives a tie to the first text (the
positive), ``crepe evaluate`` counts a tie as a loss (and reports ``ties``), so
``text_acc = R@1 + (samples whose positive ties for the top) / n``. mteb's ``image_acc`` and
``accuracy`` are 0 by construction here (they ask text ``j`` of a sample to pick image ``j``, and a
sample has one image), as for mteb's own SugarCrepe task; ``text_acc`` is the main score.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from crepe_datasets.cards.manifest import MANIFEST_NAME, BuildManifest, read_manifest
from crepe_datasets.infra.errors import CrepeInputError, MissingResourceError
from crepe_datasets.scenegraph.crops import IMAGE_COLUMN

MTEB_TASK_TYPES = ("retrieval", "binary")
CREPE_REFERENCE = "https://arxiv.org/abs/2212.07796"
CREPE_BIBTEX = r"""
@inproceedings{ma2023crepe,
  author = {Ma, Zixian and Hong, Jerry and Gul, Mustafa Omer and Gandhi, Mona and Gao, Irena and Krishna, Ranjay},
  booktitle = {Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)},
  title = {CREPE: Can Vision-Language Foundation Models Reason Compositionally?},
  year = {2023},
}
"""


def _locate(dataset: str) -> tuple[BuildManifest, str, str, bool]:
    """``(manifest, path for load_dataset, revision, is_local)`` of a folder or Hub spec."""
    if Path(dataset).is_dir():
        manifest = read_manifest(dataset)
        digest = hashlib.sha256((Path(dataset) / MANIFEST_NAME).read_bytes()).hexdigest()[:12]
        return manifest, str(Path(dataset).resolve()), f"manifest-{digest}", True
    repo, _, revision = dataset.partition("@")
    from huggingface_hub import hf_hub_download

    try:
        path = hf_hub_download(repo, MANIFEST_NAME, repo_type="dataset", revision=revision or None)
    except Exception as err:  # offline, unknown repo or revision: one sentence for the user
        raise MissingResourceError(
            f"cannot fetch {MANIFEST_NAME} of Hub dataset {repo} ({type(err).__name__}); check the "
            "name and revision, or pass a local dataset folder."
        ) from err
    return read_manifest(Path(path).parent), repo, revision or "main", False


def _task_class():
    """The task class, defined on first use so that importing this module needs no mteb."""
    global _TASK_CLASS
    if _TASK_CLASS is not None:
        return _TASK_CLASS
    from mteb.abstasks.image.image_text_pair_classification import (
        AbsTaskImageTextPairClassification,
    )

    class CrepeCompositionalityTask(AbsTaskImageTextPairClassification):
        """One config of a crepe dataset as an mteb image–text pair-classification task.

        mteb keeps a task's metadata on its class, so :func:`mteb_tasks` makes one subclass
        per config, setting the class attributes below.

        Attributes:
            metadata: the mteb ``TaskMetadata``.
            source: ``load_dataset`` path (folder or Hub repo) and its revision.
            local: whether ``source`` is a local folder.
            config: the dataset config.
            text_column, negatives_column: the task's caption and hard-negative columns.
            dropped: ``{split: {reason: rows}}`` left out when the data was loaded.
        """

        images_column_names = "image"
        texts_column_names: tuple[str, ...] = ("caption",)
        source: tuple[str, str]
        local: bool
        config: str
        text_column: str
        negatives_column: str

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.dropped: dict[str, dict[str, int]] = {}

        def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
            """Each split's rows as ``image``, ``caption``, ``negative_0`` … ``negative_{k-1}``."""
            if self.data_loaded:
                return
            from datasets import Dataset, DatasetDict, Features, Image, Value, load_dataset

            path, revision = self.source
            loaded = load_dataset(path, self.config, revision=None if self.local else revision)
            out, widths = {}, set()
            for split in self.metadata.eval_splits:
                ds = loaded[split]
                if IMAGE_COLUMN not in ds.column_names:
                    raise CrepeInputError(
                        f"config {self.config} of {path} has no image column; add the crops first "
                        "(crepe add-images DATASET --images DIR)."
                    )
                ds = ds.cast_column(IMAGE_COLUMN, Image(decode=False))
                negatives = ds[self.negatives_column]
                width = Counter(len(n) for n in negatives).most_common(1)[0][0]
                widths.add(width)
                keep, dropped = [], Counter()
                for i, (image, negs) in enumerate(zip(ds[IMAGE_COLUMN], negatives, strict=True)):
                    if not image or not image.get("bytes"):
                        dropped["no_crop"] += 1
                    elif len(negs) != width:
                        dropped["other_negative_count"] += 1
                    else:
                        keep.append(i)
                self.dropped[split] = dict(sorted(dropped.items()))
                rows = ds.select(keep)
                columns = {"image": rows[IMAGE_COLUMN], "caption": rows[self.text_column]}
                negs = rows[self.negatives_column]
                for j in range(width):
                    columns[f"negative_{j}"] = [n[j] for n in negs]
                features = Features(
                    {"image": Image(), **{k: Value("string") for k in columns if k != "image"}}
                )
                out[split] = Dataset.from_dict(columns, features=features)
            if len(widths) != 1:
                raise CrepeInputError(
                    f"config {self.config} of {path} has splits with {sorted(widths)} negatives; "
                    "make one task per split."
                )
            self.texts_column_names = ("caption", *(f"negative_{j}" for j in range(widths.pop())))
            self.dataset = DatasetDict(out)
            self.data_loaded = True

    _TASK_CLASS = CrepeCompositionalityTask
    return _TASK_CLASS


_TASK_CLASS = None


def _description(manifest: BuildManifest, config: str) -> str:
    info = manifest.configs[config]
    summary = " ".join(manifest.card.summary.split())
    return (
        f"{manifest.card.pretty_name} ({manifest.dataset} {manifest.version}), config {config}: "
        f"{info.description or 'retrieval sets'} Each sample is a Visual Genome region crop with "
        f"its caption and hard negatives; the task is to rank the caption first. {summary}"
    ).strip()


def mteb_tasks(dataset: str | Path, configs: list[str] | None = None) -> list[Any]:
    """mteb tasks of a crepe dataset folder or Hub copy (``ORG/NAME[@REVISION]``).

    Args:
        dataset: a dataset folder written by this toolkit, or a Hub dataset repo.
        configs: the configs to turn into tasks (default: every retrieval / binary config).

    Returns:
        One task instance per config, ready for ``mteb.evaluate``.

    Raises:
        CrepeInputError: when a config asked for is not a retrieval or binary config.
    """
    from mteb.abstasks.task_metadata import TaskMetadata

    manifest, path, revision, local = _locate(str(dataset))
    usable = {
        name: info
        for name, info in sorted(manifest.configs.items())
        if info.task.type in MTEB_TASK_TYPES and info.task.negatives_column
    }
    for name in configs or []:
        if name not in usable:
            raise CrepeInputError(
                f"{dataset} has no retrieval or binary config {name!r}; it has "
                f"{', '.join(usable) or 'none'}."
            )
    day = time.strftime("%Y-%m-%d", time.gmtime(manifest.started_at))
    license_ = (manifest.card.license or "cc-by-4.0").lower()
    tasks = []
    for name in configs or list(usable):
        info = usable[name]
        splits = sorted(s for s, n in (manifest.counts.get(name) or {}).items() if n)
        if not splits:
            continue
        metadata = TaskMetadata(
            name=f"{manifest.dataset}-{name}",
            description=_description(manifest, name),
            reference=CREPE_REFERENCE,
            dataset={"path": path, "revision": revision},
            type="Compositionality",
            category="i2t",
            eval_splits=splits,
            eval_langs=["eng-Latn"],
            main_score="text_acc",
            date=(day, day),
            domains=["Web", "Encyclopaedic"],
            task_subtypes=["Caption Pairing"],
            license=license_,
            annotations_creators="derived",
            dialect=[],
            modalities=["text", "image"],
            sample_creation="created",
            bibtex_citation=CREPE_BIBTEX,
        )
        attributes = {
            "metadata": metadata, "source": (path, revision), "local": local, "config": name,
            "text_column": info.task.text_column, "negatives_column": info.task.negatives_column,
        }  # fmt: skip
        base = _task_class()
        tasks.append(type(f"{base.__name__}_{name}", (base,), attributes)())
    return tasks


def task_summary(task: Any) -> dict[str, Any]:
    """A task's metadata as plain JSON (for ``crepe export mteb``)."""
    meta = json.loads(task.metadata.model_dump_json())
    return {k: meta[k] for k in sorted(meta) if meta[k] not in (None, [], {})}

"""``crepe add-images``: put the region crops into an existing dataset folder, shard by shard.

Every parquet shard of a config whose rows name an image region (``image_file`` + ``bbox``) is
rewritten with the ``image`` and ``image_license`` columns (:func:`~crepe_datasets.scenegraph.crops.embed_rows`,
the same as a build with ``--images``, so the shards are byte-identical to that build's); each
shard is written to a temporary file and renamed over the old one, so a killed run leaves every
shard either untouched or complete. A shard that already holds its crops (its parquet metadata
says so, with the crop rule) is skipped: a second run resumes where the first stopped, and a run
over a complete folder changes nothing. The manifest (file checksums, features, crop checksums,
failed crops by reason) and the card are rewritten last, and only when something changed.

Shards are independent, so they run on the parse engines (:mod:`crepe_datasets.builders.engines`):
in this process, a local process pool, or Dask.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from crepe_datasets.builders.engines import make_engine
from crepe_datasets.cards.image_digests import (
    IMAGES_SUMMARY,
    images_summary,
    note_on_card,
    shard_crop_info,
    with_crop_metadata,
)
from crepe_datasets.cards.manifest import MANIFEST_NAME, read_manifest
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import (
    DropLog,
    InputFile,
    describe_input,
    write_json_atomic,
    write_text_atomic,
)
from crepe_datasets.scenegraph.crops import (
    CROP_RULE,
    VG_IMAGE_LICENSE,
    ImageCropper,
    ImageSource,
    embed_rows,
    image_features,
)

NO_IMAGE_TASKS = ("group",)


@dataclass
class AddImagesResult:
    """What one ``add_images`` run did.

    Attributes:
        shards_written: shards rewritten with their crops in this run.
        shards_skipped: shards that already held their crops.
        crops: crops in the folder after the run.
        failed: rows without a crop, by reason (all shards).
        changed: whether anything in the folder was written.
    """

    shards_written: int = 0
    shards_skipped: int = 0
    crops: int = 0
    failed: dict[str, int] = field(default_factory=dict)
    changed: bool = False


def _shard_job(path: Path, images: Path, license: str | None, file_col: str, bbox_col: str) -> dict:
    """Crop one shard's regions and replace the shard atomically; returns its failures."""
    from datasets import Features

    from crepe_datasets.builders.writer import PARQUET_OPTIONS

    table = pq.read_table(path)
    features = image_features(Features.from_arrow_schema(table.schema), license)
    cropper = ImageCropper(images, DropLog(), license)
    rows, failed = embed_rows(table.to_pylist(), cropper, file_col, bbox_col)
    schema = with_crop_metadata(features.arrow_schema, failed)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), tmp, **PARQUET_OPTIONS)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return failed


def _pending(folder: Path, manifest) -> tuple[list[tuple[Path, str, str]], int, set[str]]:
    """``(shards to crop with their file and box columns, shards already done, configs)``."""
    todo, done, configs = [], 0, set()
    for config, info in sorted(manifest.configs.items()):
        task = info.task
        if task.type in NO_IMAGE_TASKS or not task.image_file_column:
            continue
        for path in sorted((folder / "data" / config).glob("*.parquet")):
            names = pq.read_schema(path).names
            if task.image_file_column not in names:
                continue
            configs.add(config)
            meta = shard_crop_info(path)
            if meta is not None and meta.get("crop_rule") == CROP_RULE:
                done += 1
            else:
                todo.append((path, task.image_file_column, task.bbox_column or "bbox"))
    return todo, done, configs


def add_images(
    folder: str | Path,
    images: str | Path,
    license: str | None = VG_IMAGE_LICENSE,
    workers: int = 1,
    progress: bool = False,
    engine: str = "local",
    scheduler: str | None = None,
) -> AddImagesResult:
    """Add the ``image`` column to every image-region config of a dataset folder, in place.

    Args:
        folder: a dataset folder written by :func:`crepe_datasets.builders.writer.write_dataset`.
        images: folder (or zip) of the images its ``image_file`` column names.
        license: the images' licence (``image_license`` column and the card).
        workers: processes cropping shards in parallel (1: in this process).
        progress: show a progress bar.
        engine: ``local`` (this process, or a pool of ``workers``) or ``dask`` (a LocalCluster
            of ``workers``, or the cluster at ``scheduler``; its workers must see ``folder`` and
            ``images`` at the same paths).
        scheduler: Dask scheduler address.

    Raises:
        CrepeInputError: when ``folder`` is not a dataset folder, ``images`` does not exist, or
            no config of the dataset names image regions.
    """
    from datasets import Features
    from tqdm import tqdm

    from crepe_datasets.builders.writer import yaml_features
    from crepe_datasets.cards.portable import portable_manifest
    from crepe_datasets.cards.render import render_card

    folder = Path(folder)
    manifest = read_manifest(folder)
    ImageSource(images)  # a clear error before any work when the images are not there
    for stale in (folder / "data").glob("*/.*.tmp"):  # left by a killed run
        stale.unlink()
    todo, done, configs = _pending(folder, manifest)
    if not configs:
        raise CrepeInputError(
            f"{folder} has no config whose rows name an image region (image_file + bbox); "
            "nothing to add images to."
        )
    result = AddImagesResult(shards_written=len(todo), shards_skipped=done)
    tasks = [(p, Path(images).resolve(), license, f, b) for p, f, b in todo]
    with (
        make_engine(engine, workers if len(todo) > 1 else 1, scheduler) as runner,
        tqdm(total=len(todo), desc="add-images", unit="shard", disable=not progress) as bar,
    ):
        for _ in runner.imap(_shard_job, tasks):
            bar.update(1)
    summary = images_summary(folder, license)
    failed: Counter[str] = Counter()
    for split in summary["splits"].values():
        failed.update(split["failed"])
    result.crops, result.failed = summary["crops"], dict(sorted(failed.items()))
    if not todo and manifest.summary.get(IMAGES_SUMMARY) == summary:
        return result  # complete already: nothing is written
    for config in sorted(configs):
        first = sorted((folder / "data" / config).glob("*.parquet"))[0]
        manifest.features[config] = yaml_features(Features.from_arrow_schema(pq.read_schema(first)))
    manifest.outputs = [
        InputFile(f.path, d.bytes, d.sha256)
        for f in manifest.outputs
        for d in [describe_input(folder / f.path)]
    ]
    manifest.summary[IMAGES_SUMMARY] = summary
    note_on_card(manifest, license)
    drops = DropLog()
    for (stage, reason), n in manifest.drops.counts.items():
        if stage != "images":
            drops.drop(stage, reason, n=n)
    drops.examples = {k: v for k, v in manifest.drops.examples.items() if k[0] != "images"}
    drops.repairs = manifest.drops.repairs
    for reason, n in result.failed.items():
        drops.drop("images", reason, n=n)
    manifest.drops = drops
    published = portable_manifest(manifest)
    write_json_atomic(folder / MANIFEST_NAME, published.to_dict())
    write_text_atomic(folder / "README.md", render_card(published))
    result.changed = True
    return result

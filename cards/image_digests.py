"""Checksums of a dataset's ``image`` column: what the manifest records and validation re-checks.

Each split's crops get one SHA-256: of the lines ``sha256(crop bytes)`` (``-`` for a row without
a crop), in row order, over the split's shards. Each shard written with crops carries, in its
parquet key-value metadata (:data:`~crepe_datasets.scenegraph.crops.SHARD_METADATA_KEY`), the crop
rule and its failed crops by reason, so that the counts survive a resumed ``crepe add-images``.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from crepe_datasets.scenegraph.crops import (
    CROP_RULE,
    IMAGE_COLUMN,
    SHARD_METADATA_KEY,
    crop_digest,
)

IMAGES_SUMMARY = "image_column"


def with_crop_metadata(schema: pa.Schema, failed: dict[str, int]) -> pa.Schema:
    """``schema`` whose metadata says the shard's crops are in (rule + failures by reason)."""
    info = {"crop_rule": CROP_RULE, "failed": dict(sorted(failed.items()))}
    meta = dict(schema.metadata or {})
    meta[SHARD_METADATA_KEY] = json.dumps(info, sort_keys=True).encode()
    return schema.with_metadata(meta)


def shard_crop_info(path: Path) -> dict[str, Any] | None:
    """The crop metadata of a parquet shard, or ``None`` when its crops are not in."""
    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(SHARD_METADATA_KEY)
    return None if raw is None else json.loads(raw)


def _split_shards(folder: Path) -> dict[tuple[str, str], list[Path]]:
    out: dict[tuple[str, str], list[Path]] = {}
    for path in sorted((folder / "data").glob("*/*.parquet")):
        split = path.name.rsplit("-", 3)[0]
        out.setdefault((path.parent.name, split), []).append(path)
    return out


def split_digest(paths: list[Path]) -> dict[str, Any]:
    """``{"crops", "failed", "sha256"}`` of one split's shards (in order)."""
    digest, crops, failed = hashlib.sha256(), 0, Counter()
    for path in paths:
        for batch in pq.ParquetFile(path).iter_batches(columns=[IMAGE_COLUMN], batch_size=2048):
            for value in batch.column(0).to_pylist():
                data = value.get("bytes") if value else None
                crops += data is not None
                digest.update(crop_digest(data).encode() + b"\n")
        failed.update((shard_crop_info(path) or {}).get("failed", {}))
    return {"crops": crops, "failed": dict(sorted(failed.items())), "sha256": digest.hexdigest()}


def images_summary(folder: str | Path, license: str | None) -> dict[str, Any]:
    """The manifest's ``summary["image_column"]``: licence, crop rule, and per split crops,
    failed crops by reason and the checksum of the crops (splits with an ``image`` column)."""
    splits: dict[str, Any] = {}
    for (config, split), paths in _split_shards(Path(folder)).items():
        if IMAGE_COLUMN in pq.read_schema(paths[0]).names:
            splits[f"{config}/{split}"] = split_digest(paths)
    return {
        "license": license or "not stated",
        "crop_rule": CROP_RULE,
        "format": "PNG",
        "crops": sum(s["crops"] for s in splits.values()),
        "splits": splits,
    }


def check_images(folder: str | Path, summary: dict[str, Any] | None) -> list[str]:
    """Problems of a folder's crops against the manifest's ``summary["image_column"]`` (none: ``[]``)."""
    if not summary:
        return []
    problems = []
    shards = _split_shards(Path(folder))
    for name, expected in sorted((summary.get("splits") or {}).items()):
        config, split = name.split("/", 1)
        paths = shards.get((config, split))
        if not paths:
            problems.append(f"{name}: the manifest checksums its crops but the split has no files")
            continue
        if IMAGE_COLUMN not in pq.read_schema(paths[0]).names:
            problems.append(f"{name}: the manifest checksums its crops but it has no image column")
            continue
        found = split_digest(paths)
        if found["sha256"] != expected.get("sha256"):
            problems.append(
                f"{name}: crop checksum differs from the manifest ({found['crops']} crops found, "
                f"{expected.get('crops')} recorded)"
            )
    return problems


def image_card_note(license: str | None) -> str:
    """The card's sentence on the ``image`` column: the images' licence and the crop rule."""
    return (
        f"The `image` column holds each row's region crop; image licence: {license or 'not stated'} "
        f"(column `image_license`). Crop rule: {CROP_RULE}. Rows whose image was missing or "
        "unreadable have no crop, counted by reason in the manifest (summary `image_column`)."
    )


def note_on_card(manifest: Any, license: str | None) -> None:
    """Put :func:`image_card_note` among the card's limitations (once)."""
    note = image_card_note(license)
    kept = tuple(x for x in manifest.card.limitations if not x.startswith("The `image` column"))
    manifest.card.limitations = (*kept, note)

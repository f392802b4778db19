"""Row identity for human verification, and carrying a verification across a rebuild.

A verified item names one row of a built dataset (config, split, row index) and records the
row's hash. When the dataset is rebuilt in place, the writer re-hashes those rows in the new
build: the verification is kept as ``current`` when every row is unchanged, and marked
``stale`` (with the number of changed rows) otherwise.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

IMAGE_COLUMN = "image"


def row_hash(row: Mapping[str, Any]) -> str:
    """SHA-256 (first 16 hex digits) of a row's values, the embedded image excluded."""
    clean = {k: v for k, v in row.items() if k != IMAGE_COLUMN}
    text = json.dumps(clean, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def split_files(folder: str | Path, config: str, split: str) -> list[Path]:
    """The parquet shards of one split, in order."""
    return sorted((Path(folder) / "data" / config).glob(f"{split}-*.parquet"))


def read_rows(
    folder: str | Path, config: str, split: str, indices: Iterable[int] | None = None
) -> dict[int, dict[str, Any]]:
    """Rows of one split by index (all rows when ``indices`` is None), without the image."""
    wanted = None if indices is None else set(indices)
    out: dict[int, dict[str, Any]] = {}
    offset = 0
    for path in split_files(folder, config, split):
        pf = pq.ParquetFile(path)
        n = pf.metadata.num_rows
        if wanted is None or any(offset <= i < offset + n for i in wanted):
            columns = [c for c in pf.schema_arrow.names if c != IMAGE_COLUMN]
            for i, row in enumerate(pf.read(columns=columns).to_pylist()):
                if wanted is None or offset + i in wanted:
                    out[offset + i] = row
        offset += n
    return out


def current_hashes(folder: str | Path, refs: Iterable[tuple[str, str, int]]) -> dict:
    """``{(config, split, row): hash or None}`` for the rows of a dataset folder."""
    by_split: dict[tuple[str, str], set[int]] = defaultdict(set)
    for config, split, row in refs:
        by_split[(config, split)].add(row)
    out = {}
    for (config, split), rows in by_split.items():
        found = read_rows(folder, config, split, rows)
        for row in rows:
            out[(config, split, row)] = row_hash(found[row]) if row in found else None
    return out


def check_verification(verification: Mapping[str, Any], folder: str | Path) -> dict[str, Any]:
    """A copy of ``verification`` whose ``status`` says whether its rows are unchanged.

    ``verification["rows"]`` maps ``"config/split/row"`` to the hash the annotators saw.
    """
    rows = verification.get("rows") or {}
    refs = {}
    for key in rows:
        config, split, row = key.rsplit("/", 2)
        refs[key] = (config, split, int(row))
    now = current_hashes(folder, refs.values())
    changed = sorted(k for k, ref in refs.items() if now.get(ref) != rows[k])
    out = dict(verification)
    out["status"] = "stale" if changed else "current"
    out["changed_rows"] = len(changed)
    out["changed_examples"] = changed[:3]
    return out

"""NegCLIP's COCO hard-negative TSV (``valid_neg_clip.tsv``, ``train_neg_clip.tsv``).

Columns (tab-separated, first column unnamed): ``<idx>, title, filepath, neg_caption,
neg_image``. ``neg_caption`` is a Python list literal of swapped captions; ``neg_image`` a list
of row indices of hard-negative images (kept in ``meta["negative_images"]``).
Sample ids are the unnamed index column; ``image_file`` is ``filepath`` and ``image_id`` the
COCO id it encodes.
Dropped rows (stage ``negclip``): ``invalid_utf8``, ``missing_caption``, ``empty_caption``,
``bad_hard_negs``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.jsonstream import require_file
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import (
    clean_caption,
    clean_negatives,
    csv_header,
    iter_csv_rows,
)
from crepe_datasets.sources.crepe_release import parse_literal_strings
from crepe_datasets.sources.records import PairSample
from crepe_datasets.sources.sugarcrepe import coco_image_id

STAGE = "negclip"
REQUIRED = ("title", "filepath", "neg_caption")


def _indices(text: str | None) -> list[int]:
    try:
        value = ast.literal_eval((text or "").strip())
    except (SyntaxError, ValueError):
        return []
    return [int(v) for v in value] if isinstance(value, (list, tuple)) else []


def _read(path: Path, drops: DropLog) -> Iterator[PairSample]:
    for index, row in iter_csv_rows(path, drops, STAGE, delimiter="\t"):
        where = f"{path.name} row {index}"
        caption = clean_caption(row.get("title"), drops, STAGE, where)
        if caption is None:
            continue
        negatives = clean_negatives(
            parse_literal_strings(row.get("neg_caption") or "") or [], drops, STAGE, where
        )
        if not negatives:
            drops.drop(STAGE, "bad_hard_negs", where)
            continue
        filepath = (row.get("filepath") or "").strip() or None
        meta: dict[str, Any] = {"negative_images": _indices(row.get("neg_image"))}
        yield PairSample(
            (row.get("") or "").strip() or str(index),
            caption,
            tuple(negatives),
            coco_image_id(filepath) if filepath else None,
            filepath,
            None,
            meta,
        )


def read_negclip(path: str | Path, drops: DropLog) -> Iterator[PairSample]:
    """NegCLIP samples of one TSV file.

    Raises:
        CrepeInputError: the file is missing or lacks the NegCLIP columns.
    """
    p = require_file(path, "NegCLIP file")
    header = csv_header(p, delimiter="\t")
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise CrepeInputError(f"{p} is not a NegCLIP TSV: column(s) {', '.join(missing)} missing.")
    return _read(p, drops)

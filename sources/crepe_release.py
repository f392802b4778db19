"""CREPE's released productivity retrieval sets (``prod_hard_negatives/<type>/…_complexity_<n>.csv``).

Columns: ``image_id, caption, n, n_objects, n_relations, n_attributes, n_connected_components,
hard_negs, x, y, width, height``. ``hard_negs`` is a Python literal: a list, or in some rows a
*set* literal. ``ast.literal_eval`` of a set loses the written order, so the literal is parsed
with ``ast.parse(..., mode="eval")`` and its string elements are taken in written order.

The negative type (``atom`` = HN-ATOM, ``negate`` = HN-NEG, ``swap`` = HN-SWAP) and ``n`` come
from the file name ``prod_vg_hard_negs_<type>_complexity_<n>.csv``. ``path`` may be one file or
a folder searched recursively (``prod_hard_negatives/`` or its parent). Known quirks of the
release are kept as written: HN-NEG negatives are capitalised, and some HN-SWAP rows list the
positive among their negatives (flagged with ``meta["positive_in_negatives"] = True``).
Sample ids are ``<type>:<n>:<row>``; ``bbox`` is ``(x, y, width, height)``; ``image_file`` is
the Visual Genome file name ``<image_id>.jpg``.
Dropped rows (stage ``crepe_release``): ``invalid_utf8``, ``missing_caption``,
``empty_caption``, ``bad_hard_negs``, ``bad_bbox``.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import (
    clean_caption,
    clean_negatives,
    csv_header,
    iter_csv_rows,
)
from crepe_datasets.sources.records import PairSample

STAGE = "crepe_release"
FILE_RE = re.compile(r"prod_vg_hard_negs_(?P<type>[a-z]+)_complexity_(?P<n>\d+)\.csv$")
REQUIRED = ("image_id", "caption", "hard_negs", "x", "y", "width", "height")
COUNT_COLUMNS = ("n_objects", "n_relations", "n_attributes", "n_connected_components")


def parse_literal_strings(text: str) -> list[str] | None:
    """Strings of a list/set/tuple literal in written order; ``None`` when it is not one."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if not isinstance(node, (ast.List, ast.Set, ast.Tuple)):
        return None
    out = []
    for elt in node.elts:
        if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
            return None
        out.append(elt.value)
    return out


def release_files(path: Path) -> list[Path]:
    """The release CSVs of a file or folder, sorted by (type, n)."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise CrepeInputError(
            f"CREPE release path {path} does not exist; give a CSV or prod_hard_negatives/."
        )
    files = [f for f in path.rglob("*.csv") if FILE_RE.search(f.name)]
    if not files:
        raise CrepeInputError(
            f"folder {path} holds no prod_vg_hard_negs_<type>_complexity_<n>.csv files."
        )
    return sorted(
        files, key=lambda f: (FILE_RE.search(f.name)["type"], int(FILE_RE.search(f.name)["n"]))
    )


def _int(value: str | None) -> int | None:
    try:
        return int(float(value)) if value not in (None, "") else None
    except ValueError:
        return None


def _read_file(path: Path, drops: DropLog) -> Iterator[PairSample]:
    match = FILE_RE.search(path.name)
    neg_type = match["type"] if match else path.parent.name
    header = csv_header(path)
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise CrepeInputError(
            f"{path} is not a CREPE release CSV: column(s) {', '.join(missing)} missing."
        )
    for index, row in iter_csv_rows(path, drops, STAGE):
        where = f"{path.name} row {index}"
        caption = clean_caption(row.get("caption"), drops, STAGE, where)
        if caption is None:
            continue
        negatives = clean_negatives(
            parse_literal_strings(row.get("hard_negs") or "") or [], drops, STAGE, where
        )
        if not negatives:
            drops.drop(STAGE, "bad_hard_negs", where)
            continue
        try:
            bbox = tuple(float(row[k]) for k in ("x", "y", "width", "height"))
        except (TypeError, ValueError):
            bbox = ()
        if len(bbox) != 4 or not all(math.isfinite(v) for v in bbox) or min(bbox[2:]) <= 0:
            drops.drop(STAGE, "bad_bbox", where)
            continue
        n = _int(row.get("n")) or (int(match["n"]) if match else None)
        meta: dict[str, Any] = {"negative_type": neg_type, "n": n}
        meta.update({c: _int(row.get(c)) for c in COUNT_COLUMNS if c in row})
        if caption in negatives:
            meta["positive_in_negatives"] = True
        image_id = (row.get("image_id") or "").strip() or None
        yield PairSample(
            f"{neg_type}:{n}:{index}",
            caption,
            tuple(negatives),
            image_id,
            f"{image_id}.jpg" if image_id else None,
            bbox,  # type: ignore[arg-type]
            meta,
        )


def read_crepe_release(path: str | Path, drops: DropLog) -> Iterator[PairSample]:
    """Samples of one release CSV or of every release CSV under a folder."""
    files = release_files(Path(path))

    def generate() -> Iterator[PairSample]:
        for f in files:
            yield from _read_file(f, drops)

    return generate()

"""BiVLC: groups of two images and two captions (original and synthetic hard negative).

Two CSV tables are accepted:

* the released text table (``BiVLC_ViT-B-32.csv``: ``caption``, ``negative_caption``, ``type``,
  ``subtype`` and per-model scores; its ``image`` columns hold Python reprs of PIL images, not
  data, and are ignored);
* the generation table (``BiVLC_negative_imgs.csv``): ``filename`` is the COCO image of
  ``caption`` and ``hn_img_0..3`` the generated candidate images for ``negative_caption``. Which
  candidate the annotators kept is not in the table, so ``image_1_file`` stays ``None`` and the
  candidates are listed in ``meta["negative_image_candidates"]``.

``caption`` becomes ``caption_0`` and ``negative_caption`` ``caption_1``; ``type``/``subtype``
go to ``meta``. Ids are the ``index`` column when present, else the 0-based row number.
A folder is accepted when it holds exactly one text table (a BiVLC CSV without ``hn_img_*``).
Dropped rows (stage ``bivlc``): ``invalid_utf8``, ``missing_caption``, ``empty_caption``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption, csv_header, iter_csv_rows
from crepe_datasets.sources.records import GroupSample

STAGE = "bivlc"
REQUIRED = ("caption", "negative_caption")


def _is_file_name(value: str | None) -> bool:
    return bool(value and value.strip() and not value.lstrip().startswith("<"))


def _locate(path: Path) -> Path:
    if path.is_file():
        return path
    if not path.is_dir():
        raise CrepeInputError(f"BiVLC path {path} does not exist; give the CSV file or its folder.")
    tables = [
        f
        for f in sorted(path.glob("*.csv"))
        if set(REQUIRED) <= set(h := csv_header(f)) and "hn_img_0" not in h
    ]
    if len(tables) != 1:
        found = ", ".join(f.name for f in tables) or "none"
        raise CrepeInputError(
            f"folder {path} must hold exactly one BiVLC text table (found: {found}); give the file."
        )
    return tables[0]


def _read(path: Path, drops: DropLog) -> Iterator[GroupSample]:
    for index, row in iter_csv_rows(path, drops, STAGE):
        rid = (row.get("index") or "").strip() or str(index)
        where = f"{path.name} row {index}"
        cap0 = clean_caption(row.get("caption"), drops, STAGE, where)
        cap1 = cap0 and clean_caption(row.get("negative_caption"), drops, STAGE, where)
        if not cap0 or not cap1:
            continue
        meta: dict[str, Any] = {k: row[k].strip() for k in ("type", "subtype") if row.get(k)}
        candidates = [
            row[k].strip()
            for k in sorted(row, key=str)
            if str(k).startswith("hn_img_") and _is_file_name(row[k])
        ]
        if candidates:
            meta["negative_image_candidates"] = candidates
        image_0 = next(
            (row[k].strip() for k in ("filename", "image") if _is_file_name(row.get(k))), None
        )
        image_1 = (
            row["negative_image"].strip() if _is_file_name(row.get("negative_image")) else None
        )
        yield GroupSample(rid, cap0, cap1, image_0, image_1, meta)


def read_bivlc(path: str | Path, drops: DropLog) -> Iterator[GroupSample]:
    """BiVLC groups from a CSV table or a folder holding one (see the module docstring).

    Raises:
        CrepeInputError: the path is missing or the table lacks ``caption``/``negative_caption``.
    """
    table = _locate(Path(path))
    header = csv_header(table)
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise CrepeInputError(
            f"{table} is not a BiVLC table: column(s) {', '.join(missing)} missing (header {header})."
        )
    return _read(table, drops)

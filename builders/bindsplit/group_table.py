"""2 images × 2 captions tables: VisMin's documented columns, and any generic 2×2 table.

VisMin is not in ``../shared/data``; this reader follows its published dataset card
(``mair-lab/vismin-bench``: ``image_0``, ``text_0``, ``image_1``, ``text_1``, ``question_1..4``,
``id``) and also accepts the generic names ``caption_0``/``caption_1`` and
``image_0_file``/``image_1_file``. Image columns are used when they hold a file name (a string)
or a ``datasets.Image`` struct with a ``path``; embedded image bytes are never read.
A ``category``/``type`` column goes to ``meta``.

Accepted inputs: a ``.csv``/``.tsv``/``.parquet``/``.jsonl`` file; a folder of parquet shards
(the Hub layout, read in sorted order); or a folder written by ``datasets.save_to_disk``.
Rows missing a caption are dropped with the reasons of :func:`crepe_datasets.sources._text.clean_caption`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption
from crepe_datasets.sources.records import GroupSample

CAPTION_COLUMNS = (("text_0", "caption_0"), ("text_1", "caption_1"))
IMAGE_COLUMNS = (("image_0_file", "image_0"), ("image_1_file", "image_1"))
ID_COLUMNS = ("id", "sample_id")
META_COLUMNS = ("category", "type", "subtype")


def rows_of_file(path: Path, columns: set[str] | None = None) -> list[dict[str, Any]]:
    """Rows of one ``.csv``/``.tsv``/``.parquet``/``.jsonl`` file (parquet: only ``columns`` when given).

    Raises:
        CrepeInputError: the file is not UTF-8, not a readable table of its kind, or holds a
            row that is not an object (one sentence naming the file and the cause).
    """
    import csv

    import pyarrow as pa

    try:
        rows = _rows_of_file(path, columns)
    except UnicodeDecodeError as err:
        raise CrepeInputError(
            f"{path} is not UTF-8 text (invalid byte at position {err.start:,}); re-encode it."
        ) from None
    except (csv.Error, json.JSONDecodeError, OSError, pa.ArrowException) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise CrepeInputError(f"{path} is not a readable {path.suffix} table ({first}).") from None
    bad = next((i for i, row in enumerate(rows) if not isinstance(row, dict)), None)
    if bad is not None:
        raise CrepeInputError(f"{path} row {bad + 1} is not an object with named columns.")
    return rows


def _rows_of_file(path: Path, columns: set[str] | None) -> list[Any]:
    suffix = path.suffix.lower()
    if suffix in {".csv", ".tsv"}:
        import csv

        csv.field_size_limit(1 << 30)
        with open(path, encoding="utf-8-sig", newline="") as handle:
            return list(csv.DictReader(handle, delimiter="\t" if suffix == ".tsv" else ","))
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        names = pq.read_schema(path).names
        return pq.read_table(
            path, columns=[c for c in names if columns is None or c in columns]
        ).to_pylist()
    if suffix in {".jsonl", ".json"}:
        lines = path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]
    raise CrepeInputError(
        f"{path} is not a table this reader knows; give .csv, .tsv, .parquet or .jsonl."
    )


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """All rows of a 2×2 table file or folder (see the module docstring)."""
    p = Path(path)
    wanted = {c for group in (*CAPTION_COLUMNS, *IMAGE_COLUMNS) for c in group}
    wanted |= set(ID_COLUMNS) | set(META_COLUMNS)
    if p.is_file():
        return rows_of_file(p, wanted)
    if not p.is_dir():
        raise CrepeInputError(f"2x2 table {p} does not exist; give a table file or its folder.")
    if (p / "dataset_dict.json").is_file() or (p / "dataset_info.json").is_file():
        from datasets import DatasetDict, load_from_disk

        data = load_from_disk(str(p))
        if isinstance(data, DatasetDict):
            data = data["test"] if "test" in data else data[sorted(data)[0]]
        keep = [c for c in data.column_names if not c.startswith("image")]
        return data.select_columns(keep).to_list()
    shards = sorted(p.rglob("*.parquet"))
    if not shards:
        raise CrepeInputError(
            f"folder {p} holds no parquet shards and no datasets.save_to_disk output."
        )
    return [row for shard in shards for row in rows_of_file(shard, wanted)]


def _first(row: dict[str, Any], names: tuple[str, ...]) -> Any:
    return next((row[n] for n in names if row.get(n) not in (None, "")), None)


def _file(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("path")
    return value.strip() if isinstance(value, str) and value.strip() else None


def read_group_table(
    path: str | Path, drops: DropLog, stage: str = "group_table"
) -> Iterator[GroupSample]:
    """Groups of a VisMin-style or generic 2×2 table.

    Raises:
        CrepeInputError: the path is missing, or no row has the two caption columns.
    """
    rows = read_rows(path)
    if rows and not any(_first(r, CAPTION_COLUMNS[0]) is not None for r in rows[:100]):
        names = " or ".join("/".join(c) for c in CAPTION_COLUMNS)
        raise CrepeInputError(
            f"{path} has no caption columns: expected {names} (found {sorted(str(k) for k in rows[0])})."
        )

    def generate() -> Iterator[GroupSample]:
        for index, row in enumerate(rows):
            where = f"{Path(path).name} row {index}"
            cap0 = clean_caption(_first(row, CAPTION_COLUMNS[0]), drops, stage, where)
            cap1 = cap0 and clean_caption(_first(row, CAPTION_COLUMNS[1]), drops, stage, where)
            if not cap0 or not cap1:
                continue
            rid = _first(row, ID_COLUMNS)
            meta = {k: str(row[k]) for k in META_COLUMNS if row.get(k) not in (None, "")}
            yield GroupSample(
                str(index if rid is None else rid),
                cap0,
                cap1,
                _file(_first(row, IMAGE_COLUMNS[0])),
                _file(_first(row, IMAGE_COLUMNS[1])),
                meta,
            )

    return generate()

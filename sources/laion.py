"""LAION-style parquet shards: one or many files, read in record batches (never a whole file).

The location of a ``laion:`` spec is a file, a folder (every ``*.parquet`` in it) or a glob
(``shards/part-*.parquet``), resolved in sorted order. The caption column is chosen by name with
``#column`` (``laion:shards/*.parquet#caption``); by default ``TEXT`` then ``caption``. A ``URL``
or ``url`` column, when present, becomes ``image_id``.

Values are read as bytes and decoded here, so that invalid UTF-8 is counted (``invalid_utf8``)
instead of failing the whole batch. Record ids are ``<file stem>:<row>``.
Dropped rows (stage ``laion``): ``invalid_utf8``, ``missing_caption``, ``not_a_string``,
``empty_caption``.
"""

from __future__ import annotations

import glob
from collections.abc import Iterator
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption
from crepe_datasets.sources.records import CaptionRecord
from crepe_datasets.sources.registry import register_corpus

STAGE = "laion"
DEFAULT_COLUMNS = ("TEXT", "caption")
URL_COLUMNS = ("URL", "url")
BATCH_ROWS = 16_384


def parquet_files(location: str) -> list[Path]:
    """The parquet files of a file, folder or glob, sorted; an error when there are none."""
    p = Path(location).expanduser()
    if p.is_file():
        return [p]
    if p.is_dir():
        files = sorted(f for f in p.glob("*.parquet") if f.is_file())
        where = f"folder {p} has no *.parquet files"
    else:
        files = sorted(Path(f) for f in glob.glob(str(p), recursive=True) if Path(f).is_file())
        where = f"{location} matches no file"
    if not files:
        raise CrepeInputError(f"LAION corpus {where}; check the path or glob.")
    return files


def _decode(value: object, drops: DropLog, where: str) -> object:
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            drops.drop(STAGE, "invalid_utf8", where)
            return _INVALID
    return value


_INVALID = object()


def read_laion_parquet(
    path: str | Path, drops: DropLog, column: str | None = None
) -> Iterator[CaptionRecord]:
    """Stream the captions of one parquet file, batch by batch.

    Raises:
        CrepeInputError: the file is not parquet, or has no caption column of that name.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = Path(path)
    try:
        pf = pq.ParquetFile(p)
    except (OSError, pa.ArrowException) as err:
        why = " ".join(str(err).split())[:200]
        raise CrepeInputError(f"{p} is not a readable parquet file ({why}).") from None
    names = pf.schema_arrow.names
    wanted = (column,) if column else DEFAULT_COLUMNS
    caption_col = next((c for c in wanted if c in names), None)
    if caption_col is None:
        raise CrepeInputError(
            f"{p} has no caption column {' or '.join(wanted)}; its columns are {names}; "
            "choose one with laion:PATH#column."
        )
    kind = pf.schema_arrow.field(caption_col).type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    textual = (pa.types.is_string, pa.types.is_large_string, pa.types.is_binary,
               pa.types.is_large_binary, pa.types.is_null)  # fmt: skip
    if not any(check(kind) for check in textual):
        raise CrepeInputError(
            f"column {caption_col} of {p} holds {kind} values, not text; choose the caption "
            f"column with laion:PATH#column (its columns are {names})."
        )
    url_col = next((c for c in URL_COLUMNS if c in names), None)
    columns = [caption_col] + ([url_col] if url_col else [])
    source = f"laion:{p.name}"
    row = 0
    try:
        for batch in pf.iter_batches(batch_size=BATCH_ROWS, columns=columns):
            texts = batch.column(0)
            if pa.types.is_string(texts.type) or pa.types.is_large_string(texts.type):
                texts = texts.cast(pa.binary())
            urls = _urls(batch.column(1)) if url_col else [None] * batch.num_rows
            for value, url in zip(texts.to_pylist(), urls, strict=True):
                where = f"{p.name} row {row}"
                text = _decode(value, drops, where)
                if text is not _INVALID:
                    text = clean_caption(text, drops, STAGE, where)
                    if text is not None:
                        yield CaptionRecord(
                            text, f"{p.stem}:{row}", str(url) if url else None, source
                        )
                row += 1
    except (OSError, pa.ArrowException) as err:
        why = " ".join(str(err).split())[:200]
        raise CrepeInputError(f"{p} could not be read after row {row:,} ({why}).") from None


def _urls(column: object) -> list[str | None]:
    """The URL column as text; a URL that is not valid UTF-8 (or not text) becomes ``None``."""
    import pyarrow as pa

    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):  # type: ignore[attr-defined]
        column = column.cast(pa.binary())  # type: ignore[attr-defined]
    out: list[str | None] = []
    for value in column.to_pylist():  # type: ignore[attr-defined]
        if isinstance(value, bytes):
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError:
                value = None
        out.append(value if isinstance(value, str) and value.isprintable() else None)
    return out


@register_corpus(
    "laion", parquet_files, "LAION-style parquet, laion:GLOB[#column]", option="column"
)
def _read(files: list[Path], drops: DropLog, option: str | None) -> Iterator[CaptionRecord]:
    for f in files:
        yield from read_laion_parquet(f, drops, option)

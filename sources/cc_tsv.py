"""Conceptual Captions-style TSV: ``caption<TAB>url`` per line, with or without a header row.

A header is recognised when the first line has no field starting with ``http`` and one of its
fields is a known caption column name (``caption``, ``text``, ``title`` …); the caption and URL
columns are then taken by name, otherwise the caption is column 0 and the URL column 1.
Fields are split on tabs only (no quoting: CC3M captions contain bare quotes).

Record ids are the 0-based data row numbers (the header is not a row); ``image_id`` is the URL.
Dropped rows (stage ``cc``): ``invalid_utf8``, ``missing_column``, ``empty_caption``,
``caption_is_url`` (the caption column holds a bare URL: the columns are swapped or the
header is missing), and the input-hygiene reasons of
:func:`~crepe_datasets.sources._text.clean_caption`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption, iter_decoded_lines
from crepe_datasets.sources.records import CaptionRecord
from crepe_datasets.sources.registry import register_corpus, single_file

STAGE = "cc"
CAPTION_COLUMNS = ("caption", "text", "title", "alt", "alt_text", "description")
URL_COLUMNS = ("url", "image_url", "img_url", "link", "image")


def detect_header(fields: list[str]) -> tuple[int, int | None] | None:
    """``(caption_column, url_column)`` when ``fields`` is a header row, else ``None``."""
    names = [f.strip().lower() for f in fields]
    if any(n.startswith("http") for n in names):
        return None
    caption = next((names.index(c) for c in CAPTION_COLUMNS if c in names), None)
    if caption is None:
        return None
    url = next((names.index(c) for c in URL_COLUMNS if c in names), None)
    return caption, url


def read_cc_tsv(path: str | Path, drops: DropLog) -> Iterator[CaptionRecord]:
    """Stream the captions of one CC-style TSV file (see the module docstring)."""
    p = single_file(str(path))[0]
    source = f"cc:{p.name}"
    caption_col, url_col = 0, 1
    header_lines = 0
    for number, line in iter_decoded_lines(p, drops, STAGE):
        fields = line.split("\t")
        if number == 1:
            header = detect_header(fields)
            if header is not None:
                caption_col, url_col = header
                header_lines = 1
                continue
        row = number - 1 - header_lines
        where = f"{p.name}:{number}"
        if caption_col >= len(fields):
            drops.drop(STAGE, "missing_column", where)
            continue
        text = clean_caption(fields[caption_col], drops, STAGE, where)
        if text is None:
            continue
        if " " not in text and text.lower().startswith(("http://", "https://", "www.")):
            drops.drop(STAGE, "caption_is_url", where)
            continue
        url = fields[url_col].strip() if url_col is not None and url_col < len(fields) else ""
        yield CaptionRecord(text, str(row), url or None, source)


@register_corpus("cc", single_file, "CC-style TSV caption<TAB>url, cc:PATH")
def _read(files: list[Path], drops: DropLog, option: str | None) -> Iterator[CaptionRecord]:
    for f in files:
        yield from read_cc_tsv(f, drops)

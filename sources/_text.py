"""Shared checks of the caption readers: decoding lines and validating caption values.

Invalid UTF-8 policy: a line (or row) whose bytes are not valid UTF-8 is **dropped** and counted
with reason ``invalid_utf8``; it is never repaired with replacement characters, because a
mangled caption would later parse into wrong atoms.

Every caption value then passes the shared input hygiene of
:mod:`crepe_datasets.infra.hygiene` (control and invisible characters removed and counted as
repairs; U+FFFD, lone surrogates and captions over ``MAX_TEXT_CHARS`` characters dropped).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.infra.hygiene import clean_text
from crepe_datasets.infra.provenance import DropLog


def clean_caption(value: Any, drops: DropLog, stage: str, where: str) -> str | None:
    """The stripped caption, or ``None`` after counting why it is unusable.

    Reasons: ``missing_caption`` (``None``), ``not_a_string``, ``empty_caption``, ``no_letters``
    (a number or an id read as the caption: usually the wrong column), and those of
    :func:`crepe_datasets.infra.hygiene.clean_text` (``invalid_utf8``, ``text_too_long``,
    ``empty_after_cleaning``; ``control_chars`` / ``invisible_chars`` repairs).
    """
    if value is None:
        drops.drop(stage, "missing_caption", where)
        return None
    if not isinstance(value, str):
        drops.drop(stage, "not_a_string", f"{where}: {value!r}")
        return None
    text = value.strip()
    if not text:
        drops.drop(stage, "empty_caption", where)
        return None
    if not has_letter(text):
        drops.drop(stage, "no_letters", f"{where}: {text[:40]!r}")
        return None
    return clean_text(text, drops, stage, where)


def clean_negatives(values: list[str], drops: DropLog, stage: str, where: str) -> list[str]:
    """Hard-negative captions through the same hygiene as captions; unusable ones counted, left out."""
    out = []
    for value in values:
        text = value.strip()
        if text:
            text = clean_text(text, drops, stage, f"{where} negative")
            if text is not None:
                out.append(text)
    return out


_LETTER = re.compile(r"[^\W\d_]")


def has_letter(text: str) -> bool:
    """Whether ``text`` holds at least one letter (any script)."""
    return _LETTER.search(text) is not None


def iter_decoded_lines(path: Path, drops: DropLog, stage: str) -> Iterator[tuple[int, str]]:
    """``(line_number, text)`` for every line of a file, read as bytes and decoded as UTF-8.

    Line numbers start at 1. The trailing newline (``\\n`` or ``\\r\\n``) is removed. Lines that
    are not valid UTF-8 are dropped with reason ``invalid_utf8``. A UTF-8 byte-order mark on
    the first line is removed.
    """
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                drops.drop(stage, "invalid_utf8", f"{path.name}:{number}")
                continue
            yield number, line.rstrip("\r\n")


def iter_csv_rows(
    path: Path, drops: DropLog, stage: str, delimiter: str = ","
) -> Iterator[tuple[int, dict[str, str]]]:
    """``(row_index, row)`` for each data row of a CSV file with a header (0-based index).

    The file is decoded with ``surrogateescape`` so that one bad row does not stop the file:
    rows holding bytes that are not UTF-8 are dropped with reason ``invalid_utf8``.
    """
    import csv

    csv.field_size_limit(1 << 30)
    with open(path, encoding="utf-8-sig", errors="surrogateescape", newline="") as handle:
        for index, row in enumerate(csv.DictReader(handle, delimiter=delimiter)):
            if any(_has_surrogates(v) for v in row.values() if isinstance(v, str)):
                drops.drop(stage, "invalid_utf8", f"{path.name} row {index}")
                continue
            yield index, row


def csv_header(path: Path, delimiter: str = ",") -> list[str]:
    """The header row of a CSV file (empty for an empty file)."""
    import csv

    with open(path, encoding="utf-8-sig", errors="replace", newline="") as handle:
        return next(csv.reader(handle, delimiter=delimiter), [])


_SURROGATE = re.compile("[\udc80-\udcff]")


def _has_surrogates(text: str) -> bool:
    return _SURROGATE.search(text) is not None

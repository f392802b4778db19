"""Plain-text corpora: one caption per line.

Record ids are the 1-based line numbers. Every line is a record, so blank lines are counted
as ``empty_caption``; undecodable lines as ``invalid_utf8`` (stage ``text``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption, iter_decoded_lines
from crepe_datasets.sources.records import CaptionRecord
from crepe_datasets.sources.registry import register_corpus, single_file

STAGE = "text"


def read_text_lines(path: str | Path, drops: DropLog) -> Iterator[CaptionRecord]:
    """Stream one caption per line of a UTF-8 text file."""
    p = single_file(str(path))[0]
    source = f"text:{p.name}"
    for number, line in iter_decoded_lines(p, drops, STAGE):
        text = clean_caption(line, drops, STAGE, f"{p.name}:{number}")
        if text is not None:
            yield CaptionRecord(text, str(number), None, source)


@register_corpus("text", single_file, "one caption per line, text:PATH")
def _read(files: list[Path], drops: DropLog, option: str | None) -> Iterator[CaptionRecord]:
    for f in files:
        yield from read_text_lines(f, drops)

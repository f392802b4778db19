"""JSON Lines corpora: one JSON object per line, the caption in a chosen field.

The field is chosen with ``#field`` (``jsonl:captions.jsonl#sentence``); by default ``caption``
then ``text`` (the first present on each line). Optional ``id`` and ``image_id`` fields are
kept; otherwise the id is the 1-based line number. Blank lines are skipped silently (they hold
no record).
Dropped lines (stage ``jsonl``): ``invalid_utf8``, ``invalid_json``, ``not_an_object``,
``missing_caption``, ``not_a_string``, ``empty_caption``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption, iter_decoded_lines
from crepe_datasets.sources.records import CaptionRecord
from crepe_datasets.sources.registry import register_corpus, single_file

STAGE = "jsonl"
DEFAULT_FIELDS = ("caption", "text")


def read_jsonl(
    path: str | Path, drops: DropLog, field: str | None = None
) -> Iterator[CaptionRecord]:
    """Stream the captions of one JSONL file (see the module docstring)."""
    p = single_file(str(path))[0]
    fields = (field,) if field else DEFAULT_FIELDS
    source = f"jsonl:{p.name}"
    for number, line in iter_decoded_lines(p, drops, STAGE):
        if not line.strip():
            continue
        where = f"{p.name}:{number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            drops.drop(STAGE, "invalid_json", where)
            continue
        if not isinstance(obj, dict):
            drops.drop(STAGE, "not_an_object", where)
            continue
        value = next((obj[f] for f in fields if f in obj), None)
        text = clean_caption(value, drops, STAGE, where)
        if text is None:
            continue
        rec_id = obj.get("id", number)
        image_id = obj.get("image_id")
        yield CaptionRecord(text, str(rec_id), None if image_id is None else str(image_id), source)


@register_corpus("jsonl", single_file, "JSON Lines, jsonl:PATH[#field]", option="field")
def _read(files: list[Path], drops: DropLog, option: str | None) -> Iterator[CaptionRecord]:
    for f in files:
        yield from read_jsonl(f, drops, option)

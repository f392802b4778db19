"""The text-hygiene invariant: no control or invisible character in any text column.

Every reader cleans its text (:mod:`crepe_datasets.infra.hygiene`); this check is the
guard at the other end, applied to every string (and every string inside a list) of every row
of a built dataset, so that a bad character can never reach published data, whatever path it
took. Violations are counted per config as ``text_control_chars``, ``text_invisible_chars``
or ``text_invalid_utf8``; the example names the column and shows the text with escapes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from crepe_datasets.infra.hygiene import unclean_reason


class _Report(Protocol):
    def fail(self, config: str, check: str, example: str) -> None: ...


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def text_problems(row: Mapping[str, Any]) -> Iterator[tuple[str, str, str]]:
    """``(column, reason, text)`` for each text of ``row`` that hygiene would have changed."""
    for column, value in row.items():
        for text in _strings(value):
            reason = unclean_reason(text)
            if reason is not None:
                yield column, reason, text


def check_text_columns(config: str, row: Mapping[str, Any], report: _Report) -> None:
    """Count one violation per (row, reason) found in any text column of ``row``."""
    found: dict[str, str] = {}
    for column, reason, text in text_problems(row):
        found.setdefault(reason, f"column {column}: {text[:120]!r}")
    for reason, example in found.items():
        report.fail(config, f"text_{reason}", example)

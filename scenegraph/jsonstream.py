"""Reading JSON inputs: streamed with ijson for large lists, loaded whole for small files.

Both paths turn every way a file can be broken (missing, truncated, invalid UTF-8, not JSON,
the wrong top-level shape) into one :class:`~scenegraph.errors.CrepeInputError` that names the
file and the byte position, instead of a traceback.

``ijson`` picks its fastest backend by itself (``yajl2_c`` when the C extension is built); the
name is exposed as :data:`BACKEND` so that benchmarks can report it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ijson

from scenegraph.errors import CrepeInputError

BACKEND: str = ijson.backend
_SNIFF_BYTES = 4096


def require_file(path: str | os.PathLike, what: str = "input file") -> Path:
    """``path`` as a :class:`Path`, or a :class:`CrepeInputError` when it is not a file."""
    p = Path(path)
    if not p.is_file():
        hint = "it is a folder" if p.is_dir() else "it does not exist"
        raise CrepeInputError(f"{what} {p} cannot be read: {hint}; check the path.")
    return p


def first_json_char(path: Path) -> str:
    """The first non-whitespace character of a file ('' for an empty file)."""
    with open(path, "rb") as handle:
        head = handle.read(_SNIFF_BYTES).lstrip(b" \t\r\n\xef\xbb\xbf")
    return head[:1].decode("latin-1")


def _error_text(err: Exception) -> str:
    text = err.args[0] if err.args else str(err)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return str(text).strip().splitlines()[0] if str(text).strip() else type(err).__name__


def iter_json_items(path: str | os.PathLike, prefix: str = "item") -> Iterator[Any]:
    """Stream the items under ``prefix`` of a JSON file (``"item"``: elements of a top-level list).

    Memory stays bounded by the largest single item, not by the file. Numbers with a fraction
    come back as ``float``.

    Raises:
        CrepeInputError: the file is missing, empty, truncated or not valid JSON, or (for the
            default prefix) its top level is not a list.
    """
    p = require_file(path)
    first = first_json_char(p)
    if prefix == "item" and first != "[":
        found = "an empty file" if not first else f"{first!r}"
        raise CrepeInputError(f"{p} must hold a JSON list (starting with '['), found {found}.")
    with open(p, "rb") as handle:
        try:
            yield from ijson.items(handle, prefix, use_float=True)
        except ijson.JSONError as err:
            raise CrepeInputError(
                f"{p} is not valid JSON near byte {handle.tell():,} of {p.stat().st_size:,} "
                f"({_error_text(err)}); the file may be truncated or corrupt, download it again."
            ) from None


def load_json(path: str | os.PathLike) -> Any:
    """Load a small JSON file whole, with a one-sentence error for broken files."""
    p = require_file(path)
    try:
        with open(p, encoding="utf-8") as handle:
            return json.load(handle)
    except UnicodeDecodeError as err:
        raise CrepeInputError(
            f"{p} is not UTF-8 (invalid byte at position {err.start:,}); re-encode it as UTF-8."
        ) from None
    except json.JSONDecodeError as err:
        raise CrepeInputError(
            f"{p} is not valid JSON at line {err.lineno}, column {err.colno} ({err.msg}); "
            "the file may be truncated or corrupt, download it again."
        ) from None

"""Reading JSON inputs: streamed for large files, loaded whole for small ones.

Two streaming engines, both with memory bounded by one record (plus a read buffer):

* ``"stdlib"`` (default for top-level lists, ``prefix="item"``): reads 1 MiB chunks, decodes
  UTF-8 incrementally and cuts the list into elements with ``json.JSONDecoder.raw_decode``
  (C-accelerated). On the Visual Genome sample it parses about 1.7× faster than ijson's C backend.
* ``"ijson"``: ``ijson.items(f, prefix)`` with ijson's fastest available backend (``yajl2_c``
  when built, see :data:`IJSON_BACKEND`); used for nested prefixes such as COCO's
  ``annotations.item`` and on request.

Every way a file can be broken (missing, truncated, invalid UTF-8, not JSON, the wrong top-level
shape) becomes one :class:`~crepe_datasets.infra.errors.CrepeInputError` naming the file and the position,
instead of a traceback.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ijson

from crepe_datasets.infra.errors import CrepeInputError

IJSON_BACKEND: str = ijson.backend
BACKEND = IJSON_BACKEND  # kept for callers that report "the" backend
ENGINES = ("stdlib", "ijson")
CHUNK_CHARS = 1 << 20
_SNIFF_BYTES = 4096
_WS = " \t\r\n"
_DECODER = json.JSONDecoder()


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
        head = handle.read(_SNIFF_BYTES).lstrip(b" \t\r\n").removeprefix(b"\xef\xbb\xbf")
    return head.lstrip(b" \t\r\n")[:1].decode("latin-1")


def _broken(path: Path, where: str, why: str) -> CrepeInputError:
    return CrepeInputError(
        f"{path} is not valid JSON near {where} of {path.stat().st_size:,} bytes ({why}); "
        "the file may be truncated or corrupt, download it again."
    )


def _incomplete(err: json.JSONDecodeError, length: int) -> bool:
    """Whether a decode error may only mean that the buffer ends inside the element."""
    return err.pos >= length - 8 or err.msg.startswith("Unterminated string")


class _ArrayReader:
    """Cuts a top-level JSON list into its elements, chunk by chunk (engine ``"stdlib"``)."""

    def __init__(self, path: Path, handle: Any) -> None:
        self.path, self.handle = path, handle
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.buf, self.pos, self.dropped, self.bytes_read, self.eof = "", 0, 0, 0, False

    def more(self, chars: int) -> None:
        data = self.handle.read(chars)
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as err:
            raise _broken(
                self.path, f"byte {self.bytes_read + err.start:,}", "invalid UTF-8"
            ) from None
        self.bytes_read += len(data)
        self.eof = not data
        self.dropped += self.pos
        self.buf, self.pos = self.buf[self.pos :] + text, 0

    def skip_ws(self) -> str:
        """The next non-whitespace character ('' at the end of the file)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _WS:
                self.pos += 1
            if self.pos < len(self.buf) or self.eof:
                return self.buf[self.pos : self.pos + 1]
            self.more(CHUNK_CHARS)

    def where(self, pos: int) -> str:
        return f"character {self.dropped + pos:,}"

    def items(self) -> Iterator[Any]:
        if self.skip_ws() == "\ufeff":
            self.pos += 1
        if self.skip_ws() != "[":
            raise CrepeInputError(f"{self.path} must hold a JSON list (starting with '[').")
        self.pos += 1
        first = True
        while True:
            c = self.skip_ws()
            if c == "]":
                self.pos += 1
                if self.skip_ws():
                    raise _broken(self.path, self.where(self.pos), "content after the closing ']'")
                return
            if not first:
                if c != ",":
                    raise _broken(
                        self.path, self.where(self.pos), f"expected ',' or ']', found {c!r}"
                    )
                self.pos += 1
                self.skip_ws()
            first = False
            yield self.element()

    def element(self) -> Any:
        chunk = CHUNK_CHARS
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as err:
                if self.eof or not _incomplete(err, len(self.buf)):
                    raise _broken(self.path, self.where(err.pos), err.msg) from None
                self.more(chunk)
                chunk *= 2  # an element larger than the buffer: grow geometrically
                continue
            if (
                not self.eof
                and len(self.buf) - end < 64
                and isinstance(value, (int, float))
                and not isinstance(value, bool)
            ):
                self.more(chunk)  # a bare number ("1" of "1e+20") may go on in the next chunk
                continue
            self.pos = end
            return value


def iter_json_items(
    path: str | os.PathLike, prefix: str = "item", engine: str | None = None
) -> Iterator[Any]:
    """Stream the items under ``prefix`` of a JSON file (``"item"``: elements of a top-level list).

    Memory stays bounded by the largest single item, not by the file. Numbers with a fraction
    come back as ``float``. Nested prefixes always use ijson. ``engine`` defaults to the
    ``CREPE_JSON_ENGINE`` environment variable, else ``"stdlib"``.

    Raises:
        CrepeInputError: the file is missing, empty, truncated or not valid JSON, or (for the
            default prefix) its top level is not a list.
    """
    engine = engine or os.environ.get("CREPE_JSON_ENGINE") or "stdlib"
    if engine not in ENGINES:
        raise ValueError(f"unknown JSON engine {engine!r}; choose one of {ENGINES}")
    p = require_file(path)
    first = first_json_char(p)
    if prefix == "item" and first != "[":
        found = "an empty file" if not first else f"{first!r}"
        raise CrepeInputError(f"{p} must hold a JSON list (starting with '['), found {found}.")
    with open(p, "rb") as handle:
        if prefix == "item" and engine == "stdlib":
            yield from _ArrayReader(p, handle).items()
            return
        try:
            yield from ijson.items(handle, prefix, use_float=True)
        except ijson.JSONError as err:
            text = err.args[0] if err.args else str(err)
            text = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
            raise _broken(p, f"byte {handle.tell():,}", text.strip().splitlines()[0]) from None


def load_json(path: str | os.PathLike) -> Any:
    """Load a small JSON file whole, with a one-sentence error for broken files."""
    p = require_file(path)
    try:
        with open(p, encoding="utf-8-sig") as handle:
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

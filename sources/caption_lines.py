"""The input of ``crepe parse``: a UTF-8 text file, one caption per line, every line accounted for.

Unlike the ``text:`` corpus reader (:mod:`crepe_datasets.sources.text`), a blank line is
kept (as an empty caption, so that the output can be matched to the input by line number) and a
line too long for the parser is cut, not dropped: the parser reads the first
:data:`PARSE_MAX_CHARS` characters, cut at a word. Everything else follows the shared rules:

* a file whose first 8 KiB are more than 10% undecodable bytes and control characters (NUL …)
  is refused as binary (or UTF-16) before reading; a few bad lines in a text file are not;
* lines that are not UTF-8 are dropped (``invalid_utf8``), never decoded to U+FFFD;
* control and invisible characters are removed (:mod:`crepe_datasets.infra.hygiene`);
  lines left empty by that are dropped (``empty_after_cleaning``);
* cut lines are counted as the repair ``truncated``.

A file with no usable line is a :class:`CrepeInputError` naming the cause.
"""

from __future__ import annotations

from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.explain import explain_drops
from crepe_datasets.infra.hygiene import clean_text
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import iter_decoded_lines

STAGE = "parse"
#: Characters of one line that the parser reads (longer lines are cut at a word and counted).
PARSE_MAX_CHARS = 1_200
_SNIFF = 8192


_BINARY_SHARE = 0.10


def looks_binary(path: Path) -> bool:
    """Whether the file's first 8 KiB are mostly not text (a binary file, or UTF-16 text).

    Counts the characters that are U+FFFD (undecodable bytes) or control characters other than
    tab, CR and LF; more than 10% of them means binary.
    """
    with open(path, "rb") as handle:
        head = handle.read(_SNIFF).decode("utf-8", errors="replace")
    if not head:
        return False
    bad = sum(1 for ch in head if ch == "\ufffd" or (ch < " " and ch not in "\t\r\n"))
    return bad / len(head) > _BINARY_SHARE


def cut_at_word(text: str, max_chars: int) -> str:
    """``text`` cut to at most ``max_chars`` characters, at the last space when there is one."""
    cut = text[:max_chars]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut


def read_caption_lines(
    path: str | Path, drops: DropLog, max_chars: int = PARSE_MAX_CHARS
) -> list[tuple[int, str]]:
    """``(line_number, caption)`` for every usable line of ``path`` (see the module docstring).

    Raises:
        CrepeInputError: the path is not a file, is binary, is empty, or has no usable line.
    """
    p = Path(path)
    if not p.is_file():
        what = "is a folder" if p.is_dir() else "does not exist"
        raise CrepeInputError(f"input file {p} {what}; pass a text file with one caption per line.")
    if looks_binary(p):
        raise CrepeInputError(
            f"{p} looks like a binary file (mostly undecodable bytes and NULs), not UTF-8 text with one caption "
            "per line; if it is UTF-16 text, re-encode it as UTF-8."
        )
    out: list[tuple[int, str]] = []
    for number, line in iter_decoded_lines(p, drops, STAGE):
        where = f"{p.name}:{number}"
        text = line.strip()
        if text:
            text = clean_text(text, drops, STAGE, where, max_chars=None)
            if text is None:
                continue
            if len(text) > max_chars:
                drops.repair(STAGE, "truncated")
                text = cut_at_word(text, max_chars)
        out.append((number, text))
    if not any(text for _, text in out):
        if not out and not drops.counts:
            raise CrepeInputError(f"{p} is empty; give a text file with one caption per line.")
        raise CrepeInputError(f"{p} holds no usable caption; {explain_drops(drops)}.")
    return out

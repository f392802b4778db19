"""Input hygiene: one shared step for every piece of text that enters the toolkit.

Visual Genome names and phrases, corpus and benchmark captions and the lines of ``crepe parse``
all pass through :func:`clean_text` before anything else reads them, so that no control or
invisible character can reach a parsed graph, a seen table or a published dataset:

=======================  ====================================================  ===============
reason                   characters                                            action
=======================  ====================================================  ===============
``invalid_utf8``         U+FFFD (a decoder replaced bytes that were not        drop the record
                         UTF-8) and lone surrogates (``surrogateescape``)
``control_chars``        C0/C1 controls other than tab, CR, LF and the other   removed; repair
                         whitespace controls (NUL, BEL, ESC, DEL …)
``invisible_chars``      format characters (zero-width space and joiners,      removed; repair
                         soft hyphen, BOM, bidi marks), private-use
                         characters and non-characters
(not counted)            tab, CR, LF, no-break and other Unicode spaces,       one plain space
                         line/paragraph separators
``text_too_long``        longer than ``max_chars`` after cleaning               drop the record
``empty_after_cleaning`` nothing left once the characters above are gone       drop the record
=======================  ====================================================  ===============

Controls are removed rather than turned into spaces: a NUL inside a word is corruption (text
written as UTF-16 and read as UTF-8 has a NUL after every letter), and removing it gives the
word back. Repairs are counted with :meth:`DropLog.repair` (the record is kept), drops with
:meth:`DropLog.drop`. Clean text (``str.isprintable()``, checked in C) takes a fast path that
costs one scan and allocates nothing. :func:`unclean_reason` is the matching test that the
dataset invariants apply to every text column.
"""

from __future__ import annotations

import unicodedata

from crepe_datasets.infra.provenance import DropLog

#: Longest text accepted from any reader (spaCy refuses ~1,000,000; no caption is this long).
MAX_TEXT_CHARS = 10_000
_WHITESPACE_CONTROLS = frozenset("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85")
_INVALID = "\ufffd"


def _is_noncharacter(ch: str) -> bool:
    cp = ord(ch)
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def char_class(ch: str) -> str | None:
    """What hygiene does with one character: ``None`` (keep) or one of the reasons / ``"space"``."""
    if ch == _INVALID:
        return "invalid_utf8"
    cat = unicodedata.category(ch)
    if cat == "Cs":
        return "invalid_utf8"
    if cat == "Cc":
        return "space" if ch in _WHITESPACE_CONTROLS else "control_chars"
    if cat in ("Cf", "Co") or _is_noncharacter(ch):
        return "invisible_chars"
    if cat in ("Zs", "Zl", "Zp"):
        return "space"
    return None


def scrub(text: str) -> tuple[str | None, str | None, frozenset[str]]:
    """``(clean_text, drop_reason, repairs)`` of one text; no counting (see :func:`clean_text`).

    ``clean_text`` is ``None`` exactly when ``drop_reason`` is set. Whitespace is collapsed
    only when something was replaced.
    """
    if text.isprintable() and _INVALID not in text:
        return text, None, frozenset()
    out: list[str] = []
    repairs: set[str] = set()
    for ch in text:
        kind = char_class(ch) if not ch.isprintable() or ch == _INVALID else None
        if kind is None:
            out.append(ch)
        elif kind == "invalid_utf8":
            return None, "invalid_utf8", frozenset()
        elif kind in ("invisible_chars", "control_chars"):
            repairs.add(kind)
        else:
            out.append(" ")
    cleaned = " ".join("".join(out).split())
    if not cleaned and text.strip():
        return None, "empty_after_cleaning", frozenset(repairs)
    # Keep the caller's own stripping rules: only collapse what hygiene touched.
    return cleaned, None, frozenset(repairs)


def clean_text(
    text: str,
    drops: DropLog,
    stage: str,
    where: str,
    max_chars: int | None = MAX_TEXT_CHARS,
) -> str | None:
    """``text`` without control and invisible characters, or ``None`` once its drop is counted.

    Args:
        text: One name, phrase or caption as read.
        drops: Receives ``invalid_utf8``, ``empty_after_cleaning`` and ``text_too_long`` drops
            and ``control_chars`` / ``invisible_chars`` repairs (see the module table).
        stage: The reader's drop-log stage (``coco``, ``vg_scene_graphs`` …).
        where: The record, for the drop's example (file and line or id).
        max_chars: Longest text kept; ``None`` for no limit.
    """
    if text.isprintable() and _INVALID not in text:  # the common case: nothing to clean
        if max_chars is None or len(text) <= max_chars:
            return text
        cleaned, reason, repairs = text, None, frozenset()
    else:
        cleaned, reason, repairs = scrub(text)
    for repair in sorted(repairs):
        drops.repair(stage, repair)
    if reason is not None:
        drops.drop(stage, reason, f"{where}: {text[:60]!r}")
        return None
    if max_chars is not None and len(cleaned) > max_chars:  # type: ignore[arg-type]
        drops.drop(stage, "text_too_long", f"{where}: {len(cleaned):,} characters")  # type: ignore[arg-type]
        return None
    return cleaned


def unclean_reason(text: str) -> str | None:
    """Why ``text`` may not appear in a published dataset, or ``None`` when it is clean.

    Fails on exactly what :func:`clean_text` removes or drops, except plain spaces; a tab or a
    newline inside a published text also fails (``control_chars``).
    """
    if text.isprintable() and _INVALID not in text:
        return None
    for ch in text:
        if ch.isprintable() and ch != _INVALID:
            continue
        kind = char_class(ch)
        if kind == "space" and unicodedata.category(ch) == "Cc":
            return "control_chars"
        if kind is not None and kind != "space":
            return kind
    return None

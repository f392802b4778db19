"""Robustness of corpus parsing: what happens to odd captions before the parser sees them.

Web captions carry markup, emoji, broken bytes, other languages and pages of text. None of
them may crash a run, and every one is counted (manifest ``cleaning`` and ``drops``):

==================  ==========================================================  ==========
reason              test                                                        action
==================  ==========================================================  ==========
``invalid_utf8``    lone surrogates (bytes that were not UTF-8, decoded with    drop
                    ``surrogateescape``) or U+FFFD replacement characters
``html``            tags (``<b>``, ``<br/>``) or entities (``&amp;``)           strip, keep
``emoji``           characters of the emoji / pictograph blocks                 remove, keep
``empty``           nothing left after cleaning (or fewer than 2 letters)       drop
``non_english``     under 60% of the letters are ASCII, or at least two         drop
                    function words of another language (der, und, les, los..)
``truncated``       longer than ``max_chars`` characters                        cut at a word
==================  ==========================================================  ==========
"""

from __future__ import annotations

import html
import re
from collections import Counter

from crepe_datasets.infra.provenance import DropLog

STAGE = "seen_tables"
MAX_CHARS = 300
TAG = re.compile(r"<[^<>]{1,200}>")
ENTITY = re.compile(r"&(#\d{1,6}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});")
EMOJI = re.compile(
    "[\U0001f000-\U0001faff\U00002600-\U000027bf\U0001f1e6-\U0001f1ff\U0000fe0f\U0000200d"
    "\U00002b00-\U00002bff\U0001f900-\U0001f9ff]"
)
SURROGATE = re.compile("[\ud800-\udfff\ufffd]")
FOREIGN_WORDS = frozenset(
    """der die das und ist mit von zu den dem ein eine les des une et est avec pour dans sur
    el los las una y con para por del que il lo della di che het een van zijn och med för""".split()
)


def clean_caption(
    text: str, drops: DropLog, counts: Counter[str], max_chars: int = MAX_CHARS
) -> str | None:
    """The caption ready to parse, or ``None`` once its drop is counted (see the table above)."""
    if SURROGATE.search(text):
        drops.drop(STAGE, "invalid_utf8", text.encode("utf-8", "backslashreplace").decode()[:80])
        return None
    if "<" in text or "&" in text:
        stripped = ENTITY.sub(lambda m: html.unescape(m.group(0)), TAG.sub(" ", text))
        if stripped != text:
            counts["html"] += 1
            text = stripped
    if EMOJI.search(text):
        counts["emoji"] += 1
        text = EMOJI.sub(" ", text)
    text = " ".join(text.split())
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 2:
        drops.drop(STAGE, "empty", text[:80])
        return None
    ascii_share = sum(c.isascii() for c in letters) / len(letters)
    words = text.lower().split()
    if ascii_share < 0.6 or sum(w in FOREIGN_WORDS for w in words) >= 2:
        drops.drop(STAGE, "non_english", text[:80])
        return None
    if len(text) > max_chars:
        counts["truncated"] += 1
        cut = text[:max_chars]
        text = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return text

"""Readable English for written captions: indefinite articles and broken-phrase checks.

:func:`indefinite_article` chooses "a" or "an" by the sound of the next word, with the common
spelling exceptions ("an hour", "a uniform", "a one-way sign", "an umbrella").

:func:`broken_reason` is the check that every rendered text (positive or negative, template or
LLM) passes through in the builder's one rendering path; a text that fails is never emitted:

* ``repeated_word`` — the same word twice in a row ("leg leg of a chair");
* ``doubled_article`` — two articles in a row ("an an outlet", "a the window");
* ``wrong_article`` — "a" before a vowel sound or "an" before a consonant sound ("a apple").

Example:
    >>> indefinite_article("umbrella"), indefinite_article("uniform"), indefinite_article("hour")
    ('an', 'a', 'an')
    >>> broken_reason("an an outlet"), broken_reason("the man holds a book")
    ('doubled_article', None)
"""

from __future__ import annotations

import functools
import itertools
import operator
import re

ARTICLES = frozenset({"a", "an", "the"})
_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
# a text of letters, digits, spaces and commas only (nearly every generated text): its words
# are its runs of letters and digits, which a split finds faster than ``_WORD``
_PLAIN_TEXT = re.compile(r"[a-z0-9 ,]*")
# Vowel letters read with a consonant sound, and silent h: the usual spelling exceptions.
_A_BEFORE = (
    "uni",
    "use",
    "usu",
    "uti",
    "ute",
    "ure",
    "uri",
    "uro",
    "eu",
    "ewe",
    "one",
    "once",
    "ubiq",
)
_AN_BEFORE = ("hour", "honest", "honor", "honour", "heir")


@functools.lru_cache(maxsize=100_000)
def indefinite_article(text: str) -> str:
    """ "a" or "an" for the phrase ``text`` (by its first word's sound)."""
    word = text.strip().lower().split(" ", 1)[0] if text.strip() else ""
    if not word:
        return "a"
    if word.startswith(_AN_BEFORE):
        return "an"
    if word.startswith(_A_BEFORE):
        return "a"
    if len(word) == 1 and word.isalpha():  # a letter read by its name: "an x", "a b"
        return "an" if word in "aefhilmnorsx" else "a"
    return "an" if word[0] in "aeiou" or word[0] in "8" else "a"


@functools.lru_cache(maxsize=65_536)
def words(text: str) -> tuple[str, ...]:
    """Lower-case words of a text (memoised: a chunk's texts are checked here, then scored by
    the blind scorers of the refinement, which split them the same way)."""
    lowered = text.lower()
    if _PLAIN_TEXT.fullmatch(lowered):
        return tuple(lowered.replace(",", " ").split())
    return tuple(_WORD.findall(lowered))


def _words(text: str) -> tuple[str, ...]:
    return words(text)


@functools.lru_cache(maxsize=65_536)
def broken_reason(text: str) -> str | None:
    """The first reason ``text`` is not readable English of the house style, or ``None``
    (memoised: every text of a build passes through it, many more than once).

    Pairs of adjacent words are judged left to right, each by the first rule it breaks in the
    order doubled article, repeated word, wrong article. Only pairs starting with an article can
    break the first or the last rule, so those are visited in turn up to the first repeated pair
    (found at C speed), rather than every pair.
    """
    ws = words(text)
    end = len(ws)
    repeated = _first_true(list(map(operator.eq, ws, ws[1:])), 0, end)
    is_article = list(map(ARTICLES.__contains__, ws[:-1]))
    i = _first_true(is_article, 0, end)
    while i <= repeated and i < end - 1:
        prev, word = ws[i], ws[i + 1]
        if word in ARTICLES:
            return "doubled_article"
        if prev in ("a", "an") and indefinite_article(word) != prev:
            return "wrong_article"
        i = _first_true(is_article, i + 1, end)
    return "repeated_word" if repeated < end else None


def _first_true(flags: list[bool], start: int, default: int) -> int:
    try:
        return flags.index(True, start)
    except ValueError:
        return default


def plain_broken_reason(text: str) -> str | None:
    """:func:`broken_reason` pair by pair (the reference its fast form is tested against)."""
    for prev, word in itertools.pairwise(_words(text)):
        if prev in ARTICLES and word in ARTICLES:
            return "doubled_article"
        if prev == word:
            return "repeated_word"
        if prev in ("a", "an") and indefinite_article(word) != prev:
            return "wrong_article"
    return None

"""Set-level blind judges: is the positive the text the negatives were made from?

A hard negative is its positive with one controlled change. When the negatives of a retrieval
set change *different* parts of the positive (one replaces the object, another the colour, a
third the relation), the positive is the one text every other text was made from: it is the
only text with no word of its own, and it shares more of its words and word pairs with the rest
of the set than any negative does. A judge that never sees the image, and is never trained,
finds it by comparing the texts of the set with each other. On CREPE's released productivity
sets, picking the text whose word bigrams occur most often in the set's other texts finds the
positive in 99% of HN-ATOM, 97% of HN-SWAP and 95% of HN-NEG sets (chance 17%).

The per-text audits (word frequency, n-gram LMs, trained classifiers) cannot see this cue: it
lives in the set, not in any one text. These judges score every text *against the others of
its set*; like the other blind baselines they pick the highest score (``max``) or the lowest
(``min``), ties shared, so that a set whose texts are interchangeable scores chance exactly:

* ``unique_words`` — minus the number of word types of the text found in no other text;
* ``unique_3`` — the same for word trigrams: a text whose phrases ("car is pink") are in no
  other text, where the other texts share theirs, is the odd one out (the first
  ``hn_comp_matched`` drew its negatives' foils from a few true compounds, so every negative
  repeated another's phrase and the positive's were its own: this judge picked it in 50% of
  sets, chance 14%);
* ``shared_1`` / ``shared_2`` — the mean, over the text's word unigrams (bigrams), of the number
  of other texts of the set that hold the same n-gram (a medoid under n-gram overlap).

A set is free of this cue by construction when its texts are symmetric: every negative replaces
the same atom (HN-ATOM: the texts differ from each other at one place only), or the texts are
all the arrangements of the same atoms over the same places (HN-SWAP over three slots, and the
length-matched HN-COMP).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

SetJudge = Callable[[Sequence[str]], list[float]]


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _ngrams(words: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def unique_words(texts: Sequence[str]) -> list[float]:
    """Minus the number of each text's word types that no other text of the set holds."""
    return unique(1)(texts)


def unique(n: int) -> SetJudge:
    """The judge ``unique_n``: minus the number of each text's word n-grams that no other text
    of the set holds."""

    def judge(texts: Sequence[str]) -> list[float]:
        grams = [_ngrams(_words(t), n) for t in texts]
        counts = Counter(g for s in grams for g in s)
        return [-float(sum(1 for g in s if counts[g] == 1)) for s in grams]

    return judge


def shared(n: int) -> SetJudge:
    """The judge ``shared_n``: each text's mean number of other texts holding its n-grams."""

    def judge(texts: Sequence[str]) -> list[float]:
        grams = [_ngrams(_words(t), n) for t in texts]
        counts = Counter(g for s in grams for g in s)
        return [sum(counts[g] - 1 for g in s) / len(s) if s else 0.0 for s in grams]

    return judge


SET_JUDGES: dict[str, SetJudge] = {
    "unique_words": unique_words,
    "unique_3": unique(3),
    "shared_1": shared(1),
    "shared_2": shared(2),
}

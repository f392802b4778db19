"""A plausibility ranker that needs no download: mean word frequency (``wordfreq``).

This is the default foil ranker of the builders when no masked language model is given
(``--mlm``). It has the interface of
:class:`crepe_datasets.generators.filters.plausibility.PlausibilityRanker`: ``rank(sentences)``
returns one score per sentence, higher = more plausible, and ``describe()`` returns the
settings for the build manifest.

Score: the mean Zipf frequency (log10 of occurrences per billion words, from ``wordfreq``'s
English lists) of the sentence's words; a word ``wordfreq`` does not know scores 0. Common
foils ("black", "table") rank above rare ones ("puce", "credenza"), which is the part of a
masked LM's judgement that matters most for single-word foils.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")


@functools.lru_cache(maxsize=200_000)
def _zipf(word: str, lang: str) -> float:
    from wordfreq import zipf_frequency

    return float(zipf_frequency(word, lang))


class FrequencyLMRanker:
    """Mean Zipf word frequency of a sentence (higher = more plausible).

    Args:
        lang: ``wordfreq`` language code.
    """

    def __init__(self, lang: str = "en") -> None:
        import wordfreq  # noqa: F401  (fail early with ImportError when it is missing)

        self.lang = lang

    def rank(self, sentences: Sequence[str]) -> list[float]:
        """One score per sentence, in input order; a sentence without words scores ``-inf``."""
        out = []
        for sentence in sentences:
            words = _WORD.findall(str(sentence).lower())
            out.append(
                sum(_zipf(w, self.lang) for w in words) / len(words) if words else float("-inf")
            )
        return out

    def top(self, sentences: Sequence[str], k: int) -> list[int]:
        """Indices of the ``k`` most plausible sentences, best first (ties: input order)."""
        scores = self.rank(sentences)
        return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[: max(k, 0)]

    def describe(self) -> dict[str, Any]:
        """Settings for the build manifest."""
        from importlib import metadata

        return {
            "model": "wordfreq mean Zipf frequency",
            "wordfreq": metadata.version("wordfreq"),
            "lang": self.lang,
        }

"""Plausibility without a download: word frequency + a word-bigram language model.

:class:`FrequencyLMRanker` scores a sentence by its mean per-word log-probability (base 10)
under an interpolated absolute-discounting bigram model (Ney et al., 1994) trained on a caption
corpus, whose unigram distribution is itself a mixture of the corpus's unigram frequencies and
``wordfreq``'s English word frequencies (so a word the corpus never saw is scored by how common
it is in English, and a rare word — "tetrode", "reissue" — scores low):

    P(w | v) = max(c(v w) - D, 0) / c(v)  +  D · N1+(v •) / c(v) · P_uni(w)
    P_uni(w) = (1 - β) · c(w) / N  +  β · max(wordfreq(w), FLOOR)

Words are lower-case runs of letters, digits, apostrophes and hyphens; the sentence is framed by
``<s>`` and ``</s>``. Higher scores are more plausible, as with the masked-LM ranker
(:class:`crepe_datasets.generators.filters.plausibility.PlausibilityRanker`), whose interface
(``rank``, ``describe``) this class shares.

The default corpus is shipped with the package: word and bigram counts of the 25,014 COCO
val2017 captions (CC BY 4.0), so the ranker works offline. ``corpus=`` names another corpus: a
text file (one caption per line), a COCO captions JSON, a TSV (caption in the first column), or a
counts file written by :func:`save_counts` (``.json.gz``). Rebuild the shipped file with
``python -m crepe_datasets.generators.balance.frequency_lm CORPUS OUT.json.gz``.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import json
import math
import operator
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from crepe_datasets.generators.captions.phrases import words as _caption_words

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_COUNTS = DATA / "ngrams_coco_val2017.json.gz"
DISCOUNT = 0.75
WORDFREQ_WEIGHT = 0.5
FLOOR = 1e-8
BOS, EOS = "<s>", "</s>"


def tokens(text: str) -> tuple[str, ...]:
    """Lower-case words of a sentence (the same split as the builders' text checks,
    :func:`crepe_datasets.generators.captions.phrases.words`, and memoised with it)."""
    return _caption_words(text)


@functools.lru_cache(maxsize=500_000)
def english_frequency(word: str) -> float:
    """``wordfreq``'s frequency of an English word (0 when unknown)."""
    from wordfreq import word_frequency

    return word_frequency(word, "en")


def count_ngrams(captions: Iterable[str], name: str) -> dict[str, Any]:
    """Unigram and bigram counts of a caption corpus (the form :func:`save_counts` writes)."""
    uni: Counter[str] = Counter()
    bi: Counter[str] = Counter()
    n = 0
    for caption in captions:
        words = [BOS, *tokens(caption), EOS]
        if len(words) == 2:
            continue
        n += 1
        uni.update(words[1:])
        bi.update(f"{a} {b}" for a, b in itertools.pairwise(words))
    return {"corpus": name, "captions": n, "unigrams": dict(uni), "bigrams": dict(bi)}


def read_captions(path: Path) -> Iterable[str]:
    """Captions of a text file, a COCO captions JSON or a TSV (first column)."""
    if path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        return [a["caption"] for a in data.get("annotations", []) if isinstance(a, dict)]
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".tsv":
        return [line.split("\t", 1)[0] for line in lines]
    return lines


def save_counts(counts: dict[str, Any], out: Path) -> None:
    """Write counts as gzip JSON with sorted keys and a fixed mtime (byte-identical reruns)."""
    data = json.dumps(counts, sort_keys=True, separators=(",", ":")).encode("utf-8")
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as handle:
        handle.write(data)


@functools.lru_cache(maxsize=4)
def load_counts(path: str) -> dict[str, Any]:
    """Counts from a corpus or counts file (cached per path)."""
    p = Path(path)
    if p.name.endswith(".json.gz"):
        with gzip.open(p, "rt", encoding="utf-8") as handle:
            return json.load(handle)
    from crepe_datasets.infra.errors import CrepeInputError

    if not p.is_file():
        raise CrepeInputError(f"caption corpus {p} does not exist; give a text, JSON or TSV file.")
    return count_ngrams(read_captions(p), p.name)


class FrequencyLMRanker:
    """Scores sentences by word frequency and a bigram LM (see the module docstring).

    Args:
        corpus: caption corpus or counts file (``None``: the shipped COCO val2017 counts).
        discount: absolute discount ``D`` of the bigram model.
        wordfreq_weight: weight ``β`` of ``wordfreq`` in the unigram distribution.
    """

    def __init__(
        self,
        corpus: str | Path | None = None,
        discount: float = DISCOUNT,
        wordfreq_weight: float = WORDFREQ_WEIGHT,
    ) -> None:
        self.path = str(corpus or DEFAULT_COUNTS)
        counts = load_counts(self.path)
        self.corpus = str(counts.get("corpus", Path(self.path).name))
        self.captions = int(counts.get("captions", 0))
        self.discount, self.beta = float(discount), float(wordfreq_weight)
        self.unigrams: dict[str, int] = counts["unigrams"]
        self.total = max(1, sum(self.unigrams.values()))
        self.bigrams: dict[tuple[str, str], int] = {}
        self.context: Counter[str] = Counter()
        self.followers: Counter[str] = Counter()
        for key, c in counts["bigrams"].items():
            a, b = key.split(" ", 1)
            self.bigrams[(a, b)] = c
            self.context[a] += c
            self.followers[a] += 1
        self._cache: dict[str, float] = {}
        self._logp: dict[tuple[str, str], float] = {}

    def unigram(self, word: str) -> float:
        """``P_uni(word)``: corpus frequency mixed with English frequency."""
        corpus = self.unigrams.get(word, 0) / self.total
        english = max(english_frequency(word), FLOOR) if word != EOS else corpus
        return (1 - self.beta) * corpus + self.beta * english

    def prob(self, prev: str, word: str) -> float:
        """``P(word | prev)`` of the interpolated bigram model."""
        uni = self.unigram(word)
        seen = self.context.get(prev, 0)
        if not seen:
            return uni
        c = self.bigrams.get((prev, word), 0)
        return (
            max(c - self.discount, 0.0) / seen + self.discount * self.followers[prev] / seen * uni
        )

    def score(self, sentence: str) -> float:
        """Mean log10 probability per word (``</s>`` included); ``-inf`` for no words."""
        cached = self._cache.get(sentence)
        if cached is not None:
            return cached
        words = tokens(sentence)
        if not words:
            return float("-inf")
        seq = [BOS, *words, EOS]
        logp = self._logp
        pairs = list(itertools.pairwise(seq))
        values = list(map(logp.get, pairs))
        if None in values:  # pairs not seen yet: computed and kept, in order
            for i, pair in enumerate(pairs):
                if values[i] is None:
                    values[i] = math.log10(self.prob(*pair))
                    if len(logp) < 2_000_000:
                        logp[pair] = values[i]
        # left to right from 0.0, as a plain loop adds (not ``sum``, which may compensate)
        total = functools.reduce(operator.add, values, 0.0)
        value = total / (len(seq) - 1)
        if len(self._cache) < 1_000_000:
            self._cache[sentence] = value
        return value

    def rank(self, sentences: Sequence[str]) -> list[float]:
        """Plausibility of each sentence (higher is more plausible), in input order."""
        return [self.score(s) for s in sentences]

    def describe(self) -> dict[str, Any]:
        """Settings for the build manifest."""
        import wordfreq

        return {
            "model": "word bigram LM (absolute discounting) + wordfreq unigrams",
            "corpus": self.corpus,
            "corpus_captions": self.captions,
            "discount": self.discount,
            "wordfreq_weight": self.beta,
            "wordfreq": getattr(wordfreq, "__version__", "installed"),
        }


def word_frequency_score(sentence: str) -> float:
    """Mean log10 English frequency of a sentence's words (the word-frequency baseline)."""
    words = tokens(sentence)
    if not words:
        return float("-inf")
    return sum(map(_log_frequency, words)) / len(words)


@functools.lru_cache(maxsize=500_000)
def _log_frequency(word: str) -> float:
    return math.log10(max(english_frequency(word), FLOOR))


def main(argv: list[str]) -> int:
    """``CORPUS OUT.json.gz``: write the counts of a caption corpus."""
    if len(argv) != 2:
        print(__doc__.splitlines()[0] + "\nusage: frequency_lm CORPUS OUT.json.gz")
        return 2
    src, out = Path(argv[0]), Path(argv[1])
    save_counts(count_ngrams(read_captions(src), src.name), out)
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

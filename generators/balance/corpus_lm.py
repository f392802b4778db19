"""The training corpus's own bigram LM, a second plausibility judge for the balanced choice.

A caption whose compounds are *seen* is, by the split's definition, made of word pairs of the
training corpus; an n-gram LM trained on that corpus prefers it to a negative whose changed atom
makes an unseen pair. The generation-time LM (COCO captions) does not see that preference, so
with ``--training`` the balanced choice of :mod:`.negatives` scores each text by the mean of the
generation LM and a bigram LM trained on the training corpus's captions (the counts of
:func:`crepe_datasets.generators.balance.frequency_lm.count_ngrams`, written to the build's
scratch folder). With ``--seen`` (no captions) only the generation LM is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from crepe_datasets.infra.provenance import DropLog


def corpus_lm(spec: str | None, scratch: Path) -> Callable[[str], float] | None:
    """The bigram LM score of the ``KIND:PATH`` corpus ``spec`` (``None`` without one)."""
    if not spec:
        return None
    from crepe_datasets.generators.balance.frequency_lm import (
        FrequencyLMRanker,
        count_ngrams,
        save_counts,
    )
    from crepe_datasets.sources.corpus import iter_corpus

    counts = count_ngrams((r.text for r in iter_corpus(spec, DropLog())), spec.split(":", 1)[0])
    path = scratch / "training_corpus_ngrams.json.gz"
    save_counts(counts, path)
    return FrequencyLMRanker(path).score


def mean_scores(
    texts: Sequence[str], first: Sequence[float], lm: Callable[[str], float] | None
) -> list[float]:
    """``first`` (the ranker's scores of ``texts``), averaged with ``lm`` when there is one."""
    if lm is None:
        return [float(s) for s in first]
    return [(float(s) + lm(t)) / 2 for s, t in zip(first, texts, strict=True)]

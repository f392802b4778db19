"""The download-free plausibility ranker: common words above rare ones, same interface as the MLM ranker."""

from __future__ import annotations

from crepe_datasets.generators.filters.frequency_lm import FrequencyLMRanker


def test_rank_and_describe() -> None:
    ranker = FrequencyLMRanker()
    scores = ranker.rank(["a black dog", "a puce dog", "", "a dog"])
    assert scores[0] > scores[1] and scores[2] == float("-inf")
    assert ranker.top(["a credenza near a wall", "a table near a wall"], 1) == [1]
    info = ranker.describe()
    assert info["model"].startswith("wordfreq") and info["wordfreq"]
    assert ranker.rank([]) == []

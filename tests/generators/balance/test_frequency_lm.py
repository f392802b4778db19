"""FrequencyLMRanker: word frequency + a caption bigram LM, offline, same interface as the MLM."""

from __future__ import annotations

import math

import pytest

from crepe_datasets.generators.balance.frequency_lm import (
    DEFAULT_COUNTS,
    FrequencyLMRanker,
    count_ngrams,
    load_counts,
    read_captions,
    word_frequency_score,
)
from crepe_datasets.infra.errors import CrepeInputError
from tests.conftest import require_shared


@pytest.fixture(scope="module")
def ranker() -> FrequencyLMRanker:
    return FrequencyLMRanker()


def test_ordinary_captions_beat_rare_foils(ranker):
    pairs = [
        ("black car", "black burr"),
        ("man looking at television", "man looking at tetrode"),
        ("the shelf holds book", "the shelf holds reissue"),
        ("potted plant inside of room", "potted plant inside of patient"),
    ]
    for good, odd in pairs:
        scores = ranker.rank([good, odd])
        assert scores[0] > scores[1], (good, odd)
        assert word_frequency_score(good) > word_frequency_score(odd)
    assert ranker.rank([]) == [] and ranker.rank(["..."]) == [float("-inf")]


def test_probabilities_are_a_distribution(ranker):
    words = list(ranker.unigrams)
    total = sum(ranker.prob("the", w) for w in words)
    assert 0.2 < total <= 1.0 + 1e-9  # the rest goes to words the corpus never saw
    assert all(ranker.prob("a", w) > 0 for w in ("dog", "qwertyzz"))


def test_describe_names_the_corpus(ranker):
    info = ranker.describe()
    assert info["corpus"] == "captions_val2017.json" and info["corpus_captions"] == 25014
    assert math.isclose(info["discount"], 0.75)


def test_shipped_counts_are_the_coco_val2017_captions():
    coco = require_shared("coco", "captions_val2017.json")
    rebuilt = count_ngrams(read_captions(coco), coco.name)
    assert rebuilt == load_counts(str(DEFAULT_COUNTS))


def test_named_corpus_text_file(tmp_path):
    corpus = tmp_path / "captions.txt"
    corpus.write_text("a dog on the grass\na dog on a sofa\n" * 20)
    r = FrequencyLMRanker(corpus)
    assert r.describe()["corpus"] == "captions.txt" and r.captions == 40
    a, b = r.rank(["a dog on the grass", "a grass on the dog"])
    assert a > b
    with pytest.raises(CrepeInputError):
        FrequencyLMRanker(tmp_path / "missing.txt")


def test_lm_finds_crepe_release_atom_negatives_without_the_image():
    """On data we never tuned on (CREPE's release), a caption LM trained on other captions
    (the held-out CC3M counts) prefers the positive well above chance: the shortcut is real."""
    from crepe_datasets.generators.balance.blind import HELD_OUT_COUNTS
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.sources.crepe_release import read_crepe_release

    folder = require_shared("crepe_release", "prod_hard_negatives", "atom")
    lm = FrequencyLMRanker(HELD_OUT_COUNTS)
    wins = total = 0
    for sample in read_crepe_release(folder, DropLog()):
        if sample.meta["n"] != 4:
            continue
        scores = lm.rank([sample.caption, *sample.negatives])
        wins += scores[0] > max(scores[1:])
        total += 1
    assert total > 1000 and wins / total > 1 / 6 + 0.05

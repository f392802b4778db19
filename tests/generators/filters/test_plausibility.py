"""PlausibilityRanker with a tiny randomly initialised BERT masked LM loaded from a folder."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from crepe_datasets.generators.filters.plausibility import PlausibilityRanker
from crepe_datasets.infra.errors import MissingResourceError
from tests.generators.filters.tiny_models import SENTENCES, one_thread, save_tiny_mlm

pytestmark = pytest.mark.slow  # imports torch and transformers

single_thread = pytest.fixture(scope="module", autouse=True)(one_thread)


@pytest.fixture(scope="module")
def mlm_folder(tmp_path_factory) -> Path:
    return save_tiny_mlm(tmp_path_factory.mktemp("mlm") / "tiny-bert")


@pytest.fixture(scope="module")
def ranker(mlm_folder) -> PlausibilityRanker:
    return PlausibilityRanker(str(mlm_folder), device="cpu", batch_size=5)


def manual_pll(ranker: PlausibilityRanker, sentence: str) -> float:
    """Pseudo-log-likelihood computed one masked copy at a time."""
    import torch

    ids = ranker.tokenizer(sentence)["input_ids"]
    total, count = 0.0, 0
    for pos in range(1, len(ids) - 1):  # [CLS] … [SEP]
        masked = list(ids)
        masked[pos] = ranker.tokenizer.mask_token_id
        with torch.inference_mode():
            logits = ranker.model(input_ids=torch.tensor([masked])).logits[0, pos]
        total += float(logits.log_softmax(-1)[ids[pos]])
        count += 1
    return total / count


def test_scores_match_the_pseudo_log_likelihood(ranker) -> None:
    scores = ranker.rank(SENTENCES)
    assert len(scores) == len(SENTENCES) and all(s < 0 for s in scores)
    expected = [manual_pll(ranker, s) for s in SENTENCES]
    assert scores == pytest.approx(expected, abs=1e-4)


def test_order_is_restored_and_deterministic(ranker, mlm_folder) -> None:
    scores = ranker.rank(SENTENCES)
    assert ranker.rank(SENTENCES[::-1]) == pytest.approx(scores[::-1], abs=1e-5)
    big_batches = PlausibilityRanker(str(mlm_folder), device="cpu", batch_size=64)
    assert big_batches.rank(SENTENCES) == pytest.approx(scores, abs=1e-5)
    assert ranker.rank(SENTENCES) == scores


def test_top_and_empty_sentences(ranker) -> None:
    scores = ranker.rank(SENTENCES)
    best = ranker.top(SENTENCES, 3)
    assert best == sorted(range(len(scores)), key=lambda i: -scores[i])[:3]
    assert ranker.rank([]) == []
    assert math.isinf(ranker.rank([""])[0])


def test_unnormalised_scores_are_sums(mlm_folder, ranker) -> None:
    summed = PlausibilityRanker(str(mlm_folder), device="cpu", normalize=False)
    pieces = [len(ranker.tokenizer(s)["input_ids"]) - 2 for s in SENTENCES]
    means = ranker.rank(SENTENCES)
    assert summed.rank(SENTENCES) == pytest.approx(
        [m * n for m, n in zip(means, pieces, strict=True)], abs=1e-4
    )
    assert summed.model_id == str(mlm_folder)


def test_missing_model_is_one_clear_error() -> None:
    with pytest.raises(MissingResourceError, match="masked language model 'no-such/bert'"):
        PlausibilityRanker("no-such/bert", local_files_only=True)

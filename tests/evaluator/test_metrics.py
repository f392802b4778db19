"""Every metric on hand-made score matrices, ties included."""

from __future__ import annotations

import numpy as np
import pytest

from crepe_datasets.evaluator.metrics import (
    binary_metrics,
    group_metrics,
    n_folds,
    raw_retrieval_metrics,
    restrict_negatives,
    retrieval_metrics,
    strict_ranks,
)

NAN = np.nan


def test_retrieval_ranks_are_strict_and_ties_count_against() -> None:
    scores = np.array(
        [
            [0.9, 0.1, 0.2, 0.3, 0.4],  # rank 1
            [0.5, 0.5, 0.1, 0.1, 0.1],  # tie with one negative: rank 2, not a win
            [0.2, 0.3, 0.4, 0.1, 0.0],  # two above: rank 3
            [0.1, 0.2, 0.3, 0.4, 0.5],  # last: rank 5
            [0.3, 0.3, 0.3, NAN, NAN],  # shorter set, two ties: rank 3
        ]
    )
    rank, ties, size = strict_ranks(scores)
    assert rank.tolist() == [1, 2, 3, 5, 3]
    assert ties.tolist() == [0, 1, 0, 0, 2]
    assert size.tolist() == [5, 5, 5, 5, 3]
    result = retrieval_metrics(scores)
    m = result.metrics
    assert m["R@1"] == pytest.approx(1 / 5)
    assert m["R@3"] == pytest.approx(4 / 5)
    assert m["R@5"] == pytest.approx(1.0)
    assert m["avg_R@K"] == pytest.approx((0.2 + 0.8 + 1.0) / 3)
    assert m["mean_rank"] == pytest.approx(14 / 5)
    assert m["ties"] == 2
    assert m["chance_R@1"] == pytest.approx((4 * 0.2 + 1 / 3) / 5)
    assert result.per_sample["correct"].tolist() == [True, False, False, False, False]


def test_all_equal_scores_never_win() -> None:
    m = retrieval_metrics(np.zeros((4, 6))).metrics
    assert m["R@1"] == 0.0 and m["R@5"] == 0.0
    assert m["mean_rank"] == 6.0 and m["ties"] == 4


def test_binary_accuracy_with_ties() -> None:
    result = binary_metrics(np.array([[0.3, 0.2], [0.2, 0.2], [0.1, 0.4], [0.9, -0.9]]))
    assert result.metrics["accuracy"] == pytest.approx(0.5)
    assert result.metrics["ties"] == 1
    assert result.per_sample["correct"].tolist() == [True, False, False, True]
    with pytest.raises(ValueError):
        binary_metrics(np.zeros((2, 3)))


def test_group_scores_winoground_and_vismin_style() -> None:
    # scores[i, image, caption]; caption c describes image c.
    s = np.array(
        [
            [[0.9, 0.1], [0.2, 0.8]],  # all right: text, image, group
            [[0.6, 0.5], [0.7, 0.8]],  # text right (0.6>0.5, 0.8>0.7); image wrong (0.6<0.7)
            [[0.6, 0.1], [0.5, 0.2]],  # image right (0.6>0.5, 0.2>0.1); text wrong (0.2<0.5)
            [[0.5, 0.5], [0.1, 0.9]],  # tie on image 0: text fails, image succeeds
            [[0.1, 0.9], [0.9, 0.1]],  # everything swapped
        ]
    )
    result = group_metrics(s)
    ps = result.per_sample
    assert ps["text"].tolist() == [True, True, False, False, False]
    assert ps["image"].tolist() == [True, False, True, True, False]
    assert ps["correct"].tolist() == [True, False, False, False, False]
    assert result.metrics["text"] == pytest.approx(0.4)
    assert result.metrics["image"] == pytest.approx(0.6)
    assert result.metrics["group"] == pytest.approx(0.2)
    assert result.metrics["ties"] == 1


def test_n_folds() -> None:
    assert n_folds(1508, 6) == 20
    assert n_folds(60, 6) == 10
    assert n_folds(5, 6) == 1
    assert n_folds(1000, 100) == 10


def test_raw_retrieval_identity_embeddings_are_perfect() -> None:
    emb = np.eye(12)
    result = raw_retrieval_metrics(emb, emb, set_size=3, seed=1)
    m = result.metrics
    assert m["folds"] == 4
    assert m["i2t_R@1"] == 1.0 and m["t2i_R@1"] == 1.0 and m["R@1"] == 1.0
    assert m["i2t_mean_rank"] == 1.0


def test_raw_retrieval_ties_and_duplicates() -> None:
    emb = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    # pairs 0 and 1 are distinct with equal embeddings: each ties with the other, not a win.
    m = raw_retrieval_metrics(emb, emb, set_size=3).metrics
    assert m["folds"] == 1
    assert m["i2t_R@1"] == pytest.approx(1 / 3) and m["t2i_R@1"] == pytest.approx(1 / 3)
    assert m["i2t_ties"] == 2 and m["i2t_mean_rank"] == pytest.approx(5 / 3)
    # declared identical (same key), duplicates are not competitors of each other.
    keys = np.array([0, 0, 1])
    same = raw_retrieval_metrics(emb, emb, image_keys=keys, text_keys=keys, set_size=3)
    assert same.metrics["i2t_R@1"] == 1.0 and same.metrics["t2i_R@1"] == 1.0
    assert same.metrics["i2t_ties"] == 0


def test_restrict_negatives_per_type() -> None:
    scores = np.array([[0.5, 0.9, 0.1, 0.1], [0.5, 0.1, 0.9, NAN]])
    types = np.array([["swap", "atom", "atom"], ["swap", "atom", ""]])
    atom = retrieval_metrics(restrict_negatives(scores, types, "atom")).per_sample["rank"]
    swap = retrieval_metrics(restrict_negatives(scores, types, "swap")).per_sample["rank"]
    assert atom.tolist() == [1, 2]
    assert swap.tolist() == [2, 1]

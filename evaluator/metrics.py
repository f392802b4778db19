"""Metrics on score matrices, with strict comparison: a tie is never a win, and ties are counted.

Every function takes similarity scores (higher = more similar) and returns a :class:`MetricResult`
holding the aggregate metrics and the per-sample values that statistics need later.

* **retrieval** (image → text among ``[caption] + negatives``): ``scores[i, 0]`` is the positive,
  ``scores[i, 1:]`` the negatives, ``NaN`` marks an absent candidate (sets of unequal size).
  The rank of the positive is ``1 + #(negatives scoring >= positive)``: a tied negative ranks
  above it. ``R@K`` = share of ranks ``<= K``; ``avg_R@K`` is the mean of R@1, R@3 and R@5;
  ``mean_rank``; ``ties`` = samples with at least one negative tied with the positive;
  ``chance_R@1`` = mean of ``1 / set size``.
* **binary**: retrieval with one negative, reported as ``accuracy`` (= R@1).
* **group** (Winoground / VisMin 2×2): ``scores[i, a, c]`` = sim(image ``a``, caption ``c``),
  caption ``c`` describes image ``c``. ``text`` = each image prefers its caption,
  ``image`` = each caption prefers its image, ``group`` = both.
* **raw_retrieval** within a split, both directions, in ``K = min(20, ⌊|D| / N⌋)`` folds
  (at least one). **N is the retrieval-set size**: the smallest number of candidates a query is
  ranked against, so every fold holds at least N pairs. The default N = 6 is the productivity HN
  set (1 positive + 5 negatives, SPEC §3), so RAW retrieval is never easier than the HN task it is
  compared with; ``raw_set_size`` changes it. Folds come from a seeded permutation. A candidate
  identical to the positive (the same text, or the same image crop, as another pair of the fold)
  is left out of that query's set rather than counted as a competitor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

KS: tuple[int, ...] = (1, 3, 5)
MAX_FOLDS = 20
DEFAULT_RAW_SET_SIZE = 6


@dataclass
class MetricResult:
    """Aggregate metrics (name → value) and per-sample arrays (name → array of length n)."""

    metrics: dict[str, float]
    per_sample: dict[str, np.ndarray] = field(default_factory=dict)
    main: str = "R@1"


def strict_ranks(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ranks of column 0 among the non-NaN columns of each row.

    Returns:
        ``(rank, ties, set_size)``: 1-based strict rank, number of candidates tied with the
        positive, number of candidates (positive included).
    """
    scores = np.asarray(scores, dtype=np.float64)
    pos = scores[:, :1]
    neg = scores[:, 1:]
    valid = ~np.isnan(neg)
    with np.errstate(invalid="ignore"):
        above = (neg > pos) & valid
        tied = (neg == pos) & valid
    ties = tied.sum(axis=1)
    return 1 + above.sum(axis=1) + ties, ties, 1 + valid.sum(axis=1)


def _rank_metrics(
    rank: np.ndarray, ties: np.ndarray, size: np.ndarray, prefix: str = ""
) -> dict[str, float]:
    n = len(rank)
    if n == 0:
        return {f"{prefix}n": 0.0}
    out = {f"{prefix}R@{k}": float(np.mean(rank <= k)) for k in KS}
    out[f"{prefix}avg_R@K"] = float(np.mean([out[f"{prefix}R@{k}"] for k in KS]))
    out[f"{prefix}mean_rank"] = float(np.mean(rank))
    out[f"{prefix}ties"] = float(np.sum(ties > 0))
    out[f"{prefix}chance_R@1"] = float(np.mean(1.0 / size))
    out[f"{prefix}n"] = float(n)
    return out


def retrieval_metrics(scores: np.ndarray) -> MetricResult:
    """Image → text retrieval among ``[positive] + negatives`` (see the module docstring)."""
    rank, ties, size = strict_ranks(scores)
    per_sample = {"correct": rank == 1, "rank": rank, "ties": ties}
    return MetricResult(_rank_metrics(rank, ties, size), per_sample, main="R@1")


def binary_metrics(scores: np.ndarray) -> MetricResult:
    """Positive vs one negative: ``accuracy`` (strict), ``ties``, ``n``."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or scores.shape[1] != 2:
        raise ValueError(f"binary scores must have shape (n, 2), got {scores.shape}")
    correct = scores[:, 0] > scores[:, 1]
    ties = scores[:, 0] == scores[:, 1]
    metrics = {
        "accuracy": float(np.mean(correct)) if len(correct) else 0.0,
        "ties": float(np.sum(ties)),
        "chance_accuracy": 0.5,
        "n": float(len(correct)),
    }
    return MetricResult(
        metrics, {"correct": correct, "ties": ties.astype(np.int64)}, main="accuracy"
    )


def group_metrics(scores: np.ndarray) -> MetricResult:
    """Winoground-style 2×2 scores; ``scores[i, image, caption]``."""
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 3 or s.shape[1:] != (2, 2):
        raise ValueError(f"group scores must have shape (n, 2, 2), got {s.shape}")
    text = (s[:, 0, 0] > s[:, 0, 1]) & (s[:, 1, 1] > s[:, 1, 0])
    image = (s[:, 0, 0] > s[:, 1, 0]) & (s[:, 1, 1] > s[:, 0, 1])
    group = text & image
    tied = (
        (s[:, 0, 0] == s[:, 0, 1])
        | (s[:, 1, 1] == s[:, 1, 0])
        | (s[:, 0, 0] == s[:, 1, 0])
        | (s[:, 1, 1] == s[:, 0, 1])
    )
    n = len(s)
    metrics = {
        "text": float(np.mean(text)) if n else 0.0,
        "image": float(np.mean(image)) if n else 0.0,
        "group": float(np.mean(group)) if n else 0.0,
        "ties": float(np.sum(tied)),
        "chance_text": 0.25,
        "chance_image": 0.25,
        "chance_group": 1 / 6,
        "n": float(n),
    }
    per_sample = {"correct": group, "text": text, "image": image, "ties": tied.astype(np.int64)}
    return MetricResult(metrics, per_sample, main="group")


def n_folds(n_pairs: int, set_size: int = DEFAULT_RAW_SET_SIZE, max_folds: int = MAX_FOLDS) -> int:
    """``K = min(max_folds, ⌊n_pairs / set_size⌋)``, at least 1."""
    return max(1, min(max_folds, n_pairs // max(1, set_size)))


def _fold_ranks(sim: np.ndarray, same: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Strict ranks of the diagonal of ``sim`` (rows = queries); ``same`` masks duplicates."""
    pos = np.diag(sim)[:, None]
    competitor = ~(same | np.eye(len(sim), dtype=bool))
    above = (sim > pos) & competitor
    tied = (sim == pos) & competitor
    ties = tied.sum(axis=1)
    return 1 + above.sum(axis=1) + ties, ties, 1 + competitor.sum(axis=1)


def raw_retrieval_metrics(
    image_emb: np.ndarray,
    text_emb: np.ndarray,
    image_keys: np.ndarray | None = None,
    text_keys: np.ndarray | None = None,
    set_size: int = DEFAULT_RAW_SET_SIZE,
    seed: int = 0,
) -> MetricResult:
    """RAW retrieval within a split, image → text (``i2t_``) and text → image (``t2i_``).

    Args:
        image_emb: ``(n, d)`` L2-normalised image embeddings, row ``i`` paired with text ``i``.
        text_emb: ``(n, d)`` L2-normalised text embeddings.
        image_keys: identity of each image (duplicates are not competitors); default all distinct.
        text_keys: identity of each text; default all distinct.
        set_size: N, the minimum retrieval-set size per fold.
        seed: seed of the fold permutation.
    """
    n = len(image_emb)
    image_keys = np.arange(n) if image_keys is None else np.asarray(image_keys)
    text_keys = np.arange(n) if text_keys is None else np.asarray(text_keys)
    k = n_folds(n, set_size)
    order = np.random.default_rng(seed).permutation(n)
    i2t = [np.zeros(n, dtype=np.int64) for _ in range(3)]
    t2i = [np.zeros(n, dtype=np.int64) for _ in range(3)]
    for fold in np.array_split(order, k):
        sim = np.asarray(image_emb[fold], np.float64) @ np.asarray(text_emb[fold], np.float64).T
        eye = np.eye(len(fold), dtype=bool)
        same_text = (text_keys[fold][:, None] == text_keys[fold][None, :]) & ~eye
        same_image = (image_keys[fold][:, None] == image_keys[fold][None, :]) & ~eye
        for out, values in (
            (i2t, _fold_ranks(sim, same_text)),
            (t2i, _fold_ranks(sim.T, same_image)),
        ):
            for arr, v in zip(out, values, strict=True):
                arr[fold] = v
    metrics = {**_rank_metrics(*i2t, prefix="i2t_"), **_rank_metrics(*t2i, prefix="t2i_")}
    metrics.update({"folds": float(k), "set_size": float(set_size), "n": float(n)})
    metrics["R@1"] = (metrics.get("i2t_R@1", 0.0) + metrics.get("t2i_R@1", 0.0)) / 2
    per_sample = {
        "correct": i2t[0] == 1,
        "rank": i2t[0],
        "t2i_correct": t2i[0] == 1,
        "t2i_rank": t2i[0],
        "ties": i2t[1] + t2i[1],
    }
    return MetricResult(metrics, per_sample, main="R@1")


def restrict_negatives(scores: np.ndarray, types: np.ndarray, keep: str) -> np.ndarray:
    """Scores with every negative whose type is not ``keep`` set to NaN (per-type breakdowns).

    Args:
        scores: ``(n, 1 + m)`` retrieval scores.
        types: ``(n, m)`` negative type per negative column (``""`` for padding).
        keep: the type to keep.
    """
    out = np.array(scores, dtype=np.float64, copy=True)
    out[:, 1:][types != keep] = np.nan
    return out

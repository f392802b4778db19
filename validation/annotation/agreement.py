"""Agreement between annotators and rates with confidence intervals.

Ratings are given as a units × raters matrix of category labels (``None`` where a rater did not
rate a unit). Statistics: percent agreement, Cohen's κ (two raters), Fleiss' κ (any number,
units with the same number of ratings), Krippendorff's α (nominal, from the maintained
``krippendorff`` package; missing ratings allowed); a percentile bootstrap over units for each;
Wilson score intervals for rates (``scipy``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

Ratings = Sequence[Sequence[str | None]]


def _counts(ratings: Ratings, categories: Sequence[str]) -> np.ndarray:
    """Units × categories matrix: how many raters gave each unit each category."""
    index = {c: i for i, c in enumerate(categories)}
    out = np.zeros((len(ratings), len(categories)))
    for u, unit in enumerate(ratings):
        for label in unit:
            if label is not None:
                out[u, index[label]] += 1
    return out


def categories_of(ratings: Ratings) -> list[str]:
    """The sorted set of labels used in ``ratings``."""
    return sorted({label for unit in ratings for label in unit if label is not None})


def percent_agreement(ratings: Ratings) -> float:
    """Mean over units (with ≥ 2 ratings) of the share of agreeing rater pairs.

    For two raters this is the share of units on which they agree.
    """
    counts = _counts(ratings, categories_of(ratings))
    m = counts.sum(axis=1)
    keep = m >= 2
    if not keep.any():
        return float("nan")
    counts, m = counts[keep], m[keep]
    return float(np.mean((counts * (counts - 1)).sum(axis=1) / (m * (m - 1))))


def cohen_kappa(ratings: Ratings) -> float:
    """Cohen's κ of two raters over the units both rated.

    Raises:
        ValueError: when ``ratings`` does not have exactly two raters.
    """
    pairs = [(u[0], u[1]) for u in ratings if len(u) == 2 and None not in u]
    if any(len(u) != 2 for u in ratings):
        raise ValueError("Cohen's kappa needs exactly two raters per unit")
    if not pairs:
        return float("nan")
    cats = sorted({c for p in pairs for c in p})
    n = len(pairs)
    p_o = sum(a == b for a, b in pairs) / n
    p_e = sum(
        (sum(a == c for a, _ in pairs) / n) * (sum(b == c for _, b in pairs) / n) for c in cats
    )
    return float("nan") if p_e == 1 else (p_o - p_e) / (1 - p_e)


def fleiss_kappa_counts(counts: np.ndarray) -> float:
    """Fleiss' κ from a units × categories count table (every unit with the same total)."""
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=1)
    if len(m) == 0 or not np.all(m == m[0]) or m[0] < 2:
        raise ValueError("Fleiss' kappa needs the same number (≥ 2) of ratings for every unit")
    n, r = counts.shape[0], m[0]
    p_j = counts.sum(axis=0) / (n * r)
    p_i = (counts * (counts - 1)).sum(axis=1) / (r * (r - 1))
    p_bar, p_e = p_i.mean(), float((p_j**2).sum())
    return float("nan") if p_e == 1 else float((p_bar - p_e) / (1 - p_e))


def fleiss_kappa(ratings: Ratings) -> float:
    """Fleiss' κ over the units that have the most common number of ratings (≥ 2)."""
    counts = _counts(ratings, categories_of(ratings))
    m = counts.sum(axis=1)
    if not (m >= 2).any():
        return float("nan")
    values, freq = np.unique(m[m >= 2], return_counts=True)
    return fleiss_kappa_counts(counts[m == values[np.argmax(freq)]])


def krippendorff_alpha(ratings: Ratings) -> float:
    """Krippendorff's α (nominal) with missing ratings, by the ``krippendorff`` package."""
    import krippendorff

    cats = categories_of(ratings)
    if len(cats) < 2:
        return float("nan") if not cats else 1.0
    counts = _counts(ratings, cats)
    counts = counts[counts.sum(axis=1) >= 2]
    if len(counts) == 0:
        return float("nan")
    return float(krippendorff.alpha(value_counts=counts, level_of_measurement="nominal"))


@dataclass(frozen=True)
class Estimate:
    """A statistic with its percentile bootstrap interval."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        def clean(x: float) -> float | None:
            return None if np.isnan(x) else round(float(x), 4)

        return {"value": clean(self.value), "low": clean(self.low), "high": clean(self.high)}


def bootstrap(
    statistic: Callable[[Ratings], float],
    ratings: Ratings,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Estimate:
    """``statistic`` with a percentile bootstrap interval, resampling units with replacement."""
    value = statistic(ratings)
    if len(ratings) < 2:
        return Estimate(value, float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    stats = []
    for _ in range(n_resamples):
        picked = rng.integers(0, len(ratings), len(ratings))
        with np.errstate(invalid="ignore", divide="ignore"):
            s = statistic([ratings[i] for i in picked])
        if not np.isnan(s):
            stats.append(s)
    if not stats:
        return Estimate(value, float("nan"), float("nan"))
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(stats, [tail, 100 - tail])
    return Estimate(value, float(low), float(high))


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``scipy.stats.binomtest``); (nan, nan) when n = 0."""
    from scipy.stats import binomtest

    if n == 0:
        return float("nan"), float("nan")
    ci = binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)

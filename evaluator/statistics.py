"""Statistics for leaderboards: bootstrap CIs, McNemar mid-p, Benjamini–Hochberg, rank flips.

* :func:`bootstrap_ci`: seeded percentile bootstrap of a per-sample mean.
* :func:`mcnemar_midp`: two-sided mid-p McNemar test on paired correctness of two models
  (``b`` = only A right, ``c`` = only B right; ``p_mid = 2·P(X ≤ min(b,c)) − P(X = min(b,c))``,
  ``X ~ Bin(b + c, 1/2)``, capped at 1; Fagerland et al. 2013).
* :func:`benjamini_hochberg`: FDR-adjusted q-values across a family of tests (model pairs).
* :func:`pairwise_tests`: every model pair on one split, BH-adjusted.
* :func:`rank_flips`: a flip between two splits counts only when the lead is significant
  (BH q ≤ ``q``) on **both** splits with opposite signs; ``p_flip`` = max of the two p-values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations

import numpy as np
from scipy.stats import binom

_BOOT_CHUNK = 1 << 22


def bootstrap_ci(
    values: np.ndarray, n_boot: int = 1000, alpha: float = 0.05, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap CI of ``mean(values)``; identical inputs and seed give identical CIs.

    0/1 values are resampled exactly through the binomial distribution of the resampled count
    (O(n_boot) instead of O(n_boot · n)); other values by index resampling in bounded chunks.
    """
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    if n == 0:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    if np.isin(values, (0.0, 1.0)).all():
        means = rng.binomial(n, values.mean(), size=n_boot) / n
    else:
        means = np.empty(n_boot)
        step = max(1, _BOOT_CHUNK // n)
        for start in range(0, n_boot, step):
            stop = min(n_boot, start + step)
            idx = rng.integers(0, n, size=(stop - start, n))
            means[start:stop] = values[idx].mean(axis=1)
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def mcnemar_midp_counts(b: int, c: int) -> tuple[float, float]:
    """``(p_exact, p_mid)`` two-sided for discordant counts ``b`` and ``c``."""
    n = b + c
    if n == 0:
        return 1.0, 1.0
    k = min(b, c)
    cdf = float(binom.cdf(k, n, 0.5))
    exact = min(1.0, 2 * cdf)
    mid = min(1.0, 2 * cdf - float(binom.pmf(k, n, 0.5)))
    return exact, mid


@dataclass(frozen=True)
class PairTest:
    """McNemar test of two models on the same samples (``lead`` > 0 when A is better)."""

    model_a: str
    model_b: str
    n: int
    acc_a: float
    acc_b: float
    b: int
    c: int
    p: float
    q: float = float("nan")

    @property
    def lead(self) -> float:
        return self.acc_a - self.acc_b

    def significant(self, q: float = 0.05) -> bool:
        return bool(self.q <= q) and self.b != self.c

    def to_dict(self) -> dict:
        return {**asdict(self), "lead": self.lead}


def mcnemar_midp(model_a: str, a: np.ndarray, model_b: str, b: np.ndarray) -> PairTest:
    """Mid-p McNemar test on per-sample correctness of two models (same sample order)."""
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    if a.shape != b.shape:
        raise ValueError(f"paired correctness must have equal length: {a.shape} vs {b.shape}")
    only_a, only_b = int(np.sum(a & ~b)), int(np.sum(~a & b))
    _, p_mid = mcnemar_midp_counts(only_a, only_b)
    acc_a = float(a.mean()) if len(a) else 0.0
    acc_b = float(b.mean()) if len(b) else 0.0
    return PairTest(model_a, model_b, len(a), acc_a, acc_b, only_a, only_b, p_mid)


def benjamini_hochberg(pvalues: Sequence[float]) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (q-values), in the input order."""
    p = np.asarray(pvalues, dtype=np.float64)
    m = len(p)
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    q_sorted = np.minimum.accumulate(scaled[::-1])[::-1]
    q = np.empty(m)
    q[order] = np.minimum(q_sorted, 1.0)
    return q


def pairwise_tests(correct: Mapping[str, np.ndarray]) -> list[PairTest]:
    """McNemar mid-p for every pair of models (sorted names), with BH q-values across pairs."""
    names = sorted(correct)
    tests = [mcnemar_midp(a, correct[a], b, correct[b]) for a, b in combinations(names, 2)]
    q = benjamini_hochberg([t.p for t in tests])
    return [PairTest(**{**asdict(t), "q": float(qi)}) for t, qi in zip(tests, q, strict=True)]


@dataclass(frozen=True)
class Flip:
    """A ranking flip of two models between two splits."""

    model_a: str
    model_b: str
    lead_1: float
    lead_2: float
    p_1: float
    p_2: float
    q_1: float
    q_2: float

    @property
    def p_flip(self) -> float:
        return max(self.p_1, self.p_2)

    def to_dict(self) -> dict:
        return {**asdict(self), "p_flip": self.p_flip}


def rank_flips(
    split_1: Sequence[PairTest], split_2: Sequence[PairTest], q: float = 0.05
) -> list[Flip]:
    """Model pairs whose lead is significant on both splits with opposite signs."""
    second = {(t.model_a, t.model_b): t for t in split_2}
    flips = []
    for t1 in split_1:
        t2 = second.get((t1.model_a, t1.model_b))
        if t2 is None or not (t1.significant(q) and t2.significant(q)):
            continue
        if np.sign(t1.lead) * np.sign(t2.lead) < 0:
            flips.append(Flip(t1.model_a, t1.model_b, t1.lead, t2.lead, t1.p, t2.p, t1.q, t2.q))
    return flips

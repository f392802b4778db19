"""McNemar mid-p on known tables, Benjamini–Hochberg, bootstrap and rank flips."""

from __future__ import annotations

import numpy as np
import pytest

from crepe_datasets.evaluator.statistics import (
    PairTest,
    benjamini_hochberg,
    bootstrap_ci,
    mcnemar_midp,
    mcnemar_midp_counts,
    pairwise_tests,
    rank_flips,
)


def test_mcnemar_midp_known_tables() -> None:
    # Fagerland, Lydersen & Laake (2013), b=1, c=7: exact 0.070, mid-p 0.039.
    exact, mid = mcnemar_midp_counts(1, 7)
    assert exact == pytest.approx(18 / 256)
    assert mid == pytest.approx(10 / 256)
    assert round(mid, 3) == 0.039
    assert mcnemar_midp_counts(0, 0) == (1.0, 1.0)
    assert mcnemar_midp_counts(5, 5)[1] == 1.0
    assert mcnemar_midp_counts(2, 8) == pytest.approx((112 / 1024, 67 / 1024))
    assert mcnemar_midp_counts(7, 1) == mcnemar_midp_counts(1, 7)


def test_mcnemar_from_correctness() -> None:
    a = np.array([1] * 10 + [0] * 7 + [1] * 1 + [0] * 2, dtype=bool)
    b = np.array([1] * 10 + [1] * 7 + [0] * 1 + [0] * 2, dtype=bool)
    t = mcnemar_midp("A", a, "B", b)
    assert (t.b, t.c, t.n) == (1, 7, 20)
    assert t.p == pytest.approx(10 / 256)
    assert t.lead == pytest.approx(-0.3)
    with pytest.raises(ValueError):
        mcnemar_midp("A", a, "B", b[:5])


def test_benjamini_hochberg_matches_hand_computation() -> None:
    p = [0.01, 0.04, 0.03, 0.20]
    # sorted: 0.01*4/1=0.04, 0.03*4/2=0.06, 0.04*4/3=0.0533, 0.2 -> monotone: 0.04, 0.0533, 0.0533, 0.2
    assert benjamini_hochberg(p) == pytest.approx([0.04, 0.05333333, 0.05333333, 0.2])
    assert benjamini_hochberg([]).size == 0
    assert benjamini_hochberg([0.9, 0.9]) == pytest.approx([0.9, 0.9])


def test_bootstrap_is_seeded_and_covers_the_mean() -> None:
    rng = np.random.default_rng(3)
    x = rng.random(500) < 0.3
    lo, hi = bootstrap_ci(x, seed=7)
    assert (lo, hi) == bootstrap_ci(x, seed=7)
    assert lo < x.mean() < hi and hi - lo < 0.1
    ranks = rng.integers(1, 6, size=300).astype(float)
    lo, hi = bootstrap_ci(ranks, n_boot=200, seed=0)
    assert lo < ranks.mean() < hi


def _test(a: str, b: str, lead: float, p: float, q: float) -> PairTest:
    acc_b = 0.5
    return PairTest(a, b, 100, acc_b + lead, acc_b, 10, 2, p, q)


def test_rank_flips_need_significance_on_both_splits() -> None:
    s1 = [
        _test("A", "B", 0.1, 0.001, 0.002),
        _test("A", "C", 0.1, 0.001, 0.003),
        _test("B", "C", 0.1, 0.001, 0.01),
    ]
    s2 = [
        _test("A", "B", -0.1, 0.01, 0.02),
        _test("A", "C", -0.1, 0.2, 0.3),
        _test("B", "C", 0.1, 0.001, 0.01),
    ]
    flips = rank_flips(s1, s2)
    assert [(f.model_a, f.model_b) for f in flips] == [("A", "B")]
    assert flips[0].p_flip == 0.01


def test_pairwise_tests_adjust_across_pairs() -> None:
    rng = np.random.default_rng(0)
    truth = rng.random(400) < 0.6
    correct = {"m1": truth, "m2": truth.copy(), "m3": rng.random(400) < 0.3}
    tests = pairwise_tests(correct)
    assert [(t.model_a, t.model_b) for t in tests] == [("m1", "m2"), ("m1", "m3"), ("m2", "m3")]
    assert tests[0].p == 1.0 and not tests[0].significant()
    assert tests[1].significant() and tests[1].q >= tests[1].p

"""Each agreement statistic against a published worked example (not against our own code)."""

from __future__ import annotations

import numpy as np
import pytest

from crepe_datasets.validation.annotation.agreement import (
    bootstrap,
    cohen_kappa,
    fleiss_kappa,
    fleiss_kappa_counts,
    krippendorff_alpha,
    percent_agreement,
    wilson_interval,
)

# Fleiss (1971), Psychological Bulletin 76(5), Table 1: 30 patients, 6 psychiatrists each,
# categories depression, personality disorder, schizophrenia, neurosis, other. Published κ = .430.
FLEISS_1971 = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
    [0, 0, 5, 0, 1], [3, 0, 0, 1, 2], [5, 1, 0, 0, 0], [0, 2, 0, 4, 0], [1, 0, 2, 0, 3],
    [0, 0, 0, 0, 6], [0, 1, 0, 5, 0], [0, 2, 0, 1, 3], [2, 0, 0, 4, 0], [1, 0, 0, 4, 1],
    [0, 5, 0, 1, 0], [4, 0, 0, 0, 2], [0, 2, 0, 4, 0], [1, 0, 5, 0, 0], [0, 0, 0, 0, 6],
]  # fmt: skip

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers,
# 12 units, missing values; published nominal α = 0.743.
KRIPPENDORFF_2011 = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
}
# Same paper, section A: two observers, binary data, 10 units; published α = 0.095.
KRIPPENDORFF_BINARY = ([0, 1, 0, 0, 0, 0, 0, 0, 1, 0], [1, 1, 1, 0, 0, 1, 0, 0, 0, 0])


def _units(*raters):
    return [[None if v is None else str(v) for v in unit] for unit in zip(*raters, strict=True)]


def _from_counts(table):
    labels = "abcde"
    return [[labels[j] for j, k in enumerate(row) for _ in range(k)] for row in table]


def test_fleiss_1971_table():
    assert fleiss_kappa_counts(np.array(FLEISS_1971)) == pytest.approx(0.430, abs=5e-4)
    assert fleiss_kappa(_from_counts(FLEISS_1971)) == pytest.approx(0.430, abs=5e-4)


def test_krippendorff_reliability_data_example():
    units = _units(*KRIPPENDORFF_2011.values())
    assert krippendorff_alpha(units) == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha(_units(*KRIPPENDORFF_BINARY)) == pytest.approx(0.095, abs=5e-4)


def test_cohen_textbook_example():
    # 50 grant proposals read by two readers (the standard worked example, e.g. Wikipedia's
    # "Cohen's kappa"): yes/yes 20, yes/no 5, no/yes 10, no/no 15 → p_o = .70, p_e = .50, κ = .40.
    units = [["y", "y"]] * 20 + [["y", "n"]] * 5 + [["n", "y"]] * 10 + [["n", "n"]] * 15
    assert cohen_kappa(units) == pytest.approx(0.40, abs=1e-12)
    assert percent_agreement(units) == pytest.approx(0.70, abs=1e-12)


def test_percent_agreement_is_fleiss_p_bar():
    # Fleiss (1971) gives the mean observed agreement P̄ = .556 for the same table.
    assert percent_agreement(_from_counts(FLEISS_1971)) == pytest.approx(0.556, abs=5e-4)


@pytest.mark.parametrize(
    ("x", "n", "low", "high"),
    # Newcombe (1998), Statistics in Medicine 17, Table I, method 3 (Wilson score).
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_newcombe_examples(x, n, low, high):
    got = wilson_interval(x, n)
    assert got[0] == pytest.approx(low, abs=1e-4)
    assert got[1] == pytest.approx(high, abs=1e-4)


def test_bootstrap_interval_brackets_value_and_is_seeded():
    units = _from_counts(FLEISS_1971)
    a = bootstrap(fleiss_kappa, units, n_resamples=300, seed=3)
    b = bootstrap(fleiss_kappa, units, n_resamples=300, seed=3)
    assert a == b
    assert a.low < a.value < a.high
    assert a.low > 0.2 and a.high < 0.65


def test_cohen_needs_two_raters():
    with pytest.raises(ValueError):
        cohen_kappa([["a", "b", "a"]])

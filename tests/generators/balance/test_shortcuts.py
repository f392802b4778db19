"""Text-only formatting baselines: chance when formatting is uniform, high when it leaks."""

from __future__ import annotations

import pytest

from crepe_datasets.generators.balance.shortcuts import (
    FEATURES,
    MARGIN,
    audit_rows,
    audit_sets,
    expected_r1,
)
from tests.conftest import require_shared


def test_uniform_formatting_scores_chance():
    sets = [[f"red car {i}", f"blue car {i}", f"red cat {i}"] for i in range(30)]
    audit = audit_sets(sets)
    assert audit.chance == pytest.approx(1 / 3)
    assert all(v == pytest.approx(1 / 3) for v in audit.baselines.values())
    assert audit.passed


def test_lower_case_positive_is_found():
    sets = [["a dog on grass", "A cat on grass", "There is no dog on grass"] for _ in range(10)]
    audit = audit_sets(sets)
    assert audit.baselines["max_all_lower"] == 1.0 and audit.best[1] == 1.0 and not audit.passed


def test_ties_count_as_expected_value():
    assert expected_r1([["a.", "b.", "c"]], FEATURES["trailing_period"], 1.0) == pytest.approx(0.5)
    assert expected_r1([["a", "b.", "c"]], FEATURES["trailing_period"], 1.0) == 0.0


def test_spacing_feature():
    assert FEATURES["irregular_spacing"]("a  dog ,on grass ") == 3.0
    assert FEATURES["irregular_spacing"]("a dog, on grass") == 0.0


def test_report_pools_splits_per_config():
    rows = [{"caption": "a dog", "hard_negatives": ["a cat", "a cow"]}]
    report = audit_rows({"hn": {"s1": rows, "s2": rows * 2}})
    assert report.configs["hn"].rows == 3 and report.passed
    assert report.to_dict()["margin"] == MARGIN


def test_crepe_release_negate_has_the_lower_case_shortcut():
    folder = require_shared("crepe_release", "prod_hard_negatives", "negate")
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.sources.crepe_release import read_crepe_release

    files = sorted(folder.glob("*_complexity_4.csv"))
    sets = [[s.caption, *s.negatives] for s in read_crepe_release(files[0], DropLog())]
    audit = audit_sets(sets)
    assert audit.chance == pytest.approx(1 / 6)
    assert audit.baselines["max_all_lower"] > 0.9 and not audit.passed

"""The registry of per-dataset checks: keyed by dataset kind, one function per name."""

from __future__ import annotations

import pytest

from crepe_datasets.validation.invariants import InvariantReport
from crepe_datasets.validation.registry import (
    CheckInput,
    checks_for,
    register_check,
    registered_datasets,
)


def _rows(given: CheckInput) -> InvariantReport:
    return InvariantReport(rows=sum(len(r) for s in given.tables.values() for r in s.values()))


def _other(given: CheckInput) -> InvariantReport:
    return InvariantReport()


def test_checks_are_found_by_dataset_kind_in_name_order() -> None:
    register_check("test-registry-kind", "z_rows", _rows)
    register_check("test-registry-kind", "a_other", _other)
    register_check("test-registry-kind", "z_rows", _rows)  # the same function again is fine
    assert list(checks_for("test-registry-kind")) == ["a_other", "z_rows"]
    assert "test-registry-kind" in registered_datasets()
    assert checks_for("test-registry-no-such-kind") == {}


def test_a_second_function_under_one_name_is_refused() -> None:
    register_check("test-registry-clash", "rows", _rows)
    with pytest.raises(ValueError, match="already registered"):
        register_check("test-registry-clash", "rows", _other)

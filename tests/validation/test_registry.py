"""The registry of per-dataset checks: keyed by dataset kind, one function per name."""

from __future__ import annotations

import pytest

from crepe_datasets.validation.invariants import InvariantReport
from crepe_datasets.validation.registry import (
    COMMON_CHECKS,
    CheckInput,
    RecordedReport,
    checks_for,
    claimed_configs,
    recorded_checks,
    register_check,
    register_dataset,
    registered_datasets,
)


def _rows(given: CheckInput) -> InvariantReport:
    return InvariantReport(rows=sum(len(r) for s in given.tables.values() for r in s.values()))


def _other(given: CheckInput) -> InvariantReport:
    return InvariantReport()


def test_checks_are_found_by_dataset_kind_in_name_order() -> None:
    register_dataset("test-registry-kind", ("invariants",))
    register_check("test-registry-kind", "z_rows", _rows)
    register_check("test-registry-kind", "a_other", _other)
    register_check("test-registry-kind", "z_rows", _rows)  # the same function again is fine
    assert list(checks_for("test-registry-kind")) == ["a_other", "z_rows"]
    assert "test-registry-kind" in registered_datasets()
    assert checks_for("test-registry-no-such-kind") == {}
    assert recorded_checks("test-registry-kind") == ["a_other", "invariants", "z_rows"]


def test_a_kind_is_declared_before_its_checks_with_known_common_checks() -> None:
    with pytest.raises(ValueError, match="register_dataset"):
        register_check("test-registry-undeclared", "rows", _rows)
    with pytest.raises(ValueError, match="no common check is named rows"):
        register_dataset("test-registry-bad", ("rows",))
    register_dataset("test-registry-twice", COMMON_CHECKS)
    register_dataset("test-registry-twice", COMMON_CHECKS)  # the same declaration again is fine
    with pytest.raises(ValueError, match="already registered with the common checks"):
        register_dataset("test-registry-twice", ())


def test_every_builder_declares_its_dataset_kind() -> None:
    import crepe_datasets.builders.checks  # noqa: F401  (registers every builder's checks)

    assert {
        "crepe-bindsplit", "crepe-bindsplit-holdout", "crepe-captioning", "crepe-productivity",
        "crepe-systematicity", "crepe-vg-regions",
    } <= set(registered_datasets())  # fmt: skip
    assert recorded_checks("crepe-systematicity") == sorted(
        {*COMMON_CHECKS, "groups_checks", "groups_comp_checks", "systematicity_checks"}
    )
    assert recorded_checks("crepe-productivity") == sorted(
        {*COMMON_CHECKS, "groups_checks", "groups_comp_checks"}
    )
    assert recorded_checks("crepe-captioning") == ["invariants"]
    assert claimed_configs("crepe-systematicity") == {"groups", "groups_comp"}
    assert claimed_configs("crepe-productivity") == {"groups", "groups_comp"}
    assert recorded_checks("crepe-vg-regions") == []


def test_a_dict_result_passes_as_it_says() -> None:
    assert RecordedReport({"passed": True, "rows_checked": 3}).passed
    assert not RecordedReport({"passed": False}).passed


def test_a_second_function_under_one_name_is_refused() -> None:
    register_dataset("test-registry-clash")
    register_check("test-registry-clash", "rows", _rows)
    with pytest.raises(ValueError, match="already registered"):
        register_check("test-registry-clash", "rows", _other)

"""``crepe validate dataset`` runs the checks a crepe-systematicity build runs (real small build)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import crepe_datasets.builders.checks  # noqa: F401  (registers every builder's checks)
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.validation.dataset import validate_dataset
from crepe_datasets.validation.invariants import read_tables
from crepe_datasets.validation.registry import COMMON_CHECKS, CheckInput, checks_for
from tests.conftest import assert_validate_reruns_the_build


def test_validate_runs_the_builds_seen_table_checks(small_build, seen_folder: Path) -> None:
    _, folder, manifest = small_build
    result = validate_dataset(folder, seen=seen_folder)
    report = result.dataset_checks["systematicity_checks"]
    assert report.rows > 0 and report.passed and not report.skipped
    assert report.to_dict() == manifest.validation["systematicity_checks"]
    assert result.to_dict()["dataset_checks"]["systematicity_checks"]["passed"] is True


def test_validate_reports_every_check_the_build_recorded(small_build, seen_folder: Path) -> None:
    _, folder, _ = small_build
    recorded = assert_validate_reruns_the_build(folder, seen=seen_folder)
    assert sorted(recorded) == sorted({*COMMON_CHECKS, "systematicity_checks"})


def test_without_seen_tables_the_rederivation_is_counted_as_skipped(small_build) -> None:
    _, folder, _ = small_build
    report = validate_dataset(folder).dataset_checks["systematicity_checks"]
    assert report.passed
    assert report.skipped == {"unseen_lists_against_seen_tables (no --seen)": report.rows}


def test_a_row_whose_split_does_not_follow_from_the_seen_tables_fails(
    small_build, seen_folder: Path
) -> None:
    _, folder, manifest = small_build
    tables = read_tables(folder)
    # A row with two unseen atoms that lists one: its split still follows from its lists, so only
    # the seen tables show it.
    row = next(r for r in tables["raw"]["unseen_atoms"] if len(r["unseen_atoms"]) >= 2)
    row["unseen_atoms"] = list(row["unseen_atoms"])[:-1]
    check = checks_for(manifest.dataset)["systematicity_checks"]
    report = check(CheckInput(folder, manifest, tables, seen_folder))
    assert dict(report.violations) == {("raw", "split_not_rederived"): 1}
    assert check(CheckInput(folder, manifest, tables)).passed


def test_seen_tables_of_another_corpus_are_refused(
    small_build, seen_folder: Path, tmp_path: Path
) -> None:
    _, folder, _ = small_build
    other = tmp_path / "seen"
    shutil.copytree(seen_folder, other)
    meta = json.loads((other / "manifest.json").read_text(encoding="utf-8"))
    meta["inputs"][0]["sha256"] = "0" * 64
    (other / "manifest.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(CrepeInputError, match="another corpus"):
        validate_dataset(folder, seen=other)

"""``crepe validate dataset --vg`` re-runs the groups check of a build with ``--counter-pool``."""

from __future__ import annotations

import crepe_datasets.builders.checks  # noqa: F401  (registers every builder's checks)
from crepe_datasets.validation.dataset import validate_dataset
from crepe_datasets.validation.registry import COMMON_CHECKS
from tests.builders.counter_images.conftest import VG
from tests.conftest import assert_validate_reruns_the_build, require_shared


def test_validate_reports_every_check_the_build_recorded(groups_build, seen_folder) -> None:
    vg = require_shared(*VG)
    recorded = assert_validate_reruns_the_build(groups_build, vg=vg, seen=seen_folder)
    assert sorted(recorded) == sorted({*COMMON_CHECKS, "groups_checks", "systematicity_checks"})
    assert recorded["groups_checks"]["rows_checked"] > 0


def test_without_the_visual_genome_folder_the_groups_are_counted_as_skipped(groups_build) -> None:
    report = validate_dataset(groups_build).dataset_checks["groups_checks"].to_dict()
    assert report["passed"] and report["violations"] == {}
    assert report["skipped"] == {
        "groups_checks (no --vg: the Visual Genome alias files)": report["rows_checked"]
    }

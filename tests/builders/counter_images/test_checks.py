"""``crepe validate dataset`` re-runs the build's independent check of every group against the
counter-image pool (real build: VG 1-100 + FACTUAL)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import crepe_datasets.builders.checks  # noqa: F401  (registers every builder's checks)
from crepe_datasets.cards.manifest import read_manifest
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scripts.cli import main
from crepe_datasets.validation.dataset import validate_dataset
from crepe_datasets.validation.invariants import read_tables
from crepe_datasets.validation.registry import COMMON_CHECKS, CheckInput, checks_for
from tests.builders.counter_images.conftest import FACTUAL, VG
from tests.conftest import assert_validate_reruns_the_build, require_shared


def _pool() -> tuple[Path, Path]:
    return require_shared(*VG), require_shared(*FACTUAL)


def _check(folder: Path, tables=None, counter_pool: tuple[Path, ...] | None = None):
    counter_pool = _pool() if counter_pool is None else counter_pool
    manifest = read_manifest(folder)
    check = checks_for(manifest.dataset)["groups_checks"]
    tables = tables or read_tables(folder)
    given = CheckInput(folder, manifest, tables, counter_pool=counter_pool)
    return check(given)


def test_validate_reports_every_check_the_build_recorded(groups_build, seen_folder) -> None:
    recorded = assert_validate_reruns_the_build(
        groups_build, seen=seen_folder, counter_pool=_pool()
    )
    assert sorted(recorded) == sorted(
        {*COMMON_CHECKS, "groups_checks", "groups_comp_checks", "systematicity_checks"}
    )
    assert recorded["groups_checks"]["rows_checked"] > 0


def test_the_vg_folder_is_one_more_place_for_the_pool(groups_build: Path) -> None:
    """``validate dataset --vg`` names where the build's Visual Genome source lies now."""
    vg, factual = _pool()
    manifest = json.loads((groups_build / "build_manifest.json").read_text())
    report = validate_dataset(groups_build, vg=vg, counter_pool=(factual,)).dataset_checks
    assert report["groups_checks"].to_dict() == manifest["validation"]["groups_checks"]


def test_validate_reports_what_the_build_recorded(groups_build: Path) -> None:
    manifest = json.loads((groups_build / "build_manifest.json").read_text())
    result = validate_dataset(groups_build, counter_pool=_pool())
    report = result.dataset_checks["groups_checks"]
    assert report.rows == sum(manifest["summary"]["groups"]["groups_per_split"].values()) > 0
    assert report.passed and not report.skipped
    assert report.to_dict() == manifest["validation"]["groups_checks"]
    sources = manifest["summary"]["groups"]["pool"]["sources"]
    assert [s["kind"] for s in sources] == ["vg", "factual"]
    assert "object_alias.txt" in sources[0]["files"]


def test_a_counter_region_swapped_for_another_fails(groups_build: Path) -> None:
    tables = read_tables(groups_build)
    rows = [r for split in tables["groups"].values() for r in split]
    row = rows[0]
    # another group's counter-region (a real pool region, with its own box and object map) where
    # this row's negative is not annotated
    other = next(
        r
        for r in rows
        if r["image_1_id"] not in (row["image_1_id"], row["image_0_id"])
        and r["exchange"].split("->")[1] != row["exchange"].split("->")[1]
    )
    columns = ("id", "file", "bbox", "region_id", "source", "description", "graph")
    for c in columns:
        row[f"image_1_{c}"] = other[f"image_1_{c}"]
    row["match_1"] = other["match_1"]
    report = _check(groups_build, tables)
    assert not report.passed
    assert report.violations[("groups", "negative_compounds_in_counter")] == 1
    assert report.violations[("groups", "counter_region_in_pool")] == 0


def test_a_row_naming_a_region_the_pool_does_not_hold_fails(groups_build: Path) -> None:
    tables = read_tables(groups_build)
    split = next(s for s, rows in tables["groups"].items() if rows)
    row = tables["groups"][split][0]
    # the graph kept, the counter-region said to be another image's
    row["image_1_id"] = "999999999"
    assert dict(_check(groups_build, tables).violations) == {
        ("groups", "counter_region_in_pool"): 1
    }


def test_a_moved_pool_is_found_by_its_checksums(groups_build: Path, tmp_path: Path) -> None:
    """The manifest records each source by name (no path of the build machine) and checksums:
    a renamed copy given with --counter-pool is the same pool."""
    moved = tmp_path / "renamed.csv"
    shutil.copyfile(require_shared(*FACTUAL), moved)
    data = json.loads((groups_build / "build_manifest.json").read_text(encoding="utf-8"))
    assert [s["path"] for s in data["summary"]["groups"]["pool"]["sources"]] == [
        "images_1-100",
        "factual_sg.csv",
    ]
    with pytest.raises(CrepeInputError, match="is not there"):
        _check(groups_build, counter_pool=())
    report = _check(groups_build, counter_pool=(require_shared(*VG), moved))
    assert report.to_dict() == data["validation"]["groups_checks"]


def test_a_pool_that_differs_is_one_sentence_and_status_2(
    groups_build: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    changed = tmp_path / "factual_sg.csv"
    text = require_shared(*FACTUAL).read_text(encoding="utf-8")
    changed.write_text(text.replace("white", "black", 1), encoding="utf-8")
    with pytest.raises(CrepeInputError, match="differs from the one"):
        _check(groups_build, counter_pool=(require_shared(*VG), changed))
    capsys.readouterr()
    vg = str(require_shared(*VG))
    status = main(
        [
            "validate",
            "dataset",
            str(groups_build),
            "--counter-pool",
            vg,
            "--counter-pool",
            str(changed),
        ]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert len(err) == 1 and err[0].startswith("error: the counter pool ")
    assert "Traceback" not in err[0]


def test_hn_comp_groups_counted_and_reverified(groups_build: Path) -> None:
    """``groups_comp``: every HN-COMP negative is a group or counted by reason (stage
    ``counter_images_comp``), per split; validate re-runs its check as the build did."""
    manifest = json.loads((groups_build / "build_manifest.json").read_text())
    g = manifest["summary"]["groups_comp"]
    counts = manifest["counts"]
    for split, negatives in g["hn_comp_negatives_per_split"].items():
        assert negatives == 6 * counts["hn_comp"][split]
        unmatched = sum(g["unmatched_per_split"][split].values())
        assert g["groups_per_split"][split] + unmatched == negatives
    assert sum(manifest["drops"]["counter_images_comp"].values()) == sum(g["unmatched"].values())
    assert manifest["configs"]["groups_comp"]["task"]["type"] == "group"
    result = validate_dataset(groups_build, counter_pool=_pool())
    report = result.dataset_checks["groups_comp_checks"]
    assert report.passed and report.rows == sum(g["groups_per_split"].values())
    assert report.to_dict() == manifest["validation"]["groups_comp_checks"]
    for rows in read_tables(groups_build).get("groups_comp", {}).values():
        for r in rows:
            assert r["negative_type"] == "comp" and r["exchange"].startswith("compound:")

"""The ``groups`` config of a real productivity build (VG images 1-60 + FACTUAL): yields per
complexity, every unmatched negative counted by reason, and the independent check of every group
re-run by ``crepe validate dataset``'s registry against the pool."""

from __future__ import annotations

import json
from pathlib import Path

import crepe_datasets.builders.checks  # noqa: F401  (registers every builder's checks)
from crepe_datasets.cards.manifest import read_manifest
from crepe_datasets.validation.invariants import read_tables
from crepe_datasets.validation.registry import COMMON_CHECKS, CheckInput, checks_for
from tests.builders.counter_images.conftest import FACTUAL, VG
from tests.conftest import assert_validate_reruns_the_build, require_shared


def _check(folder: Path, tables=None):
    manifest = read_manifest(folder)
    pool = (require_shared(*VG), require_shared(*FACTUAL))
    given = CheckInput(folder, manifest, tables or read_tables(folder), counter_pool=pool)
    return checks_for("crepe-productivity")["groups_checks"](given)


def test_yields_per_complexity_and_every_negative_counted(productivity_groups_build: Path) -> None:
    manifest = json.loads((productivity_groups_build / "build_manifest.json").read_text())
    g = manifest["summary"]["groups"]
    counts = manifest["counts"]
    assert set(g["groups_per_split"]) == set(counts["hn_atom"])
    for split, negatives in g["hn_atom_negatives_per_split"].items():
        assert negatives == 5 * counts["hn_atom"][split]
        unmatched = sum(g["unmatched_per_split"][split].values())
        assert g["groups_per_split"][split] + unmatched == negatives
        assert counts["groups"][split] == g["groups_per_split"][split]
    assert sum(g["groups_per_split"].values()) > 0
    assert manifest["validation"]["groups_checks"]["passed"]
    assert "Yields per split: complexity_4:" in manifest["card"]["how_built"]
    tables = read_tables(productivity_groups_build)
    for rows in tables["groups"].values():
        for r in rows:
            assert r["image_0_id"] != r["image_1_id"]
            assert r["negative_type"] == "atom"
            assert "subgraph" in r["match_0"]
    ids = [r["id"] for rows in tables["groups"].values() for r in rows]
    assert len(ids) == len(set(ids))


def test_validate_reruns_the_check_and_a_wrong_counter_region_fails(
    productivity_groups_build: Path,
) -> None:
    manifest = json.loads((productivity_groups_build / "build_manifest.json").read_text())
    report = _check(productivity_groups_build)
    assert report.passed and report.rows == sum(manifest["counts"]["groups"].values())
    assert report.to_dict() == manifest["validation"]["groups_checks"]
    tables = read_tables(productivity_groups_build)
    rows = [r for split in tables["groups"].values() for r in split]
    # the counter-region said to be another image of the pool (same graph and box)
    rows[0]["image_1_id"] = next(
        r["image_0_id"] for r in rows if r["image_0_id"] != rows[0]["image_1_id"]
    )
    violations = _check(productivity_groups_build, tables).violations
    assert violations[("groups", "counter_region_in_pool")] == 1


def test_validate_reports_every_check_the_build_recorded(productivity_groups_build: Path) -> None:
    pool = (require_shared(*VG), require_shared(*FACTUAL))
    recorded = assert_validate_reruns_the_build(productivity_groups_build, counter_pool=pool)
    assert sorted(recorded) == sorted({*COMMON_CHECKS, "groups_checks"})

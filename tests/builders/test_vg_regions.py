from __future__ import annotations

import json

import pytest

from crepe_datasets.builders.demo_data import write_demo_inputs
from crepe_datasets.builders.vg_regions import VGRegionsConfig, build_vg_regions
from crepe_datasets.infra.errors import CrepeInputError
from tests.conftest import assert_validate_reruns_the_build, require_shared


def test_demo_regions_are_filtered_cropped_and_loadable(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    from datasets import load_dataset

    inputs = write_demo_inputs(tmp_path / "inputs")
    manifest = build_vg_regions(
        VGRegionsConfig(inputs / "vg", tmp_path / "ds", images=inputs / "images")
    )
    n_regions = sum(
        len(r["regions"])
        for r in json.loads((inputs / "vg" / "region_descriptions.json").read_text())
    )
    kept = manifest.counts["regions"]["test"]
    assert kept + manifest.drops.total() == n_regions  # nothing lost silently
    ds = load_dataset(str(tmp_path / "ds"), "regions", split="test", cache_dir=str(tmp_path / "c"))
    row = ds[0]
    assert row["image"].size == (round(row["bbox"][2]), round(row["bbox"][3]))
    assert row["bbox"][2] * row["bbox"][3] >= 40_000


def test_real_visual_genome_sample(tmp_path):
    vg = require_shared("visual_genome", "images_1-100")
    manifest = build_vg_regions(VGRegionsConfig(vg, tmp_path / "ds"))
    kept = manifest.counts["regions"]["test"]
    n_regions = sum(
        len(r["regions"]) for r in json.loads((vg / "region_descriptions.json").read_text())
    )
    assert 0 < kept < n_regions
    assert kept + manifest.drops.total() == n_regions
    assert {f.path.split("/")[-1] for f in manifest.inputs} == {
        "region_descriptions.json",
        "image_data.json",
    }


def test_missing_files_are_a_clear_error(tmp_path):
    with pytest.raises(CrepeInputError, match=r"region_descriptions\.json"):
        build_vg_regions(VGRegionsConfig(tmp_path, tmp_path / "ds"))


def test_validate_knows_the_build_records_no_check(tmp_path):
    vg = require_shared("visual_genome", "images_1-100")
    build_vg_regions(VGRegionsConfig(vg, tmp_path / "ds"))
    assert assert_validate_reruns_the_build(tmp_path / "ds") == {}

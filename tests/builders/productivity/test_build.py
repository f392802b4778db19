"""End to end on the real Visual Genome sample: configs, counts, card, images, determinism."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity
from crepe_datasets.builders.productivity.rows import CONFIG_NAMES
from tests.conftest import require_shared

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def vg():
    return require_shared("visual_genome", "images_1-100")


@pytest.fixture(scope="module")
def built(vg, tmp_path_factory):
    out = tmp_path_factory.mktemp("prod") / "crepe-productivity"
    folder, manifest = build_productivity(
        ProductivitySettings(vg=str(vg), out=str(out), limit=12, progress=False)
    )
    return folder, manifest


def test_configs_splits_and_load_dataset(built, tmp_path):
    from datasets import load_dataset

    folder, manifest = built
    cache = str(tmp_path / "hf-cache")  # datasets keys its cache by folder name, not content
    assert set(manifest.counts) == set(CONFIG_NAMES)
    assert list(manifest.counts["raw"]) == [f"complexity_{n}" for n in range(4, 13)]
    ds = load_dataset(str(folder), "hn_swap", split="complexity_7", cache_dir=cache)
    assert len(ds) == manifest.counts["hn_swap"]["complexity_7"] > 0
    row = ds[0]
    assert len(row["hard_negatives"]) == 5 and set(row["negative_types"]) == {"swap"}
    assert row["n"] == 7 == row["n_objects"] + row["n_attributes"] + row["n_relationships"]
    all_row = load_dataset(str(folder), "hn_all", split="complexity_10", cache_dir=cache)[0]
    assert len(all_row["hard_negatives"]) == 15
    assert sorted(set(all_row["negative_types"])) == ["atom", "negate", "swap"]


def test_manifest_and_card_report_counts_and_drops(built):
    folder, _manifest = built
    data = json.loads((folder / "build_manifest.json").read_text())
    summary = data["summary"]
    assert summary["captions"] == "template captions (no LLM)" and summary["nli_filter"].startswith(
        "none"
    )
    assert set(summary["ground_truths_per_n"]) == {f"complexity_{n}" for n in range(4, 13)}
    assert set(summary["negatives_per_type_per_n"]) == {"hn_atom", "hn_swap", "hn_negate"}
    for stage in ("productivity_region", "productivity_configs", "productivity_clean"):
        assert stage in data["drops"]
    assert data["validation"]["invariants"]["passed"] and data["validation"]["shortcuts"]["passed"]
    readme = (folder / "README.md").read_text()
    assert "template captions" in readme and "region_aspect_out_of_range" in readme
    assert "ground_truths_per_n" in readme and "negatives_per_type_per_n" in readme


def test_same_seed_same_bytes(vg, tmp_path):
    outs = []
    for name in ("a", "b"):
        folder, _ = build_productivity(
            ProductivitySettings(
                vg=str(vg), out=str(tmp_path / name), limit=3, progress=False, min_n=4, max_n=6
            )
        )
        outs.append(
            {
                p.relative_to(folder): p.read_bytes()
                for p in sorted((folder / "data").rglob("*.parquet"))
            }
        )
    assert outs[0] == outs[1] and outs[0]


def test_images_are_cropped_into_the_dataset(vg, tmp_path):
    from datasets import load_dataset

    from crepe_datasets.scenegraph.visual_genome import read_image_data

    images = tmp_path / "images"
    images.mkdir()
    infos = read_image_data(vg / "image_data.json")
    for image_id in ("1", "2", "3"):
        info = infos[image_id]
        Image.new("RGB", (info.width, info.height), (int(image_id) * 40, 90, 160)).save(
            images / info.file_name
        )
    folder, _manifest = build_productivity(
        ProductivitySettings(
            vg=str(vg),
            out=str(tmp_path / "ds"),
            images=str(images),
            limit=3,
            progress=False,
            min_n=4,
            max_n=6,
        )
    )
    ds = load_dataset(
        str(folder), "raw", split="complexity_5", cache_dir=str(tmp_path / "hf-cache")
    )
    assert len(ds) > 0
    for row in ds:
        x, y, w, h = row["bbox"]
        assert row["image"].size == (round(x + w) - round(x), round(y + h) - round(y))

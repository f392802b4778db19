"""The dataset writer: a folder that `datasets.load_dataset` opens offline, byte-stable."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from PIL import Image

from crepe_datasets.builders.writer import write_dataset
from crepe_datasets.cards.manifest import BuildManifest, read_manifest
from crepe_datasets.cards.metadata import CardInfo, ConfigInfo, TaskSpec
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scenegraph.crops import ImageCropper


def _manifest(seed: int = 0) -> BuildManifest:
    manifest = BuildManifest(
        dataset="toy",
        version="1.0.0",
        builder="tests",
        card=CardInfo(pretty_name="Toy", summary="A toy dataset."),
        configs={
            "hn": ConfigInfo("hn", "hard negatives", TaskSpec("retrieval")),
            "raw": ConfigInfo("raw", "pairs", TaskSpec("raw_retrieval", negatives_column=None)),
        },
        parameters={"k": 3},
        seed=seed,
    )
    manifest.drops.drop("toy", "too_short", example="x")
    return manifest


def _tables():
    hn = [
        {
            "image_id": str(i),
            "image_file": "a.png",
            "bbox": [0.0, 0.0, 20.0, 10.0],
            "caption": f"a red car {i}",
            "hard_negatives": [f"a blue car {i}", f"a red cat {i}"],
        }
        for i in range(5)
    ]
    raw = [
        {"image_id": str(i), "image_file": "a.png", "bbox": None, "caption": f"c{i}"}
        for i in range(3)
    ]
    return {"hn": {"complexity_4": hn, "complexity_5": hn[:2]}, "raw": {"test": raw}}


def test_folder_loads_offline_with_every_config(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from datasets import load_dataset

    out = write_dataset(tmp_path / "toy", _tables(), _manifest())
    ds = load_dataset(str(out), "hn", cache_dir=str(tmp_path / "cache"))
    assert set(ds) == {"complexity_4", "complexity_5"}
    assert ds["complexity_4"][0]["hard_negatives"] == ["a blue car 0", "a red cat 0"]
    raw = load_dataset(str(out), "raw", split="test", cache_dir=str(tmp_path / "cache"))
    assert raw.num_rows == 3 and raw[0]["bbox"] is None


def test_card_front_matter_and_manifest(tmp_path):
    out = write_dataset(tmp_path / "toy", _tables(), _manifest())
    text = (out / "README.md").read_text()
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["license"] == "cc-by-4.0"
    assert front["size_categories"] == ["n<1K"]
    assert front["configs"][0]["config_name"] == "hn"
    assert front["configs"][0]["data_files"][0] == {
        "split": "complexity_4",
        "path": "data/hn/complexity_4-*.parquet",
    }
    assert "too_short" in text and "A toy dataset." in text
    manifest = json.loads((out / "build_manifest.json").read_text())
    assert manifest["counts"] == {"hn": {"complexity_4": 5, "complexity_5": 2}, "raw": {"test": 3}}
    assert manifest["drops"] == {"toy": {"too_short": 1}}
    assert manifest["seed"] == 0 and manifest["tool_version"]
    assert "pyarrow" in manifest["libraries"]
    assert read_manifest(out).configs["hn"].task.type == "retrieval"
    assert (out / "data" / "hn" / "complexity_4-00000-of-00001.parquet").exists()


def test_identical_inputs_give_identical_parquet_bytes(tmp_path):
    a = write_dataset(tmp_path / "a", _tables(), _manifest())
    b = write_dataset(tmp_path / "b", _tables(), _manifest())
    files = sorted(p.relative_to(a) for p in (a / "data").rglob("*.parquet"))
    assert files
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes()


def test_shards_and_rebuild_replaces_folder(tmp_path):
    out = write_dataset(tmp_path / "toy", _tables(), _manifest(), rows_per_shard=2)
    assert len(list((out / "data" / "hn").glob("complexity_4-*-of-00003.parquet"))) == 3
    write_dataset(tmp_path / "toy", {"raw": _tables()["raw"]}, _manifest())
    assert not (out / "data" / "hn").exists()


def test_images_are_embedded_as_crops_and_failures_counted(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    from datasets import load_dataset

    images = tmp_path / "images"
    images.mkdir()
    Image.new("RGB", (40, 30), (200, 0, 0)).save(images / "a.png")
    tables = _tables()
    tables["hn"]["complexity_5"][1] = {
        **tables["hn"]["complexity_5"][1],
        "image_file": "missing.png",
    }
    manifest = _manifest()
    out = write_dataset(
        tmp_path / "toy", tables, manifest, images=ImageCropper(images, manifest.drops)
    )
    ds = load_dataset(str(out), "hn", split="complexity_4", cache_dir=str(tmp_path / "cache"))
    assert ds[0]["image"].size == (20, 10)
    assert ds[0]["image"].getpixel((5, 5)) == (200, 0, 0)
    assert ds[0]["image_license"] == "CC BY 4.0 (Visual Genome images)"
    saved = json.loads((out / "build_manifest.json").read_text())
    assert saved["drops"]["images"] == {"missing_image": 1}
    # the row keeps its place, with no crop; the manifest counts it by reason
    assert saved["counts"]["hn"]["complexity_5"] == 2
    hole = load_dataset(str(out), "hn", split="complexity_5", cache_dir=str(tmp_path / "cache"))
    assert hole[1]["image"] is None and hole[1]["image_file"] == "missing.png"
    summary = saved["summary"]["image_column"]
    assert summary["splits"]["hn/complexity_5"]["failed"] == {"missing_image": 1}
    rows = sum(
        saved["counts"][name.split("/")[0]][name.split("/")[1]] for name in summary["splits"]
    )
    assert summary["crops"] == rows - 1 and "EXIF orientation not applied" in summary["crop_rule"]


def test_empty_split_is_counted_but_not_declared(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    from datasets import load_dataset

    tables = _tables()
    tables["hn"]["complexity_12"] = []
    out = write_dataset(tmp_path / "toy", tables, _manifest())
    manifest = json.loads((out / "build_manifest.json").read_text())
    assert manifest["counts"]["hn"]["complexity_12"] == 0
    assert "complexity_12" not in (out / "README.md").read_text().split("---")[1]
    assert set(load_dataset(str(out), "hn", cache_dir=str(tmp_path / "c"))) == {
        "complexity_4",
        "complexity_5",
    }


def test_rebuilt_folder_is_not_served_from_a_stale_cache(tmp_path):
    """`datasets` keys local folders by README metadata; the card's dataset_info changes with data."""
    from datasets import load_dataset

    def build(folder, captions):
        rows = [{"caption": c} for c in captions]
        return write_dataset(tmp_path / folder / "same", {"raw": {"test": rows}}, _manifest())

    cache = str(tmp_path / "cache")
    first = load_dataset(str(build("a", ["a red car"])), "raw", split="test", cache_dir=cache)
    second = load_dataset(
        str(build("b", ["a blue car", "x"])), "raw", split="test", cache_dir=cache
    )
    assert first["caption"] == ["a red car"] and second["caption"] == ["a blue car", "x"]


def test_outputs_are_checksummed_in_the_manifest(tmp_path):
    out = write_dataset(tmp_path / "toy", _tables(), _manifest())
    manifest = json.loads((out / "build_manifest.json").read_text())
    paths = {f["path"] for f in manifest["outputs"]}
    assert "data/hn/complexity_4-00000-of-00001.parquet" in paths and len(paths) == 3
    assert manifest["features"]["raw"][0] == {"name": "image_id", "dtype": "string"}


def test_nothing_to_write_is_a_clear_error(tmp_path):
    with pytest.raises(CrepeInputError, match="nothing to write"):
        write_dataset(tmp_path / "x", {"hn": {"test": []}}, _manifest())
    assert not (tmp_path / "x").exists()


def test_missing_image_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CrepeInputError, match="does not exist"):
        ImageCropper(tmp_path / "nope")


def _release_negate_rows():
    """Real rows of CREPE's released HN-NEG set (n = 4), whose capitalised negatives are a shortcut."""
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.sources.crepe_release import read_crepe_release
    from tests.conftest import require_shared

    path = require_shared(
        "crepe_release",
        "prod_hard_negatives",
        "negate",
        "prod_vg_hard_negs_negate_complexity_4.csv",
    )
    return [
        {"image_id": s.image_id, "caption": s.caption, "hard_negatives": list(s.negatives)}
        for s in read_crepe_release(path, DropLog())
    ]


def test_failed_checks_write_nothing_unless_allowed(tmp_path):
    from crepe_datasets.generators.balance.shortcuts import audit_rows
    from crepe_datasets.infra.errors import FailedChecksError
    from crepe_datasets.validation.invariants import check_rows

    tables = {"hn": {"test": _release_negate_rows()}}
    manifest = _manifest()
    manifest.configs = {"hn": ConfigInfo("hn", "CREPE HN-NEG", TaskSpec("retrieval"))}
    manifest.validation = {
        "invariants": check_rows(tables).to_dict(),
        "shortcuts": audit_rows(tables).to_dict(),
    }
    assert manifest.validation["invariants"]["passed"]
    assert not manifest.validation["shortcuts"]["passed"]
    failed = "shortcuts FAILED (hn: min_n_upper R@1 0.9945 vs chance 0.1667)"
    with pytest.raises(FailedChecksError, match=re.escape(failed) + ".*--allow-failed-checks"):
        write_dataset(tmp_path / "ds", tables, manifest)
    assert not (tmp_path / "ds").exists() and list(tmp_path.iterdir()) == []
    write_dataset(tmp_path / "ds", tables, manifest, allow_failed_checks=True)
    written = json.loads((tmp_path / "ds" / "build_manifest.json").read_text())
    assert written["validation"]["failed_checks"] == [failed]
    card = (tmp_path / "ds" / "README.md").read_text()
    body = card.split("---\n", 2)[2]
    assert body.lstrip().startswith("# Toy\n\n> **Warning: this dataset FAILED its checks**")
    assert f"> - {failed}\n" in body


def test_writer_never_replaces_what_it_did_not_write(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("precious")
    (tmp_path / "file").write_text("also precious")
    for target in ("mine", "file"):
        with pytest.raises(CrepeInputError):
            write_dataset(tmp_path / target, _tables(), _manifest())
    assert (tmp_path / "mine" / "thesis.tex").read_text() == "precious"
    assert (tmp_path / "file").read_text() == "also precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "mine"]


def test_yaml_features_are_the_hub_card_form():
    from datasets import ClassLabel, Features, Image, LargeList, List, Value

    from crepe_datasets.builders.writer import yaml_features

    features = Features(
        {
            "caption": Value("string"),
            "hard_negatives": List(Value("string")),
            "bbox": List(Value("float64"), length=4),
            "pos_bindings": List({"attr": Value("string"), "count": Value("int64")}),
            "nested": List(List(Value("string"))),
            "meta": {"source": Value("string"), "ids": LargeList(Value("int32"))},
            "image": Image(),
            "label": ClassLabel(names=["no", "yes"]),
        }
    )
    assert yaml_features(features) == [
        {"name": "caption", "dtype": "string"},
        {"name": "hard_negatives", "list": "string"},
        {"name": "bbox", "list": "float64", "length": 4},
        {
            "name": "pos_bindings",
            "list": [{"name": "attr", "dtype": "string"}, {"name": "count", "dtype": "int64"}],
        },
        {"name": "nested", "list": {"list": "string"}},
        {
            "name": "meta",
            "struct": [
                {"name": "source", "dtype": "string"},
                {"name": "ids", "large_list": "int32"},
            ],
        },
        {"name": "image", "dtype": "image"},
        {"name": "label", "dtype": {"class_label": {"names": {"0": "no", "1": "yes"}}}},
    ]

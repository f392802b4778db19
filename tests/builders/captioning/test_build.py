"""`crepe build captioning` end to end on real COCO val2017 captions (a 600-image subset)."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from datasets import load_dataset

from crepe_datasets.builders.captioning.concepts import parse_facts
from crepe_datasets.builders.captioning.pairs import load_pairs, pairs_in
from crepe_datasets.builders.captioning.summary import CaptioningSummary
from crepe_datasets.scripts.cli import main
from tests.builders.captioning.helpers import (
    SUBSET_IMAGES,
    build_args,
    built_dataset,
    coco_subset,
)
from tests.conftest import assert_validate_reruns_the_build

pytestmark = pytest.mark.slow  # builds crepe-captioning from COCO val2017


CONFIGS = ("systematicity", "productivity_length", "productivity_density", "substitutivity")


@pytest.fixture(scope="module")
def built():
    return built_dataset()


def _rows(folder, config):
    out = {}
    for f in sorted((folder / "data" / config).glob("*.parquet")):
        out.setdefault(f.name.rsplit("-", 3)[0], []).extend(pq.read_table(f).to_pylist())
    return out


def test_every_image_in_exactly_one_split_of_every_config(built) -> None:
    folder, captions, _ = built
    all_ids = {str(im["id"]) for im in json.loads(captions.read_text())["images"]}
    manifest = json.loads((folder / "build_manifest.json").read_text())
    assert set(manifest["configs"]) == set(CONFIGS)
    for config in CONFIGS:
        ids = [r["image_id"] for rows in _rows(folder, config).values() for r in rows]
        assert len(ids) == len(set(ids)), config
        expected = all_ids if config != "productivity_density" else all_ids - _skipped(captions)
        assert set(ids) == expected, config
    assert manifest["drops"]["captioning_instances"]["image_not_in_instances"] == 3


def _skipped(captions):
    return {str(im["id"]) for im in json.loads(captions.read_text())["images"][-3:]}


def test_train_has_no_heldout_pair_and_test_no_comb_is_balanced(built) -> None:
    folder, _, _ = built
    rows = _rows(folder, "systematicity")
    pairs = load_pairs()
    train_captions = [c for r in rows["train"] for c in r["captions"]]
    assert not pairs_in(
        pairs, parse_facts(train_captions)
    )  # parsed again, independently of the build
    assert all(r["heldout_pairs"] for r in rows["test_comb"])
    summary = json.loads((folder / "build_manifest.json").read_text())["summary"]
    typed = CaptioningSummary(**summary).to_dict()
    assert typed == summary and list(typed) == [  # in the build's order
        "images",
        "captions",
        "split_size",
        "size_rule",
        "paper_sizes",
        "pairs",
        "substitutivity",
        "density",
        "parse",
    ]
    for pid, stats in summary["pairs"].items():
        comb = sum(pid in r["heldout_pairs"] for r in rows["test_comb"])
        no_comb = [r for r in rows["test_no_comb"] if r["no_comb_pair"] == pid]
        assert comb == stats["test_comb"] == len(no_comb) == stats["test_no_comb"], pid
        assert all(not r["heldout_pairs"] for r in no_comb)
    assert sum(s["test_comb"] for s in summary["pairs"].values()) > 0
    by_id = {p.id: p for p in pairs}
    for r in rows["test_no_comb"]:  # the constituents never co-occur in one caption
        assert not any(by_id[r["no_comb_pair"]].co_occur(f) for f in parse_facts(r["captions"]))


def test_productivity_splits_follow_length_and_density(built) -> None:
    folder, _, _ = built
    size = round(SUBSET_IMAGES * 5000 / 97_783)
    length = _rows(folder, "productivity_length")
    assert {k: len(v) for k, v in length.items()} == {
        "train": SUBSET_IMAGES - 3 * size,
        "validation": size,
        "test_rich": size,
        "test_base": size,
    }
    assert min(r["avg_length"] for r in length["test_rich"]) >= max(
        r["avg_length"] for s in ("train", "validation", "test_base") for r in length[s]
    )
    density = _rows(folder, "productivity_density")
    assert min(r["n_boxes"] for r in density["test_high_density"]) >= max(
        r["n_boxes"] for r in density["train"]
    )
    assert max(r["n_boxes"] for r in density["test_low_density"]) <= min(
        r["n_boxes"] for r in density["train"]
    )


def test_substitutivity_splits_by_words_used(built) -> None:
    rows = _rows(built[0], "substitutivity")
    assert not any(r["words_used"] for r in rows["train"])
    canonical = {"person", "child", "bicycle", "airplane", "cow", "tv", "refrigerator", "laptop"}
    assert all(set(r["words_used"]) <= canonical for r in rows["test_canonical"])
    assert all(set(r["words_used"]) - canonical for r in rows["test_synonym"])
    assert all(set(r["words_used"]) & canonical for r in rows["test_both"])
    assert {"test_canonical", "test_synonym", "test_both"} <= set(rows)


def test_loads_offline_and_card_has_pairs_and_histogram(built) -> None:
    folder = built[0]
    ds = load_dataset(str(folder), "productivity_length", split="test_rich")
    assert len(ds) > 0 and set(ds.column_names) >= {
        "image_id",
        "image_file",
        "captions",
        "avg_length",
    }
    assert ds[0]["image_file"].startswith("val2017/")
    card = (folder / "README.md").read_text()
    assert "| black_cat |" in card and "avg tokens" in card and "97,783" in card
    manifest = json.loads((folder / "build_manifest.json").read_text())
    assert {f["path"].rsplit("/", 1)[-1] for f in manifest["inputs"]} == {
        "captions_val2017.json",
        "instances_val2017.json",
    }
    assert all(len(f["sha256"]) == 64 for f in manifest["inputs"])


def test_rebuild_is_byte_identical_and_reads_the_parse_cache(built, tmp_path, capsys) -> None:
    folder, captions, cache = built
    out = tmp_path / "again"
    instances = captions.parent / "instances_val2017.json"
    assert main(build_args(captions, out, cache, "--instances", str(instances), "--seed", "0")) == 0
    assert "(parse cache)" in capsys.readouterr().out
    first = json.loads((folder / "build_manifest.json").read_text())["outputs"]
    second = json.loads((out / "build_manifest.json").read_text())["outputs"]
    assert first == second


def test_missing_instances_is_said_and_bad_captions_fail_in_one_line(tmp_path, capsys) -> None:
    captions = coco_subset(tmp_path / "coco", n_images=40)
    assert main(build_args(captions, tmp_path / "o", tmp_path / "cache")) == 0
    err = capsys.readouterr().err
    assert "no --instances given" in err and "productivity_density" in err
    assert not (tmp_path / "o" / "data" / "productivity_density").exists()
    bad = tmp_path / "no_annotations.json"
    bad.write_text(json.dumps({"images": [{"id": 1, "file_name": "a.jpg"}]}))
    assert (
        main(["build", "captioning", "--captions", f"coco:{bad}", "--out", str(tmp_path / "x")])
        == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has no 'annotations' list" in err[0]


def test_images_are_embedded_unchanged_and_missing_ones_counted(tmp_path, capsys) -> None:
    from PIL import Image

    captions = coco_subset(tmp_path / "coco", n_images=40)
    images = json.loads(captions.read_text())["images"]
    root = tmp_path / "images" / "val2017"
    root.mkdir(parents=True)
    for k, im in enumerate(images[:-2]):  # the last two images are missing
        Image.new("RGB", (8, 6), (k, 2 * k, 3 * k)).save(root / im["file_name"], format="JPEG")
    out = tmp_path / "o"
    assert (
        main(build_args(captions, out, tmp_path / "cache", "--images", str(tmp_path / "images")))
        == 0
    )
    ds = load_dataset(str(out), "productivity_length", split="train")
    assert "image" in ds.column_names and ds[0]["image"].size == (8, 6)
    manifest = json.loads((out / "build_manifest.json").read_text())
    assert manifest["drops"]["images"]["missing_image"] == 2 * 3  # two images, three configs
    rows = sum(n for n in manifest["counts"]["systematicity"].values())
    assert rows == 38
    first = pq.read_table(
        next((out / "data" / "systematicity").glob("train-*.parquet"))
    ).to_pylist()[0]
    assert first["image"]["bytes"] == (tmp_path / "images" / first["image_file"]).read_bytes()
    assert (
        main(
            [
                "build",
                "captioning",
                "--captions",
                f"coco:{captions}",
                "--captions",
                str(captions),
                "--out",
                str(tmp_path / "x"),
            ]
        )
        == 2
    )
    assert "given twice" in capsys.readouterr().err


def test_demo_step_builds_from_the_demo_inputs(tmp_path) -> None:
    from crepe_datasets.builders.captioning.demo import build_demo
    from crepe_datasets.builders.demo_data import write_demo_inputs

    inputs = write_demo_inputs(tmp_path / "inputs")
    manifest = build_demo(inputs, tmp_path / "crepe-captioning", 0)
    counts = manifest.counts["systematicity"]
    assert counts["train"] > 0 and counts["test_comb"] == counts["test_no_comb"] > 0
    ds = load_dataset(str(tmp_path / "crepe-captioning"), "systematicity", split="train")
    assert ds[0]["image"].size == (640, 480)


def test_out_never_replaces_a_folder_it_did_not_build(tmp_path, capsys) -> None:
    user = tmp_path / "thesis"
    user.mkdir()
    (user / "thesis.tex").write_text("keep me")
    captions = coco_subset(tmp_path / "coco", n_images=20)
    assert main(["build", "captioning", "--captions", f"coco:{captions}", "--out", str(user)]) == 2
    assert "not a dataset built by crepe" in capsys.readouterr().err
    assert [p.name for p in user.iterdir()] == ["thesis.tex"]


def test_validate_reports_the_builds_leakage_checks(built) -> None:
    recorded = assert_validate_reruns_the_build(built[0])
    assert list(recorded) == ["invariants"] and recorded["invariants"]["rows_checked"] > 0

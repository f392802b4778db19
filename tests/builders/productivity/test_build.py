"""End to end on the real Visual Genome sample: configs, counts, card, images, determinism."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity
from crepe_datasets.builders.productivity.rows import CONFIG_NAMES
from crepe_datasets.validation.registry import COMMON_CHECKS
from tests.conftest import assert_validate_reruns_the_build, require_shared

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
    split = max(manifest.counts["hn_all"], key=manifest.counts["hn_all"].get)
    all_row = load_dataset(str(folder), "hn_all", split=split, cache_dir=cache)[0]
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


def test_readable_text_and_blind_audit_in_manifest_and_card(built):
    from crepe_datasets.builders.productivity.words import function_word, inflect_predicate
    from crepe_datasets.generators.captions.phrases import broken_reason
    from crepe_datasets.scenegraph.types import SceneGraph
    from crepe_datasets.validation.invariants import read_tables

    folder, manifest = built
    texts = 0
    for splits in read_tables(folder).values():
        for rows in splits.values():
            for row in rows:
                for text in [row["caption"], *(row.get("hard_negatives") or [])]:
                    texts += 1
                    assert broken_reason(text) is None, text
                g = SceneGraph.from_json(row["subgraph"])
                assert all(not function_word(a) for o in g.objects for a in o.attributes)
                assert all(inflect_predicate(r.predicate) == r.predicate for r in g.relationships)
    assert texts > 1000
    blind = manifest.validation["blind_baselines"]
    assert blind["targets"] == ["hn_atom", "hn_swap"] and "ngram_lm" in blind["auditor"]
    assert set(manifest.summary["adversarial_refinement"]) == {"atom", "swap"}
    assert list(manifest.summary) == [  # ProductivitySummary.to_dict keeps the summary's order
        "captions",
        "nli_filter",
        "images_read",
        "ground_truths_per_n",
        "negatives_generated_per_type_per_n",
        "negatives_per_type_per_n",
        "rows_per_config",
        "drops_total",
        "adversarial_refinement",
        "foil_balance",
    ]
    assert list(manifest.validation)[:4] == [
        "invariants",
        "shortcuts",
        "blind_baselines",
        "trained_blind",
    ]
    assert "productivity_clean" in manifest.drops.to_dict()
    readme = (folder / "README.md").read_text()
    assert "## Blind baselines" in readme and "| hn_atom | complexity_4 |" in readme


def test_bad_scene_graphs_are_repaired_or_dropped_never_stop_the_build(tmp_path):
    images = [{"image_id": i, "width": 800, "height": 600} for i in (1, 2)]
    objects = [
        {"object_id": 1, "names": ["caf\u00e9 table"], "x": 0, "y": 0, "w": 500, "h": 400},
        {"object_id": 2, "names": ["the the"], "x": 100, "y": 100, "w": 500, "h": 400},
        {"object_id": 3, "names": [""], "x": 10, "y": 10, "w": 300, "h": 300},
        {"object_id": 4, "names": ["chair"], "x": 700, "y": 500, "w": 400, "h": 400},
        {"object_id": 5, "names": ["\u732b"], "x": 5, "y": 5, "w": 300, "h": 300},
        {"object_id": 6, "names": ["lamp"], "x": 900, "y": 900, "w": 10, "h": 10},
    ]
    for o in objects:
        o["attributes"] = ["red", "on", "hold"]
    rels = [
        {"relationship_id": i, "predicate": p, "subject_id": s, "object_id": o}
        for i, (s, p, o) in enumerate(
            [(1, "near", 4), (4, "hold", 1), (1, "near", 1), (1, "on", 3), (4, "by", 2)]
        )
    ]
    graphs = [
        {"image_id": 1, "objects": objects, "relationships": rels},
        {"image_id": 2, "objects": "broken"},
    ]
    vg = tmp_path / "vg"
    vg.mkdir()
    (vg / "scene_graphs.json").write_text(json.dumps(graphs))
    (vg / "image_data.json").write_text(json.dumps(images))
    folder, manifest = build_productivity(
        ProductivitySettings(vg=str(vg), out=str(tmp_path / "out"), progress=False)
    )
    drops, repairs = manifest.drops.to_dict(), manifest.drops.repairs_dict()
    assert drops["productivity_clean"]["attribute_function_word"] >= 1
    assert drops["productivity_clean"]["self_loop_relationship"] == 1
    assert repairs["productivity_clean"]["object_name_transliterated"] >= 1
    assert repairs["productivity_clean"]["predicate_inflected"] >= 1
    assert drops["vg_scene_graphs"]["image_bad_objects"] == 1
    assert sum(drops["vg_scene_graphs"].values()) >= 3  # empty name, box outside, bad image
    assert manifest.summary["images_read"] == 1 and (folder / "README.md").is_file()


def test_validate_reports_every_check_the_build_recorded(built):
    folder, _ = built
    recorded = assert_validate_reruns_the_build(folder)
    assert sorted(recorded) == sorted(COMMON_CHECKS)


def test_set_level_cue_is_reported_and_one_atom_sets_remove_it(built, vg, tmp_path):
    """By default the set-level judges are reported for every config with the reason, counted
    toward no verdict; with ``one_atom_sets`` every HN-ATOM set's negatives replace one atom of
    the caption's graph and the set-level judges score about chance."""
    from collections import Counter

    from crepe_datasets.generators.balance.blind import audit_sets
    from crepe_datasets.scenegraph.types import SceneGraph
    from crepe_datasets.validation.invariants import read_tables

    blind = built[1].validation["blind_baselines"]["configs"]
    for config in ("hn_atom", "hn_swap"):
        assert "set_structure" in blind[config]["all"]["baselines"]
        assert "set_structure" not in blind[config]["counted"] and blind[config]["set_cue"]
    folder, manifest = build_productivity(
        ProductivitySettings(
            vg=str(vg), out=str(tmp_path / "one"), limit=12, progress=False, one_atom_sets=True
        )
    )
    sets = []
    for split, rows in read_tables(folder)["hn_atom"].items():
        for row in rows:
            positive = Counter(SceneGraph.from_json(row["subgraph"]).atoms())
            replaced = {
                next(iter(positive - Counter(SceneGraph.from_json(g).atoms())))
                for g in row["negative_subgraphs"]
            }
            assert len(replaced) == 1, (split, row["caption"], row["hard_negatives"])
            sets.append([row["caption"], *row["hard_negatives"]])
    assert sets and manifest.parameters["one_atom_sets"] is True
    assert audit_sets(sets).summary()["set_structure"] <= 1 / 6 + 0.1

"""The ``groups`` config of a real systematicity build: independent re-verification of both
matches, and a blind (image-ignoring) scorer that wins nothing."""

from __future__ import annotations

import json

import numpy as np

from crepe_datasets.builders.productivity.build import prepare_graph
from crepe_datasets.evaluator.datasets_io import open_dataset
from crepe_datasets.evaluator.metrics import group_metrics
from crepe_datasets.generators.negatives import from_compact
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.terms import Terms
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs
from crepe_datasets.validation.counter_groups import check_groups
from tests.builders.counter_images.conftest import VG
from tests.conftest import require_shared


def _rows(folder) -> dict[str, list[dict]]:
    from datasets import load_dataset

    ds = load_dataset(str(folder), "groups")
    return {split: list(ds[split]) for split in ds}


def test_groups_rows_and_manifest(groups_build) -> None:
    manifest = json.loads((groups_build / "build_manifest.json").read_text())
    g = manifest["summary"]["groups"]
    rows = _rows(groups_build)
    assert {sp: len(r) for sp, r in rows.items()} == {
        sp: n for sp, n in g["groups_per_split"].items() if n
    }
    assert sum(g["groups_per_split"].values()) > 0
    unmatched = sum(g["unmatched"].values())
    assert sum(g["groups_per_split"].values()) + unmatched == sum(
        g["hn_atom_negatives_per_split"].values()
    )  # every negative is a group or counted by reason
    assert manifest["validation"]["groups_checks"]["passed"]
    assert manifest["configs"]["groups"]["task"]["type"] == "group"
    # the HN-ATOM choice looked its candidates up in the same pool (attested ones first)
    atom = manifest["summary"]["adversarial_refinement"]["atom"]
    assert 0 < atom["candidates_attested_in_pool"] <= atom["candidates_looked_up_in_pool"]
    # the third judge marks every negative: said by other images' graphs more often than its
    # caption, as often (within a factor of about two) or less often
    marks = [atom.get(f"negatives_stated_{m}", 0) for m in ("more_often", "as_often", "less_often")]
    assert sum(marks) == atom["negatives"] == 4 * atom["captions"] > 0


def test_every_group_reverified_independently(groups_build) -> None:
    rows = _rows(groups_build)
    report = check_groups(rows, Terms.from_vg(require_shared(*VG)))
    assert report.passed and report.rows == sum(len(r) for r in rows.values())
    # caption_1 is false of image_0: its graph is not in image 0's full VG scene graph
    vg = require_shared(*VG)
    wanted = {r["image_0_id"] for split in rows.values() for r in split}
    full = {
        g.image_id: GraphIndex(prepare_graph(g, DropLog()))
        for g in iter_scene_graphs(vg / "scene_graphs.json", DropLog())
        if g.image_id in wanted
    }
    for split in rows.values():
        for r in split:
            assert r["image_0_id"] != r["image_1_id"]
            assert not full[r["image_0_id"]].holds(from_compact(r["negative_graph"]))
            assert r["caption_0"] != r["caption_1"]


def test_blind_scorer_wins_no_group(groups_build) -> None:
    """A scorer that ignores the image scores 0 on text, image and group (ties fail)."""
    source = open_dataset(str(groups_build) + ":groups")
    loaded = source.load("groups")
    assert loaded
    for items in loaded.values():
        assert items.task.type == "group" and len(items)
        rng = np.random.default_rng(0)
        text_score = {t: rng.normal() for texts in items.texts for t in texts}
        # scores[i, image, caption] depend on the caption only
        s = np.array([[[text_score[c0], text_score[c1]]] * 2 for c0, c1 in items.texts])
        m = group_metrics(s).metrics
        assert (m["text"], m["image"], m["group"]) == (0.0, 0.0, 0.0)
        assert all(refs[1].bbox is None or len(refs[1].bbox) == 4 for refs in items.images)


def test_annotation_sample_covers_groups(groups_build) -> None:
    """`crepe annotate sample` asks of each group: is caption 1 true of image 1 (a caption item),
    is caption 0 false of it (a negative item of type counter)?"""
    from crepe_datasets.validation.annotation.sampling import candidates

    items = candidates(groups_build, configs=["groups"])
    rows = _rows(groups_build)
    assert len(items) == 2 * sum(len(r) for r in rows.values())
    for item in items:
        row = rows[item.split][item.row]
        assert item.image_id == row["image_1_id"] and item.bbox == row["image_1_bbox"]
        if item.kind == "caption":
            assert item.text == row["caption_1"]
        else:
            assert item.text == row["caption_0"] and item.negative_type == "counter"


def test_scene_level_captions_only_against_whole_images(groups_build) -> None:
    """A caption about the whole picture gets a whole-image counter (its scope in ``match_1``);
    the manifest counts the negatives left without one."""
    from crepe_datasets.scenegraph.scope import scene_level

    manifest = json.loads((groups_build / "build_manifest.json").read_text())
    assert set(manifest["summary"]["groups"]["unmatched"]) <= {
        "not_in_pool", "only_own_image", "negative_not_true", "caption_beyond_region",
        "caption_scene_level", "positive_also_true", "replaced_atom_present",
        "negative_true_in_own_image", "no_single_exchange", "part_whole_foil",
    }  # fmt: skip
    for split in _rows(groups_build).values():
        for r in split:
            scope = scene_level(r["caption_0"], from_compact(r["scene_graph"]))
            assert json.loads(r["match_1"])["caption_0_scope"] == (scope or "region")
            if scope is not None:
                assert r["image_1_source"] == "vg_image"

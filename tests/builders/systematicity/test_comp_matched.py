"""``hn_comp_matched`` end to end on real data: true positives, false negatives, no length cue,
every caption without a set counted, byte-identical rebuilds.

The corpus is the region descriptions of the same Visual Genome images written as a COCO
captions file, so that the image graphs' compounds are seen and seen-compound captions get sets.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from crepe_datasets.generators.negatives import from_compact
from crepe_datasets.generators.negatives.comp_matched import NEGATIVES
from crepe_datasets.validation.invariants import read_tables
from tests.conftest import require_shared

LIMIT = 30
pytestmark = pytest.mark.slow  # WordNet and spaCy


@pytest.fixture(scope="module")
def matched_build(tmp_path_factory: pytest.TempPathFactory):
    from crepe_datasets.builders.systematicity.build import (
        SystematicitySettings,
        build_systematicity,
    )

    vg = require_shared("visual_genome", "images_1-100")
    root = tmp_path_factory.mktemp("matched")
    images = json.loads((vg / "region_descriptions.json").read_text())[:LIMIT]
    notes = [
        {"id": n, "image_id": im["id"], "caption": r["phrase"]}
        for im in images
        for n, r in enumerate(im["regions"])
    ]
    corpus = root / "captions.json"
    corpus.write_text(json.dumps({"images": [], "annotations": notes}))
    settings = SystematicitySettings(
        vg=str(vg),
        out=str(root / "syst"),
        training=f"coco:{corpus}",
        cache_dir=str(root / "cache"),
        limit=LIMIT,
        progress=False,
    )
    folder, manifest = build_systematicity(settings)
    return settings, folder, manifest


def _image_graphs(ids: set[str]):
    from crepe_datasets.builders.productivity.build import prepare_graph
    from crepe_datasets.generators.negatives.graphs import GraphIndex
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs

    drops = DropLog()
    vg = require_shared("visual_genome", "images_1-100")
    return {
        str(g.image_id): GraphIndex(prepare_graph(g, drops))
        for g in iter_scene_graphs(vg / "scene_graphs.json", drops)
        if str(g.image_id) in ids
    }


def test_positives_hold_and_negatives_do_not(matched_build) -> None:
    from crepe_datasets.generators.negatives.comp_matched import (
        compound_graph,
        inside,
        normalized_index,
    )
    from crepe_datasets.scenegraph.seen import SPLITS
    from crepe_datasets.scenegraph.types import Box, Compound

    _, folder, manifest = matched_build
    tables = read_tables(folder)
    rows = [r for rs in tables["hn_comp_matched"].values() for r in rs]
    assert len(rows) >= 5, manifest.counts
    assert set(tables["hn_comp_matched"]) <= set(SPLITS[:2])
    graphs = _image_graphs({r["image_id"] for r in rows})
    for row in rows:
        g = graphs[row["image_id"]]
        caption, own = row["caption"], row["region_caption"]
        assert caption.startswith(f"{own} and ") or caption.endswith(f" and {own}")
        kind, _, parts = row["second_compound"].partition(":")
        assert kind == "ao"
        second = Compound("attribute_object", tuple(parts.split("|")))
        # the second compound is true of the image, on objects inside the region's crop
        region = inside(g, Box.from_list(row["bbox"]))
        assert normalized_index(g, region).holds(compound_graph(second))
        positive = from_compact(row["scene_graph"])
        assert second in positive.compounds() and len(positive.compounds()) == 2
        for text, graph in zip(row["hard_negatives"], row["negative_graphs"], strict=True):
            neg = from_compact(graph)
            assert not g.holds(neg) and not normalized_index(g).holds(neg)
            # the same number of " and " conjuncts as the positive: no length-and-"and" cue
            assert text.count(" and ") == caption.count(" and ")
    assert manifest.validation["systematicity_checks"]["passed"]
    assert manifest.validation["invariants"]["passed"]


def test_every_caption_without_a_set_is_counted(matched_build) -> None:
    _, _, manifest = matched_build
    drops = manifest.drops.to_dict()
    configs = drops["systematicity_configs"]
    refine = manifest.summary["adversarial_refinement"]["comp_matched"]
    one_compound = sum(manifest.summary["one_compound_captions"].values())
    rows = sum(manifest.counts["hn_comp_matched"].values())
    accounted = (
        rows
        + configs.get("hn_comp_matched_no_matched_set", 0)
        + configs.get(f"hn_comp_matched_fewer_than_{NEGATIVES}_negatives", 0)
        + configs.get("hn_comp_matched_split_changed", 0)
        + refine.get("sets_without_balanced_choice", 0)
    )
    assert one_compound == accounted > rows > 0
    reasons = drops["systematicity_comp_matched"]
    assert reasons["matched_fewer_distinct_foils_than_negatives"] > 0
    assert sum(reasons.values()) >= configs["hn_comp_matched_no_matched_set"]


def test_blind_audit_card_and_rebuild(matched_build, tmp_path: Path) -> None:
    from crepe_datasets.builders.systematicity.build import build_systematicity

    settings, folder, manifest = matched_build
    blind = manifest.validation["blind_baselines"]
    assert blind["configs"]["hn_comp_matched"]["reported_target"] == 0.1
    assert "hn_comp_matched" not in blind["targets"]
    card = (folder / "README.md").read_text()
    assert "hn_comp_matched" in card and "our extension" in card
    again, _ = build_systematicity(replace(settings, out=str(tmp_path / "again")))
    first = sorted(p.relative_to(folder) for p in (folder / "data").rglob("*.parquet"))
    assert any("hn_comp_matched" in str(p) for p in first)
    assert first == sorted(p.relative_to(again) for p in (again / "data").rglob("*.parquet"))
    for rel in first:
        assert (folder / rel).read_bytes() == (again / rel).read_bytes(), rel

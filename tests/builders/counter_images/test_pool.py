"""Readers of the counter pool on the real VG sample and FACTUAL."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.counter_images.pool import (
    factual_graph,
    iter_factual,
    iter_vg_images,
    pool_sources,
)
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from tests.builders.counter_images.conftest import FACTUAL, VG
from tests.conftest import require_shared


def test_factual_graph_attributes_and_relations() -> None:
    g = factual_graph("( man , ride , horse ) , ( horse , is , brown ) , ( pole )", "7")
    assert [(o.name, o.attributes) for o in g.objects] == [
        ("man", ()), ("horse", ("brown",)), ("pole", ())
    ]  # fmt: skip
    assert [(r.subject, r.predicate, r.object) for r in g.relationships] == [(0, "ride", 1)]


def test_factual_rows_streamed_with_vg_boxes() -> None:
    drops = DropLog()
    regions = list(iter_factual(require_shared(*FACTUAL), drops, require_shared(*VG)))
    assert len(regions) + drops.total("counter_pool") == 38861
    assert len(regions) > 38000
    boxed = [r for r in regions if r.box is not None]
    # FACTUAL has no boxes: only its rows on images 1-100 take theirs from region_descriptions.json
    assert boxed and all(int(r.image_id) <= 100 for r in boxed)
    assert all(r.file == f"{r.image_id}.jpg" or int(r.image_id) <= 100 for r in regions[:50])


def test_vg_images_keep_object_boxes() -> None:
    regions = list(iter_vg_images(require_shared(*VG), DropLog()))
    assert len(regions) == 100
    first = regions[0]
    assert first.source == "vg_image" and first.box[:2] == [0.0, 0.0]
    assert all(o.box is not None for o in first.graph.objects)


def test_pool_source_kinds(tmp_path) -> None:
    vg = require_shared(*VG)
    sources = pool_sources(str(vg), [str(vg), str(require_shared(*FACTUAL))])
    assert len(sources) == 2  # the --vg folder once
    bad = tmp_path / "x.json"
    bad.write_text("[]")
    with pytest.raises(CrepeInputError, match="neither a FACTUAL CSV"):
        pool_sources(str(vg), [str(bad)])


def test_region_graphs_read_with_their_boxes(tmp_path) -> None:
    """``region_graphs.json`` (VG v1.2+) made from the real sample: each region's graph is the
    scene graph's objects whose box lies inside the region, with their relationships."""
    import json

    from crepe_datasets.builders.counter_images.pool import iter_vg_region_graphs
    from tests.conftest import copy_vg_sample

    vg = copy_vg_sample(tmp_path)
    graphs = json.loads((vg / "scene_graphs.json").read_text())[:3]
    regions = {
        r["id"]: r["regions"] for r in json.loads((vg / "region_descriptions.json").read_text())
    }
    out, expected = [], []
    for g in graphs:
        recs = []
        for r in regions[g["image_id"]][:10]:
            inside = [o for o in g["objects"] if o["x"] >= r["x"] and o["y"] >= r["y"]
                      and o["x"] + o["w"] <= r["x"] + r["width"] and o["y"] + o["h"] <= r["y"] + r["height"]]  # fmt: skip
            ids = {o["object_id"] for o in inside}
            rels = [
                x for x in g["relationships"] if x["subject_id"] in ids and x["object_id"] in ids
            ]
            recs.append(dict(r, objects=inside, relationships=rels))
            if inside:
                expected.append((str(g["image_id"]), str(r["region_id"]), len(inside), len(rels)))
        out.append({"image_id": g["image_id"], "regions": recs})
    (vg / "region_graphs.json").write_text(json.dumps(out))
    drops = DropLog()
    got = list(iter_vg_region_graphs(vg, drops))
    assert (
        expected
        and [
            (r.image_id, r.region_id, len(r.graph.objects), len(r.graph.relationships)) for r in got
        ]
        == expected
    )
    assert all(r.source == "vg_region" and r.box and r.text for r in got)
    assert drops.to_dict()["counter_pool"]["region_graph_no_objects"] == 30 - len(expected)

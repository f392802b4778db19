"""HN-COMP-MATCHED: a positive of two compounds, negatives whose foils are the image's true atoms.

Real inputs: region descriptions of Visual Genome images 1-100, parsed, and those images' full
scene graphs.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from crepe_datasets.builders.productivity.build import prepare_graph
from crepe_datasets.generators.negatives.comp_matched import (
    compound_graph,
    inside,
    matched_pool,
    matched_set,
    normalized_index,
)
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import normalize_name
from crepe_datasets.scenegraph.visual_genome import iter_regions, iter_scene_graphs
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # WordNet and spaCy

IMAGES = 40


@pytest.fixture(scope="module")
def vg_sets():
    """Matched sets of the one-compound region descriptions of the first images (every
    compound admitted), with each caption's image graph and region box."""
    from crepe_datasets.scenegraph.parser import CaptionParser

    vg = require_shared("visual_genome", "images_1-100")
    drops = DropLog()
    graphs = {}
    for g in iter_scene_graphs(vg / "scene_graphs.json", drops):
        graphs[str(g.image_id)] = GraphIndex(prepare_graph(g, drops))
        if len(graphs) >= IMAGES:
            break
    regions = [
        r
        for r in iter_regions(vg / "region_descriptions.json", drops)
        if r.image_id in graphs and r.box.area >= 40_000
    ]
    texts = [normalize_name(r.phrase) for r in regions]
    parsed = CaptionParser().parse(texts)
    drops = DropLog()  # only the matched sets' drops from here on
    out = []
    for r, text, sub in zip(regions, texts, parsed, strict=True):
        if len(sub.compounds()) != 1:
            continue
        g = graphs[r.image_id]
        found = matched_set(text, sub, g, random.Random(f"0:{r.region_id}"), 18, None, r.box, drops)
        out.append((text, sub, g, r.box, found))
    return out, drops


def test_positive_true_negatives_false(vg_sets) -> None:
    sets, _ = vg_sets
    found = [s for s in sets if s[4] is not None]
    assert len(found) >= 10, len(found)
    for caption, sub, g, box, m in found:
        second = compound_graph(m.second)
        # the positive: the region's caption and its second compound, which holds in G (and
        # in G cut to the region's objects, whose crop the model sees)
        assert g.holds(second)
        assert normalized_index(g, inside(g, box)).holds(second)
        assert m.positive.startswith(f"{caption} and ") or m.positive.endswith(f" and {caption}")
        assert Counter(sub.atoms()) - Counter(m.graph.atoms()) == Counter()
        assert len(m.graph.compounds()) == 2 and m.second in m.graph.compounds()
        assert len(m.candidates) >= 3
        # each foil colour and name in one text of the set only, none the second compound's
        colours = [neg.foils[0] for neg in m.candidates] + [m.second.parts[0]]
        names = [neg.foils[1] for neg in m.candidates] + [m.second.parts[1]]
        assert len(set(colours)) == len(colours) and len(set(names)) == len(names)
        for neg in m.candidates:
            # false of the whole image: as written, and with predicates and attributes normalized
            assert not g.holds(neg.graph) and not normalized_index(g).holds(neg.graph)
            # the same number of " and " conjuncts as the positive
            assert neg.text.count(" and ") == m.positive.count(" and ")
            assert neg.text != m.positive and len(neg.foils) == 2


def test_every_conjunct_of_a_negative_is_false_and_foils_come_from_the_pool(vg_sets) -> None:
    sets, _ = vg_sets
    checked = 0
    for caption, sub, g, _, m in sets:
        if m is None:
            continue
        pool = matched_pool(caption, sub, g, lambda c: True)
        assert pool is not None
        n = normalized_index(g)
        for p in pool:
            # each conjunct of a negative is false of the whole image; the pool is true of it
            assert not n.holds(p.one.graph) and not n.holds(p.two.graph)
            assert not g.holds(p.one.graph) and not g.holds(p.two.graph)
            assert n.holds(compound_graph(p.compound)) and p.both.text != caption
        firsts, seconds = {p.colour for p in pool}, {p.name for p in pool}
        texts = {f"{p.one.text} and {q.two.text}" for p in pool for q in pool}
        texts |= {f"{q.two.text} and {p.one.text}" for p in pool for q in pool}
        assert m.second in {p.compound for p in pool}
        for neg in m.candidates:
            assert neg.foils[0] in firsts and neg.foils[1] in seconds
            assert neg.text in texts
            checked += 1
    assert checked > 50


def test_drops_are_counted_and_sets_are_deterministic(vg_sets) -> None:
    sets, drops = vg_sets
    missing = sum(1 for s in sets if s[4] is None)
    counts = drops.to_dict()["systematicity_comp_matched"]
    assert missing > 0 and sum(counts.values()) >= missing
    assert counts["matched_fewer_distinct_foils_than_negatives"] > 0
    caption, sub, g, box, _ = next(s for s in sets if s[4] is not None)
    again = matched_set(caption, sub, g, random.Random("x"), 18, None, box)
    same = matched_set(caption, sub, g, random.Random("x"), 18, None, box)
    assert again is not None and same is not None
    assert (again.positive, [n.text for n in again.candidates]) == (
        same.positive,
        [n.text for n in same.candidates],
    )

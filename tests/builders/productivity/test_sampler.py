"""The random walk of SPEC §3.1: exactly n atoms, seeded per (image, n, attempt)."""

from __future__ import annotations

import random

from crepe_datasets.builders.productivity.build import prepare_graph
from crepe_datasets.builders.productivity.sampler import random_walk, sample_walks, walk_rng
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject
from tests.conftest import require_shared


def _toy() -> SceneGraph:
    objects = [
        SGObject(1, "man", ("tall", "old")),
        SGObject(2, "hat", ("black",)),
        SGObject(3, "bench", ("wooden",)),
        SGObject(4, "cloud", ("white",)),
        SGObject(5, "sky", ("blue",)),
    ]
    rels = [Relationship(1, "wearing", 2), Relationship(1, "on", 3), Relationship(4, "in", 5)]
    return SceneGraph(objects, rels, "42", 100, 100)


def test_walks_have_exactly_n_atoms_and_are_subgraphs_of_g():
    g = _toy()
    index = GraphIndex(g)
    for n in range(4, g.complexity() + 1):
        for k in range(20):
            result = random_walk(g, n, walk_rng(0, g.image_id, n, k))
            if result.graph is None:
                assert result.reason == "cannot_reach_n"
                continue
            assert result.graph.complexity() == n
            assert index.holds(result.graph)


def test_walk_components_lie_inside_g_components():
    g = _toy()
    g_components = [set(c) for c in g.components()]
    kept = 0
    for k in range(30):
        sub = random_walk(g, 8, walk_rng(1, "42", 8, k)).graph
        if sub is None:
            continue
        kept += 1
        for comp in sub.components():
            assert any(set(comp) <= gc for gc in g_components)
        # one subgraph component per visited G component: the walk never skips inside one
        visited = [gc for gc in g_components if gc & {o.id for o in sub.objects}]
        assert len(sub.components()) == len(visited)
    assert kept > 10


def test_seeded_per_image_n_attempt():
    g = _toy()
    a = [r.graph.to_json() for r in sample_walks(g, 6, seed=3, walks=4)]
    b = [r.graph.to_json() for r in sample_walks(g, 6, seed=3, walks=4)]
    assert a == b
    assert random_walk(g, 6, walk_rng(3, "42", 6, 2)).graph.to_json() == a[2]
    assert (
        len(set(a)) > 1
        or len(set(r.graph.to_json() for r in sample_walks(g, 6, seed=4, walks=4))) > 1
    )


def test_too_small_and_unreachable():
    small = SceneGraph([SGObject(1, "cat", ("black",))], [], "1")
    assert [r.reason for r in sample_walks(small, 4, 0, 3)] == ["graph_smaller_than_n"]
    # complexity 5, but every way to 4 atoms overshoots: A-r1-B, A-r2-C, no attributes
    star = SceneGraph(
        [SGObject(1, "a"), SGObject(2, "b"), SGObject(3, "c")],
        [Relationship(1, "r1", 2), Relationship(1, "r2", 3)],
        "2",
    )
    assert {r.reason for r in sample_walks(star, 4, 0, 5)} == {"cannot_reach_n"}
    assert (
        random_walk(SceneGraph([], [], "3"), 4, random.Random(0)).reason == "graph_has_no_objects"
    )


def test_real_visual_genome_sample():
    folder = require_shared("visual_genome", "images_1-100")
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    drops = DropLog()
    infos = read_image_data(folder / "image_data.json", drops)
    reasons = set()
    for i, raw in enumerate(iter_scene_graphs(folder / "scene_graphs.json", drops, infos)):
        if i >= 25:
            break
        g = prepare_graph(raw, drops)
        index = GraphIndex(g)
        for n in (4, 8, 12):
            for result in sample_walks(g, n, 0, 2):
                if result.graph is None:
                    reasons.add(result.reason)
                    continue
                assert result.graph.complexity() == n
                assert index.holds(result.graph)
    assert reasons <= {"cannot_reach_n", "graph_smaller_than_n"}

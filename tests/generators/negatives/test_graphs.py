"""Does the full image graph make a candidate true?"""

from __future__ import annotations

from crepe_datasets.generators.negatives import compact_json, from_compact
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject
from tests.generators.negatives.helpers import image_graph, subgraph


def test_subgraphs_of_g_hold():
    g = image_graph()
    index = GraphIndex(g)
    assert index.holds(subgraph(g, [1, 2, 3], [0, 1]))
    assert index.holds(SceneGraph([SGObject(9, "man", ("short",))]))  # ids need not match


def test_changed_graphs_do_not_hold():
    index = GraphIndex(image_graph())
    reversed_rel = SceneGraph(
        [SGObject(1, "man"), SGObject(2, "hat")], [Relationship(2, "wearing", 1)]
    )
    assert not index.holds(reversed_rel)
    assert not index.holds(SceneGraph([SGObject(1, "man", ("tall", "short"))]))
    assert not index.holds(SceneGraph([SGObject(1, "cat")]))


def test_matching_is_injective():
    index = GraphIndex(image_graph())
    two_men = SceneGraph([SGObject(1, "man"), SGObject(2, "man")])
    three_men = SceneGraph([SGObject(1, "man"), SGObject(2, "man"), SGObject(3, "man")])
    assert index.holds(two_men) and not index.holds(three_men)


def test_step_limit_is_conservative():
    many = SceneGraph([SGObject(i, "window") for i in range(30)])
    sub = SceneGraph([SGObject(i, "window") for i in range(8)] + [SGObject(99, "cat")])
    assert GraphIndex(many).holds(SceneGraph([SGObject(0, "window")]))
    assert not GraphIndex(many).holds(sub)  # no cat: fails before searching
    assert GraphIndex(many).holds(
        SceneGraph([SGObject(i, "window") for i in range(8)]), max_steps=3
    )


def test_compact_round_trip():
    g = subgraph(image_graph(), [1, 2], [0])
    back = from_compact(compact_json(g))
    assert back.atoms() == g.atoms() and back.signature() == g.signature()

"""Does the full image graph make a candidate true?"""

from __future__ import annotations

from crepe_datasets.generators.negatives import compact_json, from_compact
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.scenegraph.types import Box, Relationship, SceneGraph, SGObject
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


def test_same_kind_checks_on_a_real_image_graph():
    """VG image 64 has a green pole and a black one; image 45 a white SUV and no white car;
    image 10 a paper on a shelf and below another shelf."""
    from tests.generators.negatives.helpers import vg_graph

    poles = GraphIndex(vg_graph(64))
    assert len(poles.kin("pole")) == 2
    assert poles.kind_has_attribute("pole", None, "black")
    assert not poles.kind_has_attribute("pole", None, "red")
    cars = GraphIndex(vg_graph(45))
    assert not any("white" in cars.attrs[i] for i in cars.by_name["car"])
    assert cars.kind_stands("car", ("white",), [], [])  # the SUV is a car
    assert not cars.kind_stands("car", ("red",), [], [])
    shelves = GraphIndex(vg_graph(10))
    paper, shelf = shelves.by_id[5256], shelves.by_id[5259]
    assert "under" not in shelves.pair_predicates[(5256, 5259)]
    assert shelves.kind_linked(paper, "under", shelf)  # paper 5256 is below shelf 1060567
    assert shelves.kind_stands("paper", (), [("underneath", "shelf", None)], [])
    assert not shelves.kind_linked(paper, "behind", shelf)


def test_things_of_a_kind_a_region_shows():
    g = GraphIndex(
        SceneGraph(
            [
                SGObject(1, "chair", ("red",), Box(0, 0, 100, 100)),
                SGObject(2, "chair", (), Box(5, 5, 100, 100)),  # chair 1 annotated twice
                SGObject(3, "chair", (), Box(300, 0, 100, 100)),
                SGObject(4, "chair", ("dark blue",), Box(600, 0, 100, 100)),
            ],
            [],
        )
    )
    things = g.kin_things("chair", None)
    assert sorted((sorted(ids), coloured) for ids, coloured in things) == [
        ([1, 2], True),
        ([3], False),
        ([4], True),
    ]
    shown = g.kin_things("chair", None, Box(0, 0, 360, 100))  # chair 3 is 60% inside
    assert sorted(sorted(ids) for ids, _ in shown) == [[1, 2], [3]]
    assert g.kin_things("chair", None, Box(0, 0, 330, 100)) == [(frozenset({1, 2}), True)]

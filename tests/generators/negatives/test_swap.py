"""HN-SWAP: every rule keeps the atoms, changes the graph and is checked against G."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.swap import swap_candidates, swap_negatives
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject
from tests.generators.negatives.helpers import image_graph, subgraph

pytestmark = pytest.mark.slow  # WordNet synonyms (first load)


def _rules(cands) -> set[str]:
    return {c.rule for c in cands}


def test_every_candidate_keeps_atoms_and_changes_graph():
    """The dog is white in ``G`` but its colour is left out of the text, so "black" moved from
    the hat to the dog is false and the text does not give the dog two colours."""
    g = image_graph()
    index = GraphIndex(g)
    sub = subgraph(g, [1, 2, 3, 4], [0, 1, 2], drop_attrs={4: ("white",)})
    cands = swap_negatives(sub, index, random.Random(1), 50)
    assert {"swap:subject_object", "swap:attributes", "swap:objects", "move:attribute"} <= _rules(
        cands
    )
    for cand in cands:
        assert Counter(cand.graph.atoms()) == Counter(sub.atoms())
        assert cand.graph.signature() != sub.signature()
        assert not index.holds(cand.graph)
    assert len({c.graph.signature() for c in cands}) == len(cands)


def test_deterministic_and_limited():
    g = image_graph()
    sub = subgraph(g, [1, 2, 3, 4], [0, 1, 2])
    a = swap_negatives(sub, GraphIndex(g), random.Random(3), 5)
    b = swap_negatives(sub, GraphIndex(g), random.Random(3), 5)
    assert len(a) == 5 and [c.graph.to_json() for c in a] == [c.graph.to_json() for c in b]


def test_reverse_relationship_invalid_when_g_has_it():
    g = image_graph()
    # G has both "man wearing hat" and "hat on man"; reversing "hat on man" is still valid,
    # but add "hat wearing man" and reversing "man wearing hat" becomes true of the image.
    g.relationships.append(Relationship(2, "wearing", 1))
    sub = subgraph(g, [1, 2], [0])
    rules = [(rule, make()) for rule, make in swap_candidates(sub, GraphIndex(g), 3)]
    assert [graph for rule, graph in rules if rule == "swap:subject_object"] == [None]


def test_attribute_swap_invalid_when_attribute_holds_for_other_object():
    g = image_graph()
    g.objects[1] = SGObject(2, "hat", ("black", "tall"), g.objects[1].box)  # the hat is tall too
    sub = subgraph(g, [1, 2], [0], drop_attrs={2: ("tall",)})
    swaps = [
        make() for rule, make in swap_candidates(sub, GraphIndex(g), 5) if rule == "swap:attributes"
    ]
    assert swaps == [None]


def test_synonym_swaps_are_filtered():
    g = SceneGraph([SGObject(1, "car", ("grey",)), SGObject(2, "bus", ("gray",))], [], "1", 10, 10)
    swaps = [
        make() for rule, make in swap_candidates(g, GraphIndex(g), 4) if rule == "swap:attributes"
    ]
    assert swaps == [None]


def test_permutations_only_at_n4():
    g = SceneGraph(
        [SGObject(1, "cat", ("black",)), SGObject(2, "dog", ("brown",))], [], "1", 10, 10
    )
    at4 = {rule for rule, _ in swap_candidates(g, GraphIndex(g), 4)}
    at5 = {rule for rule, _ in swap_candidates(g, GraphIndex(g), 5)}
    assert {"permute:object", "permute:attribute"} <= at4
    assert not any(r.startswith("permute") for r in at5)
    # A permutation equal to a pairwise swap is generated once (same graph): "black dog and
    # brown cat" is both the names and the colours exchanged; a moved colour would stand beside
    # the other ("black and brown dog").
    cands = swap_negatives(g, GraphIndex(g), random.Random(0), 20, n=4)
    assert len(cands) == 1 and cands[0].graph.object_by_id()[1].name == "dog"


def test_rejected_swaps_are_counted():
    g = image_graph()
    g.relationships.append(Relationship(2, "wearing", 1))
    drops = DropLog()
    swap_negatives(subgraph(g, [1, 2], [0]), GraphIndex(g), random.Random(0), 10, drops=drops)
    assert (
        drops.to_dict()["productivity_negative_checks"][
            "swap_rule_check_failed:swap:subject_object"
        ]
        == 1
    )


def test_symmetric_relations_are_never_reversed_vg40():
    """VG image 40: "chair next to table", "chair by table". Reversing them says the same."""
    from crepe_datasets.generators.negatives.swap import symmetric
    from tests.generators.negatives.helpers import pick, vg_graph

    assert symmetric("next to") and symmetric("parked next to") and symmetric("by")
    assert symmetric("against") and symmetric("playing with")
    assert not symmetric("on") and not symmetric("behind") and not symmetric("holding")
    g = vg_graph(40)
    sub = pick(
        g,
        ["1025176", "1025211", "5897"],
        [(1025176, "next to", 1025211), (5897, "on", 1025211)],
    )
    drops = DropLog()
    cands = swap_negatives(sub, GraphIndex(g), random.Random(0), 50, 3, drops)
    reversed_ = [(r.subject, r.predicate, r.object) for c in cands for r in c.graph.relationships]
    assert (1025211, "next to", 1025176) not in reversed_
    assert (1025211, "on", 5897) in reversed_  # "on" is no symmetric relation
    assert drops.to_dict()["productivity_negative_checks"]["swap_symmetric_relation"] == 1


def test_no_attribute_moves_between_same_named_or_part_whole_objects():
    g = SceneGraph(
        [
            SGObject(1, "plate", ("white",)),
            SGObject(2, "plate", ("blue",)),
            SGObject(3, "food", ("hot",)),
            SGObject(4, "table", ("brown",)),
        ],
        [Relationship(1, "near", 2), Relationship(1, "with", 3), Relationship(1, "on", 4)],
        "7",
    )
    drops = DropLog()
    cands = swap_negatives(g, GraphIndex(g), random.Random(0), 100, 7, drops)
    moved = {
        (o.id, a)
        for c in cands
        if c.rule in ("move:attribute", "swap:attributes")
        for o in c.graph.objects
        for a in o.attributes
    }
    assert (1, "brown") in moved or (4, "white") in moved  # plate and table: fine
    assert (3, "white") not in moved and (1, "hot") not in moved  # the plate with its food
    assert (2, "white") not in moved  # "plate near another white plate": which plate?
    checks = drops.to_dict()["productivity_negative_checks"]
    assert checks["swap_same_name_objects"] >= 1 and checks["swap_part_whole_objects"] >= 1


def test_a_moved_attribute_must_be_contradicted_vg79():
    """VG image 79: a white fireplace, a window with a blue and yellow curtain, a black metal
    rack. "blue fireplace" is false (it is white); "white window" may be true (no colour is
    annotated on it), and so may "smiling window": only a contradicted move is a negative."""
    from tests.generators.negatives.helpers import vg_graph

    index = GraphIndex(vg_graph(79))
    fireplace, window, rack = 1025804, 1025806, 1025796  # white; large; metal and black
    assert index.contradicts(fireplace, "blue") and not index.contradicts(fireplace, "white")
    assert index.contradicts(rack, "white")
    assert not index.contradicts(window, "white")  # no colour annotated: may be white
    assert index.contradicts(window, "small")  # "large" is annotated
    assert not index.contradicts(window, "smiling")


def _objects(*objects: SGObject, rels: tuple[Relationship, ...] = ()) -> SceneGraph:
    return SceneGraph(list(objects), list(rels), "1", 800, 600)


def test_swapping_two_names_of_one_thing_says_nothing_new():
    """VG image 10: "computer" and "monitor" annotate one box; "person" may name the man; "wall
    near computer, cabinet next to the computer" says the same with the names exchanged."""
    from crepe_datasets.generators.negatives.swap import _swap_objects
    from crepe_datasets.scenegraph.types import Box

    computer = SGObject(1, "computer", ("white",), Box(100, 100, 200, 150))
    monitor = SGObject(2, "monitor", (), Box(110, 105, 190, 140))
    desk = SGObject(3, "desk", (), Box(0, 200, 600, 300))
    sub = _objects(computer, monitor, desk, rels=(Relationship(1, "on", 3),))
    assert _swap_objects(sub, GraphIndex(sub), computer, monitor) == "swap_objects_same_thing"
    person = SGObject(4, "person", (), Box(0, 0, 50, 100))
    man = SGObject(5, "man", ("tall",), Box(400, 0, 50, 100))
    assert (
        _swap_objects(_objects(person, man), GraphIndex(_objects(person, man)), person, man)
        == "swap_objects_may_corefer"
    )
    wall = SGObject(6, "wall", (), Box(0, 0, 800, 100))
    cabinet = SGObject(7, "file cabinet", (), Box(600, 300, 100, 200))
    near = _objects(
        wall, cabinet, computer, rels=(Relationship(6, "near", 1), Relationship(7, "next to", 1))
    )
    assert _swap_objects(near, GraphIndex(near), wall, cabinet) == "swap_objects_say_the_same"
    on = _objects(
        wall, cabinet, computer, rels=(Relationship(6, "near", 1), Relationship(7, "on", 1))
    )
    assert isinstance(_swap_objects(on, GraphIndex(on), wall, cabinet), SceneGraph)


def test_a_relation_the_boxes_show_is_no_swap():
    """ "White lamp in room, black chair near table" → "white chair in room, black lamp near
    table": refuted by the colours, but every chair's box lies inside the room's, so the swap
    may state a truth."""
    from crepe_datasets.scenegraph.types import Box

    g = SceneGraph(
        [
            SGObject(1, "lamp", ("white",), Box(10, 10, 10, 10)),
            SGObject(2, "room", (), Box(0, 0, 100, 100)),
            SGObject(3, "chair", ("black",), Box(50, 50, 20, 20)),
            SGObject(4, "table", (), Box(200, 0, 50, 50)),
        ],
        [Relationship(1, "in", 2), Relationship(3, "near", 4)],
        "1",
    )
    drops = DropLog()
    cands = swap_negatives(g, GraphIndex(g), random.Random(0), 50, 6, drops)
    for c in cands:
        names = c.graph.object_by_id()
        said = {
            (names[r.subject].name, r.predicate, names[r.object].name)
            for r in c.graph.relationships
        }
        assert ("chair", "in", "room") not in said
    assert drops.counts[("productivity_negative_checks", "swap_relation_fits_boxes")] >= 1


def test_touching_predicates():
    from crepe_datasets.generators.negatives.swap import touching

    assert touching("on") and touching("sitting on") and touching("on top of")
    assert touching("wearing") and touching("hanging from") and touching("of")
    assert not touching("in front of") and not touching("behind") and not touching("near")
    assert not touching("next to") and not touching("sitting next to")


def test_a_name_swap_needs_a_claim_the_image_refutes_vg62_vg8():
    """VG image 62: "window on building, car on ground" → "car on building, window on ground":
    no window's box meets the ground's, so the swap is refuted. VG image 8: "dish on top of
    cpu" → "book on top of cpu" is not, though no box of a book meets the cpu's: a question
    says "what is on top of the cpu? a book"."""
    from crepe_datasets.generators.negatives.swap import refuted_as
    from crepe_datasets.scenegraph.vg.descriptions import ImageDescriptions
    from tests.conftest import require_shared
    from tests.generators.negatives.helpers import pick, vg_graph

    folder = require_shared("visual_genome", "images_1-100")
    g = vg_graph(62)
    sub = pick(
        g,
        ["1025657", "1025655", "1025673", "1025671"],
        [(1025657, "on", 1025655), (1025673, "on", 1025671)],
    )
    by_id = sub.object_by_id()
    window, car = by_id[1025657], by_id[1025673]
    index = GraphIndex(g, ImageDescriptions(folder, DropLog()).take(62))
    assert refuted_as(sub, index, car, window)  # no window meets the ground
    cands = swap_negatives(sub, index, random.Random(0), 50)
    assert any(c.rule == "swap:objects" for c in cands)

    g8 = vg_graph(8)
    sub8 = pick(
        g8,
        ["1060453", "1060454", "1060483", "1060469"],
        [(1060453, "on top of", 1060454), (1060483, "on", 1060469)],
    )
    by_id8 = sub8.object_by_id()
    dish, book = by_id8[1060453], by_id8[1060483]
    with_texts = GraphIndex(g8, ImageDescriptions(folder, DropLog()).take(8))
    assert not refuted_as(sub8, with_texts, dish, book)
    assert refuted_as(sub8, GraphIndex(g8), dish, book)  # without the question, the boxes refute it


def test_a_moved_attribute_never_stands_beside_its_foil():
    """ "Black hat, white dog" → "hat, black and white dog" gives the dog two colours, and
    "large and small dog" contradicts itself: neither is a negative the image must refute."""
    from crepe_datasets.generators.negatives.foils import excludes

    assert excludes(("white", "small"), "black") and excludes(("small",), "large")
    assert not excludes(("small",), "black") and not excludes((), "wooden")
    g = image_graph()
    drops = DropLog()
    cands = swap_negatives(
        subgraph(g, [1, 2, 3, 4], [0, 1, 2]), GraphIndex(g), random.Random(1), 50, drops=drops
    )
    assert "move:attribute" not in _rules(cands)
    assert drops.counts[("productivity_negative_checks", "swap_attribute_beside_its_foil")] >= 1
    # a swap too: "black screen, cushioned and grey chair" -> "black and grey chair"
    tv = SceneGraph(
        [SGObject(1, "screen", ("black",)), SGObject(2, "chair", ("cushioned", "grey"))],
        [],
        "1",
    )
    swaps = [make() for rule, make in swap_candidates(tv, GraphIndex(tv), 6)]
    assert "swap_attribute_beside_its_foil" in swaps


def test_boxes_refute_touching_nearness_above_and_below():
    from crepe_datasets.generators.negatives.swap import boxes_refute
    from crepe_datasets.scenegraph.types import Box

    g = SceneGraph(
        [
            SGObject(1, "window", (), Box(100, 0, 50, 50)),
            SGObject(2, "ground", (), Box(0, 300, 800, 300)),
            SGObject(3, "car", (), Box(100, 350, 200, 100)),
            SGObject(4, "lamp", (), Box(700, 0, 20, 40)),
        ],
        [],
        "1",
        800,
        600,
    )
    index = GraphIndex(g)
    assert boxes_refute(index, "window", "on", "ground")  # never meet
    assert not boxes_refute(index, "car", "parked on", "ground")
    assert boxes_refute(index, "car", "next to", "lamp")  # further apart than either is long
    assert boxes_refute(index, "window", "near", "car") and not boxes_refute(
        index, "car", "near", "ground"
    )
    assert boxes_refute(index, "ground", "above", "window") and boxes_refute(
        index, "window", "under", "car"
    )
    assert not boxes_refute(index, "window", "above", "car") and not boxes_refute(
        index, "car", "behind", "lamp"
    )


def test_a_region_that_states_a_colour_refutes_a_moved_one():
    """ "white cup, tray" → "cup, white tray" is a negative only where something says the tray
    has another colour: here the region "the tray is blue". "The tray is silver" says white (a
    light grey, :func:`~crepe_datasets.generators.negatives.foils.shades_meet`)."""
    from crepe_datasets.scenegraph.types import Box, Description

    cup = SGObject(1, "cup", ("white",), Box(50, 50, 40, 40))
    tray = SGObject(2, "tray", (), Box(300, 300, 200, 80))
    g = _objects(cup, tray)
    region = [Description("the tray is blue", Box(290, 290, 220, 100))]
    silver = [Description("the tray is silver", Box(290, 290, 220, 100))]
    cases = (((), "swap_attribute_not_contradicted"), (silver, "swap_attribute_described"))
    for said, expected in (*cases, (region, None)):
        index = GraphIndex(g, said)
        made = [make() for rule, make in swap_candidates(g, index, 4) if rule == "move:attribute"]
        if expected:
            assert made == [expected]
        else:
            assert [m.objects[1].attributes for m in made] == [("white",)]


def test_need_gives_up_an_item_that_cannot_fill_a_set():
    """With ``need``, the same candidates when enough are found; none, counted and unchecked,
    as soon as those found and those left cannot reach ``need``."""
    g = image_graph()
    sub = subgraph(g, [1, 2, 3, 4], [0, 1, 2])
    every = swap_negatives(sub, GraphIndex(g), random.Random(3), 50)
    kept = swap_negatives(sub, GraphIndex(g), random.Random(3), 50, need=len(every))
    assert [c.graph.to_json() for c in kept] == [c.graph.to_json() for c in every]
    drops = DropLog()
    assert swap_negatives(sub, GraphIndex(g), random.Random(3), 50, drops=drops, need=99) == []
    possible = len(swap_candidates(sub, GraphIndex(g), sub.complexity()))
    assert drops.counts[("productivity_negative_checks", "swap_set_out_of_reach")] == possible
    assert sum(drops.counts.values()) == possible  # given up before any check

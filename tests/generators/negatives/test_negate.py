"""HN-NEG: caption-level first, atom negations with the graph checks of SPEC §3.4."""

from __future__ import annotations

import random

from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.negate import (
    attribute_negation_reason,
    attribute_negation_valid,
    negate_negatives,
    relationship_negation_valid,
)
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SGObject
from tests.generators.negatives.helpers import image_graph, subgraph


def test_caption_negation_first_then_single_atom_negations():
    g = image_graph()
    sub = subgraph(g, [1, 2], [0])
    cands = negate_negatives(sub, GraphIndex(g), random.Random(0), 10)
    assert cands[0].rule == "negate:caption" and cands[0].caption_level and cands[0].graph is sub
    for cand in cands[1:]:
        before, after = sub.atoms(), cand.graph.atoms()
        changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
        assert len(changed) == 1 and changed[0][1].text == "not " + changed[0][0].text
    assert negate_negatives(sub, GraphIndex(g), random.Random(0), 10) == cands
    assert len(negate_negatives(sub, GraphIndex(g), random.Random(0), 2)) == 2


def test_attribute_negation_invalid_when_another_same_name_object_lacks_it():
    g = image_graph()
    index = GraphIndex(g)
    tall_man = g.object_by_id()[1]
    # man 5 is a man without "tall": "man that is not tall" is true of the image.
    assert not attribute_negation_valid(subgraph(g, [1], []), index, tall_man, "tall")
    dog = g.object_by_id()[4]
    assert attribute_negation_valid(subgraph(g, [4], []), index, dog, "white")


def test_relationship_negation_invalid_when_pair_has_another_predicate():
    g = image_graph()
    g.relationships.append(Relationship(1, "holding", 2))
    index = GraphIndex(g)
    assert not relationship_negation_valid(index, Relationship(1, "wearing", 2))
    assert relationship_negation_valid(index, Relationship(1, "sitting on", 3))


def test_no_object_is_negated():
    """ "thing that is not a dog" is true of whatever else the image holds (most of it not
    annotated): no candidate negates an object."""
    g = image_graph()
    sub = subgraph(g, [4, 3], [2])
    for cand in negate_negatives(sub, GraphIndex(g), random.Random(0), 20):
        assert cand.rule != "negate:object"
        assert not any(o.name.startswith("not ") for o in cand.graph.objects)


def test_attribute_negation_invalid_when_another_same_name_object_is_not_annotated_with_it():
    """ "wooden seat that is not white" may be about another seat with no colour annotated."""
    g = image_graph()
    g.objects.append(SGObject(6, "dog", ()))
    index = GraphIndex(g)
    dog = g.object_by_id()[4]
    assert not attribute_negation_valid(subgraph(g, [4], []), index, dog, "white")


def test_invalid_negations_are_counted():
    g = image_graph()
    drops = DropLog()
    negate_negatives(subgraph(g, [1], []), GraphIndex(g), random.Random(0), 5, drops)
    assert drops.to_dict()["productivity_negative_checks"] == {
        "negate_attribute_same_name_object_lacks_it": 1
    }


def test_relationship_negation_invalid_when_true_of_other_objects_vg70():
    """VG image 70: two women wear the sunglasses, two read the newspaper, one does both.
    "woman wearing sunglasses, the woman not reading newspaper" is true of the smiling woman,
    and "woman not wearing sunglasses, the woman reading newspaper" of the third woman."""
    from tests.generators.negatives.helpers import pick, vg_graph

    g = vg_graph(70)
    index = GraphIndex(g)
    rels = [(1058730, "wearing", 1058733), (1058730, "reading", 1058735)]
    sub = pick(g, ["1058730", "1058733", "1058735"], rels)
    reading = next(r for r in sub.relationships if r.predicate == "reading")
    wearing = next(r for r in sub.relationships if r.predicate == "wearing")
    assert relationship_negation_valid(index, reading)  # the pair has no other predicate
    assert not relationship_negation_valid(index, reading, sub)
    assert relationship_negation_valid(index, wearing)
    assert not relationship_negation_valid(index, wearing, sub)
    drops = DropLog()
    cands = negate_negatives(sub, index, random.Random(0), 10, drops)
    assert all("not reading" not in str(c.graph.relationships) for c in cands)
    assert (
        drops.to_dict()["productivity_negative_checks"]["negate_relationship_true_of_other_objects"]
        == 2
    )


def test_relationship_negation_invalid_when_the_crop_shows_another_unlinked_thing_of_the_kind():
    """ "man not sitting on bench" is true of the second man the crop shows (next to the
    bench), though that man is not tall like the caption's."""
    g = image_graph()
    index = GraphIndex(g)
    sub = subgraph(g, [1, 3], [1])  # tall man sitting on wooden bench
    sitting = sub.relationships[0]
    assert relationship_negation_valid(index, sitting, sub)  # whole graph: man 5 is not tall
    assert not relationship_negation_valid(index, sitting, sub, sub.region())
    far = index.graph.object_by_id()[5]
    assert far.box is not None and sub.region().intersection_area(far.box) == far.box.area


def test_attributes_whose_negation_is_never_false():
    reason = attribute_negation_reason
    assert reason(SGObject(1, "chair", ("metal", "4")), "4") == "negate_attribute_count"
    assert reason(SGObject(1, "chair", ("navy blue", "blue")), "blue") == (
        "negate_attribute_implied_by_another"
    )
    awning = SGObject(2, "awning", ("dark green", "green"))
    assert reason(awning, "green") == "negate_attribute_implied_by_another"
    monitor = SGObject(3, "monitor", ("central processing unit", "black"))
    assert reason(monitor, "central processing unit") == "negate_attribute_noun"
    assert reason(SGObject(4, "floor", ("tiles",)), "tiles") == "negate_attribute_noun"
    advert = SGObject(5, "advertisement", ("pharmacy sign",))
    assert reason(advert, "pharmacy sign") == "negate_attribute_noun"
    assert reason(SGObject(6, "chair", ("navy blue",)), "navy blue") is None  # a colour
    assert reason(SGObject(1, "chair", ("metal", "blue")), "metal") is None  # a material
    assert reason(SGObject(5, "table", ("wood", "brown")), "wood") is None
    assert reason(SGObject(6, "car", ("red", "white")), "red") is None
    assert reason(SGObject(7, "table", ("wood", "wooden")), "wooden") == (
        "negate_attribute_implied_by_another"
    )
    assert reason(SGObject(7, "table", ("reddish", "red")), "red") == (
        "negate_attribute_implied_by_another"
    )
    assert reason(SGObject(8, "rope", ("tan", "tangled")), "tan") is None
    # "tall, dark and yellow light" -> "tall and yellow light that is not dark": a comma fewer
    light = SGObject(9, "light", ("tall", "dark", "yellow"))
    assert reason(light, "dark") == "negate_attribute_in_list"


def test_a_relationship_the_caption_says_again_is_not_negated():
    """ "building has glass window, the building has another glass window": negating one says
    and denies the same of the building."""
    from crepe_datasets.scenegraph.types import SceneGraph

    building = SGObject(1, "building", ("orange",))
    windows = [SGObject(2, "window", ("glass",)), SGObject(3, "window", ("glass",))]
    rels = [Relationship(1, "has", 2), Relationship(1, "has", 3)]
    sub = SceneGraph([building, *windows], rels)
    drops = DropLog()
    cands = negate_negatives(sub, GraphIndex(sub), random.Random(0), 10, drops)
    assert all(c.rule != "negate:relationship" for c in cands)
    checks = drops.to_dict()["productivity_negative_checks"]
    assert checks["negate_relationship_restated_in_caption"] == 2


def test_a_relationship_the_caption_says_the_other_way_round_is_not_negated():
    """ "shelf with the book, the book not on the shelf" says and denies that the book is on
    the shelf."""
    from crepe_datasets.scenegraph.types import SceneGraph

    shelf, book = SGObject(1, "shelf", ()), SGObject(2, "book", ())
    sub = SceneGraph([shelf, book], [Relationship(1, "with", 2), Relationship(2, "on", 1)])
    drops = DropLog()
    cands = negate_negatives(sub, GraphIndex(sub), random.Random(0), 10, drops)
    assert all(c.rule != "negate:relationship" for c in cands)
    checks = drops.to_dict()["productivity_negative_checks"]
    assert checks["negate_relationship_restated_in_caption"] == 2


def test_need_gives_up_an_item_that_cannot_fill_a_set():
    """The same candidates when they reach ``need``; none, and every one counted, when the
    caption negation and the subgraph's atoms cannot: then no atom is even checked."""
    g = image_graph()
    sub = subgraph(g, [1, 2], [0])
    atoms = sum(len(o.attributes) for o in sub.objects) + len(sub.relationships)
    every = negate_negatives(sub, GraphIndex(g), random.Random(0), 10)
    assert negate_negatives(sub, GraphIndex(g), random.Random(0), 10, need=len(every)) == every
    drops = DropLog()
    assert negate_negatives(sub, GraphIndex(g), random.Random(0), 10, drops, need=atoms + 2) == []
    assert dict(drops.counts) == {
        ("productivity_negative_checks", "negate_set_out_of_reach"): 1 + atoms
    }
    drops = DropLog()  # enough atoms, too many of them invalid: given up once that is certain
    assert negate_negatives(sub, GraphIndex(g), random.Random(0), 10, drops, len(every) + 1) == []
    assert drops.counts[("productivity_negative_checks", "negate_set_out_of_reach")] >= 1

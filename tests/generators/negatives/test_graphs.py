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
    assert sorted(sorted(ids) for ids in things) == [[1, 2], [3], [4]]
    shown = g.kin_things("chair", None, Box(0, 0, 360, 100))  # chair 3 is 60% inside
    assert sorted(sorted(ids) for ids in shown) == [[1, 2], [3]]
    assert g.kin_things("chair", None, Box(0, 0, 330, 100)) == [frozenset({1, 2})]


def _described(image_id: int) -> GraphIndex:
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.vg.descriptions import ImageDescriptions
    from tests.conftest import require_shared
    from tests.generators.negatives.helpers import vg_graph

    texts = ImageDescriptions(require_shared("visual_genome", "images_1-100"), DropLog())
    return GraphIndex(vg_graph(image_id), texts.take(image_id))


def test_what_people_wrote_of_an_image_is_evidence():
    """VG image 12: the wall object is grey, but a region says "the wall is green" and a
    question "What color is the wall? Green."; image 40: "a table is next to the couch"."""
    index = _described(12)
    wall = index.by_id[1024208]
    assert wall.attributes == ("grey",)
    assert index.described_attribute(("wall",), wall.box, "green")
    assert not index.described_attribute(("wall",), wall.box, "red")
    far = Box(0, 500, 10, 10)  # a region elsewhere: only the question still says it
    assert index.described_attribute(("wall",), far, "green")
    assert not index.described_attribute(("floor",), wall.box, "green")
    assert GraphIndex(index.graph).described_attribute(("wall",), wall.box, "green") is False
    room = _described(40)
    assert room.described_in("couch") and not room.described_in("piano")
    assert not room.described_in("couch", Box(0, 0, 1, 1))  # no region inside a 1-pixel crop


def test_an_object_is_found_under_its_other_names():
    """Image 40's chair is also called "couch" and "sofa"."""
    from tests.generators.negatives.helpers import vg_graph

    index = GraphIndex(vg_graph(40))
    assert index.kin("couch") == index.kin("sofa") == (1025176,)
    assert index.names(index.by_id[1025176]) == ("chair", "couch", "sofa")
    assert index.names(SGObject(-1, "lamp")) == ("lamp",)  # not in G: its own name
    assert index.holds(SceneGraph([SGObject(0, "couch", ("floral",))]))


def test_a_more_general_name_in_the_crop_may_be_the_foil():
    """Image 55 shows "person" objects of no stated gender: "a man" may be one of them."""
    from crepe_datasets.generators.negatives.kinds import may_be
    from tests.generators.negatives.helpers import vg_graph

    assert may_be("man", "person") and may_be("van", "vehicle") and may_be("desk", "table")
    assert not may_be("person", "man") and not may_be("car", "tree")
    assert not may_be("car", "thing")  # vacuous: read the other way by is_kind_of
    index = GraphIndex(vg_graph(55))
    person = index.by_id[1533732]
    assert index.kind_of_shown("man") and index.kind_of_shown("woman", person.box)
    assert not index.kind_of_shown("spoon")
    assert not index.kind_of_shown("man", Box(0, 0, 5, 5))


def test_a_thing_the_crop_shows_may_have_the_foil_part():
    """Image 45 shows cars: "a wheel" may be one of theirs."""
    from tests.generators.negatives.helpers import vg_graph

    index = GraphIndex(vg_graph(45))
    assert index.whole_shown("wheel") and not index.whole_shown("mattress")
    assert not index.whole_shown("wheel", Box(0, 0, 2, 2))
    people = GraphIndex(vg_graph(55))  # a person: any body part may be theirs
    person = people.by_id[1533732]
    assert people.whole_shown("tongue", person.box) and people.whole_shown("limb")
    assert not people.whole_shown("tongue", Box(0, 0, 2, 2))


def test_a_second_holder_with_nothing_annotated_leaves_the_attribute_open():
    """Image 58: a man wears a white shirt; a second guy in the image has no clothing
    annotated, so "guy wearing blue shirt" may be true of him, and a second shirt-less thing
    of the kind leaves any colour open."""
    from tests.generators.negatives.helpers import vg_graph

    g = vg_graph(58)
    index = GraphIndex(g)
    by_id = g.object_by_id()
    guy = SGObject(1533792, "guy", (), by_id[1533792].box)
    shirt = SGObject(1634367, "shirt", ("white",), by_id[1634367].box)
    sub = SceneGraph([guy, shirt], [Relationship(guy.id, "wearing", shirt.id)], "58")
    assert index.open_holder(sub, shirt, "blue")  # the other guy, 1533801
    assert not index.open_holder(sub, shirt, "blue", by_id[1533792].box)  # not in this crop
    alone = GraphIndex(SceneGraph([by_id[1634366], by_id[1634367]], g.relationships, "58"))
    assert not alone.open_holder(sub, shirt, "blue")
    assert index.contradicts(shirt.id, "blue") and not index.contradicts(shirt.id, "white")
    two = GraphIndex(
        SceneGraph([SGObject(1, "mug", ("large",), Box(0, 0, 9, 9)), SGObject(2, "mug")], [])
    )
    assert two.open_kin(two.by_id[1], "small")  # the second mug has no size
    sized = GraphIndex(
        SceneGraph([SGObject(1, "mug", ("large",)), SGObject(2, "mug", ("big",))], [])
    )
    assert not sized.open_kin(sized.by_id[1], "small")


def test_the_indexed_checks_agree_with_their_definitions():
    """``kind_of_shown``, ``whole_shown`` and ``kin`` find through per-image indexes what
    ``kinds.may_be``, ``foils.part_of``, ``same_kind`` and ``is_kind_of`` say object by object."""
    from crepe_datasets.generators.negatives.foils import part_of
    from crepe_datasets.generators.negatives.kinds import is_kind_of, may_be, same_kind
    from tests.generators.negatives.helpers import vg_graph

    for image in (40, 45, 55, 58):
        g = vg_graph(image)
        index = GraphIndex(g)
        words = sorted({n for o in g.objects for n in (o.name, *o.aliases)})
        words += ["man", "woman", "wheel", "palm", "van", "thing", "shirt", "sofa", "tongue"]
        for w in words:
            names = [(o, n) for o in g.objects for n in (o.name, *o.aliases)]
            assert index.kind_of_shown(w) == any(
                n != w and may_be(w, n) and not same_kind(n, w) for _, n in names
            )
            assert index.whole_shown(w) == any(part_of(w, n) for _, n in names)
            assert index.kin(w) == tuple(
                o.id
                for o in g.objects
                if any(same_kind(w, n) or is_kind_of(n, w) for n in (o.name, *o.aliases))
            )


def test_a_box_of_two_unrelated_names_is_no_evidence_vg6():
    """VG image 6: one box is named "lid" and "drawer" and annotated red and wooden: the red
    may be the lid's or the drawer's, so it contradicts no colour; "chair" / "seat" of image 8
    name one thing."""
    from tests.generators.negatives.helpers import vg_graph

    index = GraphIndex(vg_graph(6))
    lid = index.by_id[5160]
    assert lid.aliases == ("drawer",) and "red" in lid.attributes
    assert not index.one_thing(5160) and not index.contradicts(5160, "white")
    index8 = GraphIndex(vg_graph(8))
    assert index8.by_id[1060489].aliases == ("seat",)
    assert index8.one_thing(1060489) and index8.contradicts(1060489, "red")  # it is blue


def test_a_region_states_attributes_of_one_thing_in_so_many_words_vg84_vg77_vg46():
    """VG image 84: "the tray is silver" over a tray annotated with no colour; image 77: "man in
    orange shirt" gives the shirt its colour and the man none; image 46: a car annotated grey
    and silver that a region calls white has two colours, so for a swap it excludes none."""
    tray = _described(84)
    assert "silver" in tray.stated_attributes(1534285)
    assert not tray.contradicts(1534285, "red")  # the annotation alone says nothing of colour
    assert tray.contradicts(1534285, "red", stated=True)
    people = _described(77)
    assert people.stated_attributes(1534175) == frozenset()  # the man
    assert people.stated_attributes(1534176) == {"orange"}  # his shirt
    street = _described(46)
    assert street.contradicts(3798607, "red")
    assert not street.contradicts(3798607, "red", stated=True)  # grey, silver and white


def test_only_the_words_next_to_a_name_state_its_attributes():
    """ "a white and red car" and "the car is gray" state colours of the car; "black car tire"
    (the name does not end its noun phrase), "coffee press" (no adjective), "man near car"
    (a predicate) and a region showing two cars state nothing of it."""
    from crepe_datasets.scenegraph.types import Description

    car = SGObject(1, "car", (), Box(100, 100, 200, 100))
    other = SGObject(2, "car", (), Box(500, 100, 200, 100))
    g = SceneGraph([car, other], [], "1", 800, 600)
    on_car = Box(90, 90, 220, 120)

    def stated(*texts: str, box: Box = on_car) -> frozenset[str]:
        return GraphIndex(g, [Description(t, box) for t in texts]).stated_attributes(1)

    assert stated("a white and red car") == {"white", "red"}
    assert stated("the car is gray") == {"gray"}
    assert stated("black car tire", "coffee car", "man near car", "cars parked") == frozenset()
    assert stated("white car", box=Box(90, 90, 700, 120)) == frozenset()  # shows both cars
    assert stated("white car", box=Box(0, 0, 800, 600)) == frozenset()  # mostly not the car

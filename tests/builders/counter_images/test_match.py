"""The match rule on real pool regions."""

from __future__ import annotations

from crepe_datasets.builders.counter_images.match import (
    CounterMatch,
    counted_out,
    exchange_of,
    find_counter,
    find_map,
    image_keys,
    last_word,
    matched_part,
    part_whole,
    true_in_image,
    uncovered_words,
)
from crepe_datasets.generators.terms import Terms
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def graph(*objects: tuple[str, tuple[str, ...]], rels: tuple = ()) -> SceneGraph:
    objs = [SGObject(i, n, a) for i, (n, a) in enumerate(objects)]
    return SceneGraph(objs, [Relationship(*r) for r in rels])


def test_exchange_of_one_atom() -> None:
    pos = graph(("chair", ("purple",)))
    assert exchange_of(pos, graph(("chair", ("red",)))) == ("attribute", "purple", "red")
    assert exchange_of(pos, graph(("bench", ("purple",)))) == ("object", "chair", "bench")
    assert exchange_of(pos, graph(("bench", ("red",)))) is None


def test_find_map_uses_first_sense_synonyms_and_lemmas() -> None:
    terms = Terms.from_vg(None)
    target = graph(("laptop", ()), ("sofa", ()), rels=((0, "on", 1),))
    query = graph(("laptop", ()), ("couch", ()), rels=((0, "on", 1),))
    assert find_map(query, target, terms.tight) == {0: 0, 1: 1}
    assert (
        find_map(graph(("laptop", ()), ("couch", ()), rels=((1, "on", 0),)), target, terms.tight)
        is None
    )


def test_counter_region_for_an_attribute_foil(pool_index) -> None:
    index, _, _ = pool_index
    pos, neg = graph(("chair", ("purple",))), graph(("chair", ("red",)))
    m = find_counter(index, pos, neg, "4", 0.05, "0:4:1947:0:counter")
    assert isinstance(m, CounterMatch)
    assert m.region.image_id != "4"
    chairs = [o for o in m.region.graph.objects if o.name == "chair"]
    assert any("red" in o.attributes for o in chairs)
    assert not any("purple" in o.attributes for o in chairs)
    assert m.contradiction == "the chair is red, not purple"
    again = find_counter(index, pos, neg, "4", 0.05, "0:4:1947:0:counter")
    assert again.region.to_list() == m.region.to_list()  # seeded


def test_object_foil_needs_the_replaced_object_absent(pool_index) -> None:
    index, _, _ = pool_index
    pos = graph(("computer", ()), ("desk", ()), rels=((0, "on", 1),))
    neg = graph(("computer", ()), ("couch", ()), rels=((0, "on", 1),))
    m = find_counter(index, pos, neg, "1", None, "k")
    assert isinstance(m, CounterMatch)
    assert not any(o.name == "desk" for o in m.region.graph.objects)


def test_reasons(pool_index) -> None:
    index, _, _ = pool_index
    pos = graph(("zebra", ("purple",)))
    assert find_counter(index, pos, graph(("zebra", ("plaid",))), "1", None, "k") == "not_in_pool"
    assert (
        find_counter(index, pos, graph(("giraffe", ("red",))), "1", None, "k")
        == "no_single_exchange"
    )


def test_words_beyond_the_graph() -> None:
    wall = graph(("wall", ("yellow",)))
    assert uncovered_words("wall is yellow and grey", wall) == ["grey"]
    stools = graph(("stool", ("2",)))
    assert uncovered_words("there are two stools in the photo", stools) == []
    on = graph(("computer", ()), ("desk", ()), rels=((0, "on", 1),))
    assert uncovered_words("there is a computer on the desk", on) == []


def test_part_whole_foils_are_refused(pool_index) -> None:
    index, _, _ = pool_index
    assert part_whole("wall", "room") and not part_whole("chair", "bench")
    assert part_whole("wall", "house")  # a wall is a part of a building, a house a building
    pos, neg = graph(("wall", ("white",))), graph(("room", ("white",)))
    assert find_counter(index, pos, neg, "1", None, "k") == "part_whole_foil"


def test_caption_words_beyond_the_graph_must_be_in_the_region(pool_index) -> None:
    index, _, _ = pool_index
    pos, neg = graph(("rug", ("black",))), graph(("rug", ("white",)))
    m = find_counter(index, pos, neg, "42", None, "k", ["carpet"])
    assert isinstance(m, CounterMatch) and "carpet" in m.description.lower() + " ".join(
        o.name for o in m.region.graph.objects
    )


def test_a_preposition_is_entailed_by_predicates_ending_with_it() -> None:
    terms = Terms.from_vg(None)
    terms.add_predicates({"sit on", "on top of", "hang near"})
    target = graph(("bottle", ()), ("counter", ()), rels=((0, "sit on", 1),))
    assert find_map(
        graph(("bottle", ()), ("counter", ()), rels=((0, "on", 1),)), target, terms.tight
    )
    assert not find_map(
        graph(("bottle", ()), ("counter", ()), rels=((0, "in", 1),)), target, terms.tight
    )
    # the other way round does not hold: "on" does not say "sitting on"
    on = graph(("bottle", ()), ("counter", ()), rels=((0, "on", 1),))
    assert not find_map(
        graph(("bottle", ()), ("counter", ()), rels=((0, "sit on", 1),)), on, terms.tight
    )


def test_hn_comp_counter_region(pool_index) -> None:
    """ "a brown plate" -> "a white plate and a brown table": both compounds annotated in the
    counter-region, no brown plate there even with broad synonyms."""
    index, _, _ = pool_index
    pos = graph(("plate", ("brown",)))
    neg = graph(("plate", ("white",)), ("table", ("brown",)))
    m = find_counter(index, pos, neg, "1", None, "k", (), ["white", "table"])
    assert isinstance(m, CounterMatch)
    assert m.exchange == ("compound", "brown|plate", "white+table")
    assert m.region.image_id != "1"
    plates = [o for o in m.region.graph.objects if o.name == "plate"]
    assert any("white" in o.attributes for o in plates)
    assert not any("brown" in o.attributes for o in plates)
    assert any(o.name == "table" and "brown" in o.attributes for o in m.region.graph.objects)
    assert m.contradiction.startswith("no brown plate in the region")


def test_hn_comp_shape_and_positive_true(pool_index) -> None:
    index, _, _ = pool_index
    pos = graph(("plate", ("brown",)))
    # not the caption plus its two foils
    lost = graph(("plate", ("white",)), ("table", ("red",)))
    assert find_counter(index, pos, lost, "1", None, "k", (), ["white", "table"]) == (
        "not_a_comp_negative"
    )
    # the regions with a white car and a red building have a red car too (the furthest reason)
    car = graph(("car", ("red",)))
    neg = graph(("car", ("white",)), ("building", ("red",)))
    assert (
        find_counter(index, car, neg, "1", None, "k", (), ["white", "building"])
        == "positive_also_true"
    )


def test_scene_level_caption_needs_a_whole_image(pool_index) -> None:
    """ "there is a grey rug" is a claim about the picture: a FACTUAL region (one region of its
    image) cannot show it false, so without a whole-image graph the negative is unmatched."""
    index, _, _ = pool_index
    pos, neg = graph(("rug", ("grey",))), graph(("skirt", ("grey",)))
    region = find_counter(index, pos, neg, "30", None, "0:30:6375:1:counter")
    assert isinstance(region, CounterMatch) and region.region.source == "factual"
    scene = find_counter(index, pos, neg, "30", None, "0:30:6375:1:counter", scope="existential")
    assert scene == "caption_scene_level"
    # "the room is spacious" -> "the room is small": a whole VG image holds it
    m = find_counter(
        index, graph(("room", ("spacious",))), graph(("room", ("small",))), "30", None, "k",
        scope="scene_object",
    )  # fmt: skip
    assert isinstance(m, CounterMatch) and m.region.source == "vg_image"
    assert not any("spacious" in o.attributes for o in m.region.graph.objects)


def test_whole_image_counter_excludes_the_caption_by_head_nouns(pool_index) -> None:
    """VG image 35 has a silver chair and a black "desk chair": it makes "there is a silver chair
    in the picture" true but does not make "there is a black chair in the picture" false."""
    index, _, _ = pool_index
    image_35 = index.image_graph("35")
    assert find_map(graph(("chair", ("black",))), image_35, index.terms.loose) is None
    assert find_map(graph(("chair", ("black",))), image_35, index.terms.loose, last_word)
    pos, neg = graph(("chair", ("black",))), graph(("chair", ("silver",)))
    for k in range(8):
        m = find_counter(index, pos, neg, "17", None, f"{k}", scope="existential")
        assert not isinstance(m, CounterMatch) or m.region.image_id != "35"


def test_negative_true_of_its_own_image_is_dropped(pool_index) -> None:
    """VG image 42 has two carpets, a black one and a dark grey one: "the carpet rug is grey" is
    no negative of "the carpet rug is black" there (found by reading, issue 21)."""
    index, _, _ = pool_index
    own = image_keys(index.image_graph("42"))
    loose = index.terms.loose
    assert true_in_image(graph(("rug", ("grey",))), own, loose)
    assert not true_in_image(graph(("rug", ("purple",))), own, loose)
    pos = graph(("rug", ("black",)))
    assert (
        find_counter(index, pos, graph(("rug", ("grey",))), "42", None, "0:42:4901:0:counter")
        == "negative_true_in_own_image"
    )
    # the count is left out: "two rugs" is possibly true wherever rugs are
    assert true_in_image(graph(("rug", ("2",))), own, loose)
    assert counted_out(graph(("rug", ("2", "grey")))).objects[0].attributes == ("grey",)


def test_whole_images_of_the_index(pool_index) -> None:
    index, _, _ = pool_index
    assert len(index.whole_images) == 100
    assert index.image_graph("42") is not None and index.image_graph("no such image") is None
    assert index.region(index.whole_images["42"]).source == "vg_image"


def test_words_beyond_the_graph_on_a_whole_image_read_the_matched_objects(pool_index) -> None:
    """VG image 11 has a green wall and a yellow bag: "wall is green and yellow" (parsed as a
    green wall) is not covered by the wall, though the whole image names "yellow"."""
    index, _, _ = pool_index
    image = index.region(index.whole_images["11"])
    (wall,) = [o.id for o in image.graph.objects if o.name == "wall"]
    assert uncovered_words("wall is green and yellow", image.graph) == []
    part = matched_part(image, {0: wall})
    assert [o.name for o in part.objects] == ["wall"]
    assert uncovered_words("wall is green and yellow", part) == ["yellow"]
    found = find_counter(
        index, graph(("wall", ("grey",))), graph(("wall", ("green",))), "60", None, "k",
        uncovered_words("wall is green and yellow", graph(("wall", ("green",)))),
    )  # fmt: skip
    if isinstance(found, CounterMatch):  # a region that names yellow with the wall
        assert "yellow" in found.description or any(
            "yellow" in o.attributes for o in matched_part(found.region, found.mapping).objects
        )


def test_picture_frames_are_no_words_beyond_the_graph() -> None:
    car = graph(("car", ("white",)))
    assert uncovered_words("there is a white car on the photo", car) == []
    assert uncovered_words("there is a white car on the road", car) == ["on", "road"]


def test_own_region_descriptions_make_the_negative_true(pool_index) -> None:
    """VG image 45's scene graph has a dark and a grey car, but its region descriptions say "a
    white car is in the intersection": "there is a white car in the photo" is true there."""
    index, _, _ = pool_index
    pos, neg = graph(("truck", ("white",))), graph(("car", ("white",)))
    assert not true_in_image(neg, image_keys(index.image_graph("45")), index.terms.loose)
    described = graph(("car", ("white",)), ("intersection", ()), rels=((0, "in", 1),))
    key = "0:45:5329:0:counter"
    assert find_counter(index, pos, neg, "45", None, key) != "negative_true_in_own_image"
    assert (
        find_counter(index, pos, neg, "45", None, key, captions=[described])
        == "negative_true_in_own_image"
    )


def test_own_pool_regions_make_the_negative_true(pool_index) -> None:
    """The build reads every pool region of the caption's image (``own_graphs``): VG image 3's
    FACTUAL row states dark hair, which its scene graph does not."""
    index, _, _ = pool_index
    numbers = index.image_regions({"3"})["3"]
    regions = [index.region(n) for n in numbers]
    assert {r.source for r in regions} == {"vg_image", "factual"}
    pos, neg = graph(("hair", ("blond",))), graph(("hair", ("dark",)))
    assert isinstance(find_counter(index, pos, neg, "3", None, "k"), CounterMatch)
    own = [r.graph for r in regions if r.source == "factual"]
    assert find_counter(index, pos, neg, "3", None, "k", captions=own) == (
        "negative_true_in_own_image"
    )


def test_a_thing_of_several_colours_contradicts_no_colour() -> None:
    from crepe_datasets.builders.counter_images.match import _contradiction
    from crepe_datasets.builders.counter_images.pool import PoolRegion

    terms = Terms.from_vg(None)
    negative = graph(("carpet", ("blue",)))
    exchange = ("attribute", "grey", "blue")

    def region(*attributes: str) -> PoolRegion:
        return PoolRegion("factual", "9", "1", None, None, None, "9.jpg", "a carpet",
                          graph(("carpet", attributes)))  # fmt: skip

    assert _contradiction(region("blue"), {0: 0}, negative, exchange, terms.loose)
    assert (
        _contradiction(region("blue", "striped"), {0: 0}, negative, exchange, terms.loose) is None
    )


def test_a_region_shows_an_absence_only_of_a_moved_place_or_an_unrelated_object() -> None:
    """A region graph names what its description mentions: "woman wearing a hat" leaves a scarf
    unsaid, so "the woman is wearing a scarf" -> "... a hat" needs the counter's whole image."""
    from crepe_datasets.builders.counter_images.match import _region_shows_absence

    scarf = graph(("woman", ()), ("scarf", ()), rels=((0, "wearing", 1),))
    assert not _region_shows_absence(scarf, "scarf")
    desk = graph(("computer", ()), ("desk", ()), rels=((0, "sitting on", 1),))
    assert _region_shows_absence(desk, "desk")  # the computer is shown elsewhere
    assert not _region_shows_absence(desk, "computer")  # another thing on the desk says nothing
    assert _region_shows_absence(graph(("desk", ("brown",))), "desk")


def test_an_object_exchange_against_a_region_reads_the_whole_image(pool_index) -> None:
    from crepe_datasets.builders.counter_images.match import _absent_from_image

    index, _, _ = pool_index
    loose = index.terms.loose
    assert _absent_from_image(index, "1", "tree", loose) is False  # VG image 1 has trees
    assert _absent_from_image(index, "1", "giraffe", loose) is True
    assert _absent_from_image(index, "2300000", "tree", loose) is None  # no whole graph: unknown


def test_a_part_of_the_object_with_the_old_colour_contradicts_nothing() -> None:
    from crepe_datasets.builders.counter_images.match import _contradiction, part_of
    from crepe_datasets.builders.counter_images.pool import PoolRegion

    assert part_of("leaf", "tree") and part_of("trunk", "tree") and part_of("wheel", "car")
    assert not part_of("plate", "table") and not part_of("cup", "table")
    terms = Terms.from_vg(None)
    leaves = graph(("leaf", ("green",)), ("tree", ("brown",)), rels=((0, "on", 1),))
    region = PoolRegion("factual", "9", "1", None, None, None, "9.jpg", "", leaves)
    exchange = ("attribute", "green", "brown")
    negative = graph(("tree", ("brown",)))
    assert _contradiction(region, {0: 1}, negative, exchange, terms.loose) is None
    plate = graph(("plate", ("green",)), ("table", ("brown",)), rels=((0, "on", 1),))
    region = PoolRegion("factual", "9", "1", None, None, None, "9.jpg", "", plate)
    assert _contradiction(region, {0: 1}, negative, exchange, terms.loose)


def test_own_image_keys_are_worked_out_once_per_image(pool_index) -> None:
    """The build keeps each image's keys (``OwnImageKeys``) across its negatives: the answers are
    those of ``find_counter`` working them out itself."""
    from crepe_datasets.builders.counter_images.match import OwnImageKeys

    index, _, _ = pool_index
    described = graph(("car", ("white",)), ("intersection", ()), rels=((0, "in", 1),))
    own = OwnImageKeys(index, {"45": [described]})
    keys = own("45")
    assert own(45) is keys  # worked out once
    assert keys == (image_keys(index.image_graph("45")), image_keys(described))
    assert OwnImageKeys(index)("45") == keys[:1] and OwnImageKeys(index)("no such image") == ()
    pos = graph(("truck", ("white",)))
    for k, neg in enumerate([graph(("car", ("white",))), graph(("bus", ("white",))),
                             graph(("truck", ("red",)))]):  # fmt: skip
        key = f"0:45:5329:{k}:counter"
        given = find_counter(index, pos, neg, "45", None, key, own=keys)
        assert given == find_counter(index, pos, neg, "45", None, key, captions=[described])
    assert given == find_counter(index, pos, neg, "45", None, key, own=own("45"))


def test_hn_comp_caption_is_not_excluded_by_several_colours_or_a_coloured_part() -> None:
    """As for HN-ATOM: "a pink car" may hold of a blue striped car, "a green tree" of a brown
    tree with green leaves."""
    from crepe_datasets.builders.counter_images.match import _comp_contradiction
    from crepe_datasets.builders.counter_images.pool import PoolRegion

    loose = Terms.from_vg(None).loose

    def region(g: SceneGraph) -> PoolRegion:
        return PoolRegion("factual", "9", "1", None, None, None, "9.jpg", "", g)

    car = ("compound", "pink|car", "blue+toy")
    plain = graph(("car", ("blue",)), ("toy", ("pink",)))
    striped = graph(("car", ("blue", "striped")), ("toy", ("pink",)))
    assert _comp_contradiction(region(plain), car, ["blue", "toy"], loose)
    assert _comp_contradiction(region(striped), car, ["blue", "toy"], loose) is None
    tree = ("compound", "green|tree", "brown+bush")
    leaves = graph(("leaf", ("green",)), ("tree", ("brown",)), ("bush", ("green",)),
                   rels=((0, "on", 1),))  # fmt: skip
    assert _comp_contradiction(region(leaves), tree, ["brown", "bush"], loose) is None


def test_a_thing_of_several_colours_elsewhere_in_the_counter_may_make_the_caption_true(
    pool_index,
) -> None:
    """VG image 88 has a green-and-white chair and a printed one: "chair is white in color" is
    true there, but the printed chair may be the purple one of "chair is purple in color", so
    image 88 is no counter-image of it (the independent check's rule, on the whole image)."""
    from crepe_datasets.builders.counter_images.match import _may_be

    index, _, _ = pool_index
    whole = index.image_graph("88")
    positive, negative = graph(("chair", ("purple",))), graph(("chair", ("white",)))
    loose = index.terms.loose
    assert find_map(positive, whole, loose, last_word) is None
    assert find_map(positive, _may_be(whole, {"purple"}), loose, last_word) is not None
    assert _may_be(whole, set()) is whole
    assert find_map(negative, whole, index.terms.tight, index.terms.head) is not None


def test_objects_the_caption_leaves_unlinked_must_be_linked_in_the_counter() -> None:
    """FACTUAL region of image 2388430: "man wears blue shirt, woman wears pink scarf". The
    caption "woman white shirt" (no relationship parsed) has the negative "woman blue shirt",
    which the woman beside the man's blue shirt does not make true."""
    from crepe_datasets.builders.counter_images.match import together

    negative = graph(("woman", ()), ("shirt", ("blue",)))
    region = graph(
        ("woman", ()), ("scarf", ("pink",)), ("man", ()), ("shirt", ("blue",)),
        rels=((0, "wear", 1), (2, "wear", 3)),
    )  # fmt: skip
    terms = Terms.from_vg(None)
    mapping = find_map(negative, region, terms.tight)
    assert mapping == {0: 0, 1: 3} and not together(negative, region, mapping)
    worn = graph(("woman", ()), ("shirt", ("blue",)), rels=((0, "wear", 1),))
    assert together(negative, worn, find_map(negative, worn, terms.tight))
    linked = graph(("woman", ()), ("shirt", ("blue",)), rels=((0, "wearing", 1),))
    assert together(linked, region, {0: 2, 1: 3})  # a linked negative is left to find_map

from __future__ import annotations

import json

from crepe_datasets.scenegraph.types import (
    Atom,
    Binding,
    Box,
    Compound,
    Relationship,
    SceneGraph,
    SGObject,
    normalize_name,
)


def boy_on_grass() -> SceneGraph:
    """SPEC §3.3's example: boy=(tall, blue); grass=(green); (boy, on, grass)."""
    return SceneGraph(
        objects=[
            SGObject(1, "boy", ("tall", "blue"), Box(0, 0, 100, 200)),
            SGObject(2, "grass", ("green",), Box(50, 150, 300, 100)),
        ],
        relationships=[Relationship(1, "on", 2)],
        image_id="7",
    )


def test_atoms_compounds_and_complexity_count_occurrences():
    g = boy_on_grass()
    assert g.complexity() == 6
    assert Atom("relationship", "on") in g.atoms()
    assert [a.type for a in g.atoms()].count("attribute") == 3
    assert Compound("attribute_object", ("tall", "boy")) in g.compounds()
    assert Compound("object_relationship_object", ("boy", "on", "grass")) in g.compounds()
    assert g.bindings() == [
        Binding("tall", "boy"),
        Binding("blue", "boy"),
        Binding("green", "grass"),
    ]


def test_relationship_to_missing_object_is_not_an_atom():
    g = SceneGraph([SGObject(1, "dog")], [Relationship(1, "on", 99)])
    assert g.complexity() == 1
    assert g.compounds() == []


def test_round_trip_is_stable_and_lossless():
    g = boy_on_grass()
    again = SceneGraph.from_dict(json.loads(json.dumps(g.to_dict())))
    assert again == g
    assert SceneGraph.from_json(g.to_json()).to_json() == g.to_json()


def test_normalized_lemmatises_objects_but_never_attributes():
    g = SceneGraph([SGObject(1, "  Dogs ", ("Smiling", "smiling", "BROWN"))], [])
    n = g.normalized(lambda s: s.rstrip("s"))
    assert n.objects[0].name == "dog"
    assert n.objects[0].attributes == ("smiling", "brown")


def test_region_is_union_of_boxes_and_components():
    g = boy_on_grass()
    g.objects.append(SGObject(3, "kite", (), Box(400, 0, 10, 10)))
    assert g.region() == Box(0, 0, 410, 250)
    assert g.components() == [[1, 2], [3]]


def test_box_geometry():
    a, b = Box(0, 0, 10, 10), Box(5, 5, 10, 10)
    assert a.intersection_area(b) == 25
    assert abs(a.iou(b) - 25 / 175) < 1e-9
    assert Box(-5, -5, 20, 20).clip(10, 10) == Box(0, 0, 10, 10)
    assert not Box(5, 5, 10, 10).inside(10, 10)


def test_box_area_and_overlap_match_their_min_max_definitions():
    """The written-out comparisons give what max(w, 0) * max(h, 0) and the min/max overlap
    give, for boxes apart, touching, nested, crossing and of negative size."""
    import itertools
    import random

    rng = random.Random(0)
    boxes = [Box(0, 0, 10, 10), Box(10, 0, 5, 5), Box(2, 2, 3, 3), Box(3, 3, -2, 4)]
    boxes += [Box(*(rng.randint(-5, 20) for _ in range(4))) for _ in range(60)]
    for a, b in itertools.product(boxes, repeat=2):
        assert a.area == max(a.w, 0.0) * max(a.h, 0.0)
        ix = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
        iy = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
        assert a.intersection_area(b) == max(ix, 0.0) * max(iy, 0.0)


def test_signature_ignores_ids_order_and_boxes():
    g1 = boy_on_grass()
    g2 = SceneGraph(
        [SGObject(9, "grass", ("green",)), SGObject(8, "boy", ("blue", "tall"))],
        [Relationship(8, "on", 9)],
    )
    assert g1.signature() == g2.signature()


def test_normalize_name():
    assert normalize_name('  "A  Red Car." ') == "a red car"
    assert normalize_name("T-Shirt") == "t-shirt"

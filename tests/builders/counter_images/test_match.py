"""The match rule on real pool regions."""

from __future__ import annotations

from crepe_datasets.builders.counter_images.match import (
    CounterMatch,
    exchange_of,
    find_counter,
    find_map,
)
from crepe_datasets.builders.counter_images.terms import Terms
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

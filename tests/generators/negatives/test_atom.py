"""HN-ATOM: exactly one atom replaced by a WordNet foil that G does not make true."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from crepe_datasets.generators.negatives.atom import atom_negatives
from crepe_datasets.generators.negatives.foils import attribute_foils, object_foils, relation_foils
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.scenegraph.types import Box, SGObject
from tests.generators.negatives.helpers import image_graph, subgraph

pytestmark = pytest.mark.slow  # WordNet (first load)


def test_foils_are_antonyms_or_cohyponyms():
    assert attribute_foils("tall")[0] == "short"
    assert "blue" in attribute_foils("red") and "red" not in attribute_foils("red")
    assert "cat" in object_foils("dog")
    assert "man" in object_foils("boy", "boy.n.01")
    assert relation_foils("on")[0] == "under"
    assert "grey" not in attribute_foils("gray")  # synonyms are never foils


def test_each_negative_changes_exactly_one_atom():
    g = image_graph()
    index = GraphIndex(g)
    sub = subgraph(g, [1, 2, 3], [0, 1])
    cands = atom_negatives(sub, index, random.Random(0), 8)
    assert len(cands) == 8
    for cand in cands:
        removed = Counter(sub.atoms()) - Counter(cand.graph.atoms())
        added = Counter(cand.graph.atoms()) - Counter(sub.atoms())
        assert sum(removed.values()) == sum(added.values()) == 1
        assert next(iter(removed)).type == next(iter(added)).type
        assert not index.holds(cand.graph)
    assert len({c.graph.signature() for c in cands}) == 8
    assert [c.graph.to_json() for c in atom_negatives(sub, index, random.Random(0), 8)] == [
        c.graph.to_json() for c in cands
    ]


def test_foils_true_in_g_are_not_used():
    g = image_graph()
    sub = subgraph(g, [1], [])
    # man 1 is tall; "short" is its antonym, but in G man 1 is also short now.
    g.objects[0] = SGObject(1, "man", ("tall", "short"), g.objects[0].box)
    texts = {
        c.graph.objects[0].attributes
        for c in atom_negatives(sub, GraphIndex(g), random.Random(0), 30)
    }
    assert ("short",) not in texts


def test_object_foil_annotated_on_the_same_box_is_not_used():
    g = image_graph()
    g.objects.append(SGObject(9, "woman", (), Box(0, 0, 100, 300)))  # same box as man 1
    sub = subgraph(g, [1], [], drop_attrs={1: ("tall",)})
    names = {
        c.graph.objects[0].name for c in atom_negatives(sub, GraphIndex(g), random.Random(0), 30)
    }
    assert names and "woman" not in names

"""Plausible foils: ordered by closeness in plausibility, more and less plausible alternating."""

from __future__ import annotations

import random

import pytest

from crepe_datasets.generators.balance.frequency_lm import FrequencyLMRanker, english_frequency
from crepe_datasets.generators.negatives.atom import atom_negatives
from crepe_datasets.generators.negatives.foils import object_foils
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.plausible import (
    attribute_context,
    closest_first,
    object_context,
    relation_context,
)
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

pytestmark = pytest.mark.slow  # WordNet


class _Length:
    def rank(self, sentences):
        return [-float(len(s)) for s in sentences]


def test_closest_first_alternates_above_and_below():
    order = closest_first("abcd", ["abcdefgh", "abc", "abcde", "ab", "a"], _Length())
    # base -4; scores -8, -3, -5, -2, -1 → above: abc(1), ab(2), a(3); below: abcde(1), abcdefgh(4)
    assert order == [1, 2, 3, 0, 4]


def test_contexts():
    g = SceneGraph(
        [SGObject(1, "lamp", ("red",)), SGObject(2, "dresser")], [Relationship(1, "on", 2)]
    )
    assert object_context(g, SGObject(1, "vase", ("red",))) == "red vase, vase on dresser"
    assert attribute_context(SGObject(1, "table", ("red", "metal"))) == "red and metal table"
    assert relation_context(g, 1, "under", 2) == "lamp under dresser"


def test_ranked_object_foils_are_ordinary_words():
    g = SceneGraph(
        [SGObject(i, name) for i, name in enumerate(["car", "chair", "cup", "shirt"], 1)], []
    )
    ranker = FrequencyLMRanker()
    for obj in g.objects:
        foils = object_foils(obj.name)
        cands = atom_negatives(
            SceneGraph([obj], [], "1"), GraphIndex(g), random.Random(0), 3, None, ranker
        )
        picked = [c.graph.objects[0].name for c in cands]
        assert len(picked) == 3 and set(picked) <= set(foils)
        # ordinary words (WordNet's rare co-hyponyms are gone: foils are caption words, and
        # the ranker puts those of a frequency like the original's first)
        assert min(english_frequency(f) for f in picked) >= 5e-6, (obj.name, picked)

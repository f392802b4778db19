"""Object foils from the right sense: a close ancestor, one kind of thing, the dominant sense."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.generators.negatives.foils import object_foils, ranked_cohyponyms
from crepe_datasets.generators.negatives.senses import (
    broad,
    foil_sense_ok,
    is_mass,
    noun_senses,
    object_sense,
)
from crepe_datasets.infra.resources import wordnet
from crepe_datasets.scenegraph.lexicon import normalize_object
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # WordNet


def test_original_sense_is_a_tangible_one():
    """VG annotates "seat" as a place reserved for sitting and "shadow" as a state: no sense is
    guessed for them (shadow's first tangible sense is a follower); an unannotated name takes
    its first tangible sense that it heads."""
    assert (
        object_sense("seat", "seat.n.01") is None and object_sense("shadow", "shadow.n.01") is None
    )
    assert (
        object_sense("seat").name() == "seat.n.03" and object_sense("glass").name() == "glass.n.02"
    )
    assert object_sense("dog", "dog.n.01").name() == "dog.n.01"
    assert object_sense("sky") is not None and object_sense("crowd") is None
    assert object_foils("shadow", "shadow.n.01") == ()


def test_broad_grand_hypernyms_give_siblings():
    wn = wordnet()
    assert broad(wn.synset("artifact.n.01")) and not broad(wn.synset("carnivore.n.01"))
    foils = object_foils("building", "building.n.01")
    assert {"bridge", "tower"} <= set(foils)
    assert not {"system", "equipment", "device", "art"} & set(foils)


def test_foil_sense_must_be_dominant_and_of_one_kind():
    wn = wordnet()
    # banana: plant and fruit senses equally frequent -> no plant foil
    assert not foil_sense_ok("banana", wn.synset("banana.n.01"), "noun.plant")
    assert foil_sense_ok("bush", wn.synset("shrub.n.01"), "noun.plant")
    assert not foil_sense_ok("bush", wn.synset("shrub.n.01"), "noun.artifact")
    assert "banana" not in object_foils("tree", "tree.n.01")
    assert noun_senses()["dog"][0][0] == wn.synset("dog.n.01").offset()


def test_countability_by_plural_frequency():
    assert is_mass("equipment") and is_mass("furniture") and is_mass("clothing")
    assert not is_mass("building") and not is_mass("tree") and not is_mass("fish")
    assert "equipment" not in object_foils("balcony", "balcony.n.01")


def test_foils_of_real_vg_objects_are_of_their_kind():
    """Every object of the 100 real images: each co-hyponym foil's most frequent sense is in the
    lexicographer file of the object's sense, and a count noun has no mass-noun foil."""
    path = require_shared("visual_genome", "images_1-100", "objects.json")
    wn = wordnet()
    checked = 0
    seen = set()
    for image in json.loads(path.read_text()):
        for o in image["objects"]:
            name = normalize_object(o["names"][0])
            synset = (o.get("synsets") or [None])[0]
            if (name, synset) in seen or not name.isalpha():
                continue
            seen.add((name, synset))
            sense = object_sense(name, synset)
            for foil in ranked_cohyponyms(name, synset):
                assert wn.synsets(foil, "n")[0].lexname() == sense.lexname(), (name, foil)
                assert is_mass(name) or not is_mass(foil), (name, foil)
                checked += 1
    assert checked > 300

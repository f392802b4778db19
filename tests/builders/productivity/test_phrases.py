"""Visual Genome names and attributes that are phrases: names repaired to their head, place
attributes dropped, both counted (real scene graphs of images 1-100)."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.productivity.clean import STAGE, clean_graph
from crepe_datasets.builders.productivity.phrases import (
    head_name,
    head_synset,
    prepositional_attribute,
)
from crepe_datasets.infra.provenance import DropLog
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # spaCy


def test_head_of_phrase_names():
    assert head_name("glasses on table") == "glasses"
    assert head_name("man in shirt") == "man"
    assert head_name("chair is black") == "chair" and head_name("man has bag") == "man"
    assert head_name("man riding a horse") == "man"
    assert head_name("wall sign is blue") == "wall sign"
    for kept in ("trash can", "parking meter", "stop sign", "tennis racket", "man"):
        assert head_name(kept) == kept


def test_synset_stays_only_with_a_head_that_names_it():
    assert head_synset("glasses", "spectacles.n.01") == "spectacles.n.01"
    assert head_synset("wave", "ocean.n.01") is None and head_synset("man", None) is None


def test_prepositional_attributes():
    for phrase in ("in photo", "on table", "on the side", "in the corner", "for listening"):
        assert prepositional_attribute(phrase), phrase
    for kept in ("off white", "light brown", "made of bricks", "white", "turned on"):
        assert not prepositional_attribute(kept), kept


def test_real_graphs_have_no_phrase_names_or_place_attributes():
    folder = require_shared("visual_genome", "images_1-100")
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    drops = DropLog()
    infos = read_image_data(folder / "image_data.json", drops)
    names = set()
    for raw in iter_scene_graphs(folder / "scene_graphs.json", drops, infos):
        for o in clean_graph(raw, drops).objects:
            names.add(o.name)
            assert head_name(o.name) == o.name, o.name
            assert not any(prepositional_attribute(a) for a in o.attributes), o
    repaired = drops.repairs_dict()[STAGE]["object_name_phrase_to_head"]
    dropped = drops.to_dict()[STAGE]["attribute_prepositional_phrase"]
    assert repaired > 50 and dropped > 10
    assert "glasses on table" not in names and "glasses" in names

"""Noun modifiers decided by the learned lexicon (scenegraph/parser/modifier_lexicon.py).

None of these captions lies in FACTUAL's held-out slice (checked below).
"""

from __future__ import annotations

import json

import pytest

from crepe_datasets.scenegraph.parser import CaptionParser
from crepe_datasets.scenegraph.parser.modifier_lexicon import LEXICON_PATH, ROLES, learned_role
from crepe_datasets.validation.factual import in_heldout_bucket

#: caption -> (object name, its attributes); the objects the caption must not have
CASES = {
    "a stone wall near a pasture": ("wall", {"stone"}, {"stone wall", "stone"}),
    "rocks between two train tracks": ("train track", {"2"}, {"track", "train"}),
    "a crowd behind a chain link fence": ("fence", {"chain link"}, {"chain link fence"}),
    "girl holding a wii controller": ("controller", {"wii"}, {"wii controller"}),
    "a man holding a tennis racket": ("tennis racket", set(), {"racket"}),
    "a cat on a pine table": ("table", {"pine"}, {"pine"}),
}


@pytest.mark.parametrize("caption", list(CASES))
def test_modifier_roles_in_captions(parser: CaptionParser, caption: str) -> None:
    name, attributes, absent = CASES[caption]
    objects = {o.name: set(o.attributes) for o in parser.parse_one(caption).objects}
    assert objects.get(name) == attributes, objects
    assert not absent & set(objects)


DROPPED = "the bathroom sink is white"


def test_learned_roles_and_a_dropped_modifier(parser: CaptionParser) -> None:
    assert learned_role("city", "street") == "compound"  # FACTUAL writes "city street"
    assert learned_role("bathroom", "sink") == "drop"
    assert learned_role("no such modifier", "wall") is None
    objects = {o.name: o.attributes for o in parser.parse_one(DROPPED).objects}
    assert objects == {"sink": ("white",)}


def test_shipped_lexicon_is_well_formed() -> None:
    data = json.loads(LEXICON_PATH.read_text(encoding="utf-8"))
    assert "held-out" in data["learned_from"] and data["rows"] == 30379
    assert set(data["modifiers"].values()) <= ROLES and set(data["pairs"].values()) <= ROLES
    assert all(k.count("|") == 1 for k in data["pairs"])


def test_no_test_caption_is_held_out() -> None:
    assert not [c for c in [*CASES, DROPPED] if in_heldout_bucket(c)]

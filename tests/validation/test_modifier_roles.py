"""The noun-modifier lexicon learner (validation/modifier_roles.py) and the shipped lexicon."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.scenegraph.parser.modifier_lexicon import LEXICON_PATH
from crepe_datasets.validation.factual import GoldGraph, factual_slices, read_factual
from crepe_datasets.validation.modifier_roles import learn_modifier_roles, modifier_outcomes
from tests.conftest import require_shared


def gold(caption: str, objects=(), attributes=()) -> GoldGraph:
    names = tuple(dict.fromkeys([*objects, *(o for o, _ in attributes)]))
    return GoldGraph(caption, names, tuple(attributes), ())


def test_outcomes_read_the_gold_graph_only() -> None:
    assert set(modifier_outcomes(gold("a stone wall", attributes=[("wall", "stone")]))) == {
        ("stone", "wall", "attribute")
    }
    assert ("train", "track", "compound") in set(
        modifier_outcomes(gold("two train tracks", ["train tracks"]))
    )
    assert set(modifier_outcomes(gold("a city street", ["street"]))) == {("city", "street", "drop")}
    # two words kept together; articles, numbers and words that are no nouns are no modifiers
    assert ("chain link", "fence", "attribute") in set(
        modifier_outcomes(gold("a chain-link fence", attributes=[("fence", "chain link")]))
    )
    assert not set(modifier_outcomes(gold("the two snowy hills", ["hills"])))


def test_thresholds_decide_what_enters() -> None:
    walls = [gold("a stone wall", attributes=[("wall", "stone")])] * 4
    walls += [gold("stone wall", ["stone wall"])]
    assert learn_modifier_roles(walls, min_support=5, min_share=0.6)["modifiers"] == {
        "stone": "attribute"
    }
    assert learn_modifier_roles(walls, min_support=6)["modifiers"] == {}
    assert learn_modifier_roles(walls, min_support=5, min_share=0.9)["modifiers"] == {}


def test_a_pair_is_kept_only_where_it_differs() -> None:
    rows = [gold("a paper bag", attributes=[("bag", "paper")])] * 5
    rows += [gold("a paper towel", ["paper towel"])] * 10
    lexicon = learn_modifier_roles(rows, min_support=5)
    assert lexicon == {"modifiers": {"paper": "compound"}, "pairs": {"paper|bag": "attribute"}}


@pytest.mark.slow
def test_shipped_lexicon_is_learned_from_the_training_rows_only() -> None:
    """Relearning from the ``rest`` slice gives the shipped file; dev and held-out are unread."""
    folder = require_shared("factual", "factual_sg")
    dev = folder / "random" / "dev.csv"
    slices = factual_slices(folder / "factual_sg.csv", [dev, dev.with_name("test.csv")])
    shipped = json.loads(LEXICON_PATH.read_text(encoding="utf-8"))
    learned = learn_modifier_roles(slices["rest"], shipped["min_support"], shipped["min_share"])
    assert learned == {"modifiers": shipped["modifiers"], "pairs": shipped["pairs"]}
    assert shipped["rows"] == len(slices["rest"])
    unread = {g.caption for g in slices["heldout"]} | {g.caption for g in read_factual(dev)}
    assert not unread & {g.caption for g in slices["rest"]}

"""The caption parser on caption language (issue 3, part 1) and on FACTUAL dev (its targets)."""

from __future__ import annotations

import pytest

from crepe_datasets.scenegraph.parser import CaptionParser, parse_view
from crepe_datasets.scenegraph.parser.tokens import TokenView
from tests.conftest import require_shared
from tests.scenegraph.conftest import tuples


def test_attributes_copula_and_counts(parser: CaptionParser) -> None:
    objects, attrs, rels = tuples(parser, "three small white dogs on a couch")
    assert objects == {"dog", "couch"}
    assert attrs == {("dog", "3"), ("dog", "small"), ("dog", "white")}
    assert rels == {("dog", "on", "couch")}
    _, attrs, _ = tuples(parser, "the shirt is red")
    assert attrs == {("shirt", "red")}
    _, attrs, _ = tuples(parser, "one cat under a partly cloudy sky")
    assert attrs == {("sky", "partly cloudy")}  # "one" is not a count


def test_attributes_are_not_lemmatised(parser: CaptionParser) -> None:
    _, attrs, _ = tuples(parser, "a smiling woman holding flowers")
    assert ("woman", "smiling") in attrs


def test_multiword_nouns_and_prepositions(parser: CaptionParser) -> None:
    objects, _, rels = tuples(parser, "a tennis racket on top of a night stand")
    assert "tennis racket" in objects
    assert ("tennis racket", "on top of", "night stand") in rels or (
        "tennis racket",
        "on top of",
        "stand",
    ) in rels
    _, _, rels = tuples(parser, "a bicycle in front of the house")
    assert rels == {("bicycle", "in front of", "house")}
    _, _, rels = tuples(parser, "a woman walking next to a man")
    assert rels == {("woman", "walk next to", "man")}
    _, _, rels = tuples(parser, "gravel in between the tracks")
    assert rels == {("gravel", "between", "track")}


def test_verbs_particles_and_conjunctions(parser: CaptionParser) -> None:
    _, _, rels = tuples(parser, "trees and bushes growing on a lawn")
    assert rels == {("tree", "grow on", "lawn"), ("bush", "grow on", "lawn")}
    _, _, rels = tuples(parser, "a plate containing a lemon and a banana")
    assert rels == {("plate", "contain", "lemon"), ("plate", "contain", "banana")}
    _, _, rels = tuples(parser, "a man is standing on the snow")
    assert rels == {("man", "stand on", "snow")}


def test_quantity_phrases_give_no_spurious_objects(parser: CaptionParser) -> None:
    objects, _, rels = tuples(parser, "a bunch of birds swimming in the water")
    assert objects == {"bird", "water"}
    assert rels == {("bird", "swim in", "water")}
    objects, attrs, _ = tuples(parser, "a group of people on the grass")
    assert "group" not in objects and ("people", "group of") in attrs


def test_passive_relative_clause_possessive_and_clothing(parser: CaptionParser) -> None:
    _, _, rels = tuples(parser, "a bear surrounded by grass")
    assert rels == {("grass", "surround", "bear")}
    _, _, rels = tuples(parser, "metal poles that make a fence")
    assert rels == {("pole", "make", "fence")}
    _, _, rels = tuples(parser, "the player's socks are green")
    assert ("player", "have", "sock") in rels
    _, attrs, rels = tuples(parser, "a girl in a pink shirt")
    assert rels == {("girl", "wear", "shirt")} and attrs == {("shirt", "pink")}
    _, _, rels = tuples(parser, "the tail of the horse")
    assert rels == {("horse", "have", "tail")}


def test_odd_inputs_never_crash(parser: CaptionParser) -> None:
    graphs = parser.parse(["", "   ", "!!!", "😀😀", "<b>dog</b>", "a " * 400, "狗在沙发上"])
    assert len(graphs) == 7
    assert graphs[0].objects == []


def test_rules_run_on_a_hand_written_parse() -> None:
    # "dog on mat": no spaCy needed
    tv = TokenView.build(
        [("dog", "NOUN", "ROOT", 0), ("on", "ADP", "prep", 0), ("mat", "NOUN", "pobj", 1)]
    )
    g = parse_view(tv)
    assert [o.name for o in g.objects] == ["dog", "mat"]
    assert [(r.subject, r.predicate, r.object) for r in g.relationships] == [(0, "on", 1)]


@pytest.mark.slow
def test_factual_dev_targets(parser: CaptionParser) -> None:
    from crepe_datasets.validation.factual import read_factual
    from crepe_datasets.validation.parser_scores import score_graphs

    gold = read_factual(require_shared("factual", "factual_sg", "random", "dev.csv"))
    scores = score_graphs(parser.parse([g.caption for g in gold]), gold)
    f1 = {k: v.f1 for k, v in scores.categories.items()}
    assert f1["triplets"] >= 0.65
    assert f1["relations"] >= 0.72
    assert f1["attributes"] >= 0.80
    assert f1["objects"] >= 0.90

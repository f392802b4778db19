"""The noun-phrase binding extractor on real spaCy parses, and the lemmatisation overrides."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.bindsplit.extract import (
    ExtractedBinding,
    doc_bindings,
    load_extractor_nlp,
)


@pytest.fixture(scope="module")
def nlp():
    return load_extractor_nlp()


def bindings(nlp, text: str) -> list[tuple[str, str, str]]:
    return [(b.attr, b.obj, b.kind) for b in doc_bindings(nlp(text))]


def test_one_modifier_is_perfect_and_determiner_is_not_an_attribute(nlp) -> None:
    assert bindings(nlp, "The red couch is by the window.") == [("red", "couch", "perfect")]


def test_k_modifiers_give_k_close_bindings_and_numbers_are_not_attributes(nlp) -> None:
    got = bindings(nlp, "Two small wooden tables stand in a room.")
    assert got == [("small", "table", "close"), ("wooden", "table", "close")]


def test_bare_nouns_give_nothing(nlp) -> None:
    assert bindings(nlp, "A dog chases the ball.") == []


def test_possessive_prefix_is_not_an_attribute(nlp) -> None:
    assert bindings(nlp, "A man's red hat.") == [("red", "hat", "perfect")]


def test_quantifiers_and_degree_adverbs_are_not_attributes(nlp) -> None:
    assert ("large", "dog", "perfect") in bindings(nlp, "Several large dogs run.")
    assert bindings(nlp, "a very tall giraffe") == [("tall", "giraffe", "perfect")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("three white geese", ("white", "goose")),  # irregular plural
        ("two smiling children", ("smiling", "child")),  # attribute never lemmatised
        ("the black glasses", ("black", "glasses")),  # keep-as-is list
        ("some blue jeans", ("blue", "jeans")),
        ("big teeth", ("big", "tooth")),
        ("brown horses", ("brown", "horse")),
    ],
)
def test_lemmatisation_overrides(nlp, text: str, expected: tuple[str, str]) -> None:
    assert [(b[0], b[1]) for b in bindings(nlp, text)] == [expected]


def test_records_are_frozen() -> None:
    b = ExtractedBinding("red", "car", "perfect")
    with pytest.raises(AttributeError):
        b.attr = "blue"  # type: ignore[misc]

"""The lexicon on real words (WordNet 3.0 and lemminflect data)."""

from __future__ import annotations

import pytest

from crepe_datasets.scenegraph import lexicon


@pytest.mark.parametrize(
    ("plural", "singular"),
    [
        ("children", "child"),
        ("teeth", "tooth"),
        ("geese", "goose"),
        ("dogs", "dog"),
        ("boxes", "box"),
        ("buses", "bus"),
        ("leaves", "leaf"),
        ("tennis rackets", "tennis racket"),
        ("glasses", "glasses"),
        ("scissors", "scissors"),
        ("pants", "pants"),
        ("jeans", "jeans"),
        ("grass", "grass"),
        ("sheep", "sheep"),
    ],
)
def test_singularize(plural, singular):
    assert lexicon.singularize(plural) == singular


@pytest.mark.parametrize(
    ("singular", "plural"),
    [("dog", "dogs"), ("box", "boxes"), ("leaf", "leaves"), ("man", "men"),
     ("tennis racket", "tennis rackets"), ("sheep", "sheep"), ("shelf", "shelves")],
)  # fmt: skip
def test_pluralize(singular, plural):
    assert lexicon.pluralize(singular) == plural


def test_objects_are_normalised_attributes_only_trimmed():
    assert lexicon.normalize_object("  Children ") == "child"
    assert lexicon.normalize_attribute(" Smiling ") == "smiling"


def test_verbs_are_lemmatised():
    assert lexicon.lemmatize_verb("standing") == "stand"
    assert lexicon.lemmatize_verb("wears") == "wear"


def test_wordnet_antonyms_hypernyms_cohyponyms():
    assert "white" in lexicon.antonyms("black", "a")
    assert "closed" in lexicon.antonyms("open", "a")
    assert "canine" in lexicon.hypernyms("dog")
    cohyponyms = lexicon.cohyponyms("dog")
    assert "wolf" in cohyponyms and "dog" not in cohyponyms
    assert lexicon.is_known("umbrella", "n")
    assert not lexicon.is_known("qwzxv")


def test_results_are_cached_and_sorted():
    first = lexicon.cohyponyms("cat")
    assert first is lexicon.cohyponyms("cat")
    assert list(first) == sorted(first)


def test_one_spelling_per_word():
    from crepe_datasets.scenegraph.lexicon import canonical_spelling

    assert canonical_spelling("gray") == canonical_spelling("grey") == "grey"
    assert (
        canonical_spelling("colour") == "color" and canonical_spelling("light gray") == "light grey"
    )
    for kept in ("full", "fully", "jeans", "man", "red", "tan", "house", "bag", "shade"):
        assert canonical_spelling(kept) == kept  # no other spelling, or another word

"""What counts as the same thing, attribute and relation when a foil is checked (issue 20)."""

from __future__ import annotations

import pytest

from crepe_datasets.generators.negatives.kinds import (
    attribute_says,
    head,
    is_kind_of,
    predicate_says,
    predicate_variants,
    reverse_variants,
    same_kind,
    vacuous,
)

pytestmark = pytest.mark.slow  # WordNet (first load)


def test_same_kind_by_name_head_synonym_or_synset():
    """ "the carpet rug is grey" is true when the image's carpet is grey: rug and carpet share a
    synset; two bottles are one kind whatever they hold."""
    assert head("curtains") == "curtain"
    assert same_kind("carpet rug", "carpet") and same_kind("drinking bottle", "water bottle")
    assert same_kind("pole", "post", "pole.n.01", "pole.n.01")  # the same annotated synset
    for a, b in (("man", "woman"), ("chair", "bench"), ("pole", "tree"), ("cup", "plate")):
        assert not same_kind(a, b), (a, b)


def test_a_kind_of_the_word_or_anything_for_a_vacuous_word():
    """A white SUV makes "a white car" true; "a black thing" is true of anything black."""
    assert is_kind_of("suv", "car") and not is_kind_of("car", "suv")
    assert vacuous("thing") and vacuous("object") and not vacuous("table")
    assert is_kind_of("mouse pad", "thing") and not is_kind_of("woman", "man")


def test_attributes_say_their_synonyms_words_of_a_phrase_and_shades():
    """A silver moped may be called grey, a beige wall brown: shades count both ways."""
    assert attribute_says("gray", "grey") and attribute_says("light brown", "brown")
    assert attribute_says("silver", "grey") and attribute_says("grey", "silver")
    assert attribute_says("beige", "brown") and attribute_says("navy", "blue")
    assert not attribute_says("brown", "white") and not attribute_says("white", "black")


def test_predicates_say_their_variants_converses_and_verb_phrases():
    """ "sitting on" says "on"; "A behind B" is said by "B in front of A"; "the table has
    books" by "books on the table"; "next to" both ways."""
    assert {"on top of", "on"} <= predicate_variants("on")
    assert "along" not in predicate_variants("on")  # no adverb senses
    assert predicate_says("sitting on", predicate_variants("on"))
    assert predicate_says("lying under", predicate_variants("underneath"))
    assert not predicate_says("looking at", predicate_variants("on"))
    assert "in front of" in reverse_variants("behind")
    assert "under" in reverse_variants("on") and "has" in reverse_variants("on")
    assert "next to" in reverse_variants("beside")
    assert "on" not in reverse_variants("holding")  # "hold" / "have": no converse through WordNet


def test_a_shade_says_the_basic_colours_its_definition_names():
    """WordNet defines maroon as "dark purplish-red to dark brownish-red", ginger as
    "orange-brown", navy as "a dark shade of blue": readers took "brown car" of a maroon car,
    "orange curtains" of ginger ones and "black chair" of a navy one for possibly true."""
    assert attribute_says("maroon", "brown") and attribute_says("brown", "maroon")
    assert attribute_says("ginger", "orange") and attribute_says("navy", "black")
    assert attribute_says("beige", "white") and attribute_says("white", "beige")
    assert not attribute_says("maroon", "green") and not attribute_says("navy", "white")
    assert not attribute_says("red", "orange")  # two basic colours: no shade lies between

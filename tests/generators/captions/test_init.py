"""Formatting helpers shared by every caption writer."""

from __future__ import annotations

from crepe_datasets.generators.captions import (
    match_format,
    negate_caption_text,
    negation_refers_back,
    write_texts,
)
from crepe_datasets.generators.captions.template import TemplateCaptionWriter
from crepe_datasets.scenegraph.types import SceneGraph, SGObject


def test_match_format_copies_case_spacing_and_final_mark():
    assert (
        match_format("there is no dog  on grass", "A dog on grass.") == "There is no dog on grass."
    )
    assert match_format(" There is no dog. ", "a dog") == "there is no dog"
    assert match_format("no dog", "a dog!") == "no dog!"


def test_negate_caption_text_drops_leading_article_and_keeps_format():
    assert negate_caption_text("a tall boy on green grass") == "there is no tall boy on green grass"
    assert negate_caption_text("The dog sleeps.") == "There is no dog that sleeps."
    assert negate_caption_text("tall boy") == "there is no tall boy"


def test_a_caption_naming_its_first_thing_again_is_negated_as_a_statement():
    """ "there is no tan chair that has five legs, the chair at desk" denies the chair a later
    clause speaks of (productivity HN-NEG, read by eye: 15 of 40 caption negations)."""
    caption = "tan chair has five legs, the chair at desk"
    assert negation_refers_back(caption)
    assert negate_caption_text(caption) == "it is not true that " + caption
    assert negate_caption_text("Knife under saucer, another knife on napkin.") == (
        "It is not true that knife under saucer, another knife on napkin."
    )
    # a later clause about another thing of the first noun phrase keeps "there is no"
    assert not negation_refers_back("man has bag, the bag on table")
    assert negate_caption_text("man has bag, the bag on table").startswith("there is no man that")


def test_write_texts_pairs_caption_and_reason():
    out = write_texts(
        TemplateCaptionWriter(), [SceneGraph([SGObject(1, "egg")]), SceneGraph([SGObject(1, "")])]
    )
    assert out == [("egg", None), (None, "empty_caption")]
    assert write_texts(TemplateCaptionWriter(), []) == []


def test_caption_negation_takes_a_noun_phrase():
    """ "there is no man has bag" is no English: the first clause's verb becomes a relative
    clause, and a plural first name takes "there are no"."""
    assert negate_caption_text("man has bag, the bag on table") == (
        "there is no man that has bag, the bag on table"
    )
    assert negate_caption_text("white man wears sneaker") == (
        "there is no white man that wears sneaker"
    )
    assert negate_caption_text("glasses on man") == "there are no glasses on man"
    assert negate_caption_text("young man wearing glasses, on grass") == (
        "there is no young man wearing glasses, on grass"
    )


def test_caption_negation_reads_past_an_attribute_list():
    assert negate_caption_text("brown, green and iron pot has flower, the flower in vase") == (
        "there is no brown, green and iron pot that has flower, the flower in vase"
    )
    assert negate_caption_text("tall boy on grass, the dog has hat") == (
        "there is no tall boy on grass, the dog has hat"
    )


def test_stop_words_inside_a_noun_phrase_do_not_end_it():
    """spaCy's stop words include "empty", "front", "top": "there is no clean and empty gallon
    jug has lid" read its first noun phrase as ending at "empty" (productivity, read by eye)."""
    assert negate_caption_text("empty pan has handle") == "there is no empty pan that has handle"
    assert negate_caption_text("clean and empty gallon jug has lid, the gallon jug on counter") == (
        "it is not true that clean and empty gallon jug has lid, the gallon jug on counter"
    )
    assert negate_caption_text("chair on top of table") == "there is no chair on top of table"

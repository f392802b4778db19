"""Formatting helpers shared by every caption writer."""

from __future__ import annotations

from crepe_datasets.generators.captions import match_format, negate_caption_text, write_texts
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
    assert negate_caption_text("The dog sleeps.") == "There is no dog sleeps."
    assert negate_caption_text("tall boy") == "there is no tall boy"


def test_write_texts_pairs_caption_and_reason():
    out = write_texts(
        TemplateCaptionWriter(), [SceneGraph([SGObject(1, "egg")]), SceneGraph([SGObject(1, "")])]
    )
    assert out == [("egg", None), (None, "empty_caption")]
    assert write_texts(TemplateCaptionWriter(), []) == []

"""Readable captions: a/an by sound, broken phrases caught, repeated names referred to."""

from __future__ import annotations

from crepe_datasets.generators.captions.phrases import broken_reason, indefinite_article
from crepe_datasets.generators.captions.template import TemplateCaptionWriter, template_caption
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def test_indefinite_article_by_sound():
    for word, art in {
        "apple": "an",
        "umbrella": "an",
        "hour": "an",
        "car": "a",
        "uniform": "a",
        "one-way sign": "a",
        "european car": "a",
        "utensil": "a",
    }.items():
        assert indefinite_article(word) == art, word


def test_broken_reason():
    assert broken_reason("leg leg of a chair") == "repeated_word"
    assert broken_reason("an an outlet") == "doubled_article"
    assert broken_reason("room has a the window") == "doubled_article"
    assert broken_reason("woven basket in a orchid") == "wrong_article"
    assert broken_reason("man holds a cup and an apple") is None


def test_repeated_names_are_referred_to_naturally():
    g = SceneGraph(
        [SGObject(1, "chair", ("red",)), SGObject(2, "chair"), SGObject(3, "table")],
        [Relationship(1, "near", 2), Relationship(2, "by", 3), Relationship(1, "by", 3)],
    )
    assert template_caption(g) == (
        "red chair near another chair, the other chair by table, the first chair by the table"
    )
    g = SceneGraph([SGObject(1, "building"), SGObject(2, "building")], [Relationship(1, "on", 2)])
    assert template_caption(g) == "building on another building"
    g = SceneGraph([SGObject(1, "leg"), SGObject(2, "leg"), SGObject(3, "outlet")])
    assert template_caption(g) == "leg and another leg and an outlet"


def test_negated_predicates_read_as_english():
    g = SceneGraph([SGObject(1, "man"), SGObject(2, "cup")], [Relationship(1, "not holds", 2)])
    h = SceneGraph([SGObject(1, "people"), SGObject(2, "bus")], [Relationship(1, "not are on", 2)])
    results = TemplateCaptionWriter().write([g, h])
    assert [r.caption for r in results] == ["man does not hold cup", "people are not on bus"]


def test_writer_rejects_broken_text():
    g = SceneGraph([SGObject(1, "leg leg")])
    (result,) = TemplateCaptionWriter().write([g])
    assert result.caption is None and result.reason == "repeated_word"


def test_words_split_fast_path_is_the_regex_split(shared_data):
    """Texts of letters, digits, spaces and commas are split by ``str.split``; every text,
    those included, gets the words the word pattern finds (real VG region descriptions, and
    texts with apostrophes, hyphens, capitals, other punctuation and non-ASCII letters)."""
    import json
    import re

    from crepe_datasets.generators.captions.phrases import words

    pattern = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
    regions = json.loads(
        (shared_data / "visual_genome/images_1-100/region_descriptions.json").read_text()
    )
    texts = [r["phrase"] for image in regions for r in image["regions"]]
    texts += ["man's hat, one-way sign", "A Red Car.", "café  au lait", "x -y", " , ", ""]
    assert len(texts) > 1000
    plain = 0
    for text in texts:
        words.cache_clear()
        assert words(text) == tuple(pattern.findall(text.lower())), text
        plain += bool(re.fullmatch(r"[a-z0-9 ,]*", text.lower()))
    assert 0 < plain < len(texts)  # both paths are taken

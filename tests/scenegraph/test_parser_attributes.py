"""Attribute constructions of the caption parser (issue 12, part 6), one test per construction.

Every caption is a short caption in FACTUAL's style; none lies in the held-out slice of
``factual_sg.csv`` (checked below), which the rules were never tuned on.
"""

from __future__ import annotations

import pytest

from crepe_datasets.scenegraph.parser import CaptionParser
from crepe_datasets.validation.factual import in_heldout_bucket
from tests.scenegraph.conftest import tuples as graph


def attrs_of(parser: CaptionParser, caption: str, name: str) -> set[str]:
    return {a for o, a in graph(parser, caption)[1] if o == name}


CAPTIONS = {
    "coordinated": [
        ("brown and tan dog", "dog", {"brown", "tan"}),
        (
            "green , blue , and yellow blanket draped over beige couch",
            "blanket",
            {"green", "blue", "yellow"},
        ),
        ("young brown and white cow walking on grass", "cow", {"young", "brown", "white"}),
        ("a woman wearing a white green and pink shirt", "shirt", {"white", "green", "pink"}),
    ],
    "before_participle": [
        ("yellow painted fire hydrant", "fire hydrant", {"yellow", "painted"}),
        ("white painted frame around mirror", "frame", {"white", "painted"}),
        ("man wearig blue and white striped shirt", "shirt", {"blue", "white", "striped"}),
    ],
    "shape_and_state": [
        ("white square tiles on floor", "tile", {"white", "square"}),
        ("a green grassy field .", "field", {"green", "grassy"}),
        ("folded sheet on foot of bed", "sheet", {"folded"}),
        ("parked cars on the street", "car", {"parked"}),
    ],
    "shades_and_colored": [
        ("dark green leaves", "leaf", {"dark green"}),
        ("dark wooden floors", "floor", {"dark", "wooden"}),
        ("light colored bricks on the wall", "brick", {"light colored"}),
        ("white colored car", "car", {"white"}),
        ("multi colored kite in the sky", "kite", {"multi colored"}),
    ],
}


@pytest.mark.parametrize(
    ("caption", "name", "expected"),
    [case for cases in CAPTIONS.values() for case in cases],
    ids=[f"{kind}:{c[0][:30]}" for kind, cases in CAPTIONS.items() for c in cases],
)
def test_attribute_constructions(
    parser: CaptionParser, caption: str, name: str, expected: set[str]
) -> None:
    assert attrs_of(parser, caption, name) == expected


def test_adjectives_tagged_as_nouns_are_no_objects(parser: CaptionParser) -> None:
    objects, attrs, rels = graph(parser, "white building behind train")
    assert objects == {"building", "train"} and attrs == {("building", "white")}
    assert rels == {("building", "behind", "train")}
    assert graph(parser, "brown and tan dog")[0] == {"dog"}


def test_having_part_adjectives(parser: CaptionParser) -> None:
    objects, attrs, rels = graph(parser, "a dark-haired woman")
    assert objects == {"woman", "hair"} and attrs == {("hair", "dark")}
    assert rels == {("woman", "have", "hair")}
    _, attrs, rels = graph(parser, "a two wheeled motorcycle")
    assert attrs == {("wheel", "2")} and rels == {("motorcycle", "have", "wheel")}
    _, attrs, _ = graph(parser, "a man wearing a brown long sleeved shirt")
    assert attrs == {("shirt", "brown"), ("sleeve", "long")}


def test_counts(parser: CaptionParser) -> None:
    _, attrs, _ = graph(parser, "two men in suits")
    assert attrs == {("man", "2"), ("suit", "2")}
    assert "2" in attrs_of(parser, "two slices of pie on a white plate", "pie")
    _, attrs, _ = graph(parser, "two cats on a couch")  # a singular object is not counted
    assert attrs == {("cat", "2")}
    assert attrs_of(parser, "patch of dirt surrounding tree trunk", "dirt") == {"patch"}


def test_adverbs_of_state_and_spelling(parser: CaptionParser) -> None:
    assert attrs_of(parser, "a group of people standing outside", "people") == {
        "group of",
        "outside",
    }
    assert attrs_of(parser, "a woman sitting alone in a forest", "woman") == {"alone"}
    assert attrs_of(parser, "a blond woman playing tennis", "woman") == {"blonde"}


def test_absolute_with(parser: CaptionParser) -> None:
    assert attrs_of(parser, "man with arms extended", "arm") == {"extended"}
    assert attrs_of(parser, "a refrigerator with doors open", "door") == {"open"}
    assert attrs_of(parser, "man with his arm held up .", "arm") == {"held up"}


def test_gerunds_verbs_and_compound_heads(parser: CaptionParser) -> None:
    assert attrs_of(parser, "the zebra is standing .", "zebra") == {"standing"}
    assert graph(parser, "orange shirt man is wearing")[1] == {("man", "orange")}
    _, attrs, rels = graph(parser, "a zebra eating grass .")
    assert rels == {("zebra", "eat", "grass")} and not attrs
    assert graph(parser, "a yellow fire hydrant")[1] == {("fire hydrant", "yellow")}
    assert graph(parser, "a black trash can")[1] == {("trash can", "black")}
    assert attrs_of(parser, "the man is about to hit a tennis ball", "man") == set()


OTHER_CAPTIONS = [
    "white building behind train",
    "a dark-haired woman",
    "a two wheeled motorcycle",
    "a man wearing a brown long sleeved shirt",
    "two men in suits",
    "two slices of pie on a white plate",
    "two cats on a couch",
    "patch of dirt surrounding tree trunk",
    "the zebra is standing .",
    "orange shirt man is wearing",
    "a zebra eating grass .",
    "a yellow fire hydrant",
    "a black trash can",
    "the man is about to hit a tennis ball",
    "a group of people standing outside",
    "a woman sitting alone in a forest",
    "a blond woman playing tennis",
    "man with arms extended",
    "a refrigerator with doors open",
    "man with his arm held up .",
]


def test_no_test_caption_is_held_out() -> None:
    captions = [c for cases in CAPTIONS.values() for c, _, _ in cases] + OTHER_CAPTIONS
    assert not [c for c in captions if in_heldout_bucket(c)]

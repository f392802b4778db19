"""The scope of a caption: region-level or scene-level, on captions of the VG sample parsed by
the real caption parser."""

from __future__ import annotations

import pytest

from crepe_datasets.scenegraph.parser import CaptionParser
from crepe_datasets.scenegraph.scope import is_room, scene_level, tokens

# region descriptions of Visual Genome images 1-100 (the systematicity build's captions)
SCENE = {
    "there is a black chair in the picture": "existential",
    "there's a scarf on the cushion": "existential",
    "there is a grey rug": "existential",
    "there are two desks in the picture": "existential",
    "one chair is brown": "count",
    "two chairs at the table": "count",
    "all the chairs are brown": "quantifier",
    "both windows are open": "count",  # the parser reads "both" as the count 2
    "every chair is brown": "quantifier",
    "only one lamp is on": "count",
    "a pole is present in the picture": "picture_frame",
    "the man in this photo wears a hat": "picture_frame",
    "the room is spacious": "scene_object",
    "a beautiful dining room": "scene_object",
    "tables in the kitchen": "scene_object",
}
REGION = [
    "the wall is white",
    "a cup is on the table",
    "the chairs are brown",
    "blue window curtains",
    "a television on a counter",
    "picture hanging on the wall",
    "the trees are green",
    "woman sitting in chair",
]


@pytest.mark.parametrize(("caption", "reason"), sorted(SCENE.items()))
def test_scene_level_captions(parser: CaptionParser, caption: str, reason: str) -> None:
    assert scene_level(caption, parser.parse_one(caption)) == reason


@pytest.mark.parametrize("caption", REGION)
def test_region_level_captions(parser: CaptionParser, caption: str) -> None:
    assert scene_level(caption, parser.parse_one(caption)) is None


def test_count_read_from_the_graph(parser: CaptionParser) -> None:
    """The parser turns "two desks" into a desk with the attribute 2: the graph alone says it."""
    g = parser.parse_one("there are two desks in the picture")
    assert any(a.isdigit() for o in g.objects for a in o.attributes)
    assert scene_level("desks", g) == "count"
    assert scene_level("one chair is brown") == "count"  # text only: no graph


def test_rooms_by_wordnet() -> None:
    assert is_room("room") and is_room("kitchen") and is_room("dining room")
    assert not is_room("table") and not is_room("picture") and not is_room("no such thing")


def test_tokens() -> None:
    assert tokens("There's a cat.") == ["there", "'s", "a", "cat"]
    assert tokens("a TV, 2 cups") == ["a", "tv", "2", "cups"]


def test_frame_positions() -> None:
    from crepe_datasets.scenegraph.scope import frame_positions

    assert frame_positions(tokens("there is a white car on the photo")) == {5, 6, 7}
    assert frame_positions(tokens("a pole in picture")) == {2, 3}
    assert frame_positions(tokens("a picture on the wall")) == set()

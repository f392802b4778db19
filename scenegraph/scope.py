"""The scope of a caption: does it describe its region's objects, or the whole picture?

A Visual Genome region description is written for one box, but some are claims about the
whole picture: "there is a black chair in the picture", "one chair is brown" (of several),
"there are two desks", "the room is spacious". Such a caption is false of another image only
if nothing in *that whole image* makes it true, so a counter-image built from one annotated
region (a FACTUAL row) cannot show it false: the rest of the image is not annotated.

:func:`scene_level` tells the two apart by the grammar of the caption and by its graph, not
by its content words. A caption is **scene-level** when any of these holds (the first found is
returned, as the reason):

* ``existential`` — it is an existential sentence: it opens with expletive *there* and a form of
  *be* ("there is a grey rug", "there's a scarf on the cushion"); it asserts that something
  exists somewhere in the picture;
* ``count`` — it states a number: a cardinal number (a digit or a number word, :data:`NUMBERS`)
  in its text, or a numeric attribute in its graph (the parser turns "two desks" into a desk with
  the attribute ``2``); a count is a claim about every instance in the picture ("one chair is
  brown" says which of the chairs);
* ``quantifier`` — it quantifies over the picture's objects with a quantifying determiner
  (:data:`QUANTIFIERS`: the closed class of universal, exclusive, negative and vague-count
  determiners: "all", "both", "every", "only", "no", "several", ...);
* ``picture_frame`` — it locates something in the picture itself: a preposition and a frame
  noun (:data:`FRAME_NOUNS`: "in the picture", "on this photo", "of the image");
* ``scene_object`` — an object of its graph is a room (the first WordNet noun sense of its name
  is ``room.n.01`` or below it: "the room is spacious", "a beautiful dining room", "tables in the
  kitchen"): the room is the scene.

Anything else — a definite or indefinite description of the region's objects ("the wall is
white", "a cup is on the table") — is **region-level**.
"""

from __future__ import annotations

import functools
import re

from crepe_datasets.scenegraph.types import SceneGraph

BE = frozenset({"is", "are", "was", "were", "be", "'s", "s"})
NUMBERS = frozenset(
    """one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty hundred dozen pair couple
    single""".split()
)
QUANTIFIERS = frozenset(
    "all both every each only no none neither several many few multiple numerous".split()
)
FRAME_NOUNS = frozenset("picture photo photograph image scene shot frame".split())
FRAME_PREPOSITIONS = frozenset({"in", "on", "of", "inside", "within", "throughout"})
FRAME_DETERMINERS = frozenset({"the", "this", "that", "a"})
ROOM = "room.n.01"
REASONS = ("existential", "count", "quantifier", "picture_frame", "scene_object")

_TOKEN = re.compile(r"[a-z0-9]+|'s")


def tokens(text: str) -> list[str]:
    """Lower-case word tokens of ``text`` (``there's`` gives ``there``, ``'s``)."""
    return _TOKEN.findall(text.lower())


@functools.lru_cache(maxsize=20_000)
def is_room(name: str) -> bool:
    """Whether the first WordNet noun sense of ``name`` is a room (``room.n.01`` or a kind of it)."""
    from crepe_datasets.infra.resources import wordnet

    wn = wordnet()
    found = wn.synsets(name.strip().replace(" ", "_"), pos="n")
    if not found:
        return False
    room = wn.synset(ROOM)
    first = found[0]
    return first == room or room in first.closure(lambda s: s.hypernyms())


def frame_positions(words: list[str]) -> set[int]:
    """Positions of the words of ``words`` that form a picture frame: a preposition, an optional
    determiner and a frame noun ("on", "the", "photo" of "a white car on the photo")."""
    out: set[int] = set()
    for i, w in enumerate(words[:-1]):
        if w not in FRAME_PREPOSITIONS:
            continue
        j = i + 1
        if words[j] in FRAME_DETERMINERS and j + 1 < len(words):
            j += 1
        if words[j] in FRAME_NOUNS:
            out.update(range(i, j + 1))
    return out


def scene_level(text: str, graph: SceneGraph | None = None) -> str | None:
    """Why caption ``text`` (with its parsed ``graph``) is a claim about the whole picture, or
    ``None`` when it describes its region's objects (see the module for the five reasons).

    Args:
        text: the caption.
        graph: its scene graph (the parser's); ``None`` checks the text only.
    """
    words = tokens(text)
    if len(words) >= 2 and words[0] == "there" and words[1] in BE:
        return "existential"
    graph_attrs = [a for o in graph.objects for a in o.attributes] if graph is not None else []
    if any(w.isdigit() or w in NUMBERS for w in words) or any(a.isdigit() for a in graph_attrs):
        return "count"
    if any(w in QUANTIFIERS for w in words):
        return "quantifier"
    if frame_positions(words):
        return "picture_frame"
    if graph is not None and any(is_room(o.name) for o in graph.objects):
        return "scene_object"
    return None

"""HN-COMP-MATCHED (our extension, not the CREPE paper's): HN-COMP whose positive also joins two
compounds, so that length and "and" tell nothing.

The paper's HN-COMP negative joins two compounds ("a pink car" → "a blue car and a pink toy")
while its positive is the caption alone, so a text-only model picks the longer text's opposite.
Here every text of a set is two copies of the caption's wording joined by " and ", and every
text holds the caption's attribute and object plus an attribute and an object of the image's
*other* true compounds. For a colour–object caption ``(a, o)`` ("the car is pink"):

* the **pool** is every colour–object compound ``(b, x)`` of the image's full Visual Genome
  graph ``G``. A pool compound is kept when its words are plain lower-case words that differ
  from the caption's atoms and their WordNet synonyms, ``x`` names no object of ``G`` whose box
  overlaps one of the caption's objects with IoU ≥ 0.5 (the same thing under another name),
  ``x`` is neither a mass noun nor plural nor a generic name (:data:`GENERIC`) nor a person
  (:func:`~crepe_datasets.generators.negatives.kinds.is_person`: a colour on a person reads as skin colour), its atoms (and,
  for a seen-compound caption, the compound: ``admit``) are seen by the training corpus, so
  the positive stays in the caption's split, and both edits below are placeable and false;
* the **positive** joins the caption and the caption rewritten with both atoms of one pool
  compound ``T`` chosen by seed among those on objects inside the caption's region (at least
  :data:`INSIDE` of the object's box: the model sees the region's crop): "the car is pink and
  the plate is white". The caption is the region's own Visual Genome description (true by
  annotation; its parse is often not in ``G``), and ``T`` holds in ``G`` cut to the region;
* each **negative** is HN-COMP with foils taken from the pool: the caption with its colour
  replaced by the colour of a pool compound, joined with the caption with its object replaced
  by the object of a pool compound ("the car is white and the plate is pink"). Both conjuncts
  must be false of the whole image (:meth:`GraphIndex.holds`, every attribute of ``G`` widened
  by its WordNet synonyms, so "grey" holds where ``G`` says "gray"); the caption's colour is put
  on another object only where ``G`` gives every object of that name a colour (not "the chair
  is brown" of a chair whose colour nobody wrote down). A foil may name an object outside the
  crop: the pool is the whole image's (cut to the region, it left half the captions without
  six foil pairs on the 100-image sample).

Only colour–object captions get a set: colours exclude each other, so "the car is white" is
false of a pink car, where "the room is large" may be true of a clean room; and relation
foils taken from the image ("tiles are on the wall" for "tiles are on the floor") were often
true when read by eye. Only a caption made of its atoms' words, :data:`FILLER` words and
:data:`FILLER_PHRASES` gets a set ("the floor is grey", "there is a white table"): the second
conjunct is the caption rewritten, and any other word would be claimed of it too (so its
parse must have one object: "a navy blue chair" parses "navy" as a second object).

Positive and negatives thus draw their two extra atoms from the image's true compounds, are
written by the same edit of the caption (:func:`crepe_datasets.generators.negatives.surface.replace_atom`)
and joined in the same way; which conjunct comes first is a coin flip for every text. What
separates them is which atoms are bound together.

**Each colour and each object name in one text of the set only.** A negative's colour is on
the caption's object, its name carries the caption's colour, so two negatives with the same
foil colour share a phrase ("the car is white"). The first version drew six negatives from a
few pool compounds: every negative repeated another's phrases, the positive's were its own,
and picking the text whose word trigrams no other text holds found the positive in about half
the sets (3–4-grams: 70–76%; chance 14%). Now no two texts of a set share a foil colour or a
foil name, and the negatives use neither the positive's second colour nor its second name: the
caption's colour and object are in every text, every other word in one text only, and so is
every phrase. An image rarely has seven colours, so a set has :data:`NEGATIVES` negatives
(1 + 3, chance 25%), and a caption whose pool has fewer distinct colours or names than that
beside the second compound gets no set.

Every caption without a set, and every pool compound left out, is counted (stage
:data:`STAGE`). Deterministic given ``rng``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from crepe_datasets.generators.negatives import replace_object
from crepe_datasets.generators.negatives.comp import PUNCTUATION, TextNegative, union
from crepe_datasets.generators.negatives.foils import colour_sense, synonyms
from crepe_datasets.generators.negatives.graphs import SAME_THING_IOU, GraphIndex
from crepe_datasets.generators.negatives.kinds import is_person
from crepe_datasets.generators.negatives.senses import is_mass
from crepe_datasets.generators.negatives.surface import find_atom, replace_atom
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.lexicon import singularize
from crepe_datasets.scenegraph.types import Box, Compound, SceneGraph, SGObject

STAGE = "systematicity_comp_matched"
RULE = "comp_matched:attribute_object"
INSIDE = 0.5  # share of an object's box inside the region: the object shows in the crop
NEGATIVES = 3  # negatives per set: each needs a colour and a name no other text of the set has
_PLAIN = re.compile(r"[a-z]+(?: [a-z]+)*")
_WORD = re.compile(r"[a-z0-9]+")
# the only words a caption may hold besides its atoms' words (see the module docstring)
FILLER = frozenset({"a", "an", "the", "is", "are", "there"})
# phrases true of any conjunct they are copied into ("the couch is blue in colour", "there is a
# black chair in the picture")
FILLER_PHRASES = re.compile(
    r"\b(?:(?:in|of) (?:the |this )?(?:colou?r|picture|image|photo)|colou?red)\b"
)
# names that fit any object: "the objects are white" may be true of anything white
GENERIC = frozenset(
    {"object", "thing", "item", "stuff", "part", "piece", "side", "area", "section", "set",
     "strip", "edge", "top", "bottom", "background", "surface"}
)  # fmt: skip


@dataclass(frozen=True)
class Conjunct:
    """The caption rewritten by one or two atom edits: its text and graph."""

    text: str
    graph: SceneGraph


@dataclass(frozen=True)
class PoolCompound:
    """A true colour–object compound of ``G``, usable as the positive's second conjunct and as
    foil source: ``one`` is the caption with its colour replaced by ``colour``, ``two`` with its
    object replaced by ``name`` (the negatives' conjuncts), ``both`` with both replaced (the
    positive's second conjunct)."""

    compound: Compound
    colour: str
    name: str
    one: Conjunct
    two: Conjunct
    both: Conjunct


@dataclass(frozen=True)
class MatchedSet:
    """A matched positive and its candidate negatives (more than a set needs)."""

    rule: str
    positive: str
    graph: SceneGraph
    second: Compound
    candidates: list[TextNegative]


def inside(g: GraphIndex, region: Box | None) -> frozenset[int]:
    """Ids of the objects of ``G`` inside ``region`` (at least :data:`INSIDE` of their box;
    every object when ``region`` is ``None``)."""
    if region is None:
        return frozenset(g.by_id)
    return frozenset(
        o.id
        for o in g.graph.objects
        if o.box is not None
        and o.box.area > 0
        and o.box.intersection_area(region) >= INSIDE * o.box.area
    )


def normalized_index(g: GraphIndex, ids: frozenset[int] | None = None) -> GraphIndex:
    """``G`` (only the objects ``ids``, when given) with every attribute widened by its WordNet
    synonyms (computed once per image graph and object set, kept in ``g.memo``)."""
    key = ("comp_matched", "normalized", ids)
    found = g.memo.get(key)
    if found is None:
        graph = g.graph
        objects = [
            SGObject(
                o.id,
                o.name,
                tuple(sorted({w for a in o.attributes for w in synonyms(a)})),
                o.box,
                o.synset,
                o.aliases,
            )
            for o in graph.objects
            if ids is None or o.id in ids
        ]
        found = g.memo[key] = GraphIndex(
            SceneGraph(objects, [], graph.image_id, graph.width, graph.height)
        )
    return found


def compound_graph(c: Compound) -> SceneGraph:
    """The graph of one attribute–object compound alone."""
    return SceneGraph([SGObject(0, c.parts[1], (c.parts[0],))], [])


def minimal(caption: str, sub: SceneGraph) -> bool:
    """Whether every word of ``caption`` is a word of one of its atoms, a :data:`FILLER` word
    or in a :data:`FILLER_PHRASES` phrase."""
    covered: set[int] = set()
    for m in FILLER_PHRASES.finditer(caption.lower()):
        covered.update(range(m.start(), m.end()))
    for atom in sub.atoms():
        for start, end in find_atom(caption, atom.text):
            covered.update(range(start, end))
    return all(
        m.group(0) in FILLER or m.start() in covered for m in _WORD.finditer(caption.lower())
    )


def _same_thing(g: GraphIndex, name: str, caption_names: set[str]) -> bool:
    """Whether an object ``name`` of ``G`` overlaps an object of a caption's name (IoU ≥ 0.5)."""
    mine = [g.by_id[i].box for i in g.by_name.get(name, ()) if g.by_id[i].box is not None]
    for other in caption_names:
        for i in g.by_name.get(other, ()):
            box = g.by_id[i].box
            if box is not None and any(m.iou(box) >= SAME_THING_IOU for m in mine):
                return True
    return False


def _coloured(n: GraphIndex, name: str) -> bool:
    """Whether ``G`` has objects named ``name`` and gives each of them a colour."""
    ids = n.by_name.get(name, [])
    return bool(ids) and all(
        any(colour_sense(a) is not None for a in n.by_id[i].attributes) for i in ids
    )


@dataclass(frozen=True)
class _Caption:
    """The caption's one compound: its text, graph, colour and coloured object."""

    text: str
    sub: SceneGraph
    obj: SGObject
    colour: str

    def edit(self, colour: str | None, name: str | None) -> Conjunct | None:
        """The caption with its colour and/or object replaced (``None``: not placeable)."""
        text: str | None = self.text
        if colour is not None:
            text = replace_atom(self.text, "attribute", self.colour, colour)
        if name is not None and text is not None:
            text = replace_atom(text, "object", self.obj.name, name)
        if text is None:
            return None
        new = SGObject(self.obj.id, name or self.obj.name, (colour or self.colour,))
        return Conjunct(text, replace_object(self.sub, new))


def _reason(
    c: Compound, cap: _Caption, g: GraphIndex, admit: Callable[[Compound], bool]
) -> str | None:
    """Why pool compound ``c`` is left out of the pool's words (``None``: its words are kept)."""
    colour, name = c.parts
    words = {o.name for o in cap.sub.objects} | {a for o in cap.sub.objects for a in o.attributes}
    if not (_PLAIN.fullmatch(colour) and _PLAIN.fullmatch(name)):
        return "matched_second_not_plain_words"
    if colour_sense(colour) is None:
        return "matched_second_attribute_not_a_colour"
    if any(w in words or w in synonyms(old) or old in synonyms(w)
           for w, old in ((colour, cap.colour), (name, cap.obj.name))):  # fmt: skip
        return "matched_second_shares_caption_atom"
    last = name.split()[-1]
    if name in GENERIC or last in GENERIC or is_mass(name) or singularize(last) != last:
        return "matched_second_object_generic_mass_or_plural"
    if is_person(name):
        return "matched_second_object_is_a_person"
    if _same_thing(g, name, {o.name for o in cap.sub.objects}):
        return "matched_second_same_thing_as_caption_object"
    if not admit(c):
        return "matched_second_not_seen_in_training"
    return None


def _pool_entry(cap: _Caption, c: Compound, n: GraphIndex) -> tuple[PoolCompound | None, str]:
    colour, name = c.parts
    one, two, both = cap.edit(colour, None), cap.edit(None, name), cap.edit(colour, name)
    if one is None or two is None or both is None:
        return None, "matched_edit_not_placeable"
    if n.holds(one.graph) or n.holds(two.graph):
        return None, "matched_conjunct_true_in_image_graph"
    if not _coloured(n, name):
        return None, "matched_conjunct_not_known_false"
    return PoolCompound(c, colour, name, one, two, both), ""


def matched_pool(
    caption: str,
    sub: SceneGraph,
    g: GraphIndex,
    admit: Callable[[Compound], bool],
    drops: DropLog | None = None,
) -> list[PoolCompound] | None:
    """The caption's pool (see the module docstring); ``None`` (counted) for a caption that gets
    no set: not one colour–object compound, punctuation, or words outside its atoms."""
    log = drops if drops is not None else DropLog()
    compounds = sub.compounds()
    if len(compounds) != 1:
        return None
    if sub.relationships:
        log.drop(STAGE, "matched_caption_is_a_relation", caption)
        return None
    if len(sub.objects) != 1:  # "a navy blue chair": the parse's extra object "navy"
        log.drop(STAGE, "matched_caption_has_other_objects", caption)
        return None
    obj = sub.objects[0]
    cap = _Caption(caption, sub, obj, obj.attributes[0])
    if is_person(obj.name):
        log.drop(STAGE, "matched_caption_object_is_a_person", caption)
        return None
    if colour_sense(cap.colour) is None:
        log.drop(STAGE, "matched_caption_attribute_not_a_colour", caption)
        return None
    if PUNCTUATION.search(caption):
        log.drop(STAGE, "matched_caption_has_punctuation", caption)
        return None
    if not minimal(caption, sub):
        log.drop(STAGE, "matched_caption_has_words_outside_its_atoms", caption)
        return None
    n = normalized_index(g)
    pool = []
    found = {
        Compound("attribute_object", (a, o.name)) for o in g.graph.objects for a in o.attributes
    }
    for c in sorted(found):
        reason = _reason(c, cap, g, admit)
        entry = None
        if reason is None:
            entry, reason = _pool_entry(cap, c, n)
        if entry is None:
            log.drop(STAGE, reason, f"{caption} + {c}")
            continue
        pool.append(entry)
    return pool


def _join(a: str, b: str, rng: random.Random) -> str:
    return f"{a} and {b}" if rng.random() < 0.5 else f"{b} and {a}"


def matched_set(
    caption: str,
    sub: SceneGraph,
    g: GraphIndex,
    rng: random.Random,
    limit: int,
    admit: Callable[[Compound], bool] | None = None,
    region: Box | None = None,
    drops: DropLog | None = None,
    size: int = NEGATIVES,
) -> MatchedSet | None:
    """The matched positive of a one-compound caption of ``region`` and up to ``limit``
    negatives (the module docstring), no two with the same foil colour or name.

    ``admit`` says whether a pool compound may be used (the caller's seen-table rule; default:
    every compound); ``size``: the negatives a set needs. ``None`` (counted in ``drops``) when
    the caption gets no pool, none of it is in the region, or no second compound leaves
    ``size`` colours and ``size`` names of the pool that differ from its own.
    """
    log = drops if drops is not None else DropLog()
    pool = matched_pool(caption, sub, g, admit or (lambda c: True), log)
    if pool is None:
        return None
    n = normalized_index(g, inside(g, region))
    in_region = [p for p in pool if n.holds(compound_graph(p.compound))]
    if not in_region:
        log.drop(STAGE, "matched_no_pool_compound_in_region", caption)
        return None
    colours, names = {p.colour for p in pool}, {p.name for p in pool}
    enough = [
        p for p in in_region if len(colours - {p.colour}) >= size and len(names - {p.name}) >= size
    ]
    if not enough:
        log.drop(STAGE, "matched_fewer_distinct_foils_than_negatives", caption)
        return None
    second = rng.choice(enough)
    positive = _join(caption, second.both.text, rng)
    indices = [(i, j) for i in range(len(pool)) for j in range(len(pool))]
    rng.shuffle(indices)
    out = []
    used_colours, used_names = {second.colour}, {second.name}  # each in one text only
    for i, j in indices:
        if pool[i].colour in used_colours or pool[j].name in used_names:
            continue
        used_colours.add(pool[i].colour)
        used_names.add(pool[j].name)
        one, two = pool[i].one, pool[j].two
        text = _join(one.text, two.text, rng)
        foils = (pool[i].colour, pool[j].name)
        out.append(TextNegative("comp", RULE, text, union(one.graph, two.graph), foils))
        if len(out) >= limit:
            break
    graph = union(sub, compound_graph(second.compound))
    return MatchedSet(RULE, positive, graph, second.compound, out)

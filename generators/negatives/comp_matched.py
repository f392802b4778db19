"""HN-COMP-MATCHED (our extension, not the CREPE paper's): HN-COMP whose positive also joins two
compounds, so that length and "and" tell nothing.

The paper's HN-COMP negative joins two compounds ("a pink car" → "a blue car and a pink toy")
while its positive is the caption alone, so a text-only model picks the shorter text. Here every
text of a set is two copies of the caption's wording joined by " and ", and every text holds the
caption's two (three) atoms plus two atoms of the image's *other* true compounds:

* the **pool** is every compound of the image's full Visual Genome graph ``G`` of the caption's
  kind that the caption does not contain: attribute–object ``(b, x)`` for a caption ``(a, o)``
  (colours only: a caption's colour and a pool colour exclude each other, where "large" and
  "clean" do not);
  subject–relation–object ``(s', p, o')`` with the caption's predicate ``p`` for a caption
  ``(s, p, o)`` (predicates compared by verb lemma: "riding" is "ride"). A pool compound is kept
  when its words are plain lower-case words, differ from the caption's atoms and their WordNet
  synonyms, name no object of ``G`` whose box overlaps one of the caption's objects with
  IoU ≥ 0.5 (the same thing under another name), its atoms (and,
  for seen-compound captions, the compound) are seen by the training corpus (so the positive
  stays in the caption's split), its attribute is not an existence or scene word
  (:data:`EXISTENTIAL`: "cars are present" is true wherever there are cars), its object is
  neither a mass noun nor plural, and both edits below are placeable and false of the image;
* only a caption made of its atoms' words and :data:`FILLER` words gets a set ("the floor is
  grey", "there is a white table", "the tv is on the shelf"): the second conjunct is the
  caption rewritten, and any other word ("the wall is cream in colour") would be claimed of the
  second compound too; an attribute–object caption needs a colour attribute;
* the **positive** joins the caption and the caption rewritten with both atoms of one pool
  compound ``T`` chosen by seed among those on objects inside the caption's region (at least
  :data:`INSIDE` of each object's box: the model sees the region's crop, so the positive must
  be true of the crop): "a pink car and a white plate". The caption is the region's own Visual
  Genome description (true by annotation; its parse is often not in ``G``, whose relations are
  incomplete), and ``T``'s graph must hold in ``G`` cut to the region's objects;
* each **negative** is HN-COMP with foils taken from the pool: the caption with its attribute
  replaced by the attribute of a pool compound, joined with the caption with its object replaced
  by the object of a pool compound ("a white car and a pink plate"; for relations
  "s p o' and s' p o"). Both conjuncts must be false of the whole image, and the caption's
  colour on another object is used only where ``G`` gives every object of that name a colour
  (not "the chair is brown" of a chair whose colour nobody wrote down). A foil may name an
  object outside the crop (the pool is the whole image's; cut to the region it left half the
  captions without six foil pairs on the 100-image sample).

Positive and negatives thus draw their two extra atoms from the image's true compounds, are
written by the same edit of the caption (:func:`crepe_datasets.generators.negatives.surface.replace_atom`) and
joined in the same way; which conjunct comes first is a coin flip for every text. What separates
them is only which atoms are bound together.

"True" and "false" are :meth:`GraphIndex.holds` over ``G`` with predicates reduced to their verb
lemmas and every attribute widened by its WordNet synonyms ("grey" holds where ``G`` says
"gray"), so that a negative is never kept because of a spelling or inflection. Every caption
without a matched set, and every pool compound left out, is counted (stage
:data:`STAGE`). Deterministic given ``rng``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from crepe_datasets.generators.negatives import replace_object
from crepe_datasets.generators.negatives.atom import SAME_THING_IOU
from crepe_datasets.generators.negatives.comp import PUNCTUATION, TextNegative, union
from crepe_datasets.generators.negatives.foils import colour_sense, synonyms
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.senses import is_mass
from crepe_datasets.generators.negatives.surface import find_atom, replace_atom
from crepe_datasets.scenegraph.lexicon import lemmatize_verb, singularize
from crepe_datasets.scenegraph.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, Compound, Relationship, SceneGraph, SGObject

STAGE = "systematicity_comp_matched"
INSIDE = 0.5  # share of an object's box inside the region: the object shows in the crop
MIN_PAIRS = 6  # distinct foil pairs a set of 1 + 6 needs (at least 3 pool compounds)
RULES = {
    "attribute_object": "comp_matched:attribute_object",
    "object_relationship_object": "comp_matched:object_relationship_object",
}
_PLAIN = re.compile(r"[a-z]+(?: [a-z]+)*")
_WORD = re.compile(r"[a-z0-9]+")
# the only words a caption may hold besides its atoms' words: the second conjunct is the caption
# rewritten, so any other word ("in colour", "dinning", a second colour) would be claimed of the
# second compound too ("the branch is present in colour")
FILLER = frozenset({"a", "an", "the", "is", "are", "there"})
# phrases true of any conjunct they are copied into ("the couch is blue in colour", "there is a
# black chair in the picture")
FILLER_PHRASES = re.compile(
    r"\b(?:(?:in|of) (?:the |this )?(?:colou?r|picture|image|photo)|colou?red)\b"
)
# attributes that say a thing exists or where the photo was taken, not what a thing looks like:
# "cars are present" is true wherever the image has cars, whatever G's attributes say
EXISTENTIAL = frozenset(
    {"present", "visible", "shown", "pictured", "seen", "available", "indoors", "outdoors",
     "inside", "outside", "daytime", "nighttime", "day", "night", "here", "there"}
)  # fmt: skip
_AUXILIARIES = frozenset({"is", "are", "be", "was", "were", "a", "an", "the"})


@dataclass(frozen=True)
class Conjunct:
    """The caption rewritten by one or two atom edits: its text and graph."""

    text: str
    graph: SceneGraph


@dataclass(frozen=True)
class PoolCompound:
    """A true compound of ``G`` usable as the positive's second conjunct and as foil source.

    ``first`` / ``second`` are its atoms that replace the caption's first / second slot
    (attribute / object for attribute–object; object / subject for relations); ``one`` and
    ``two`` are the caption with that single atom replaced (the negatives' conjuncts), ``both``
    the caption with both replaced (the positive's second conjunct).
    """

    compound: Compound
    first: str
    second: str
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


def predicate_key(predicate: str) -> str:
    """A predicate by its verb lemmas, auxiliaries and articles left out ("is sitting on" →
    "sit on")."""
    words = [w for w in predicate.lower().split() if w not in _AUXILIARIES]
    return " ".join(lemmatize_verb(w) for w in words) or predicate.lower()


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
    """``G`` (only the objects ``ids``, when given) with predicates as :func:`predicate_key`
    and attributes widened by their synonyms (computed once per image graph and object set,
    kept in ``g.memo``)."""
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
            )
            for o in graph.objects
            if ids is None or o.id in ids
        ]
        kept = {o.id for o in objects}
        rels = [
            Relationship(r.subject, predicate_key(r.predicate), r.object)
            for r in graph.relationships
            if r.subject in kept and r.object in kept
        ]
        found = g.memo[key] = GraphIndex(
            SceneGraph(objects, rels, graph.image_id, graph.width, graph.height)
        )
    return found


def _normalized(graph: SceneGraph) -> SceneGraph:
    rels = [
        Relationship(r.subject, predicate_key(r.predicate), r.object) for r in graph.relationships
    ]
    return SceneGraph(list(graph.objects), rels, graph.image_id, graph.width, graph.height)


def holds(n: GraphIndex, graph: SceneGraph) -> bool:
    """Whether the (normalized) image graph ``n`` makes ``graph`` true."""
    return n.holds(_normalized(graph))


@dataclass(frozen=True)
class _Slots:
    """The caption's compound: its kind, its two replaceable atoms and how to edit them."""

    kind: str
    old: tuple[str, str]  # the caption's atoms at the two slots
    types: tuple[str, str]  # atom types of the two slots
    edit: Callable[[str | None, str | None], SceneGraph]  # graph with slot atoms replaced


def _slots(sub: SceneGraph) -> _Slots | None:
    compounds = sub.compounds()
    if len(compounds) != 1:
        return None
    if sub.relationships:
        rel = sub.relationships[0]
        by_id = sub.object_by_id()
        s_obj, o_obj = by_id[rel.subject], by_id[rel.object]
        if s_obj.name == o_obj.name:
            return None

        def edit_rel(new_o: str | None, new_s: str | None) -> SceneGraph:
            out = sub
            if new_o is not None:
                out = replace_object(out, SGObject(o_obj.id, new_o, o_obj.attributes))
            if new_s is not None:
                out = replace_object(out, SGObject(s_obj.id, new_s, s_obj.attributes))
            return out

        return _Slots(
            "object_relationship_object",
            (o_obj.name, s_obj.name),
            ("object", "object"),
            edit_rel,
        )
    obj = next(o for o in sub.objects if o.attributes)
    attr = obj.attributes[0]

    def edit_ao(new_a: str | None, new_o: str | None) -> SceneGraph:
        return replace_object(
            sub, SGObject(obj.id, new_o or obj.name, (new_a,) if new_a else obj.attributes)
        )

    return _Slots("attribute_object", (attr, obj.name), ("attribute", "object"), edit_ao)


def _pool_compounds(sub: SceneGraph, slots: _Slots, g: GraphIndex) -> list[Compound]:
    """Distinct compounds of ``G`` of the caption's kind (sorted), predicate written as the
    caption's."""
    out = set()
    if slots.kind == "attribute_object":
        for o in g.graph.objects:
            out.update(Compound("attribute_object", (a, o.name)) for a in o.attributes)
        return sorted(out)
    predicate = sub.relationships[0].predicate
    key = predicate_key(predicate)
    for r in g.graph.relationships:
        if r.subject in g.by_id and r.object in g.by_id and predicate_key(r.predicate) == key:
            s, o = g.name(r.subject), g.name(r.object)
            out.add(Compound("object_relationship_object", (s, predicate, o)))
    return sorted(out)


def _same_thing(g: GraphIndex, name: str, caption_names: set[str]) -> bool:
    """Whether an object ``name`` of ``G`` overlaps an object of a caption's name (IoU ≥ 0.5)."""
    mine = [g.by_id[i].box for i in g.by_name.get(name, ()) if g.by_id[i].box is not None]
    for other in caption_names:
        for i in g.by_name.get(other, ()):
            box = g.by_id[i].box
            if box is not None and any(m.iou(box) >= SAME_THING_IOU for m in mine):
                return True
    return False


def _number_clash(sub: SceneGraph, slots: _Slots, new: tuple[str, str]) -> bool:
    """A new object name that is a mass noun or already plural ("eyeglasses"): the edit would
    write it with an article or a plural ending it cannot take ("eyeglasseses")."""
    objects = [new[1]] if slots.kind == "attribute_object" else list(new)
    return any(is_mass(o) or singularize(o.split()[-1]) != o.split()[-1] for o in objects)


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


def _reason(
    c: Compound,
    sub: SceneGraph,
    slots: _Slots,
    g: GraphIndex,
    admit: Callable[[Compound], bool],
) -> tuple[str | None, tuple[str, str]]:
    """Why pool compound ``c`` is left out (``None``: kept), and its two slot atoms."""
    if slots.kind == "attribute_object":
        new = (c.parts[0], c.parts[1])
    else:
        new = (c.parts[2], c.parts[0])  # slot 1: the object; slot 2: the subject
    words = {o.name for o in sub.objects} | {a for o in sub.objects for a in o.attributes}
    if not all(_PLAIN.fullmatch(w) for w in new):
        return "matched_second_not_plain_words", new
    if slots.kind == "attribute_object" and new[0] in EXISTENTIAL:
        return "matched_second_attribute_existential", new
    if _number_clash(sub, slots, new):
        return "matched_second_object_mass_or_plural", new
    if any(
        w in words or w in synonyms(old) or old in synonyms(w)
        for w, old in zip(new, slots.old, strict=True)
    ) or (slots.kind != "attribute_object" and new[0] == new[1]):
        return "matched_second_shares_caption_atom", new
    if slots.kind == "attribute_object" and colour_sense(new[0]) is None:
        return "matched_second_attribute_not_a_colour", new
    names = {o.name for o in sub.objects}
    objects = [new[1]] if slots.kind == "attribute_object" else list(new)
    if any(_same_thing(g, name, names) for name in objects):
        return "matched_second_same_thing_as_caption_object", new
    if not admit(c):
        return "matched_second_not_seen_in_training", new
    return None, new


def _conjunct(
    caption: str, slots: _Slots, n: GraphIndex, first: str | None, second: str | None
) -> tuple[Conjunct | None, str | None]:
    """The caption with the given slots replaced, or why it cannot be used."""
    text: str | None = caption
    for kind, old, new in zip(slots.types, slots.old, (first, second), strict=True):
        if new is not None and text is not None:
            text = replace_atom(text, kind, old, new)
    if text is None:
        return None, "matched_edit_not_placeable"
    graph = slots.edit(first, second)
    if (first is None or second is None) and holds(n, graph):
        return None, "matched_conjunct_true_in_image_graph"
    if (first is None or second is None) and not _known_otherwise(n, slots, graph, first):
        return None, "matched_conjunct_not_known_false"
    return Conjunct(text, graph), None


def _known_otherwise(n: GraphIndex, slots: _Slots, graph: SceneGraph, first: str | None) -> bool:
    """Whether the conjunct is known false beyond ``G`` not containing it. The caption's own
    object in another colour, or its subject with the same predicate to another object, is
    false by the caption itself (colours and support relations exclude each other); the
    caption's colour on another object of the image needs that object's colour in ``G``: every
    object of that name has a colour of its own ("the chair is brown" is false of a chair
    annotated black, not of one whose colour nobody wrote down)."""
    if slots.kind != "attribute_object" or first is not None:
        return True
    name = next(o.name for o in graph.objects if o.attributes)
    ids = n.by_name.get(name, [])
    return bool(ids) and all(
        any(colour_sense(a) is not None for a in n.by_id[i].attributes) for i in ids
    )


def matched_pool(
    caption: str,
    sub: SceneGraph,
    g: GraphIndex,
    admit: Callable[[Compound], bool],
    drops: DropLog | None = None,
) -> tuple[_Slots, list[PoolCompound]] | None:
    """The caption's slots and its pool (see the module docstring); ``None`` for a caption
    with more or fewer than one compound or with punctuation."""
    slots = _slots(sub)
    log = drops if drops is not None else DropLog()
    if slots is None:
        if len(sub.compounds()) == 1:
            log.drop(STAGE, "matched_subject_and_object_same_name", caption)
        return None
    if PUNCTUATION.search(caption):
        log.drop(STAGE, "matched_caption_has_punctuation", caption)
        return None
    if not minimal(caption, sub):
        log.drop(STAGE, "matched_caption_has_words_outside_its_atoms", caption)
        return None
    if slots.kind == "attribute_object" and colour_sense(slots.old[0]) is None:
        log.drop(STAGE, "matched_caption_attribute_not_a_colour", caption)
        return None
    n = normalized_index(g)
    pool = []
    for c in _pool_compounds(sub, slots, g):
        reason, new = _reason(c, sub, slots, g, admit)
        one = two = both = None
        if reason is None:
            one, reason = _conjunct(caption, slots, n, new[0], None)
        if reason is None:
            two, reason = _conjunct(caption, slots, n, None, new[1])
        if reason is None:
            both, reason = _conjunct(caption, slots, n, new[0], new[1])
        if reason is not None:
            log.drop(STAGE, reason, f"{caption} + {c}")
            continue
        assert one is not None and two is not None and both is not None
        pool.append(PoolCompound(c, new[0], new[1], one, two, both))
    return slots, pool


def compound_graph(c: Compound) -> SceneGraph:
    """The graph of one compound alone: ``(attribute, object)`` or ``(subject, predicate,
    object)``."""
    if c.kind == "attribute_object":
        return SceneGraph([SGObject(0, c.parts[1], (c.parts[0],))], [])
    return SceneGraph(
        [SGObject(0, c.parts[0]), SGObject(1, c.parts[2])], [Relationship(0, c.parts[1], 1)]
    )


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
) -> MatchedSet | None:
    """The matched positive of a one-compound caption of ``region`` and up to ``limit``
    negatives (the module docstring).

    ``admit`` says whether a pool compound may join the positive (the caller's seen-table
    rule; default: every compound). ``None`` (counted in ``drops``) when the pool gives fewer
    than :data:`MIN_PAIRS` distinct foil pairs, or none of its compounds holds in the region.
    """
    log = drops if drops is not None else DropLog()
    found = matched_pool(caption, sub, g, admit or (lambda c: True), log)
    if found is None:
        return None
    slots, pool = found
    n = normalized_index(g, inside(g, region))
    pairs = {(p.first, q.second) for p in pool for q in pool if p.first != q.second}
    if len(pairs) < MIN_PAIRS:
        log.drop(STAGE, f"matched_fewer_than_{MIN_PAIRS}_foil_pairs", caption)
        return None
    in_region = [p for p in pool if holds(n, compound_graph(p.compound))]
    if not in_region:
        log.drop(STAGE, "matched_no_pool_compound_in_region", caption)
        return None
    second = rng.choice(in_region)
    positive = _join(caption, second.both.text, rng)
    indices = [(i, j) for i in range(len(pool)) for j in range(len(pool))]
    rng.shuffle(indices)
    out, texts = [], {positive}
    for i, j in indices:
        if pool[i].first == pool[j].second:  # a relation's two foils would name one object
            continue
        one, two = pool[i].one, pool[j].two
        text = _join(one.text, two.text, rng)
        if text in texts:
            continue
        texts.add(text)
        graph = union(one.graph, two.graph)
        foils = (pool[i].first, pool[j].second)
        out.append(TextNegative("comp", RULES[slots.kind], text, graph, foils))
        if len(out) >= limit:
            break
    graph = union(sub, compound_graph(second.compound))
    return MatchedSet(RULES[slots.kind], positive, graph, second.compound, out)

"""HN-SWAP (SPEC §3.4): swap or permute atoms of the same type, checked against ``G``.

Rules (each candidate is named by its rule):

* ``swap:subject_object`` — reverse one relationship. Invalid when ``G`` has the reversed
  triple between the same two objects.
* ``swap:attributes`` — exchange attribute ``a`` of object 1 and ``b`` of object 2 (distinct
  objects, ``a ≠ b``). Invalid when ``b`` already holds for object 1 or ``a`` for object 2,
  in ``G`` or in the subgraph.
* ``swap:objects`` — exchange the names of two objects that no relationship of the subgraph
  links directly. Invalid when the swap leaves the graph unchanged, when the two boxes are one
  thing annotated twice (IoU ≥ 0.5: "computer" and "monitor"), when one name may name the
  other's thing (:func:`~crepe_datasets.generators.negatives.foils.coreference_reason`:
  "person" and "man"), or when the two objects have the same attributes and say the same of
  the same things ("wall near computer, cabinet next to the computer"); and unless ``G``
  refutes something the swap says (:func:`refuted_as`, below).
* ``move:attribute`` — move attribute ``a`` from its object to another object that does not
  have it (in ``G`` or the subgraph).
* ``permute:object|attribute|relationship`` — at n = 4 only: every permutation of the atoms of
  one type over their slots (attributes may not land twice on one object).

Every rule keeps the multiset of atoms. Common checks: the graph must change (its signature
differs), the modified graph must not hold in ``G`` (:meth:`GraphIndex.holds`), and no two
exchanged atoms may be WordNet synonyms ("grey"/"gray") — the "filter errant swaps with
WordNet" step. Candidates are enumerated, shuffled with ``rng`` and checked lazily until
``limit`` are found.

Swaps that stay true, written down (each dropped and counted with its reason):

* **Symmetric relations** (:data:`SYMMETRIC`, :func:`symmetric`): "A next to B" says what
  "B next to A" says, so ``swap:subject_object`` never reverses one
  (``swap_symmetric_relation``), and a swapped graph also counts as true in ``G`` when it holds
  with one of its symmetric relationships read the other way round. WordNet has no
  symmetry relation for prepositions and Visual Genome's relationship synsets map them to
  adverbs ("near.r.01", "by.r.01"), so the table is small and written by hand: the
  prepositions of nearness and contact whose reversal is implied by them.
* **Nearness moved onto a related pair**: a relationship whose predicate is symmetric, put by
  a swap between two objects that ``G`` links by any predicate (either way), is true of them
  ("cup on table" → "cup next to table"): ``swap_symmetric_relation_on_linked_pair``.
* **Attributes between objects of one name** (``swap:attributes``, ``move:attribute``): "white
  plate near another plate" → "plate near another white plate" tells apart no image, since
  nothing in the text says which plate is which: ``swap_same_name_objects``.
* **Attributes between a whole and its part** (linked in ``G`` by a predicate of
  :data:`PART_OF`): "white plate with food" → "plate with white food", colour and material
  pass from a thing to what it holds or is made of: ``swap_part_whole_objects``.
* **An attribute put where nothing contradicts it** (``swap:attributes``, ``move:attribute``):
  Visual Genome annotates few attributes, so "white outlet" of an outlet with no colour in
  ``G`` may be true, and so may "paneled shelf", "sliced shrimp" or "metal bowl" (read by eye,
  37% of the moved attributes that nothing contradicted were possibly true). A moved attribute
  must be excluded by an attribute ``G`` gives its new object (one of its foils: an antonym,
  another basic colour; :meth:`GraphIndex.contradicts` with ``stated``: a region description
  that says it of the object in so many words, "the tray is silver", counts too, and a thing of
  two colours excludes no third) — for a swap, on at least one of the two
  objects: ``swap_attribute_not_contradicted``; and no description of the image (a region's
  phrase, a question and its answer) may give it to the new object (:func:`described`):
  ``swap_attribute_described``; nor may another thing of the new object's kind in the image
  leave it open (:meth:`GraphIndex.open_kin`: "brown chair" where a second chair has no
  colour): ``swap_attribute_open_for_kin``.
* **A name swap nothing refutes** (``swap:objects``): Visual Genome leaves most relations
  and attributes unannotated, so "book on top of the cpu" said of a book may hold though only a
  dish is annotated there; read by eye, 22% of the name swaps were not certainly false (both
  things on the cpu, an unannotated colour carried to the other thing). A swap is kept only
  where ``G`` refutes one thing it says of either object under its new name
  (:func:`refuted_as`): an attribute the other object's annotation excludes, or a relation
  the boxes of the two kinds exclude (:func:`boxes_refute`: a touching predicate between
  boxes that never meet, nearness between boxes far apart, "above" or "under" the wrong way)
  and no description speaks of together: ``swap_objects_not_refuted``.
* **An attribute beside its foil** (``move:attribute``, ``swap:attributes``): a moved
  attribute is false only where the new object's annotation excludes it, and where that
  annotation is in the text too the negative gives one thing two values of a kind: "large and
  small dog" contradicts itself and "brown and red bench" may be true, both read without the
  image. A moved or swapped attribute may not land beside an attribute of the text that
  excludes it (:func:`~crepe_datasets.generators.negatives.foils.excludes`; "black and grey
  chair"): ``swap_attribute_beside_its_foil``.
* **A relation the boxes show**: a swap that states anew that a thing is in or on another
  ("chair inside room") is true where the box of a thing of the one kind lies inside the box of
  a thing of the other, whatever the graph annotates (:func:`_fits_boxes`):
  ``swap_relation_fits_boxes``.
* **Scene-level attributes** ("indoors", "outdoors"), true of every object, are removed when
  the graph is cleaned (:func:`crepe_datasets.builders.productivity.words.scene_attribute`),
  before any swap.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable

from crepe_datasets.generators.negatives import (
    CHECK_STAGE,
    NegativeCandidate,
    out_of_reach,
    replace_object,
)
from crepe_datasets.generators.negatives.foils import (
    coreference_reason,
    excludes,
    synonyms,
)
from crepe_datasets.generators.negatives.graphs import SAME_THING_IOU, VISIBLE_SHARE, GraphIndex
from crepe_datasets.generators.negatives.kinds import predicate_meaning
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, Relationship, SceneGraph, SGObject

MAX_PERMUTATION_SLOTS = 5

#: Prepositions of nearness and contact: "A P B" implies "B P A". A predicate is symmetric when
#: it is one of them or ends with one ("sitting next to", "parked by", "playing with").
SYMMETRIC = frozenset(
    {
        "next to",
        "near",
        "near to",
        "nearby",
        "close to",
        "by",
        "beside",
        "besides",
        "alongside",
        "adjacent to",
        "against",
        "touching",
        "attached to",
        "connected to",
        "with",
        "and",
        "across from",
        "opposite",
        "opposite of",
        "among",
        "between",
        "meeting",
    }
)
#: Predicates linking a whole to its part or content (an attribute may hold of both).
PART_OF = frozenset(
    {"has", "have", "having", "of", "with", "part of", "contains", "containing", "made of"}
)


@functools.lru_cache(maxsize=50_000)
def symmetric(predicate: str) -> bool:
    """Whether ``predicate`` is symmetric (see :data:`SYMMETRIC`)."""
    words = predicate.split()
    return any(" ".join(words[i:]) in SYMMETRIC for i in range(len(words)))


def _linked(g: GraphIndex, a: int, b: int, predicates: frozenset[str] | None = None) -> bool:
    """Whether ``G`` links objects ``a`` and ``b`` either way (by one of ``predicates``)."""
    found = g.pair_predicates.get((a, b), set()) | g.pair_predicates.get((b, a), set())
    return bool(found if predicates is None else found & predicates)


def _same_meaning(a: str, b: str) -> bool:
    return a == b or b in synonyms(a) or a in synonyms(b)


def _with(
    obj: SGObject, *, name: str | None = None, attributes: tuple[str, ...] | None = None
) -> SGObject:
    return SGObject(
        obj.id,
        name if name is not None else obj.name,
        attributes if attributes is not None else obj.attributes,
        obj.box,
        obj.synset,
    )


def _rebuild(sub: SceneGraph, objects: list[SGObject], rels: list[Relationship]) -> SceneGraph:
    return SceneGraph(objects, rels, sub.image_id, sub.width, sub.height)


def _subject_object(sub: SceneGraph, g: GraphIndex, i: int) -> SceneGraph | str | None:
    r = sub.relationships[i]
    if symmetric(r.predicate):
        return "swap_symmetric_relation"
    if (r.object, r.predicate, r.subject) in g.triples:
        return None
    rels = list(sub.relationships)
    rels[i] = Relationship(r.object, r.predicate, r.subject)
    return _rebuild(sub, list(sub.objects), rels)


def described(g: GraphIndex, obj: SGObject, attribute: str) -> bool:
    """Whether a description of the image says ``attribute`` of ``obj``
    (:meth:`GraphIndex.described_attribute`): "curtain is blue, white, orange and purple"
    makes "orange curtain" true whatever ``G`` annotates."""
    return g.described_attribute(g.names(obj), obj.box, attribute)


def _attribute_pair_reason(g: GraphIndex, o1: SGObject, o2: SGObject) -> str | None:
    if o1.name == o2.name:
        return "swap_same_name_objects"
    if _linked(g, o1.id, o2.id, PART_OF):
        return "swap_part_whole_objects"
    return None


def _swap_attributes(
    sub: SceneGraph, g: GraphIndex, o1: SGObject, i: int, o2: SGObject, j: int
) -> SceneGraph | str | None:
    if (reason := _attribute_pair_reason(g, o1, o2)) is not None:
        return reason
    a, b = o1.attributes[i], o2.attributes[j]
    if _same_meaning(a, b) or b in o1.attributes or a in o2.attributes:
        return None
    if g.has_attribute(o1.id, b) or g.has_attribute(o2.id, a):
        return None
    if not g.contradicts(o1.id, b, stated=True) and not g.contradicts(o2.id, a, stated=True):
        return "swap_attribute_not_contradicted"
    attrs1, attrs2 = list(o1.attributes), list(o2.attributes)
    if excludes(attrs1[:i] + attrs1[i + 1 :], b) or excludes(attrs2[:j] + attrs2[j + 1 :], a):
        return "swap_attribute_beside_its_foil"  # "black and grey chair"
    if described(g, o1, b) or described(g, o2, a):
        return "swap_attribute_described"
    if g.open_kin(o1, b) or g.open_kin(o2, a):  # another chair may be the brown one
        return "swap_attribute_open_for_kin"
    attrs1[i], attrs2[j] = b, a
    graph = replace_object(sub, _with(o1, attributes=tuple(attrs1)))
    return replace_object(graph, _with(o2, attributes=tuple(attrs2)))


def _profile(sub: SceneGraph, oid: int) -> frozenset[tuple[str, str, int]]:
    """An object's relationships in the subgraph, each predicate read by its meaning
    (:func:`~crepe_datasets.generators.negatives.kinds.predicate_meaning`): ``(direction,
    meaning, other object)``."""
    out = set()
    for r in sub.relationships:
        if oid in (r.subject, r.object):
            meaning = predicate_meaning(r.predicate)
            out.add(("out", meaning, r.object) if r.subject == oid else ("in", meaning, r.subject))
    return frozenset(out)


def _objects_swap_reason(sub: SceneGraph, o1: SGObject, o2: SGObject) -> str | None:
    """Why exchanging the names of ``o1`` and ``o2`` says nothing new, or ``None``: their boxes
    are one thing annotated twice ("computer" and "monitor" on one box), one name may name
    the other's thing ("person" and "man": a kind of it, a part or whole of it), or the two
    say the same of the same things ("wall near computer, cabinet next to the computer")."""
    if o1.box is not None and o2.box is not None and o1.box.iou(o2.box) >= SAME_THING_IOU:
        return "swap_objects_same_thing"
    if coreference_reason(o1.name, o2.name) is not None:
        return "swap_objects_may_corefer"
    if set(o1.attributes) == set(o2.attributes) and _profile(sub, o1.id) == _profile(sub, o2.id):
        return "swap_objects_say_the_same"
    return None


#: The last words of predicates whose subject touches its object in the picture (support,
#: containment, possession, wear: "sitting on", "parked in", "hanging from", "wearing"), and
#: whole predicates of the kind ending otherwise ("on top of", "part of").
TOUCHING_LAST_WORDS = frozenset(
    {
        "on",
        "in",
        "inside",
        "within",
        "atop",
        "upon",
        "onto",
        "into",
        "from",
        "has",
        "have",
        "having",
        "wearing",
        "wears",
        "holding",
        "holds",
        "carrying",
        "carries",
        "riding",
        "rides",
    }
)
TOUCHING_PREDICATES = frozenset({"of", "on top of", "inside of", "part of", "made of"})
#: The meanings (:func:`~crepe_datasets.generators.negatives.kinds.predicate_meaning`) of
#: nearness, of being above and of being below, which boxes can refute (:func:`_pair_refutes`).
NEAR_MEANINGS = frozenset({predicate_meaning("next to")})
ABOVE_MEANINGS = frozenset({predicate_meaning("above")})
BELOW_MEANINGS = frozenset({predicate_meaning("under")})


@functools.lru_cache(maxsize=10_000)
def touching(predicate: str) -> bool:
    """Whether ``predicate`` says that its subject touches its object (see
    :data:`TOUCHING_LAST_WORDS`): two boxes that never meet refute it."""
    if predicate in TOUCHING_PREDICATES or predicate_meaning(predicate) in TOUCHING_PREDICATES:
        return True
    words = predicate.split()
    return bool(words) and words[-1] in TOUCHING_LAST_WORDS and not symmetric(predicate)


def _gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 where they meet)."""
    dx = max(b.x - (a.x + a.w), a.x - (b.x + b.w), 0.0)
    dy = max(b.y - (a.y + a.h), a.y - (b.y + b.h), 0.0)
    return (dx * dx + dy * dy) ** 0.5


def _pair_refutes(predicate: str, a: Box, b: Box) -> bool:
    """Whether the boxes ``a`` (subject) and ``b`` (object) exclude ``predicate`` between the
    two things: a touching predicate (:func:`touching`) where they do not meet, nearness
    ("next to", "by") where they lie further apart than the longer side of either, "above"
    where ``a`` lies wholly below ``b``, "under" where it lies wholly above."""
    if touching(predicate):
        return a.intersection_area(b) <= 0
    meaning = predicate_meaning(predicate)
    if meaning == predicate and " " in predicate:  # "sitting next to": "next to"
        meaning = predicate_meaning(predicate.split(" ", 1)[1])
    if meaning in NEAR_MEANINGS:
        return _gap(a, b) > max(a.w, a.h, b.w, b.h)
    if meaning in ABOVE_MEANINGS:
        return a.y >= b.y + b.h
    if meaning in BELOW_MEANINGS:
        return a.y + a.h <= b.y
    return False


def boxes_refute(g: GraphIndex, subject: str, predicate: str, obj: str) -> bool:
    """Whether no thing of ``subject``'s kind stands in ``predicate`` to a thing of ``obj``'s
    kind by their boxes (:func:`_pair_refutes` for every pair; :meth:`GraphIndex.kin`, every
    box known): "window on ground" where every window is high on a building."""
    key = ("boxes_refute", subject, predicate, obj)
    found = g.memo.get(key)
    if found is None:
        boxes_a, boxes_b = _kin_boxes(g, subject), _kin_boxes(g, obj)
        found = g.memo[key] = (
            bool(boxes_a and boxes_b)
            and None not in boxes_a
            and None not in boxes_b
            and all(_pair_refutes(predicate, a, b) for a in boxes_a for b in boxes_b)  # type: ignore[arg-type]
        )
    return found


def _kin_boxes(g: GraphIndex, name: str) -> list[Box | None]:
    """The boxes of the things of ``name``'s kind in ``G`` (:meth:`GraphIndex.kin`)."""
    return [g.by_id[i].box for i in g.kin(name)]


def refuted_as(sub: SceneGraph, g: GraphIndex, obj: SGObject, other: SGObject) -> bool:
    """Whether ``G`` refutes something ``sub`` says of ``obj`` once it takes the name of
    ``other`` (``swap:objects``): one of its attributes that ``G`` gives ``other`` a foil of
    (:meth:`GraphIndex.contradicts`) and that no description gives ``other``, or a relation
    that the boxes of the two kinds exclude (:func:`boxes_refute`: "window on ground" where
    every window is high on a building) and that no description speaks of together ("what is
    on top of the cpu? a book" where no box of a book is on the cpu)."""
    for a in obj.attributes:
        if g.contradicts(other.id, a, stated=True) and not described(g, other, a):
            return True
    by_id = sub.object_by_id()
    for r in sub.relationships:
        if obj.id == r.subject:
            claim = (other.name, r.predicate, by_id[r.object].name)
        elif obj.id == r.object:
            claim = (by_id[r.subject].name, r.predicate, other.name)
        else:
            continue
        if boxes_refute(g, *claim) and not g.described_together(claim[0], claim[2]):
            return True
    return False


def _swap_objects(
    sub: SceneGraph, g: GraphIndex, o1: SGObject, o2: SGObject
) -> SceneGraph | str | None:
    linked = any({r.subject, r.object} == {o1.id, o2.id} for r in sub.relationships)
    if linked or _same_meaning(o1.name, o2.name):
        return None
    if (reason := _objects_swap_reason(sub, o1, o2)) is not None:
        return reason
    if not refuted_as(sub, g, o1, o2) and not refuted_as(sub, g, o2, o1):
        return "swap_objects_not_refuted"
    graph = replace_object(sub, _with(o1, name=o2.name))
    return replace_object(graph, _with(o2, name=o1.name))


def _move_attribute(
    sub: SceneGraph, g: GraphIndex, o1: SGObject, i: int, o2: SGObject
) -> SceneGraph | str | None:
    if (reason := _attribute_pair_reason(g, o1, o2)) is not None:
        return reason
    a = o1.attributes[i]
    if a in o2.attributes or g.has_attribute(o2.id, a):
        return None
    if not g.contradicts(o2.id, a, stated=True):
        return "swap_attribute_not_contradicted"
    if excludes(o2.attributes, a):  # the text would say "large and small dog"
        return "swap_attribute_beside_its_foil"
    if described(g, o2, a):
        return "swap_attribute_described"
    if g.open_kin(o2, a):
        return "swap_attribute_open_for_kin"
    graph = replace_object(sub, _with(o1, attributes=o1.attributes[:i] + o1.attributes[i + 1 :]))
    return replace_object(graph, _with(o2, attributes=(*o2.attributes, a)))


def _permutations(sub: SceneGraph) -> list[tuple[str, Callable[[], SceneGraph | str | None]]]:
    out: list[tuple[str, Callable[[], SceneGraph | str | None]]] = []
    objs, rels = sub.objects, sub.relationships
    names = [o.name for o in objs]
    if 1 < len(names) <= MAX_PERMUTATION_SLOTS:
        for perm in sorted(set(itertools.permutations(names))):
            if list(perm) != names and all(
                p == n or not _same_meaning(p, n) for p, n in zip(perm, names, strict=True)
            ):
                new = [_with(o, name=p) for o, p in zip(objs, perm, strict=True)]
                out.append(("permute:object", lambda new=new: _rebuild(sub, new, list(rels))))
    slots = [(k, a) for k, o in enumerate(objs) for a in o.attributes]
    values = [a for _, a in slots]
    if 1 < len(values) <= MAX_PERMUTATION_SLOTS:
        for perm in sorted(set(itertools.permutations(values))):
            if list(perm) == values:
                continue
            per_obj: list[list[str]] = [[] for _ in objs]
            for (k, _), a in zip(slots, perm, strict=True):
                per_obj[k].append(a)
            if any(len(set(a)) != len(a) for a in per_obj):
                continue
            new = [_with(o, attributes=tuple(a)) for o, a in zip(objs, per_obj, strict=True)]
            out.append(("permute:attribute", lambda new=new: _rebuild(sub, new, list(rels))))
    preds = [r.predicate for r in rels]
    if 1 < len(preds) <= MAX_PERMUTATION_SLOTS:
        for perm in sorted(set(itertools.permutations(preds))):
            if list(perm) != preds:
                new_rels = [
                    Relationship(r.subject, p, r.object) for r, p in zip(rels, perm, strict=True)
                ]
                out.append(
                    ("permute:relationship", lambda nr=new_rels: _rebuild(sub, list(objs), nr))
                )
    return out


def swap_candidates(
    sub: SceneGraph, g: GraphIndex, n: int
) -> list[tuple[str, Callable[[], SceneGraph | str | None]]]:
    """Every rule instance as ``(rule, make)`` in a fixed order; ``make()`` gives the graph, or
    a drop reason, or None (the rule's own check failed)."""
    out: list[tuple[str, Callable[[], SceneGraph | str | None]]] = []
    out += [
        ("swap:subject_object", lambda i=i: _subject_object(sub, g, i))
        for i in range(len(sub.relationships))
    ]
    objs = sub.objects
    for x, y in itertools.combinations(range(len(objs)), 2):
        o1, o2 = objs[x], objs[y]
        for i, j in itertools.product(range(len(o1.attributes)), range(len(o2.attributes))):
            out.append(
                (
                    "swap:attributes",
                    lambda o1=o1, i=i, o2=o2, j=j: _swap_attributes(sub, g, o1, i, o2, j),
                )
            )
        out.append(("swap:objects", lambda o1=o1, o2=o2: _swap_objects(sub, g, o1, o2)))
    for o1, o2 in itertools.permutations(objs, 2):
        for i in range(len(o1.attributes)):
            out.append(
                ("move:attribute", lambda o1=o1, i=i, o2=o2: _move_attribute(sub, g, o1, i, o2))
            )
    if n == 4:
        out += _permutations(sub)
    return out


def _symmetric_reason(sub: SceneGraph, graph: SceneGraph, g: GraphIndex) -> str | None:
    """Why ``graph`` is true once its symmetric relationships are read both ways, or None."""
    before = {(r.subject, r.predicate, r.object) for r in sub.relationships}
    for k, r in enumerate(graph.relationships):
        if not symmetric(r.predicate):
            continue
        if (r.subject, r.predicate, r.object) not in before and _linked(g, r.subject, r.object):
            return "swap_symmetric_relation_on_linked_pair"
        rels = list(graph.relationships)
        rels[k] = Relationship(r.object, r.predicate, r.subject)
        if g.holds(_rebuild(graph, list(graph.objects), rels)):
            return "swap_true_with_symmetric_relation_reversed"
    return None


#: The meanings (:func:`~crepe_datasets.generators.negatives.kinds.predicate_meaning`) of
#: containment and support: a box inside another is evidence for them (:func:`_fits_boxes`).
INSIDE_MEANINGS = frozenset({"in", "on"})


def _fits_boxes(g: GraphIndex, subject: str, meaning: str, obj: str) -> bool:
    """Whether ``G`` has a thing of the kind of ``subject`` whose box lies mostly (at least
    :data:`~crepe_datasets.generators.negatives.graphs.VISIBLE_SHARE`) inside the box of a thing
    of the kind of ``obj``, for a predicate of containment or support: "chair inside room" is
    true where the room's box holds chairs, annotated in it or not."""
    if meaning not in INSIDE_MEANINGS:
        return False
    key = ("fits_boxes", subject, meaning, obj)
    found = g.memo.get(key)
    if found is None:
        outer = _kin_boxes(g, obj)
        found = g.memo[key] = any(
            box is not None
            and box.area > 0
            and any(
                o is not None
                and o is not box
                and box.intersection_area(o) >= VISIBLE_SHARE * box.area
                for o in outer
            )
            for box in _kin_boxes(g, subject)
        )
    return found


def _said(x: SceneGraph) -> set[tuple[str, str, str]]:
    """The relations a graph states, as ``(subject name, meaning, object name)``."""
    names = x.object_by_id()
    return {
        (names[r.subject].name, predicate_meaning(r.predicate), names[r.object].name)
        for r in x.relationships
        if r.subject in names and r.object in names
    }


def _boxes_reason(
    before: set[tuple[str, str, str]], graph: SceneGraph, g: GraphIndex
) -> str | None:
    """Why a relation the swap states anew (not in ``before``, :func:`_said` of its positive)
    is true by the boxes (:func:`_fits_boxes`), or None."""
    for triple in _said(graph) - before:
        if _fits_boxes(g, *triple):
            return "swap_relation_fits_boxes"
    return None


def swap_negatives(
    sub: SceneGraph,
    g: GraphIndex,
    rng: random.Random,
    limit: int,
    n: int | None = None,
    drops: DropLog | None = None,
    need: int = 0,
) -> list[NegativeCandidate]:
    """Up to ``limit`` HN-SWAP candidates with distinct graphs (see the module docstring).

    Rejected candidates are counted in ``drops`` (stage ``productivity_negative_checks``):
    ``swap_rule_check_failed:<rule>``, ``swap_duplicate_graph``, ``swap_true_in_image_graph``
    and the reasons of the module docstring (``swap_symmetric_relation``, …).

    ``need`` (the fewest negatives a set takes): as soon as the candidates found and those left
    to check cannot reach it, none is returned (they could enter no set) and the rest are not
    checked; the candidates given up are counted (``swap_set_out_of_reach``).
    """

    def count(reason: str) -> None:
        if drops is not None:
            drops.drop(CHECK_STAGE, reason)

    cands = swap_candidates(sub, g, sub.complexity() if n is None else n)
    rng.shuffle(cands)
    seen = {sub.signature()}
    said = _said(sub)
    out: list[NegativeCandidate] = []
    for tried, (rule, make) in enumerate(cands):
        if len(out) >= limit:
            break
        if (most := len(out) + len(cands) - tried) < need:  # found, plus this one and the rest
            return out_of_reach(drops, "swap", most)
        graph = make()
        if graph is None:
            count(f"swap_rule_check_failed:{rule}")
            continue
        if isinstance(graph, str):
            count(graph)
            continue
        key = graph.signature()
        if key in seen:
            count("swap_duplicate_graph")
            continue
        if g.holds(graph):
            count("swap_true_in_image_graph")
            continue
        if (
            reason := _symmetric_reason(sub, graph, g) or _boxes_reason(said, graph, g)
        ) is not None:
            count(reason)
            continue
        seen.add(key)
        out.append(NegativeCandidate("swap", rule, graph))
    if len(out) < need:
        return out_of_reach(drops, "swap", len(out))
    return out

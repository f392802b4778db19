"""HN-COMP (SPEC §2.5): the compound's correct atoms split over two compounds, each completed
with an atomic foil — "a pink car" → "a blue car and a pink toy".

For a caption whose graph has exactly one compound:

* attribute–object ``(a, o)``: conjunct 1 keeps the object with a foil attribute ``a'``,
  conjunct 2 keeps the attribute on a foil object ``o'`` → "a' o and a o'";
* object–relationship–object ``(s, p, o)``: conjunct 1 keeps subject and predicate with a foil
  object ``o'``, conjunct 2 keeps predicate and object with a foil subject ``s'`` →
  "s p o' and s' p o" (the predicate is the atom both conjuncts share; the paper gives only
  the attribute example, this extension is ours).

Each conjunct is the caption with one atom's words replaced
(:func:`crepe_datasets.generators.negatives.surface.replace_atom`), so a negative keeps the
caption's wording and format; the two are joined by " and ". The negative's graph is the union
of the two conjuncts' graphs: it holds every atom of the caption plus exactly the two foils.

Foils come from the HN-ATOM foil lists (:mod:`.foils`: antonyms and grand-hypernym
co-hyponyms). A candidate is rejected (and counted) when either conjunct is made true by the
full image graph ``G`` (:meth:`GraphIndex.holds`; e.g. another car of the image is blue), or
when a foil's words cannot be placed in the caption. Candidates are deterministic given ``rng``.

A caption holding punctuation (a hyphen, an apostrophe, a comma …) gets no HN-COMP negative
(counted as ``comp_caption_has_punctuation``): its negatives would repeat the mark twice, a
text-only shortcut that the formatting audit (:mod:`crepe_datasets.generators.balance.shortcuts`) flags.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from crepe_datasets.generators.negatives import replace_object
from crepe_datasets.generators.negatives.foils import attribute_foils, object_foils
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.surface import replace_atom
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

CHECK_STAGE = "systematicity_negative_checks"
FOILS_PER_SLOT = 6
PUNCTUATION = re.compile(r"[^\w\s]")


@dataclass(frozen=True)
class TextNegative:
    """A negative of a free-text caption: its text, graph, rule and foils (for HN-ATOM also
    its ``exchange``: atom kind, replaced word, foil)."""

    type: str
    rule: str
    text: str
    graph: SceneGraph
    foils: tuple[str, ...]
    exchange: tuple[str, str, str] | None = None


def union(a: SceneGraph, b: SceneGraph) -> SceneGraph:
    """Both graphs side by side (``b``'s object ids shifted past ``a``'s)."""
    shift = max((o.id for o in a.objects), default=-1) + 1
    objects = list(a.objects) + [
        SGObject(o.id + shift, o.name, o.attributes, o.box, o.synset) for o in b.objects
    ]
    rels = list(a.relationships) + [
        Relationship(r.subject + shift, r.predicate, r.object + shift) for r in b.relationships
    ]
    return SceneGraph(objects, rels, a.image_id, a.width, a.height)


def _slots(sub: SceneGraph) -> tuple[str, list, list] | None:
    """``(rule, slot 1, slot 2)``: each slot lists ``(kind, old, new, graph)`` edits."""
    compounds = sub.compounds()
    if len(compounds) != 1:
        return None
    names = {o.name for o in sub.objects}
    attrs = {a for o in sub.objects for a in o.attributes}
    if sub.relationships:
        rel = sub.relationships[0]
        by_id = sub.object_by_id()
        s_obj, o_obj = by_id[rel.subject], by_id[rel.object]
        if s_obj.name == o_obj.name:
            return None
        first = [
            ("object", o_obj.name, f, replace_object(sub, SGObject(o_obj.id, f, o_obj.attributes)))
            for f in object_foils(o_obj.name, o_obj.synset)
            if f not in names
        ]
        second = [
            ("object", s_obj.name, f, replace_object(sub, SGObject(s_obj.id, f, s_obj.attributes)))
            for f in object_foils(s_obj.name, s_obj.synset)
            if f not in names
        ]
        return "comp:object_relationship_object", first, second
    obj = next(o for o in sub.objects if o.attributes)
    attr = obj.attributes[0]
    first = [
        ("attribute", attr, f, replace_object(sub, SGObject(obj.id, obj.name, (f,))))
        for f in attribute_foils(attr)
        if f not in attrs
    ]
    second = [
        ("object", obj.name, f, replace_object(sub, SGObject(obj.id, f, obj.attributes)))
        for f in object_foils(obj.name, obj.synset)
        if f not in names
    ]
    return "comp:attribute_object", first, second


def _valid(caption: str, slot: list, g: GraphIndex, drops: DropLog | None) -> list:
    out = []
    for kind, old, new, graph in slot:
        text = replace_atom(caption, kind, old, new)
        reason = None
        if text is None:
            reason = "comp_foil_not_placeable"
        elif g.holds(graph):
            reason = "comp_conjunct_true_in_image_graph"
        if reason is None:
            out.append((new, text, graph))
            if len(out) >= FOILS_PER_SLOT:
                break
        elif drops is not None:
            drops.drop(CHECK_STAGE, reason, f"{caption} -> {new}")
    return out


def comp_negatives(
    caption: str,
    sub: SceneGraph,
    g: GraphIndex,
    rng: random.Random,
    limit: int,
    drops: DropLog | None = None,
) -> list[TextNegative]:
    """Up to ``limit`` HN-COMP negatives of a one-compound caption (see the module docstring).

    Returns ``[]`` for a graph with more or fewer than one compound.
    """
    slots = _slots(sub)
    if slots is None:
        return []
    if PUNCTUATION.search(caption):
        if drops is not None:
            drops.drop(CHECK_STAGE, "comp_caption_has_punctuation", caption)
        return []
    rule, first, second = slots
    one, two = _valid(caption, first, g, drops), _valid(caption, second, g, drops)
    pairs = [(a, b) for a in one for b in two if a[0] != b[0]]
    rng.shuffle(pairs)
    out, texts = [], set()
    for (f1, t1, g1), (f2, t2, g2) in pairs:
        text = f"{t1} and {t2}"
        if text in texts:
            continue
        texts.add(text)
        out.append(TextNegative("comp", rule, text, union(g1, g2), (f1, f2)))
        if len(out) >= limit:
            break
    return out

"""HN-ATOM (SPEC §3.4, as in systematicity §2.5): replace one atom with an incorrect one.

Procedure (deterministic given ``rng``):

1. The atom occurrences of the subgraph (objects, attributes, relationships) are shuffled.
2. Each atom in turn offers its foils (:mod:`crepe_datasets.generators.negatives.foils`): antonyms in their
   order, then a shuffled copy of the top co-hyponyms; with a plausibility ranker, all of them
   reordered closest in plausibility (in context) to the original first. The first *valid* foil of each atom
   becomes a candidate; when every atom has been visited and fewer than ``limit`` candidates
   exist, further passes take each atom's next valid foil (so negatives spread over atoms).
3. A foil is invalid when the full image graph ``G`` could make it true:

   * the modified subgraph holds in ``G`` (:meth:`GraphIndex.holds`);
   * attribute foil: the same object already has it in ``G``, or in the subgraph;
   * object foil: ``G`` has an object with the foil's name whose box overlaps the replaced
     object's box with IoU ≥ 0.5 (the same thing annotated under another name);
   * relationship foil: ``G`` has the foil between the same subject and object.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from crepe_datasets.generators.negatives import (
    NegativeCandidate,
    replace_object,
    replace_relationship,
)
from crepe_datasets.generators.negatives.foils import (
    attribute_antonyms,
    attribute_foils,
    object_foils,
    relation_foils,
)
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.plausible import (
    attribute_context,
    closest_first,
    object_context_maker,
    relation_context,
)
from crepe_datasets.scenegraph.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

SAME_THING_IOU = 0.5
CHECK_STAGE = "productivity_negative_checks"
TRUE_IN_G = "atom_true_in_image_graph"


def _ordered(foils: tuple[str, ...], n_first: int, rng: random.Random) -> list[str]:
    head, tail = list(foils[:n_first]), list(foils[n_first:])
    rng.shuffle(tail)
    return head + tail


def _by_plausibility(
    foils: list[str], original: str, make: Callable[[str], str], ranker: Any
) -> list[str]:
    if ranker is None or len(foils) < 2:
        return foils
    order = closest_first(make(original), [make(f) for f in foils], ranker)
    return [foils[i] for i in order]


def _object_candidates(
    sub: SceneGraph, g: GraphIndex, obj: SGObject, rng: random.Random, ranker: Any = None
) -> Iterator[NegativeCandidate | str]:
    foils = _ordered(object_foils(obj.name, obj.synset), 0, rng)
    context = object_context_maker(sub, obj) if ranker is not None and len(foils) > 1 else str
    for foil in _by_plausibility(foils, obj.name, context, ranker):
        new = SGObject(obj.id, foil, obj.attributes, obj.box, None)
        if obj.box is not None and any(
            g.by_id[other].box is not None and g.by_id[other].box.iou(obj.box) >= SAME_THING_IOU
            for other in g.by_name.get(foil, ())
        ):
            yield "atom_object_foil_annotated_on_same_box"
            continue
        graph = replace_object(sub, new)
        yield TRUE_IN_G if g.holds(graph) else NegativeCandidate("atom", "atom:object", graph)


def _attribute_candidates(
    sub: SceneGraph,
    g: GraphIndex,
    obj: SGObject,
    index: int,
    rng: random.Random,
    ranker: Any = None,
) -> Iterator[NegativeCandidate | str]:
    original = obj.attributes[index]
    foils = attribute_foils(original)
    n_antonyms = sum(1 for f in foils if f in attribute_antonyms(original))

    def context(attribute: str) -> str:
        attrs = (*obj.attributes[:index], attribute, *obj.attributes[index + 1 :])
        return attribute_context(SGObject(obj.id, obj.name, attrs))

    ordered = _by_plausibility(_ordered(foils, n_antonyms, rng), original, context, ranker)
    for foil in ordered:
        if foil in obj.attributes or g.has_attribute(obj.id, foil):
            yield "atom_attribute_foil_already_holds"
            continue
        attrs = list(obj.attributes)
        attrs[index] = foil
        graph = replace_object(sub, SGObject(obj.id, obj.name, tuple(attrs), obj.box, obj.synset))
        if g.holds(graph):
            yield TRUE_IN_G
            continue
        rule = (
            "atom:attribute_antonym"
            if foil in attribute_antonyms(original)
            else "atom:attribute_cohyponym"
        )
        yield NegativeCandidate("atom", rule, graph)


def _relation_candidates(
    sub: SceneGraph, g: GraphIndex, index: int, rng: random.Random, ranker: Any = None
) -> Iterator[NegativeCandidate | str]:
    rel = sub.relationships[index]

    def context(predicate: str) -> str:
        return relation_context(sub, rel.subject, predicate, rel.object)

    for foil in _by_plausibility(
        list(relation_foils(rel.predicate)), rel.predicate, context, ranker
    ):
        if foil in g.pair_predicates.get((rel.subject, rel.object), ()):
            yield "atom_relationship_foil_already_holds"
            continue
        graph = replace_relationship(sub, index, Relationship(rel.subject, foil, rel.object))
        yield TRUE_IN_G if g.holds(graph) else NegativeCandidate("atom", "atom:relationship", graph)


def atom_negatives(
    sub: SceneGraph,
    g: GraphIndex,
    rng: random.Random,
    limit: int,
    drops: DropLog | None = None,
    ranker: Any = None,
) -> list[NegativeCandidate]:
    """Up to ``limit`` HN-ATOM candidates with distinct graphs (see the module docstring).

    With a ``ranker`` (``rank(sentences) -> scores``), each atom's foils are tried closest in
    plausibility to the original first (:mod:`crepe_datasets.generators.negatives.plausible`).
    Rejected foils are counted in ``drops`` (stage ``productivity_negative_checks``).
    """
    streams: list[Iterator[NegativeCandidate | str]] = []
    slots: list[tuple] = [("object", o) for o in sub.objects]
    slots += [("attribute", o, i) for o in sub.objects for i in range(len(o.attributes))]
    slots += [("relationship", i) for i in range(len(sub.relationships))]
    rng.shuffle(slots)
    for slot in slots:
        if slot[0] == "object":
            streams.append(_object_candidates(sub, g, slot[1], rng, ranker))
        elif slot[0] == "attribute":
            streams.append(_attribute_candidates(sub, g, slot[1], slot[2], rng, ranker))
        else:
            streams.append(_relation_candidates(sub, g, slot[1], rng, ranker))
    out: list[NegativeCandidate] = []
    seen = {sub.signature()}
    while streams and len(out) < limit:
        alive = []
        for stream in streams:
            if len(out) >= limit:
                break
            for cand in stream:
                if isinstance(cand, str):
                    if drops is not None:
                        drops.drop(CHECK_STAGE, cand)
                    continue
                key = cand.graph.signature()
                if key in seen and drops is not None:
                    drops.drop(CHECK_STAGE, "atom_duplicate_graph")
                if key not in seen:
                    seen.add(key)
                    out.append(cand)
                    alive.append(stream)
                    break
        streams = alive
    return out

"""HN-NEG (SPEC §3.4): negate the whole caption, or one atom, checked against ``G``.

* ``negate:caption`` — "there is no …" + the positive caption. The subgraph is in the image, so
  this is always false; it is offered first, once per positive.
* ``negate:attribute`` — attribute ``a`` of object ``o`` becomes "not a" ("vase that is not
  yellow"). Invalid when ``G`` has another object with ``o``'s name that has ``o``'s other
  attributes (those of the subgraph) but not ``a``: that object makes the negative true.
* ``negate:relationship`` — predicate ``p`` of ``s → o`` becomes "not p" ("boy not on grass").
  Invalid when ``G`` has another relationship from the same subject to the same object.
* ``negate:object`` — object ``o`` becomes "not NAME" ("thing that is not a boy"). Invalid when
  ``G`` has another object, with a different name, that has ``o``'s attributes and the same
  relationships (same predicate, to or from an object with the same name as ``o``'s partner).

The negated atom is carried in the graph with the prefix "not " (see
:mod:`crepe_datasets.generators.captions`), so the atom count stays ``n``. Atom negations are shuffled with
``rng``; the caption negation comes first.
"""

from __future__ import annotations

import random

from crepe_datasets.generators.captions import NEGATION_PREFIX
from crepe_datasets.generators.negatives import (
    NegativeCandidate,
    replace_object,
    replace_relationship,
)
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.scenegraph.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def attribute_negation_valid(sub: SceneGraph, g: GraphIndex, obj: SGObject, attribute: str) -> bool:
    """False when another object of ``G`` with the same name and other attributes lacks it."""
    others = set(obj.attributes) - {attribute}
    for gid in g.by_name.get(obj.name, ()):
        if gid != obj.id and others <= g.attrs[gid] and attribute not in g.attrs[gid]:
            return False
    return True


def relationship_negation_valid(g: GraphIndex, rel: Relationship) -> bool:
    """False when ``G`` links the same subject to the same object by another predicate."""
    return not (g.pair_predicates.get((rel.subject, rel.object), set()) - {rel.predicate})


def object_negation_valid(sub: SceneGraph, g: GraphIndex, obj: SGObject) -> bool:
    """False when another object of ``G`` (other name) has the same attributes and relations."""
    names = {o.id: o.name for o in sub.objects}
    outgoing = frozenset(
        (r.predicate, names[r.object]) for r in sub.relationships if r.subject == obj.id
    )
    incoming = frozenset(
        (names[r.subject], r.predicate) for r in sub.relationships if r.object == obj.id
    )
    need = frozenset(obj.attributes)
    key = ("object_negation", obj.id, obj.name, need, outgoing, incoming)
    valid = g.memo.get(key)
    if valid is None:  # the same object with the same edges recurs across an image's walks
        valid = g.memo[key] = _no_other_object_matches(g, obj, need, outgoing, incoming)
    return valid


def _no_other_object_matches(
    g: GraphIndex,
    obj: SGObject,
    need: frozenset[str],
    outgoing: frozenset[tuple[str, str]],
    incoming: frozenset[tuple[str, str]],
) -> bool:
    for gid, other in g.by_id.items():
        if gid == obj.id or other.name == obj.name or not need <= g.attrs[gid]:
            continue
        if outgoing and not outgoing <= g.named_edges(gid)[0]:
            continue
        if incoming and not incoming <= g.named_edges(gid)[1]:
            continue
        return False
    return True


def negate_negatives(
    sub: SceneGraph, g: GraphIndex, rng: random.Random, limit: int, drops: DropLog | None = None
) -> list[NegativeCandidate]:
    """Up to ``limit`` HN-NEG candidates: the caption negation, then shuffled atom negations.

    Invalid atom negations are counted in ``drops`` (stage ``productivity_negative_checks``).
    """

    def count(reason: str) -> None:
        if drops is not None:
            drops.drop("productivity_negative_checks", reason)

    if limit <= 0:
        return []
    out = [NegativeCandidate("negate", "negate:caption", sub, caption_level=True)]
    atoms: list[NegativeCandidate] = []
    for obj in sub.objects:
        if not object_negation_valid(sub, g, obj):
            count("negate_object_other_object_matches")
        else:
            neg = SGObject(obj.id, NEGATION_PREFIX + obj.name, obj.attributes, obj.box, obj.synset)
            atoms.append(NegativeCandidate("negate", "negate:object", replace_object(sub, neg)))
        for i, attribute in enumerate(obj.attributes):
            if not attribute_negation_valid(sub, g, obj, attribute):
                count("negate_attribute_same_name_object_lacks_it")
            else:
                attrs = list(obj.attributes)
                attrs[i] = NEGATION_PREFIX + attribute
                neg = SGObject(obj.id, obj.name, tuple(attrs), obj.box, obj.synset)
                atoms.append(
                    NegativeCandidate("negate", "negate:attribute", replace_object(sub, neg))
                )
    for i, rel in enumerate(sub.relationships):
        if not relationship_negation_valid(g, rel):
            count("negate_relationship_pair_has_other_predicate")
        else:
            neg_rel = Relationship(rel.subject, NEGATION_PREFIX + rel.predicate, rel.object)
            atoms.append(
                NegativeCandidate(
                    "negate", "negate:relationship", replace_relationship(sub, i, neg_rel)
                )
            )
    rng.shuffle(atoms)
    return (out + atoms)[:limit]

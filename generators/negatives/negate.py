"""HN-NEG (SPEC §3.4): negate the whole caption, or one atom, checked against ``G``.

* ``negate:caption`` — "there is no …" + the positive caption. The subgraph is in the image, so
  this is always false; it is offered first, once per positive.
* ``negate:attribute`` — attribute ``a`` of object ``o`` becomes "not a" ("vase that is not
  yellow"). Invalid when ``G`` has another object with ``o``'s name that has ``o``'s other
  attributes (those of the subgraph) but not ``a``: that object makes the negative true.
* ``negate:relationship`` — predicate ``p`` of ``s → o`` becomes "not p" ("boy not on grass").
  Invalid when ``G`` has another relationship from the same subject to the same object, or
  when the rest of the subgraph is found in ``G`` on other objects between which ``p`` is not
  annotated (with two boys on grass, "boy not on grass" may be about the other one):
  :meth:`GraphIndex.holds` with the negated triple ``absent``.
* ``negate:object`` — object ``o`` becomes "not NAME" ("thing that is not a boy"). The text
  is true when *any* other thing of the image fits what the caption says of it, and Visual
  Genome leaves most facts unannotated, so the check is loose on purpose
  (:func:`could_be_other_thing`): invalid when ``G`` has another object that is not (maybe) an
  ``o`` itself (not the same name, a synonym or a hyponym of it), of a kind a reader would take
  for it (the lexicographer file of its synset or first sense: a man for a woman), whose
  attributes include ``o``'s attributes or are not annotated at all, and that is linked, by any
  predicate in either direction, to an object with the name of each of ``o``'s partners ("a
  name tag on thing that is not a woman" is true when a man *wears* a name tag). An object
  whose name another object of the subgraph shares is not negated
  (``negate_object_repeated_name``): the negative would lose the positive's "another … the
  other" (:func:`crepe_datasets.generators.negatives.foils.keeps_references`), and "thing that
  is not a pillow" beside four more pillows is true of most things on the seat.

The negated atom is carried in the graph with the prefix "not " (see
:mod:`crepe_datasets.generators.captions`), so the atom count stays ``n``. Atom negations are shuffled with
``rng``; the caption negation comes first.
"""

from __future__ import annotations

import functools
import random

from crepe_datasets.generators.captions import NEGATION_PREFIX
from crepe_datasets.generators.negatives import (
    NegativeCandidate,
    replace_object,
    replace_relationship,
)
from crepe_datasets.generators.negatives.foils import keeps_references
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.scenegraph.provenance import DropLog
from crepe_datasets.scenegraph.resources import synset_or_none, wordnet
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def attribute_negation_valid(sub: SceneGraph, g: GraphIndex, obj: SGObject, attribute: str) -> bool:
    """False when another object of ``G`` with the same name and other attributes lacks it."""
    others = set(obj.attributes) - {attribute}
    for gid in g.by_name.get(obj.name, ()):
        if gid != obj.id and others <= g.attrs[gid] and attribute not in g.attrs[gid]:
            return False
    return True


def relationship_negation_valid(
    g: GraphIndex, rel: Relationship, sub: SceneGraph | None = None
) -> bool:
    """False when ``G`` links the same subject to the same object by another predicate, or
    (given the subgraph ``sub``) when the subgraph without ``rel`` is found in ``G`` on objects
    between which ``rel``'s predicate is not annotated."""
    if g.pair_predicates.get((rel.subject, rel.object), set()) - {rel.predicate}:
        return False
    if sub is None:
        return True
    rest = [r for r in sub.relationships if r != rel]
    without = SceneGraph(list(sub.objects), rest, sub.image_id, sub.width, sub.height)
    return not g.holds(without, absent=((rel.subject, rel.predicate, rel.object),))


def object_negation_valid(sub: SceneGraph, g: GraphIndex, obj: SGObject) -> bool:
    """False when another object of ``G`` could be the "thing that is not NAME"
    (:func:`could_be_other_thing`)."""
    names = {o.id: o.name for o in sub.objects}
    partners = frozenset(
        names[r.object if r.subject == obj.id else r.subject]
        for r in sub.relationships
        if obj.id in (r.subject, r.object)
    )
    need = frozenset(obj.attributes)
    key = ("object_negation", obj.id, obj.name, need, partners)
    valid = g.memo.get(key)
    if valid is None:  # the same object with the same edges recurs across an image's walks
        valid = g.memo[key] = not any(
            could_be_other_thing(g, obj, gid, need, partners) for gid in g.by_id
        )
    return valid


@functools.lru_cache(maxsize=100_000)
def _senses(name: str) -> frozenset:
    return frozenset(wordnet().synsets(name.replace(" ", "_"), pos="n"))


@functools.lru_cache(maxsize=100_000)
def _senses_and_ancestors(name: str) -> frozenset:
    out = set(_senses(name))
    for sense in _senses(name):
        out.update(sense.closure(lambda z: z.hypernyms()))
    return frozenset(out)


def is_kind_of(name: str, other: str) -> bool:
    """Whether a thing called ``other`` may be a ``name`` itself: the same name, a WordNet
    synonym, or a hyponym of one of ``name``'s noun senses ("man" for "person")."""
    return other == name or bool(_senses(name) & _senses_and_ancestors(other))


def _linked_names(g: GraphIndex, gid: int) -> frozenset[str]:
    """Names of the objects ``gid`` is linked to in ``G``, by any predicate, either way."""
    key = ("linked_names", gid)
    found = g.memo.get(key)
    if found is None:
        out, inc = g.named_edges(gid)
        found = g.memo[key] = frozenset(n for _, n in out) | frozenset(n for n, _ in inc)
    return found


@functools.lru_cache(maxsize=100_000)
def kind(name: str, synset: str | None = None) -> frozenset[str]:
    """The lexicographer files of an object's sense: its Visual Genome synset's and its name's
    first noun sense's (VG annotates some men as ``male.n.01``, an animal; "man": noun.person,
    "face": noun.body); empty when WordNet knows neither."""
    found = wordnet().synsets(name.replace(" ", "_"), pos="n")[:1]
    sense = synset_or_none(synset) if synset else None
    return frozenset(s.lexname() for s in [*found, sense] if s is not None)


def could_be_other_thing(
    g: GraphIndex, obj: SGObject, gid: int, need: frozenset[str], partners: frozenset[str]
) -> bool:
    """Whether object ``gid`` of ``G`` could make "thing that is not ``obj.name``" true: it is
    not ``obj``, not (maybe) a thing of ``obj``'s name (:func:`is_kind_of`), of the kind a reader
    would take for it (the same lexicographer file, :func:`kind`, or one unknown to WordNet: a
    man for a woman, not a face), its attributes include ``need`` or none are annotated, and it
    is linked to an object of each partner name."""
    other = g.by_id[gid].name
    if gid == obj.id or (g.attrs[gid] and not need <= g.attrs[gid]):
        return False
    if not partners <= _linked_names(g, gid):
        return False
    mine, theirs = kind(obj.name, obj.synset), kind(other, g.by_id[gid].synset)
    if mine and theirs and not mine & theirs:
        return False
    return not is_kind_of(obj.name, other)


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
    names = [o.name for o in sub.objects]
    for k, obj in enumerate(sub.objects):
        if not keeps_references(names, k, NEGATION_PREFIX + obj.name):
            count("negate_object_repeated_name")
        elif not object_negation_valid(sub, g, obj):
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
        elif not relationship_negation_valid(g, rel, sub):
            count("negate_relationship_true_of_other_objects")
        else:
            neg_rel = Relationship(rel.subject, NEGATION_PREFIX + rel.predicate, rel.object)
            atoms.append(
                NegativeCandidate(
                    "negate", "negate:relationship", replace_relationship(sub, i, neg_rel)
                )
            )
    rng.shuffle(atoms)
    return (out + atoms)[:limit]

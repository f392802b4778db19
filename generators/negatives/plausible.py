"""Plausible foils (issue 13, part 3): order an atom's candidate foils by how close their
plausibility in context is to the original's, so that a foil is as ordinary as the word it
replaces ("black car" → "black truck" before "black burr").

The context of an atom is a short phrase written from the subgraph around it (names only):

* object: its attributes and name, then each relationship touching it ("red lamp, lamp on
  dresser");
* attribute: the object's attributes and name ("red and metal table");
* relationship: "subject predicate object" ("man holds cup").

Any ranker with ``rank(sentences) -> list[float]`` (higher = more plausible) can be used: the
word-frequency + n-gram ranker (:class:`crepe_datasets.generators.balance.frequency_lm.FrequencyLMRanker`,
no download) or the masked-LM ranker when a model is given. Ties keep the candidates' order.
Foils more and less plausible than the original alternate (:func:`closest_first`), so the
sentence-level refinement (:mod:`crepe_datasets.generators.balance.refine`) finds both kinds
among the candidates.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from crepe_datasets.scenegraph.types import SceneGraph, SGObject


class Ranker(Protocol):
    def rank(self, sentences: Sequence[str]) -> list[float]: ...


def plain_noun_phrase(name: str, attributes: Sequence[str]) -> str:
    """The attributes joined by "and", then the name, as a context is written (not as a
    caption: :func:`~crepe_datasets.generators.captions.template.noun_phrase`): "red and metal
    table"."""
    attrs = " and ".join(attributes)
    return f"{attrs} {name}" if attrs else name


def object_context(sub: SceneGraph, obj: SGObject) -> str:
    """The object's noun phrase and the relationships touching it."""
    return object_context_maker(sub, obj)(obj.name)


def object_context_maker(sub: SceneGraph, obj: SGObject) -> Callable[[str], str]:
    """``name -> object_context(sub, obj renamed to name)``, with the relationships touching
    the object found once (an object's foils are all written in the same context)."""
    names = {o.id: o.name for o in sub.objects}
    touching = [
        (r.subject, r.predicate, r.object)
        for r in sub.relationships
        if obj.id in (r.subject, r.object) and r.subject in names and r.object in names
    ]
    attrs = " and ".join(obj.attributes)
    me = obj.id

    def context(name: str) -> str:
        head = f"{attrs} {name}" if attrs else name
        clauses = [
            f"{name if s == me else names[s]} {p} {name if o == me else names[o]}"
            for s, p, o in touching
        ]
        return ", ".join([head, *clauses])

    return context


def attribute_context(obj: SGObject) -> str:
    """The object's noun phrase with all its attributes."""
    return plain_noun_phrase(obj.name, obj.attributes)


def relation_context(sub: SceneGraph, subject: int, predicate: str, obj: int) -> str:
    """ "subject predicate object" by name."""
    by_id = sub.object_by_id()
    return f"{by_id[subject].name} {predicate} {by_id[obj].name}"


def closest_first(original: str, variants: Sequence[str], ranker: Any) -> list[int]:
    """Indices of ``variants`` by |score(variant) - score(original)|, closest first, alternating
    between variants at least as plausible as the original and less plausible ones (starting with
    the former), so that the first few foils are as often more ordinary than the original as
    less ordinary."""
    if not variants:
        return []
    scores = ranker.rank([original, *variants])
    base = scores[0]
    by_distance = sorted(range(len(variants)), key=lambda i: (abs(scores[i + 1] - base), i))
    above = [i for i in by_distance if scores[i + 1] >= base]
    below = [i for i in by_distance if scores[i + 1] < base]
    out: list[int] = []
    for pair in itertools.zip_longest(above, below):
        out += [i for i in pair if i is not None]
    return out

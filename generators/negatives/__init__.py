"""Hard negatives of CREPE productivity (SPEC §3.4): HN-ATOM, HN-SWAP and HN-NEG.

Every generator works on graphs, not on text: it returns :class:`NegativeCandidate` records
holding the *modified subgraph*, which the builder renders with the same caption writer as the
positive (so negatives and positives share one format). Each generator is deterministic given
its ``random.Random`` and checks each candidate against the full image graph ``G``
(:class:`crepe_datasets.generators.negatives.graphs.GraphIndex`).

Negative graphs are stored in datasets in a compact JSON form (:func:`compact_json`) so that
validators can re-check the graph-level invariants (same atoms for a swap, exactly one changed
atom for HN-ATOM, one negated atom for HN-NEG).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from json.encoder import encode_basestring as _encode_string
from typing import TYPE_CHECKING

from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

if TYPE_CHECKING:
    from crepe_datasets.infra.provenance import DropLog

NEGATIVE_TYPES: tuple[str, ...] = ("atom", "swap", "negate")
CHECK_STAGE = "productivity_negative_checks"


@dataclass(frozen=True)
class NegativeCandidate:
    """One hard negative before rendering.

    Attributes:
        type: ``atom``, ``swap`` or ``negate``.
        rule: the rule that made it, e.g. ``atom:attribute_antonym``, ``swap:subject_object``,
            ``negate:caption``.
        graph: the modified subgraph (for ``negate:caption``: the positive's own graph).
        caption_level: True when the text is made from the positive's caption
            ("there is no …") instead of being written from ``graph``.
        exchange: for HN-ATOM, ``(atom kind, replaced word, foil)``.
    """

    type: str
    rule: str
    graph: SceneGraph
    caption_level: bool = False
    exchange: tuple[str, str, str] | None = None


def compact_json(graph: SceneGraph) -> str:
    """Objects ``[id, name, [attributes]]`` and relations ``[subject, predicate, object]`` only.

    The text is ``json.dumps`` of that data with ``separators=(",", ":")`` and
    ``ensure_ascii=False``, written directly (strings through the ``json`` module's own
    encoder): a build writes tens of thousands of these.
    """
    if not all(type(o.id) is int for o in graph.objects) or not all(
        type(r.subject) is int and type(r.object) is int for r in graph.relationships
    ):
        return json.dumps(_compact_data(graph), separators=(",", ":"), ensure_ascii=False)
    enc = _encode_string
    objects = ",".join(
        f"[{o.id},{enc(o.name)},[{','.join(map(enc, o.attributes))}]]" for o in graph.objects
    )
    rels = ",".join(f"[{r.subject},{enc(r.predicate)},{r.object}]" for r in graph.relationships)
    return f'{{"o":[{objects}],"r":[{rels}]}}'


def _compact_data(graph: SceneGraph) -> dict[str, list]:
    return {
        "o": [[o.id, o.name, list(o.attributes)] for o in graph.objects],
        "r": [[r.subject, r.predicate, r.object] for r in graph.relationships],
    }


def from_compact(text: str) -> SceneGraph:
    """Inverse of :func:`compact_json` (no boxes)."""
    data = json.loads(text)
    objects = [SGObject(int(i), str(n), tuple(a)) for i, n, a in data.get("o", [])]
    rels = [Relationship(int(s), str(p), int(o)) for s, p, o in data.get("r", [])]
    return SceneGraph(objects, rels)


def replace_object(graph: SceneGraph, obj: SGObject) -> SceneGraph:
    """A copy of ``graph`` with the object of the same id replaced by ``obj``."""
    objects = [obj if o.id == obj.id else o for o in graph.objects]
    return SceneGraph(objects, list(graph.relationships), graph.image_id, graph.width, graph.height)


def replace_relationship(graph: SceneGraph, index: int, rel: Relationship) -> SceneGraph:
    """A copy of ``graph`` with relationship number ``index`` replaced by ``rel``."""
    rels = list(graph.relationships)
    rels[index] = rel
    return SceneGraph(list(graph.objects), rels, graph.image_id, graph.width, graph.height)


def out_of_reach(drops: DropLog | None, kind: str, n: int) -> list[NegativeCandidate]:
    """No candidates: the ``n`` an item has found or has left to check cannot make the number
    a set takes, so they could enter no set; they are given up before rendering (and those
    not checked yet, unchecked), counted as ``<kind>_set_out_of_reach`` (stage
    :data:`CHECK_STAGE`)."""
    if drops is not None and n:
        drops.drop(CHECK_STAGE, f"{kind}_set_out_of_reach", n=n)
    return []

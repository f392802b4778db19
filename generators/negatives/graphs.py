"""Checking candidate negatives against the full image graph ``G`` (SPEC §3.4).

A negative must be false for the image. The general test is :meth:`GraphIndex.holds`: the
modified subgraph ``H'`` is *made true by G* when ``G`` contains it, i.e. there is an injective
map from the objects of ``H'`` to objects of ``G`` with the same name, whose attributes include
the object's attributes, and that carries every relationship of ``H'`` onto a relationship of
``G`` with the same predicate. Rule-specific checks (e.g. "neither attribute already holds for
the other object") are added by each generator.

The search is a small backtracking match (subgraphs have at most 12 atoms). When it would
take more than ``max_steps`` steps the answer is "holds" — the conservative choice, which drops
the candidate rather than risk keeping a true "negative".
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from crepe_datasets.generators.negatives.kinds import (
    attribute_says,
    is_kind_of,
    predicate_says,
    predicate_variants,
    reverse_variants,
    same_kind,
)
from crepe_datasets.scenegraph.types import Box, SceneGraph, SGObject

#: A relation of an object to a neighbour: ``(predicate, neighbour name, neighbour synset)``.
Edge = tuple[str, str, "str | None"]

MAX_STEPS = 50_000
# A thing a region shows: at least this share of its box inside (:meth:`GraphIndex.kin_things`)
VISIBLE_SHARE = 0.5
# Two boxes overlapping this much are one thing annotated twice (:meth:`GraphIndex.kin_things`;
# HN-SWAP's two names of one thing; HN-COMP-MATCHED's own boxes)
SAME_THING_IOU = 0.5


class GraphIndex:
    """Look-ups over the full image graph ``G`` (names, attributes, relations by pair)."""

    def __init__(self, graph: SceneGraph) -> None:
        self.graph = graph
        self.memo: dict[tuple, Any] = {}  # checks that depend only on G and their key
        self.by_id: dict[int, SGObject] = graph.object_by_id()
        self.attrs: dict[int, frozenset[str]] = {
            o.id: frozenset(o.attributes) for o in graph.objects
        }
        self.by_name: dict[str, list[int]] = defaultdict(list)
        for o in graph.objects:
            self.by_name[o.name].append(o.id)
        self.triples: set[tuple[int, str, int]] = set()
        self.pair_predicates: dict[tuple[int, int], set[str]] = defaultdict(set)
        self.out_edges: dict[int, list[tuple[str, int]]] = defaultdict(list)
        self.in_edges: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for r in graph.relationships:
            if r.subject in self.by_id and r.object in self.by_id:
                self.triples.add((r.subject, r.predicate, r.object))
                self.pair_predicates[(r.subject, r.object)].add(r.predicate)
                self.out_edges[r.subject].append((r.predicate, r.object))
                self.in_edges[r.object].append((r.subject, r.predicate))

    def name(self, oid: int) -> str:
        return self.by_id[oid].name

    def named_edges(self, oid: int) -> tuple[frozenset, frozenset]:
        """``{(predicate, object name)}`` of the object's outgoing relationships and
        ``{(subject name, predicate)}`` of its incoming ones (computed once per object)."""
        key = ("named_edges", oid)
        edges = self.memo.get(key)
        if edges is None:
            out = frozenset((p, self.name(t)) for p, t in self.out_edges.get(oid, ()))
            inc = frozenset((self.name(s), p) for s, p in self.in_edges.get(oid, ()))
            edges = self.memo[key] = (out, inc)
        return edges

    def has_attribute(self, oid: int, attribute: str) -> bool:
        return attribute in self.attrs.get(oid, frozenset())

    def kin(self, name: str, synset: str | None = None) -> tuple[int, ...]:
        """Ids of the objects of ``G`` of the same kind as a thing called ``name``
        (:func:`~crepe_datasets.generators.negatives.kinds.same_kind`: its name, a synonym, the
        same head word or the same Visual Genome synset) or of a kind of it
        (:func:`~crepe_datasets.generators.negatives.kinds.is_kind_of`), computed once per name."""
        key = ("kin", name, synset)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = tuple(
                o.id
                for o in self.graph.objects
                if same_kind(name, o.name, synset, o.synset) or is_kind_of(o.name, name)
            )
        return found

    def kind_has_attribute(self, name: str, synset: str | None, attribute: str) -> bool:
        """Whether an object of ``G`` of the kind of ``name`` has an attribute that says
        ``attribute`` (:func:`~crepe_datasets.generators.negatives.kinds.attribute_says`):
        "a black pole" is true when any pole of the image is black."""
        return any(
            attribute_says(a, attribute) for i in self.kin(name, synset) for a in self.attrs[i]
        )

    def kin_things(
        self, name: str, synset: str | None, region: Box | None = None
    ) -> list[tuple[frozenset[int], bool]]:
        """The things of ``G`` of the kind of ``name`` (:meth:`kin`) that ``region`` shows (at
        least :data:`VISIBLE_SHARE` of the box inside; all of them without a region or a box),
        each as the ids of its boxes (boxes of one kind with IoU ≥ :data:`SAME_THING_IOU` are
        one thing annotated twice) and whether any of them has a colour attribute."""
        key = ("kin_things", name, synset, region)
        found = self.memo.get(key)
        if found is not None:
            return found
        from crepe_datasets.generators.negatives.foils import colour_sense

        def shown(o: SGObject) -> bool:
            box = o.box
            if region is None or box is None or box.area <= 0:
                return True
            return box.intersection_area(region) >= VISIBLE_SHARE * box.area

        things: list[list[SGObject]] = []
        for o in (self.by_id[i] for i in self.kin(name, synset)):
            if not shown(o):
                continue
            same = next(
                (
                    members
                    for members in things
                    if o.box is not None
                    and any(
                        m.box is not None and m.box.iou(o.box) >= SAME_THING_IOU for m in members
                    )
                ),
                None,
            )
            if same is None:
                things.append([o])
            else:
                same.append(o)

        def coloured(members: list[SGObject]) -> bool:
            return any(
                colour_sense(w) for m in members for a in self.attrs[m.id] for w in a.split()
            )

        found = self.memo[key] = [(frozenset(m.id for m in ms), coloured(ms)) for ms in things]
        return found

    def _linked(self, oid: int, edge: Edge, outgoing: bool) -> bool:
        """Whether ``oid`` has the relation ``edge`` (``oid`` its subject when ``outgoing``) to
        an object of the neighbour's kind, by a predicate of the same meaning or, the other way
        round, by a converse one."""
        predicate, name, synset = edge
        others = set(self.kin(name, synset))
        forward, backward = predicate_variants(predicate), reverse_variants(predicate)
        out = self.out_edges.get(oid, ())
        inc = self.in_edges.get(oid, ())
        if not outgoing:
            forward, backward = backward, forward
        return any(t in others and predicate_says(p, forward) for p, t in out) or any(
            s in others and predicate_says(p, backward) for s, p in inc
        )

    def linked(self, oid: int, edge: Edge) -> bool:
        """Whether ``G`` links object ``oid`` to an object of the edge's kind by its predicate,
        one of the same meaning, or (from that object) the converse."""
        return self._linked(oid, edge, True)

    def kind_linked(self, subject: SGObject, predicate: str, obj: SGObject) -> bool:
        """Whether ``G`` links an object of the kind of ``subject`` to one of the kind of ``obj``
        by ``predicate`` or a predicate of the same meaning (or the converse, the other way)."""
        edge = (predicate, obj.name, obj.synset)
        return any(self._linked(i, edge, True) for i in self.kin(subject.name, subject.synset))

    def kind_stands(
        self,
        name: str,
        attributes: tuple[str, ...],
        outgoing: list[Edge],
        incoming: list[Edge],
    ) -> bool:
        """Whether ``G`` has an object of the kind of ``name`` with every attribute of
        ``attributes`` and every relation of ``outgoing`` (it the subject) and ``incoming`` (it
        the object) to objects of the neighbours' kinds: what a caption says of one object,
        checked on any object of the image that it could be said of."""
        for i in self.kin(name):
            if not all(any(attribute_says(a, need) for a in self.attrs[i]) for need in attributes):
                continue
            if all(self._linked(i, e, True) for e in outgoing) and all(
                self._linked(i, e, False) for e in incoming
            ):
                return True
        return False

    def holds(
        self,
        sub: SceneGraph,
        max_steps: int = MAX_STEPS,
        absent: tuple[tuple[int, str, int], ...] = (),
    ) -> bool:
        """True when ``G`` contains ``sub`` (see the module docstring).

        ``absent``: triples ``(subject, predicate, object)`` over ``sub``'s objects that the
        map must *not* carry onto a relationship of ``G`` (a map that finds ``sub`` in ``G``
        where such a triple is not annotated makes its negation true).
        """
        candidates: dict[int, list[int]] = {}
        for o in sub.objects:
            need = set(o.attributes)
            found = [g for g in self.by_name.get(o.name, ()) if need <= self.attrs[g]]
            if not found:
                return False
            candidates[o.id] = found
        rels = [(r.subject, r.predicate, r.object) for r in sub.relationships]
        if not self._arc_consistent(candidates, rels):
            return False
        order = sorted(candidates, key=lambda i: len(candidates[i]))
        by_hid: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
        for rel in rels:
            by_hid[rel[0]].append(rel)
            by_hid[rel[2]].append(rel)
        assign: dict[int, int] = {}
        used: set[int] = set()
        steps = 0

        def consistent(hid: int) -> bool:
            for s, p, o in by_hid[hid]:
                if s in assign and o in assign and (assign[s], p, assign[o]) not in self.triples:
                    return False
            return True

        if absent:
            avoid: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
            for rel in absent:
                avoid[rel[0]].append(rel)
                avoid[rel[2]].append(rel)
            present = consistent

            def consistent(hid: int) -> bool:  # the check with absent triples
                if not present(hid):
                    return False
                for s, p, o in avoid.get(hid, ()):
                    if s in assign and o in assign and (assign[s], p, assign[o]) in self.triples:
                        return False
                return True

        def search(k: int) -> bool:
            nonlocal steps
            if k == len(order):
                return True
            hid = order[k]
            for gid in candidates[hid]:
                steps += 1
                if steps > max_steps:
                    raise _TooManySteps
                if gid in used:
                    continue
                assign[hid] = gid
                used.add(gid)
                if consistent(hid) and search(k + 1):
                    return True
                del assign[hid]
                used.discard(gid)
            return False

        try:
            return search(0)
        except _TooManySteps:
            return True
        finally:
            # ``search`` refers to itself: without this, every call left a reference cycle
            # (closures, this index and its image graph) for the cyclic collector to find
            search = present = consistent = None  # type: ignore[assignment]

    def _arc_consistent(
        self, candidates: dict[int, list[int]], rels: list[tuple[int, str, int]]
    ) -> bool:
        """Prune candidates that cannot carry a relationship; False when one runs out."""
        changed = True
        while changed:
            changed = False
            for s, p, o in rels:
                objs = set(candidates[o])
                keep_s = [
                    g
                    for g in candidates[s]
                    if any(q == p and t in objs for q, t in self.out_edges.get(g, ()))
                ]
                subs = set(keep_s)
                keep_o = [
                    g
                    for g in candidates[o]
                    if any(q == p and x in subs for x, q in self.in_edges.get(g, ()))
                ]
                if len(keep_s) != len(candidates[s]) or len(keep_o) != len(candidates[o]):
                    candidates[s], candidates[o] = keep_s, keep_o
                    changed = True
                if not keep_s or not keep_o:
                    return False
        return True


class _TooManySteps(Exception):
    pass

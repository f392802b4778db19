"""The random-walk subgraph sampler of CREPE productivity (SPEC §3.1).

For a Visual Genome scene graph ``G`` and a target complexity ``n ≤ |G|`` (atoms = objects +
attributes + relationships), a walk:

1. starts the subgraph with one object of ``G`` chosen uniformly at random (1 atom);
2. while the subgraph has fewer than ``n`` atoms, adds one *compound* of ``G`` that touches the
   current object and contains at least one new atom: an attribute compound (the attribute is
   new: +1 atom) or a relationship compound (the edge is new: +1, and its other object if new:
   +1). After a relationship compound the walk continues from the relationship's other object;
   after an attribute compound it stays on the same object;
3. when the connected component is exhausted, jumps to a random object of another component;
4. is discarded when it cannot reach ``n`` atoms.

Choices the paper leaves open, written down:

* **Which compound**: uniformly at random among the eligible compounds of the current object,
  listed in a fixed order (the object's attributes in ``G`` order, then its relationships in
  ``G`` order), so a seeded walk is reproducible.
* **No overshoot**: a compound is eligible only if it adds at most ``n - current`` atoms (a
  relationship to a new object adds 2, so at ``n - 1`` atoms only attributes, relationships
  between chosen objects, or a jump can finish the walk). Subgraphs therefore have exactly n atoms.
* **Dead end inside a component**: when the current object has no eligible compound but
  another chosen object of the same component has, the walk continues from one of those,
  chosen uniformly at random ("component exhausted" means no chosen object of the component
  has an eligible compound left).
* **Relationship back to a chosen object**: allowed (it adds only the edge); the walk then
  moves to that object.
* **Jump**: to an object chosen uniformly among the components of ``G`` not yet visited; when
  none is left the walk is discarded (``cannot_reach_n``).
* **Walks per image and n**: ``walks`` independent attempts (default 3), attempt ``k`` seeded
  with the string ``"{seed}:{image_id}:{n}:{k}"``, so results do not depend on the order in
  which images or complexities are processed. Duplicates are removed later by patch overlap.
* **Order in the subgraph**: objects and relationships in the order the walk added them;
  each object's attributes in ``G`` order. Boxes are kept.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

MIN_N, MAX_N = 4, 12
DEFAULT_WALKS = 3


@dataclass(frozen=True)
class WalkResult:
    """A walk's subgraph, or ``None`` with the reason it was discarded."""

    graph: SceneGraph | None
    reason: str | None = None


def walk_rng(seed: int, image_id: str | None, n: int, attempt: int) -> random.Random:
    """The generator of one walk: depends only on (seed, image, n, attempt)."""
    return random.Random(f"{seed}:{image_id}:{n}:{attempt}")


class WalkFacts:
    """What every walk over one image graph looks up: its complexity, objects by id, the
    relationships touching each object, each object's connected component (computed once per
    image)."""

    def __init__(self, g: SceneGraph) -> None:
        self.complexity = g.complexity()
        self.by_id = g.object_by_id()
        self.touching: dict[int, list[int]] = defaultdict(list)
        for i, r in enumerate(g.relationships):
            self.touching[r.subject].append(i)
            if r.object != r.subject:
                self.touching[r.object].append(i)
        self.component = {oid: c for c, ids in enumerate(g.components()) for oid in ids}


class _Walk:
    def __init__(
        self, g: SceneGraph, n: int, rng: random.Random, facts: WalkFacts | None = None
    ) -> None:
        self.g, self.n, self.rng = g, n, rng
        facts = facts or WalkFacts(g)
        self.by_id, self.touching, self.component = facts.by_id, facts.touching, facts.component
        self.objects: list[int] = []
        self.attrs: dict[int, set[str]] = {}
        self.rels: list[int] = []
        self.size = 0

    def eligible(self, oid: int) -> list[tuple[str, object]]:
        room = self.n - self.size
        out: list[tuple[str, object]] = [
            ("attr", a) for a in self.by_id[oid].attributes if a not in self.attrs[oid]
        ]
        for i in self.touching[oid]:
            if i in self.rels:
                continue
            r = self.g.relationships[i]
            other = r.object if r.subject == oid else r.subject
            if 1 + (other not in self.attrs) <= room:
                out.append(("rel", i))
        return out

    def add_object(self, oid: int) -> None:
        self.objects.append(oid)
        self.attrs[oid] = set()
        self.size += 1

    def run(self) -> WalkResult:
        current = self.rng.choice([o.id for o in self.g.objects])
        self.add_object(current)
        while self.size < self.n:
            options = self.eligible(current)
            if not options:
                same = [
                    o
                    for o in self.objects
                    if self.component[o] == self.component[current] and self.eligible(o)
                ]
                if same:
                    current = self.rng.choice(same)
                    continue
                visited = {self.component[o] for o in self.objects}
                fresh = [o.id for o in self.g.objects if self.component[o.id] not in visited]
                if not fresh:
                    return WalkResult(None, "cannot_reach_n")
                current = self.rng.choice(fresh)
                self.add_object(current)
                continue
            kind, value = self.rng.choice(options)
            if kind == "attr":
                self.attrs[current].add(value)  # type: ignore[arg-type]
                self.size += 1
                continue
            rel = self.g.relationships[value]  # type: ignore[index]
            self.rels.append(value)  # type: ignore[arg-type]
            self.size += 1
            other = rel.object if rel.subject == current else rel.subject
            if other not in self.attrs:
                self.add_object(other)
            current = other
        return WalkResult(self.subgraph())

    def subgraph(self) -> SceneGraph:
        objects = []
        for oid in self.objects:
            o = self.by_id[oid]
            attrs = tuple(a for a in o.attributes if a in self.attrs[oid])
            objects.append(SGObject(o.id, o.name, attrs, o.box, o.synset))
        rels = [self.g.relationships[i] for i in self.rels]
        rels = [Relationship(r.subject, r.predicate, r.object, r.synset) for r in rels]
        return SceneGraph(objects, rels, self.g.image_id, self.g.width, self.g.height)


def random_walk(g: SceneGraph, n: int, rng: random.Random) -> WalkResult:
    """One walk of ``n`` atoms over ``g`` (see the module docstring)."""
    if not g.objects:
        return WalkResult(None, "graph_has_no_objects")
    if g.complexity() < n:
        return WalkResult(None, "graph_smaller_than_n")
    return _Walk(g, n, rng).run()


def sample_walks(
    g: SceneGraph,
    n: int,
    seed: int,
    walks: int = DEFAULT_WALKS,
    facts: WalkFacts | None = None,
) -> list[WalkResult]:
    """``walks`` seeded attempts for one image and complexity (one result when ``G`` is too small).

    ``facts``: :func:`walk_facts` of ``g``, when its walks for several ``n`` share them."""
    facts = facts or walk_facts(g)
    if facts.complexity < n:
        return [WalkResult(None, "graph_smaller_than_n")]
    return [_Walk(g, n, walk_rng(seed, g.image_id, n, k), facts).run() for k in range(walks)]


def walk_facts(g: SceneGraph) -> WalkFacts:
    """What the walks over ``g`` look up, for every ``n`` (``g`` must not change meanwhile)."""
    return WalkFacts(g)

"""Typed records of the compositional language (SPEC §1).

* An :class:`Atom` is one scene-graph node: an object, an attribute or a relationship.
* A :class:`Compound` joins atoms: attribute–object or object–relationship–object.
* A :class:`SceneGraph` holds objects (names, attributes, boxes) and relationships.
* A :class:`Binding` is an ordered (attribute, object) pair, as used by BindSplit.

Complexity counts atom *occurrences*, as CREPE does: every object node, every attribute on an
object and every relationship edge is one atom ("tall and blue boy on green grass" has
2 objects + 3 attributes + 1 relationship = 6 atoms).

Serialisation is stable: :meth:`SceneGraph.to_dict` emits keys in a fixed order and
:meth:`SceneGraph.to_json` sorts keys, so identical graphs give identical bytes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

AtomType = Literal["object", "attribute", "relationship"]
CompoundKind = Literal["attribute_object", "object_relationship_object"]

ATOM_TYPES: tuple[AtomType, ...] = ("object", "attribute", "relationship")


def normalize_name(text: str) -> str:
    """Canonical surface form of a name: lower case, trimmed, inner whitespace collapsed.

    Leading and trailing punctuation (quotes, periods, commas) is removed; inner punctuation such
    as the hyphen of "t-shirt" is kept. Lemmatisation is separate (see :mod:`crepe_datasets.scenegraph.lexicon`)
    because attributes must never be lemmatised.
    """
    cleaned = " ".join(str(text).lower().split())
    return cleaned.strip(" \t\"'`.,;:!?()[]{}")


@dataclass(frozen=True, order=True)
class Atom:
    """One node of a scene graph."""

    type: AtomType
    text: str


@dataclass(frozen=True, order=True)
class Compound:
    """Atoms joined into a compound.

    ``parts`` is ``(attribute, object)`` for ``attribute_object`` and
    ``(subject, relationship, object)`` for ``object_relationship_object``.
    """

    kind: CompoundKind
    parts: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(self.parts)


@dataclass(frozen=True, order=True)
class Binding:
    """An ordered (attribute, object) pair, e.g. "the red car" → (red, car)."""

    attribute: str
    object: str


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in pixels: top-left corner ``(x, y)``, width ``w``, height ``h``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def area(self) -> float:
        w, h = self.w, self.h  # max(w, 0.0) * max(h, 0.0), without two calls (a hot path)
        return (w if w > 0.0 else 0.0) * (h if h > 0.0 else 0.0)

    @property
    def aspect(self) -> float:
        """Width over height (``inf`` for a zero-height box)."""
        return self.w / self.h if self.h > 0 else float("inf")

    def union(self, other: Box) -> Box:
        """The smallest box containing both boxes."""
        x0, y0 = min(self.x, other.x), min(self.y, other.y)
        x1 = max(self.x + self.w, other.x + other.w)
        y1 = max(self.y + self.h, other.y + other.h)
        return Box(x0, y0, x1 - x0, y1 - y0)

    def intersection_area(self, other: Box) -> float:
        # the min/max of two numbers written out: the same result without six calls (a hot path)
        a1, b1 = self.x + self.w, other.x + other.w
        ix = (a1 if a1 <= b1 else b1) - (self.x if self.x >= other.x else other.x)
        if ix <= 0.0:
            return 0.0
        a1, b1 = self.y + self.h, other.y + other.h
        iy = (a1 if a1 <= b1 else b1) - (self.y if self.y >= other.y else other.y)
        return ix * iy if iy > 0.0 else 0.0

    def iou(self, other: Box) -> float:
        inter = self.intersection_area(other)
        total = self.area + other.area - inter
        return inter / total if total > 0 else 0.0

    def clip(self, width: float, height: float) -> Box:
        """This box cut to the image ``[0, width] × [0, height]``."""
        x0, y0 = min(max(self.x, 0.0), width), min(max(self.y, 0.0), height)
        x1 = min(max(self.x + self.w, 0.0), width)
        y1 = min(max(self.y + self.h, 0.0), height)
        return Box(x0, y0, x1 - x0, y1 - y0)

    def inside(self, width: float, height: float) -> bool:
        """True when the box has positive size and lies within the image."""
        return (
            self.w > 0
            and self.h > 0
            and self.x >= 0
            and self.y >= 0
            and self.x + self.w <= width
            and self.y + self.h <= height
        )

    def to_list(self) -> list[float]:
        return [float(self.x), float(self.y), float(self.w), float(self.h)]

    @classmethod
    def from_list(cls, values: Iterable[float]) -> Box:
        x, y, w, h = (float(v) for v in values)
        return cls(x, y, w, h)


@dataclass(frozen=True)
class Description:
    """A text a human wrote about an image: a region description with its box, or a question
    and its answer (``box`` ``None``: about the whole image)."""

    text: str
    box: Box | None = None

    def to_list(self) -> list[Any]:
        return [self.text, self.box.to_list() if self.box is not None else None]

    @classmethod
    def from_list(cls, values: list[Any]) -> Description:
        text, box = values
        return cls(str(text), Box.from_list(box) if box is not None else None)


@dataclass(frozen=True)
class SGObject:
    """An object node with its attributes and, for grounded graphs, its box.

    ``aliases``: the other names an annotation gives the same box (Visual Genome's ``names``
    after the first, e.g. "chair" / "couch" / "sofa"). The object is written by ``name``; the
    aliases only tell the negative checks what else the box may be called.
    """

    id: int
    name: str
    attributes: tuple[str, ...] = ()
    box: Box | None = None
    synset: str | None = None
    aliases: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Relationship:
    """A directed edge ``subject --predicate--> object`` between two object ids."""

    subject: int
    predicate: str
    object: int
    synset: str | None = None


@dataclass
class SceneGraph:
    """Objects with attributes and boxes, and the relationships between them.

    Object ids are unique within one graph. For Visual Genome they are the official object ids;
    for parsed captions they are positions in ``objects``.
    """

    objects: list[SGObject] = field(default_factory=list)
    relationships: list[Relationship] = field(default_factory=list)
    image_id: str | None = None
    width: int | None = None
    height: int | None = None

    # ----------------------------------------------------------------- queries
    def object_by_id(self) -> dict[int, SGObject]:
        return {o.id: o for o in self.objects}

    def atoms(self) -> list[Atom]:
        """Every atom occurrence: objects, then attributes, then relationships, in graph order."""
        by_id = self.object_by_id()
        out = [Atom("object", o.name) for o in self.objects]
        out += [Atom("attribute", a) for o in self.objects for a in o.attributes]
        out += [
            Atom("relationship", r.predicate)
            for r in self.relationships
            if r.subject in by_id and r.object in by_id
        ]
        return out

    def compounds(self) -> list[Compound]:
        """Every compound occurrence: attribute–object pairs, then subject–relation–object triples."""
        by_id = self.object_by_id()
        out = [
            Compound("attribute_object", (a, o.name)) for o in self.objects for a in o.attributes
        ]
        out += [
            Compound(
                "object_relationship_object",
                (by_id[r.subject].name, r.predicate, by_id[r.object].name),
            )
            for r in self.relationships
            if r.subject in by_id and r.object in by_id
        ]
        return out

    def bindings(self) -> list[Binding]:
        """The (attribute, object) bindings of the graph, in graph order."""
        return [Binding(a, o.name) for o in self.objects for a in o.attributes]

    def complexity(self) -> int:
        """Number of atoms (SPEC §1): objects + attributes + relationships.

        Counted without building :meth:`atoms` (the same number; walks ask it often)."""
        ids = {o.id for o in self.objects}
        return (
            len(self.objects)
            + sum(len(o.attributes) for o in self.objects)
            + sum(1 for r in self.relationships if r.subject in ids and r.object in ids)
        )

    def components(self) -> list[list[int]]:
        """Connected components (undirected) as lists of object ids, in first-seen order."""
        neighbours: dict[int, set[int]] = {o.id: set() for o in self.objects}
        for r in self.relationships:
            if r.subject in neighbours and r.object in neighbours:
                neighbours[r.subject].add(r.object)
                neighbours[r.object].add(r.subject)
        seen: set[int] = set()
        comps: list[list[int]] = []
        for o in self.objects:
            if o.id in seen:
                continue
            stack, comp = [o.id], []
            seen.add(o.id)
            while stack:
                cur = stack.pop()
                comp.append(cur)
                for nxt in sorted(neighbours[cur]):
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            comps.append(comp)
        return comps

    def region(self) -> Box | None:
        """Union of the boxes of all objects that have one (``None`` when none has)."""
        boxes = [o.box for o in self.objects if o.box is not None]
        if not boxes:
            return None
        region = boxes[0]
        for b in boxes[1:]:
            region = region.union(b)
        return region

    # ------------------------------------------------------------ transforms
    def normalized(self, lemmatize_object: Callable[[str], str] | None = None) -> SceneGraph:
        """Canonical copy: names lower-cased and trimmed, objects optionally lemmatised.

        Attributes are only lower-cased and trimmed, never lemmatised ("smiling" stays).
        Duplicate attributes on one object are removed, keeping the first.
        """
        lem = lemmatize_object or (lambda s: s)
        objects = []
        for o in self.objects:
            attrs: list[str] = []
            for a in o.attributes:
                na = normalize_name(a)
                if na and na not in attrs:
                    attrs.append(na)
            objects.append(
                SGObject(o.id, lem(normalize_name(o.name)), tuple(attrs), o.box, o.synset)
            )
        rels = [
            Relationship(r.subject, normalize_name(r.predicate), r.object, r.synset)
            for r in self.relationships
        ]
        return SceneGraph(objects, rels, self.image_id, self.width, self.height)

    # --------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON- and parquet-friendly dict with a fixed key order."""
        return {
            "image_id": self.image_id,
            "width": self.width,
            "height": self.height,
            "objects": [
                {
                    "id": int(o.id),
                    "name": o.name,
                    "attributes": list(o.attributes),
                    "box": o.box.to_list() if o.box is not None else None,
                    "synset": o.synset,
                    **({"aliases": list(o.aliases)} if o.aliases else {}),
                }
                for o in self.objects
            ],
            "relationships": [
                {
                    "subject": int(r.subject),
                    "predicate": r.predicate,
                    "object": int(r.object),
                    "synset": r.synset,
                }
                for r in self.relationships
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SceneGraph:
        """Inverse of :meth:`to_dict`."""
        objects = [
            SGObject(
                int(o["id"]),
                str(o["name"]),
                tuple(o.get("attributes") or ()),
                Box.from_list(o["box"]) if o.get("box") is not None else None,
                o.get("synset"),
                tuple(o.get("aliases") or ()),
            )
            for o in data.get("objects") or ()
        ]
        rels = [
            Relationship(int(r["subject"]), str(r["predicate"]), int(r["object"]), r.get("synset"))
            for r in data.get("relationships") or ()
        ]
        image_id = data.get("image_id")
        return cls(
            objects,
            rels,
            None if image_id is None else str(image_id),
            data.get("width"),
            data.get("height"),
        )

    def to_json(self) -> str:
        """Compact JSON with sorted keys: identical graphs give identical strings."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> SceneGraph:
        return cls.from_dict(json.loads(text))

    def signature(self) -> tuple:
        """An order-independent key of the graph's content (names, attributes, triples).

        Used to deduplicate texts "by their scene graph" (SPEC §2.3): boxes and ids are ignored.
        """
        by_id = self.object_by_id()
        objs = sorted((o.name, _sorted_attributes(tuple(o.attributes))) for o in self.objects)
        rels = sorted(
            (by_id[r.subject].name, r.predicate, by_id[r.object].name)
            for r in self.relationships
            if r.subject in by_id and r.object in by_id
        )
        return (tuple(objs), tuple(rels))


@functools.lru_cache(maxsize=100_000)
def _sorted_attributes(attributes: tuple[str, ...]) -> tuple[str, ...]:
    """An object's attributes in sorted order (memoised: graph signatures are taken of every
    negative candidate, whose objects mostly keep their attributes)."""
    return tuple(sorted(attributes))

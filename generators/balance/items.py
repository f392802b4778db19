"""The records that refinement and balancing work on: a sampled subgraph with its candidates
(:class:`Item`), a rendered negative (:class:`Negative`) and a rendered item (:class:`RenderedItem`).

Productivity samples and renders them (:mod:`crepe_datasets.builders.productivity.items`);
systematicity renders its own; :mod:`crepe_datasets.generators.balance.refine` revises both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crepe_datasets.generators.negatives import NegativeCandidate, compact_json
from crepe_datasets.scenegraph.types import Box, SceneGraph


@dataclass
class Item:
    """One sampled subgraph with its region and (unrendered) negative candidates."""

    image_id: str
    image_file: str
    n: int
    walk: int
    graph: SceneGraph
    region: Box
    writer: str
    candidates: list[NegativeCandidate] = field(default_factory=list)


@dataclass
class Negative:
    """A rendered negative; its graph is kept as a :class:`SceneGraph` and written as compact
    JSON (:func:`compact_json`) only when a row asks for it (most negatives never reach one)."""

    type: str
    rule: str
    text: str
    source: SceneGraph | str
    exchange: tuple[str, str, str] | None = None

    @property
    def graph(self) -> str:
        """The negative's graph in compact JSON (computed once)."""
        if not isinstance(self.source, str):
            self.source = compact_json(self.source)
        return self.source


@dataclass
class RenderedItem:
    item: Item
    caption: str
    negatives: list[Negative]

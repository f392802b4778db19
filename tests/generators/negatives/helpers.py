"""A small full image graph G for the negative generators' tests."""

from __future__ import annotations

from crepe_datasets.scenegraph.types import Box, Relationship, SceneGraph, SGObject


def image_graph() -> SceneGraph:
    """man(tall) wearing hat(black); man sitting on bench(wooden); dog(white, small) near bench;
    a second man(short) next to the bench; the hat on the man."""
    objects = [
        SGObject(1, "man", ("tall",), Box(0, 0, 100, 300)),
        SGObject(2, "hat", ("black",), Box(10, 0, 40, 30)),
        SGObject(3, "bench", ("wooden",), Box(0, 200, 300, 100)),
        SGObject(4, "dog", ("white", "small"), Box(200, 250, 60, 50)),
        SGObject(5, "man", ("short",), Box(150, 100, 60, 200)),
    ]
    rels = [
        Relationship(1, "wearing", 2),
        Relationship(1, "sitting on", 3),
        Relationship(4, "near", 3),
        Relationship(5, "next to", 3),
        Relationship(2, "on", 1),
    ]
    return SceneGraph(objects, rels, "7", 400, 300)


def subgraph(
    g: SceneGraph,
    ids: list[int],
    rel_indices: list[int],
    drop_attrs: dict[int, tuple] | None = None,
) -> SceneGraph:
    """The objects ``ids`` and relationships ``rel_indices`` of ``g`` (attributes optionally cut)."""
    by_id = g.object_by_id()
    objs = []
    for i in ids:
        o = by_id[i]
        attrs = tuple(a for a in o.attributes if a not in (drop_attrs or {}).get(i, ()))
        objs.append(SGObject(o.id, o.name, attrs, o.box))
    return SceneGraph(
        objs, [g.relationships[i] for i in rel_indices], g.image_id, g.width, g.height
    )

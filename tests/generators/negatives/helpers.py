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


def vg_graph(image_id: int) -> SceneGraph:
    """The cleaned scene graph of one Visual Genome image of ``images_1-100`` (the builder's
    reader and cleaning step)."""
    from crepe_datasets.builders.productivity.clean import clean_graph
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data
    from tests.conftest import require_shared

    folder = require_shared("visual_genome", "images_1-100")
    drops = DropLog()
    infos = read_image_data(folder / "image_data.json", drops)
    for raw in iter_scene_graphs(folder / "scene_graphs.json", drops, infos):
        if str(raw.image_id) == str(image_id):
            return clean_graph(raw, drops)
    raise KeyError(image_id)


def pick(g: SceneGraph, names: list[str], rels: list[tuple[int, str, int]]) -> SceneGraph:
    """The subgraph of ``g`` with the objects of ids ``names`` (object ids, as str or int) and
    the relationships ``rels`` (subject id, predicate, object id), attributes kept."""
    by_id = g.object_by_id()
    ids = [int(i) for i in names]
    keep = [r for r in g.relationships if (r.subject, r.predicate, r.object) in set(rels)]
    return SceneGraph([by_id[i] for i in ids], keep, g.image_id, g.width, g.height)

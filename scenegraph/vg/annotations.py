"""Streaming readers of the per-type VG files: ``objects.json``, ``attributes.json``,
``relationships.json`` (v1.0, v1.2 and v1.4 forms).

Each yields one partial :class:`SceneGraph` per image, so that builders can treat every VG
source alike: objects only (``objects.json``), objects with their attributes
(``attributes.json``), or relationships with the objects embedded as their subject and object
dicts (``relationships.json``; an object that ends several relationships appears once).
Skips are counted as in :mod:`crepe_datasets.scenegraph.vg.scene_graphs`, under stages ``vg_objects``,
``vg_attributes`` and ``vg_relationships``; images with nothing valid are counted as
``image_empty`` and not yielded; a repeated image id as ``image_duplicate_id`` (first kept).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from crepe_datasets.infra.jsonstream import iter_json_items
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import SceneGraph, SGObject
from crepe_datasets.scenegraph.vg.images import ImageDataArg, resolve_image_data
from crepe_datasets.scenegraph.vg.parse import object_id, parse_object, parse_relationship
from crepe_datasets.scenegraph.vg.scene_graphs import collect_objects, image_header


def _iter_object_lists(
    path: str | os.PathLike, key: str, stage: str, drops: DropLog, image_data: ImageDataArg
) -> Iterator[SceneGraph]:
    images = resolve_image_data(image_data)
    name = Path(path).name
    seen: set[str] = set()
    for index, rec in enumerate(iter_json_items(path, "item")):
        head = image_header(rec, images, drops, stage, f"{name} record #{index}", seen)
        if head is None:
            continue
        image_id, info = head
        items = rec.get(key)
        if not isinstance(items, list):
            drops.drop(stage, f"image_bad_{key}", f"image {image_id}")
            continue
        objects = collect_objects(items, info, drops, stage, f"image {image_id}")
        if not objects:
            drops.drop(stage, "image_empty", f"image {image_id}")
            continue
        yield SceneGraph(
            list(objects.values()), [], image_id,
            info.width if info else None, info.height if info else None,
        )  # fmt: skip


def iter_objects(
    path: str | os.PathLike, drops: DropLog, image_data: ImageDataArg = None
) -> Iterator[SceneGraph]:
    """Objects of ``objects.json``, one graph (without relationships) per image."""
    return _iter_object_lists(path, "objects", "vg_objects", drops, image_data)


def iter_attributes(
    path: str | os.PathLike, drops: DropLog, image_data: ImageDataArg = None
) -> Iterator[SceneGraph]:
    """Objects with attributes of ``attributes.json``, one graph per image."""
    return _iter_object_lists(path, "attributes", "vg_attributes", drops, image_data)


def iter_relationships(
    path: str | os.PathLike, drops: DropLog, image_data: ImageDataArg = None
) -> Iterator[SceneGraph]:
    """Relationships of ``relationships.json`` with their embedded ends, one graph per image.

    A relationship whose subject or object dict is invalid (or has its box dropped) is counted
    as ``relationship_missing_object``.
    """
    stage = "vg_relationships"
    images = resolve_image_data(image_data)
    name = Path(path).name
    seen: set[str] = set()
    for index, rec in enumerate(iter_json_items(path, "item")):
        head = image_header(rec, images, drops, stage, f"{name} record #{index}", seen)
        if head is None:
            continue
        image_id, info = head
        where = f"image {image_id}"
        items = rec.get("relationships")
        if not isinstance(items, list):
            drops.drop(stage, "image_bad_relationships", where)
            continue
        size = info.size if info is not None else None
        objects: dict[int, SGObject] = {}
        rels = []
        for d in items:
            rel = parse_relationship(d, drops, stage, where)
            if rel is None:
                continue
            ok = True
            for end in (d.get("subject"), d.get("object")):
                oid = object_id(end) if isinstance(end, dict) else None
                if oid is not None and oid in objects:
                    continue
                obj = (
                    parse_object(end, size, drops, stage, where) if isinstance(end, dict) else None
                )
                if obj is None:
                    ok = False
                else:
                    objects[obj.id] = obj
            if ok and rel.subject in objects and rel.object in objects:
                rels.append(rel)
            else:
                drops.drop(
                    stage, "relationship_missing_object", f"{where} {rel.subject}->{rel.object}"
                )
        if not rels:
            drops.drop(stage, "image_empty", where)
            continue
        used = {i for r in rels for i in (r.subject, r.object)}
        kept = [o for o in objects.values() if o.id in used]
        yield SceneGraph(
            kept, rels, image_id, info.width if info else None, info.height if info else None
        )

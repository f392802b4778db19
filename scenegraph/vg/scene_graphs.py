"""Streaming reader of Visual Genome ``scene_graphs.json`` (v1.2 and v1.4 forms).

The file (~700 MB for full VG) is read with ``ijson.items(f, "item")``: one image's graph is in
memory at a time. v1.4 objects carry their ``attributes``; the v1.2 form may instead list
``{"attribute": {"object_id", "attributes", …}}`` entries under a top-level ``attributes`` key,
which are merged into their objects. Every skip is counted under stage ``vg_scene_graphs``:

* images: ``image_not_an_object``, ``image_missing_id``, ``image_duplicate_id`` (an image id
  already read: the first record is kept, the repeat dropped whole), ``image_bad_objects``,
  ``image_bad_relationships`` (relationships ignored), ``image_no_objects``,
  ``image_size_unknown`` (kept unclipped; only with ``image_data``);
* objects: see :mod:`crepe_datasets.scenegraph.vg.parse`, plus ``object_duplicate_id`` (first kept);
* attributes of the v1.2 form: ``attribute_missing_object``;
* relationships: ``relationship_*`` of :mod:`crepe_datasets.scenegraph.vg.parse` and
  ``relationship_missing_object`` when an end is not among the graph's (kept) objects.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from crepe_datasets.infra.hygiene import clean_text
from crepe_datasets.infra.jsonstream import iter_json_items
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject
from crepe_datasets.scenegraph.vg.images import ImageDataArg, ImageInfo, resolve_image_data
from crepe_datasets.scenegraph.vg.parse import (
    normalize_attributes,
    object_id,
    parse_object,
    parse_relationship,
)

STAGE = "vg_scene_graphs"


def image_header(
    rec: Any,
    images: Mapping[str, ImageInfo] | None,
    drops: DropLog,
    stage: str,
    where: str,
    seen: set[str] | None = None,
) -> tuple[str, ImageInfo | None] | None:
    """``(image_id, info)`` of one top-level record, or ``None`` after counting why not.

    With ``seen`` (the ids read so far, updated here), a repeated image id is dropped as
    ``image_duplicate_id``: a repeated record would otherwise yield duplicated rows.
    """
    if not isinstance(rec, dict):
        drops.drop(stage, "image_not_an_object", where)
        return None
    image_id = rec.get("image_id", rec.get("id"))
    if isinstance(image_id, str):
        image_id = image_id.strip()
        if image_id:
            image_id = clean_text(image_id, drops, stage, where, max_chars=200)
            if image_id is None:  # counted by the hygiene step
                return None
    if not isinstance(image_id, (int, str)) or isinstance(image_id, bool) or image_id == "":
        drops.drop(stage, "image_missing_id", where)
        return None
    if seen is not None:
        if str(image_id) in seen:
            drops.drop(stage, "image_duplicate_id", f"image {image_id} ({where})")
            return None
        seen.add(str(image_id))
    info = None
    if images is not None:
        info = images.get(str(image_id))
        if info is None:
            drops.drop(stage, "image_size_unknown", f"image {image_id}")
    return str(image_id), info


def collect_objects(
    items: list[Any], info: ImageInfo | None, drops: DropLog, stage: str, where: str
) -> dict[int, SGObject]:
    """Parsed objects by id, in file order; duplicates after the first are counted and skipped."""
    size = info.size if info is not None else None
    objects: dict[int, SGObject] = {}
    for d in items:
        obj = parse_object(d, size, drops, stage, where)
        if obj is None:
            continue
        if obj.id in objects:
            drops.drop(stage, "object_duplicate_id", f"{where} object {obj.id}")
            continue
        objects[obj.id] = obj
    return objects


def _merge_attribute_entries(
    entries: list[Any], objects: dict[int, SGObject], drops: DropLog, where: str
) -> None:
    for entry in entries:
        a = entry.get("attribute", entry) if isinstance(entry, dict) else None
        oid = object_id(a) if isinstance(a, dict) else None
        if oid is None or oid not in objects:
            drops.drop(STAGE, "attribute_missing_object", where)
            continue
        extra = normalize_attributes(a.get("attributes"), drops, STAGE, where)
        obj = objects[oid]
        merged = obj.attributes + tuple(x for x in extra if x not in obj.attributes)
        objects[oid] = replace(obj, attributes=merged)


def graph_relationships(
    items: Any, objects: Mapping[int, SGObject], drops: DropLog, stage: str, where: str
) -> list[Relationship]:
    """Parsed relationships whose two ends are among ``objects``; the rest counted."""
    if items is None:
        return []
    if not isinstance(items, list):
        drops.drop(stage, "image_bad_relationships", where)
        return []
    out = []
    for d in items:
        rel = parse_relationship(d, drops, stage, where)
        if rel is None:
            continue
        if rel.subject not in objects or rel.object not in objects:
            drops.drop(stage, "relationship_missing_object", f"{where} {rel.subject}->{rel.object}")
            continue
        out.append(rel)
    return out


def iter_scene_graphs(
    path: str | os.PathLike, drops: DropLog, image_data: ImageDataArg = None
) -> Iterator[SceneGraph]:
    """Stream the scene graphs of a VG ``scene_graphs.json``, one image at a time.

    Args:
        path: The ``scene_graphs.json`` file.
        drops: Receives every skipped image, object, attribute and relationship.
        image_data: Image sizes (from :func:`read_image_data`, or a path to ``image_data.json``);
            when given, boxes are clipped or dropped as :mod:`crepe_datasets.scenegraph.vg.parse` describes
            and graphs carry their image's width and height.

    Yields:
        One :class:`SceneGraph` per image with at least one valid object; ``image_id`` is a str.

    Raises:
        CrepeInputError: the file is missing, not a JSON list, truncated or corrupt.
    """
    images = resolve_image_data(image_data)
    name = Path(path).name
    seen: set[str] = set()
    for index, rec in enumerate(iter_json_items(path, "item")):
        head = image_header(rec, images, drops, STAGE, f"{name} record #{index}", seen)
        if head is None:
            continue
        image_id, info = head
        where = f"image {image_id}"
        items = rec.get("objects")
        if not isinstance(items, list):
            drops.drop(STAGE, "image_bad_objects", where)
            continue
        objects = collect_objects(items, info, drops, STAGE, where)
        if isinstance(rec.get("attributes"), list):
            _merge_attribute_entries(rec["attributes"], objects, drops, where)
        rels = graph_relationships(rec.get("relationships"), objects, drops, STAGE, where)
        if not objects:
            drops.drop(STAGE, "image_no_objects", where)
            continue
        yield SceneGraph(
            list(objects.values()),
            rels,
            image_id,
            info.width if info else None,
            info.height if info else None,
        )

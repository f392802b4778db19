"""Streaming reader of Visual Genome ``region_descriptions.json`` (v1.0 and v1.2+ forms).

Each top-level record is ``{"id": image_id, "regions": [...]}``; a region has ``region_id``
(v1.0: ``id``), ``image_id`` (v1.0: ``image``), ``phrase``, ``x``, ``y``, ``width``, ``height``.
Phrases are kept as written, only stripped (they are captions, parsed later). Boxes follow the
policy of :mod:`crepe_datasets.scenegraph.vg.parse` when image sizes are given. Skips are counted under stage
``vg_regions``: ``image_not_an_object``, ``image_bad_regions``, ``region_not_an_object``,
``region_bad_id``, ``region_missing_phrase``, ``region_empty_phrase``, ``region_bad_box``,
``region_degenerate_box``, ``region_outside_image``, ``region_box_clipped`` (kept; a repair, not a drop),
``image_size_unknown`` (kept unclipped), ``image_duplicate_id`` (a repeated image record; first
kept), and the input-hygiene reasons of :mod:`crepe_datasets.infra.hygiene` for phrases
(``invalid_utf8``, ``empty_after_cleaning``, ``text_too_long``; ``control_chars`` and
``invisible_chars`` repairs).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.infra.hygiene import clean_text
from crepe_datasets.infra.jsonstream import iter_json_items
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box
from crepe_datasets.scenegraph.vg.images import ImageDataArg, resolve_image_data
from crepe_datasets.scenegraph.vg.parse import fit_box, read_box

STAGE = "vg_regions"


@dataclass(frozen=True)
class Region:
    """One described region of a VG image."""

    region_id: int
    image_id: str
    phrase: str
    box: Box


def _region(d: Any, parent_id: Any, sizes: Any, drops: DropLog, where: str) -> Region | None:
    if not isinstance(d, dict):
        drops.drop(STAGE, "region_not_an_object", where)
        return None
    rid = d.get("region_id", d.get("id"))
    if not isinstance(rid, int) or isinstance(rid, bool):
        drops.drop(STAGE, "region_bad_id", where)
        return None
    where = f"{where} region {rid}"
    image_id = d.get("image_id", d.get("image", parent_id))
    phrase = d.get("phrase")
    if not isinstance(phrase, str):
        drops.drop(STAGE, "region_missing_phrase", where)
        return None
    if not phrase.strip():
        drops.drop(STAGE, "region_empty_phrase", where)
        return None
    phrase = clean_text(phrase.strip(), drops, STAGE, where)
    if phrase is None:
        return None
    box = read_box(d)
    if box is None:
        drops.drop(STAGE, "region_bad_box", where)
        return None
    info = None
    if sizes is not None:
        info = sizes.get(str(image_id))
        if info is None:
            drops.drop(STAGE, "image_size_unknown", where)
    box = fit_box(box, info.size if info else None, drops, STAGE, where, what="region")
    if box is None:
        return None
    return Region(rid, str(image_id), phrase, box)


def iter_image_lists(
    path: str | os.PathLike, key: str, stage: str, drops: DropLog
) -> Iterator[tuple[str, dict[str, Any], list[Any]]]:
    """``(where, record, record[key])`` of every image record of a per-image Visual Genome file
    (``region_descriptions.json``: ``regions``; ``question_answers.json``: ``qas``); a record
    that is no object, or whose ``key`` is no list, is counted under ``stage``
    (``image_not_an_object``, ``image_bad_<key>``)."""
    name = Path(path).name
    for index, rec in enumerate(iter_json_items(path, "item")):
        where = f"{name} record #{index}"
        if not isinstance(rec, dict):
            drops.drop(stage, "image_not_an_object", where)
            continue
        items = rec.get(key)
        if not isinstance(items, list):
            drops.drop(stage, f"image_bad_{key}", where)
            continue
        yield where, rec, items


def iter_regions(
    path: str | os.PathLike, drops: DropLog, image_data: ImageDataArg = None
) -> Iterator[Region]:
    """Stream every region of a ``region_descriptions.json``, in file order.

    Raises:
        CrepeInputError: the file is missing, not a JSON list, truncated or corrupt.
    """
    sizes = resolve_image_data(image_data)
    seen: set[str] = set()
    for where, rec, items in iter_image_lists(path, "regions", STAGE, drops):
        parent = rec.get("id", rec.get("image_id"))
        if parent is not None:
            if str(parent) in seen:
                drops.drop(STAGE, "image_duplicate_id", f"image {parent} ({where})")
                continue
            seen.add(str(parent))
        for d in items:
            region = _region(d, parent, sizes, drops, f"image {parent}")
            if region is not None:
                yield region

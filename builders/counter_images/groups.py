"""Winoground-style groups of crepe-systematicity: two images × two captions.

For every HN-ATOM negative ``N`` of an ``hn_atom`` row (caption ``P`` of region ``r`` of image
``i``), :func:`crepe_datasets.builders.counter_images.match.find_counter` looks for a pool region
``c`` where ``N`` is true and ``P`` false. Each found one gives a row of the ``groups`` config:

* ``caption_0`` = ``P``, true of ``image_0`` (region ``r``: the region's own description) and
  false of ``image_1`` (the match rule's condition 2);
* ``caption_1`` = ``N``, true of ``image_1`` (the match rule's condition 1) and false of
  ``image_0`` (checked against image ``i``'s full VG scene graph when ``N`` was generated).

So every caption is true of exactly one image of its group, and a scorer that ignores the image
gives both images the same order of the two captions: it can win neither the text nor the image
score (a tie is a failure). Columns: ``image_{0,1}_id``, ``image_{0,1}_file``,
``image_{0,1}_bbox`` (``None``: the whole image, for a FACTUAL region without a Visual Genome
box), ``image_{0,1}_region_id``, ``image_1_source`` (``vg_image``, ``vg_region``, ``factual``),
``image_1_description`` (the counter-region's caption, or its matched annotation),
``image_1_graph``; the provenance ``match_0`` (how ``N`` was made and checked false of image ``i``)
and ``match_1`` (JSON: the exchange, how ``c`` contradicts ``P``, the object map, how many pool
regions held ``N``'s compounds and how many matched); ``negative_type``, ``negative_rule``, ``split``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from crepe_datasets.builders.counter_images.index import CounterIndex, canonical_graph
from crepe_datasets.builders.counter_images.match import (
    STAGE,
    CounterMatch,
    OwnImageKeys,
    find_counter,
    uncovered_words,
)
from crepe_datasets.cards.metadata import ConfigInfo, TaskSpec
from crepe_datasets.generators.negatives import from_compact
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.scope import scene_level
from crepe_datasets.scenegraph.types import SceneGraph

CONFIG = "groups"
DESCRIPTION = (
    "Winoground-style groups: the caption's region and a counter-region from another image "
    "(Visual Genome / FACTUAL human graphs) where its HN-ATOM negative is true and the caption "
    "false; 2 images x 2 captions, text / image / group scores"
)
TASK = TaskSpec(
    type="group",
    negatives_column=None,
    bbox_column=None,
    caption_columns=("caption_0", "caption_1"),
    image_file_columns=("image_0_file", "image_1_file"),
)


COMP_CONFIG = "groups_comp"
COMP_DESCRIPTION = (
    "Winoground-style groups of HN-COMP negatives: the caption's region and a counter-region "
    "from another image where both compounds of the negative are annotated and the caption "
    "false; 2 images x 2 captions, text / image / group scores"
)


def config_info(comp: bool = False) -> ConfigInfo:
    """The ``groups`` (or ``groups_comp``) config and its evaluation task."""
    if comp:
        return ConfigInfo(COMP_CONFIG, COMP_DESCRIPTION, TASK)
    return ConfigInfo(CONFIG, DESCRIPTION, TASK)


def features() -> Any:
    """Explicit ``datasets`` features of the ``groups`` config."""
    from datasets import Features, List, Value

    text = Value("string")
    cols: dict[str, Any] = {"id": text, "caption_0": text, "caption_1": text}
    for i in (0, 1):
        cols |= {f"image_{i}_id": text, f"image_{i}_file": text,
                 f"image_{i}_bbox": List(Value("float64")), f"image_{i}_region_id": text}  # fmt: skip
    cols |= {
        "image_1_source": text, "image_1_description": text, "image_1_graph": text,
        "image_0_description": text, "scene_graph": text, "negative_graph": text,
        "negative_type": text, "negative_rule": text, "exchange": text,
        "match_0": text, "match_1": text, "split": text,
    }  # fmt: skip
    return Features(cols)


def _area(row: Mapping[str, Any], infos: Mapping[str, Any]) -> float | None:
    info = infos.get(str(row["image_id"]))
    box = row.get("bbox")
    if info is None or not box or not info.width or not info.height:
        return None
    return box[2] * box[3] / float(info.width * info.height)


def _row_key(row: Mapping[str, Any]) -> str:
    """The row's key in group ids and seeds: ``image:region`` (systematicity), or the
    ``group_key`` an adapter gives (productivity rows have no region id)."""
    return row.get("group_key") or f"{row['image_id']}:{row['region_id']}"


def group_row(
    row: Mapping[str, Any], k: int, m: CounterMatch, scope: str | None = None
) -> dict[str, Any]:
    """The ``groups`` row of negative ``k`` of an ``hn_atom`` row and its counter-region
    (``scope``: why the caption is scene-level, ``None`` when it is region-level)."""
    kind, old, new = m.exchange
    r = m.region
    match_1 = {
        "source": r.source,
        "exchange": [kind, old, new],
        "contradiction": m.contradiction,
        "object_map": {str(a): b for a, b in sorted(m.mapping.items())},
        "pool_regions_with_compounds": m.candidates,
        "counter_regions_found": m.matches,
        "caption_0_scope": scope or "region",
    }
    return {
        "id": f"{_row_key(row)}:{k}",
        "caption_0": row["caption"],
        "caption_1": row["hard_negatives"][k],
        "image_0_id": str(row["image_id"]),
        "image_0_file": row["image_file"],
        "image_0_bbox": list(row["bbox"]),
        "image_0_region_id": str(row.get("region_id") or ""),
        "image_1_id": r.image_id,
        "image_1_file": r.file,
        "image_1_bbox": m.box,
        "image_1_region_id": r.region_id,
        "image_1_source": r.source,
        "image_1_description": m.description,
        "image_1_graph": r.graph.to_json(),
        "image_0_description": row.get("original_description") or row["caption"],
        "scene_graph": row["scene_graph"],
        "negative_graph": row["negative_graphs"][k],
        "negative_type": row["negative_types"][k],
        "negative_rule": row["negative_rules"][k],
        "exchange": f"{kind}:{old}->{new}",
        "match_0": f"{row['negative_rules'][k]}: false of image {row['image_id']} by its full "
        "Visual Genome scene graph (when generated, and again here: no instance of it anywhere "
        "in the image's whole graph, broad synonyms); "
        + row.get("caption_origin", "the caption is the region's own description"),
        "match_1": json.dumps(match_1, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
        "split": row["split"],
    }


def caption_graphs(
    tables: Iterable[Iterable[Mapping[str, Any]]], index: CounterIndex
) -> dict[str, list[SceneGraph]]:
    """The canonical graphs of the region descriptions in ``tables`` (rows with ``image_id``
    and a compact ``scene_graph``), by image id, each distinct graph once."""
    out: dict[str, dict[str, SceneGraph]] = {}
    for rows in tables:
        for row in rows:
            text = row.get("scene_graph")
            if not text:
                continue
            seen = out.setdefault(str(row["image_id"]), {})
            if text not in seen:
                seen[text] = canonical_graph(from_compact(text), index.terms)
    return {image: list(graphs.values()) for image, graphs in out.items()}


def group_rows(
    rows: Iterable[Mapping[str, Any]], index: CounterIndex, infos: Mapping[str, Any], seed: int,
    drops: DropLog, stats: Counter, comp: bool = False, own: OwnImageKeys | None = None,
) -> Iterator[dict[str, Any]]:  # fmt: skip
    """The ``groups`` rows of ``hn_atom`` rows (``comp``: the ``groups_comp`` rows of ``hn_comp``
    rows, whose ``negative_foils`` give each negative's two foils); every negative without one
    is counted. ``own``: the keys of each image's graphs for the negative's check against its
    own image (its whole-image graph and the graphs of its region descriptions,
    :func:`caption_graphs`), kept across calls (default: a new one, whole-image graphs only)."""
    own = own if own is not None else OwnImageKeys(index)
    for row in rows:
        positive = from_compact(row["scene_graph"])
        scope = scene_level(row["caption"], positive)
        area = _area(row, infos)
        for k, text in enumerate(row["hard_negatives"]):
            stats["negatives"] += 1
            negative = from_compact(row["negative_graphs"][k])
            key = f"{seed}:{_row_key(row)}:{k}:counter" + ("_comp" if comp else "")
            found = find_counter(
                index, positive, negative, str(row["image_id"]), area, key,
                uncovered_words(text, negative),
                list(row["negative_foils"][k]) if comp else None, scope,
                own=own(str(row["image_id"])), described=own,
            )  # fmt: skip
            if isinstance(found, str):
                drops.drop(STAGE, found, f"{row['caption']} -> {text}")
                continue
            stats["groups"] += 1
            stats[f"groups_{found.region.source}"] += 1
            yield group_row(row, k, found, scope)

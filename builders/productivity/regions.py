"""Image regions of productivity subgraphs (SPEC §3.2): union box, region filter, patch dedup.

* **Region**: the union of the boxes of the subgraph's objects, clipped to the image when its
  size is known (Visual Genome boxes may reach outside the image; a crop can only hold what is
  inside). A subgraph whose objects have no boxes has no region (``no_region``).
* **Filter**: the systematicity region filter (:class:`crepe_datasets.builders.region_filter.RegionFilter`):
  area ≥ 40,000 px, ≥ 10% of the image, aspect ratio (w/h) in [0.5, 2.0]. An image of unknown
  size fails with ``image_size_unknown`` (the 10% rule cannot be checked).
* **Deduplication**: two patches *overlap* by their intersection over union (IoU); a patch whose
  IoU with an already kept patch of the same image **and the same complexity n** is ≥ 0.75 is a
  duplicate (``duplicate_patch``) and dropped; the first kept patch wins (walks are processed in
  attempt order). Patches of different complexities never deduplicate each other: they land in
  different splits and describe different subgraphs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable

from crepe_datasets.builders.region_filter import RegionFilter
from crepe_datasets.scenegraph.types import Box, SceneGraph

DEDUP_IOU = 0.75


def subgraph_region(graph: SceneGraph) -> Box | None:
    """Union of the subgraph's object boxes, clipped to the image when its size is known."""
    region = graph.region()
    if region is None:
        return None
    if graph.width and graph.height:
        region = region.clip(graph.width, graph.height)
    return region


def region_reason(graph: SceneGraph, region: Box | None, rf: RegionFilter) -> str | None:
    """``None`` when the region passes the filter, else a drop reason."""
    if region is None:
        return "no_region"
    if not (graph.width and graph.height):
        return "image_size_unknown"
    return rf.reason(region, graph.width, graph.height)


class PatchDeduplicator:
    """Remembers kept patches per key (image, n); :meth:`admit` says whether a patch is new."""

    def __init__(self, threshold: float = DEDUP_IOU) -> None:
        self.threshold = threshold
        self.kept: dict[Hashable, list[Box]] = defaultdict(list)

    def admit(self, key: Hashable, box: Box) -> bool:
        """True (and remember the box) unless it overlaps a kept patch with IoU ≥ threshold."""
        if any(box.iou(other) >= self.threshold for other in self.kept[key]):
            return False
        self.kept[key].append(box)
        return True

    def forget(self, key: Hashable) -> None:
        """Drop the memory of one key (bounded memory when streaming images)."""
        self.kept.pop(key, None)

"""Region = union of boxes (clipped), the CREPE filter, and IoU ≥ 0.75 patch deduplication."""

from __future__ import annotations

from crepe_datasets.builders.productivity.regions import (
    PatchDeduplicator,
    region_reason,
    subgraph_region,
)
from crepe_datasets.builders.region_filter import RegionFilter
from crepe_datasets.scenegraph.types import Box, SceneGraph, SGObject


def _graph(*boxes: Box, width: int | None = 800, height: int | None = 600) -> SceneGraph:
    return SceneGraph(
        [SGObject(i, f"o{i}", (), b) for i, b in enumerate(boxes)], [], "1", width, height
    )


def test_union_clipped_to_image():
    g = _graph(Box(-50, 10, 200, 100), Box(700, 500, 200, 200))
    assert subgraph_region(g) == Box(0, 10, 800, 590)
    assert subgraph_region(_graph(Box(-50, 10, 200, 100), width=None, height=None)) == Box(
        -50, 10, 200, 100
    )
    assert subgraph_region(SceneGraph([SGObject(1, "x")], [], "1", 10, 10)) is None


def test_filter_reasons():
    rf = RegionFilter()
    g = _graph(Box(0, 0, 300, 300))
    assert region_reason(g, subgraph_region(g), rf) is None
    g = _graph(Box(0, 0, 100, 100))
    assert region_reason(g, subgraph_region(g), rf) == "region_too_small"
    g = _graph(Box(0, 0, 600, 100))
    assert region_reason(g, subgraph_region(g), rf) == "region_aspect_out_of_range"
    big = _graph(Box(0, 0, 210, 210), width=2000, height=2000)
    assert region_reason(big, subgraph_region(big), rf) == "region_below_image_fraction"
    unknown = _graph(Box(0, 0, 300, 300), width=None, height=None)
    assert region_reason(unknown, subgraph_region(unknown), rf) == "image_size_unknown"
    assert region_reason(g, None, rf) == "no_region"


def test_dedup_by_iou_per_key():
    dedup = PatchDeduplicator()
    a = Box(0, 0, 100, 100)
    assert dedup.admit(4, a)
    assert not dedup.admit(4, Box(0, 0, 100, 100))
    assert not dedup.admit(4, Box(0, 0, 100, 75))  # IoU exactly 0.75
    assert dedup.admit(4, Box(0, 0, 100, 74))  # IoU 0.74
    assert dedup.admit(5, a)  # another complexity never deduplicates
    dedup.forget(4)
    assert dedup.admit(4, a)

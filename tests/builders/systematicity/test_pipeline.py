"""GraphLookup: each image's full VG scene graph, read in step with the region file, bounded."""

from __future__ import annotations

from crepe_datasets.builders.systematicity.pipeline import GraphLookup, batches
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs
from tests.conftest import require_shared


def _graphs():
    vg = require_shared("visual_genome", "images_1-100")
    return iter_scene_graphs(vg / "scene_graphs.json", DropLog())


def test_in_order_skips_and_out_of_order() -> None:
    lookup = GraphLookup(_graphs())
    assert lookup.get("3").image_id == "3"
    assert lookup.get("10").image_id == "10"  # images 4-9 passed over, buffered
    assert lookup.get("5").image_id == "5"  # out of order: from the buffer
    assert lookup.get("999") is None  # not in the file: read to the end once
    assert lookup.get("50").image_id == "50"


def test_buffer_is_bounded() -> None:
    lookup = GraphLookup(_graphs(), max_buffer=5)
    assert lookup.get("40").image_id == "40"
    assert len(lookup._buffer) == 5
    assert lookup.get("2") is None  # dropped from the bounded buffer
    assert lookup.get("99").image_id == "99"  # the last five images passed over stay
    assert [len(b) for b in batches(iter(range(7)), 3)] == [3, 3, 1]

from __future__ import annotations

import copy
import importlib.util
import json

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs
from tests.conftest import REPO_ROOT, require_shared


def _bench():
    spec = importlib.util.spec_from_file_location(
        "vg_streaming", REPO_ROOT / "scripts" / "bench" / "vg_streaming.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _unshift(graph, shift):
    g = copy.deepcopy(graph)
    g.pop("image_id")
    for o in g["objects"]:
        o["object_id"] -= shift
    for r in g["relationships"]:
        for key in ("relationship_id", "subject_id", "object_id"):
            r[key] -= shift
    return g


def test_generated_file_repeats_the_sample_with_new_ids(tmp_path):
    sample = require_shared("visual_genome", "images_1-100")
    bench = _bench()
    sg_path, im_path = bench.generate(sample, tmp_path, 250)
    data = json.loads(sg_path.read_text())
    source = json.loads((sample / "scene_graphs.json").read_text())
    assert [g["image_id"] for g in data] == list(range(1, 251))
    assert _unshift(data[130], bench.ID_STRIDE) == _unshift(source[30], 0)
    assert _unshift(data[5], 0) == _unshift(source[5], 0)
    drops = DropLog()
    graphs = list(iter_scene_graphs(sg_path, drops, image_data=im_path))
    assert len(graphs) == 250 and len(drops) == 0

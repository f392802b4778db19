from __future__ import annotations

import json

from PIL import Image

from crepe_datasets.builders.demo_data import (
    COLOURS,
    HELD_OUT_BINDINGS,
    N_IMAGES,
    write_demo_inputs,
)


def test_demo_inputs_are_deterministic_and_complete(tmp_path):
    a = write_demo_inputs(tmp_path / "a", seed=0)
    b = write_demo_inputs(tmp_path / "b", seed=0)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert len(files) == N_IMAGES + 12
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_demo_scene_graphs_match_their_images(tmp_path):
    out = write_demo_inputs(tmp_path, seed=0)
    graphs = json.loads((out / "vg" / "scene_graphs.json").read_text())
    sizes = {
        d["image_id"]: (d["width"], d["height"])
        for d in json.loads((out / "vg" / "image_data.json").read_text())
    }
    for graph in graphs[:5]:
        image = Image.open(out / "images" / f"{graph['image_id']}.png").convert("RGB")
        assert image.size == sizes[graph["image_id"]]
        for obj in graph["objects"]:  # each object is drawn in its colour attribute, inside its box
            centre = (obj["x"] + obj["w"] // 2, obj["y"] + obj["h"] * 3 // 4)
            assert image.getpixel(centre) == COLOURS[obj["attributes"][0]]


def test_demo_corpus_leaves_held_out_bindings_unseen(tmp_path):
    out = write_demo_inputs(tmp_path, seed=0)
    corpus = (out / "captions.txt").read_text()
    for colour, name in HELD_OUT_BINDINGS:
        assert f"{colour} {name}" not in corpus
    true = json.loads((out / "aro" / "att-original-true.json").read_text())
    false = json.loads((out / "aro" / "att-original-false.json").read_text())
    assert len(true) == len(false) > N_IMAGES

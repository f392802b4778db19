"""Tasks as Label Studio gets them: region geometry on real items, local crops as data URIs."""

from __future__ import annotations

import base64
import io
import json

import pytest

from crepe_datasets.validation.annotation.sampling import candidates, stratified_sample
from crepe_datasets.validation.annotation.tasks import attach_images, label_config, to_task
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # the productivity build of the 100 VG images


def test_full_image_task_draws_the_region(productivity_build, tmp_path):
    vg = require_shared("visual_genome", "images_1-100")
    items, counts = stratified_sample(candidates(productivity_build), ["kind"], 3, seed=5)
    assert sorted(counts) == ["caption", "negative"] and len(items) == 6
    assert attach_images(items, productivity_build, tmp_path, vg=vg) == "image URLs, region drawn"
    meta = {str(d["image_id"]): d for d in json.loads((vg / "image_data.json").read_text())}
    for item in items:
        task = to_task(item, tmp_path)
        box = task["predictions"][0]["result"][0]
        width = meta[item.image_id]["width"]
        assert task["data"]["image"] == meta[item.image_id]["url"]
        assert box["value"]["x"] == 100 * item.bbox[0] / width
        assert box["original_width"] == width
    assert '<Choice value="unsure"/>' in label_config()


def test_local_crop_goes_as_data_uri(productivity_build, tmp_path):
    from PIL import Image

    items, _ = stratified_sample(candidates(productivity_build, ["caption"]), ["split"], 1, 0)
    png = io.BytesIO()
    Image.new("RGB", (4, 3), "red").save(png, format="PNG")
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "x.png").write_bytes(png.getvalue())
    items[0].image = "images/x.png"
    uri = to_task(items[0], tmp_path)["data"]["image"]
    assert uri.startswith("data:image/png;base64,")
    assert base64.b64decode(uri.split(",", 1)[1]) == png.getvalue()
    assert "predictions" not in to_task(items[0], tmp_path)

"""Real COCO val2017 captions cut to a small subset, a COCO instances file, and one shared build.

The subset keeps the first ``SUBSET_IMAGES`` images of ``captions_val2017.json`` (real data, its
own format) with all their captions; the instances file is written here (no COCO instances ship
in ../shared/data): a seeded number of boxes per image, in the official format. The build is
made once per test session (``built_dataset``) and shared by the builder and evaluator tests.
"""

from __future__ import annotations

import atexit
import functools
import json
import random
import shutil
import tempfile
from pathlib import Path

from tests.conftest import require_shared

SUBSET_IMAGES = 600


def coco_subset(
    out: Path, n_images: int = SUBSET_IMAGES, name: str = "captions_val2017.json"
) -> Path:
    """Write the first ``n_images`` images of COCO val2017 captions (and their annotations)."""
    data = json.loads(require_shared("coco", "captions_val2017.json").read_text(encoding="utf-8"))
    images = data["images"][:n_images]
    keep = {im["id"] for im in images}
    subset = {
        **data,
        "images": images,
        "annotations": [a for a in data["annotations"] if a["image_id"] in keep],
    }
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(json.dumps(subset), encoding="utf-8")
    return path


def write_instances(captions: Path, out: Path, skip: int = 3, seed: int = 0) -> Path:
    """A COCO-format instances file for the images of ``captions``: 0–30 boxes each.

    The last ``skip`` images are left out of it (they must be dropped with a reason).
    """
    data = json.loads(captions.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    images = data["images"][: len(data["images"]) - skip]
    anns, next_id = [], 1
    for im in images:
        for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 13, 21, 30])):
            x, y = rng.uniform(0, 300), rng.uniform(0, 300)
            anns.append(
                {
                    "id": next_id,
                    "image_id": im["id"],
                    "category_id": 1,
                    "iscrowd": 0,
                    "bbox": [x, y, rng.uniform(5, 100), rng.uniform(5, 100)],
                    "area": 100.0,
                }
            )
            next_id += 1
    payload = {
        "info": {},
        "licenses": [],
        "images": images,
        "annotations": anns,
        "categories": [{"id": 1, "name": "person", "supercategory": "person"}],
    }
    path = out / "instances_val2017.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


@functools.lru_cache(maxsize=1)
def build_args(captions: Path, out: Path, cache: Path, *extra: str) -> list[str]:
    """``crepe build captioning`` arguments for one captions file (``extra``: more options)."""
    return [
        "build", "captioning", "--captions", f"coco:{captions}", *extra,
        "--out", str(out), "--cache-dir", str(cache),
    ]  # fmt: skip


def built_dataset() -> tuple[Path, Path, Path]:
    """``(dataset folder, captions file, parse cache)`` of one build with instances, seed 0."""
    from crepe_datasets.scripts.cli import main

    root = Path(tempfile.mkdtemp(prefix="crepe-captioning-test-"))
    atexit.register(shutil.rmtree, root, True)
    captions = coco_subset(root / "coco")
    instances = write_instances(captions, root / "coco")
    out = root / "crepe-captioning"
    status = main(build_args(captions, out, root / "cache", "--instances", str(instances)))
    assert status == 0
    return out, captions, root / "cache"

"""Benchmark: streaming a Visual Genome-format ``scene_graphs.json`` of 100,000+ images.

Generates the file from the real sample (``../shared/data/visual_genome/images_1-100``) by
repeating its records with new image, object and relationship ids (written record by record,
so generation is streamed too), plus a matching ``image_data.json``. Then, each in a fresh
subprocess, it measures wall time, records/second and peak memory (``ru_maxrss``) of

* ``iter_scene_graphs`` (ours: streamed with the default ``stdlib`` engine of
  :mod:`crepe_datasets.infra.jsonstream`, typed SceneGraph records, box checks against image sizes),
* optionally (``--with-ijson``) the same reader on the ijson engine, and
* the baseline ``json.load`` of the same file (then walking every object once).

Usage: ``.venv/bin/python scripts/bench/vg_streaming.py [--images 100000] [--with-ijson] [--keep]``.
Exits 1 when our peak memory reaches 1 GiB.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO.parent / "shared" / "data" / "visual_genome" / "images_1-100"
ID_STRIDE = 10_000_000  # object/relationship ids of copy k are shifted by k * ID_STRIDE
PEAK_LIMIT_MB = 1024


_SENTINEL = 7_770_000_000_000
_SENTINEL_RE = re.compile(r"7770{3}\d{7}")


def _template(record: dict) -> tuple[list[str], list[int]]:
    """The record's JSON cut at every id: text pieces and the original ids between them.

    Id 0 of the list is the image id; the others are object and relationship ids.
    """
    ids = [record["image_id"]]

    def mark(value: int) -> int:
        ids.append(value)
        return _SENTINEL + len(ids) - 1

    marked = {
        "relationships": [
            dict(r, relationship_id=mark(r["relationship_id"]), subject_id=mark(r["subject_id"]),
                 object_id=mark(r["object_id"]))
            for r in record["relationships"]
        ],
        "image_id": _SENTINEL,
        "objects": [dict(o, object_id=mark(o["object_id"])) for o in record["objects"]],
    }  # fmt: skip
    text = json.dumps(marked)
    order = [int(m.group()) - _SENTINEL for m in _SENTINEL_RE.finditer(text)]
    return _SENTINEL_RE.split(text), [ids[j] if j else -1 for j in order]


def generate(sample_dir: Path, out_dir: Path, n_images: int) -> tuple[Path, Path]:
    """Write ``scene_graphs.json`` and ``image_data.json`` with ``n_images`` records.

    Copy ``k`` of the sample's record for image ``j`` gets image id ``k * len(sample) + j + 1``
    and every object and relationship id shifted by ``k * ID_STRIDE``. Each record is written
    as soon as it is made (streamed), from the sample serialised once with its ids cut out.
    """
    graphs = json.loads((sample_dir / "scene_graphs.json").read_text(encoding="utf-8"))
    sizes = {r["image_id"]: r for r in json.loads((sample_dir / "image_data.json").read_text())}
    templates = [_template(g) for g in graphs]
    sg_path, im_path = out_dir / "scene_graphs.json", out_dir / "image_data.json"
    with open(sg_path, "w", encoding="utf-8") as sg, open(im_path, "w", encoding="utf-8") as im:
        sg.write("[")
        im.write("[")
        for i in range(n_images):
            pieces, ids = templates[i % len(graphs)]
            shift = (i // len(graphs)) * ID_STRIDE
            image_id = i + 1
            values = [str(image_id) if v < 0 else str(v + shift) for v in ids]
            sep = ", " if i else ""
            sg.write(
                sep + "".join(p for pair in zip(pieces, [*values, ""], strict=True) for p in pair)
            )
            info = dict(sizes[graphs[i % len(graphs)]["image_id"]], image_id=image_id)
            im.write(sep + json.dumps(info))
        sg.write("]")
        im.write("]")
    return sg_path, im_path


def worker(mode: str, sg_path: str, im_path: str) -> None:
    """Run one reader in this (fresh) process and print its figures as JSON."""
    start = time.perf_counter()
    images = objects = relationships = 0
    if mode.startswith("ours"):
        sys.path.insert(0, str(REPO))
        from crepe_datasets.infra.jsonstream import IJSON_BACKEND as BACKEND
        from crepe_datasets.infra.provenance import DropLog
        from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

        start = time.perf_counter()
        drops = DropLog()
        for g in iter_scene_graphs(sg_path, drops, image_data=read_image_data(im_path)):
            images += 1
            objects += len(g.objects)
            relationships += len(g.relationships)
        extra = {"backend": BACKEND, "drops": len(drops)}
    else:
        with open(sg_path, encoding="utf-8") as handle:
            data = json.load(handle)
        for rec in data:
            images += 1
            objects += len(rec["objects"])
            relationships += len(rec["relationships"])
        extra = {}
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(dict(images=images, objects=objects, relationships=relationships,
                          seconds=seconds, peak_mb=peak_mb, **extra)))  # fmt: skip


def measure(mode: str, sg_path: Path, im_path: Path) -> dict:
    cmd = [sys.executable, __file__, "--worker", mode, str(sg_path), str(im_path)]
    env = dict(os.environ, CREPE_JSON_ENGINE="ijson" if mode == "ours-ijson" else "stdlib")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=100_000)
    parser.add_argument("--sample", type=Path, default=SAMPLE)
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument(
        "--with-ijson", action="store_true", help="also time our reader on the ijson engine"
    )
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return 0
    if not (args.sample / "scene_graphs.json").is_file():
        print(f"sample {args.sample} is missing (../shared/data)", file=sys.stderr)
        return 2
    out_dir = Path(tempfile.mkdtemp(prefix="vg_bench_"))
    try:
        t0 = time.perf_counter()
        sg_path, im_path = generate(args.sample, out_dir, args.images)
        gen_s = time.perf_counter() - t0
        size_mb = sg_path.stat().st_size / 2**20
        print(f"generated {sg_path} ({args.images:,} images, {size_mb:,.1f} MiB) in {gen_s:.1f} s")
        rows = [("iter_scene_graphs (ours)", measure("ours", sg_path, im_path))]
        if args.with_ijson:
            rows.append(("  same, ijson engine", measure("ours-ijson", sg_path, im_path)))
        rows.append(("json.load (baseline)", measure("json", sg_path, im_path)))
        print(
            f"ijson backend: {rows[0][1]['backend']}; records dropped by ours: {rows[0][1]['drops']}"
        )
        print(f"{'reader':<26}{'images':>10}{'objects':>12}{'wall s':>9}{'images/s':>11}"
              f"{'objects/s':>12}{'MiB/s':>8}{'peak RSS MiB':>14}")  # fmt: skip
        for name, r in rows:
            print(f"{name:<26}{r['images']:>10,}{r['objects']:>12,}{r['seconds']:>9.1f}"
                  f"{r['images'] / r['seconds']:>11,.0f}{r['objects'] / r['seconds']:>12,.0f}"
                  f"{size_mb / r['seconds']:>8.1f}{r['peak_mb']:>14,.0f}")  # fmt: skip
        ours, base = rows[0][1], rows[-1][1]
        assert (ours["images"], ours["objects"]) == (base["images"], base["objects"]), (
            "counts differ"
        )
        ok = ours["peak_mb"] < PEAK_LIMIT_MB
        print(
            f"peak memory of ours {'<' if ok else '>='} {PEAK_LIMIT_MB} MiB: {'PASS' if ok else 'FAIL'}"
        )
        return 0 if ok else 1
    finally:
        if args.keep:
            print(f"kept {out_dir}")
        else:
            shutil.rmtree(out_dir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())

"""Size and cost of a productivity chunk result: compact item records vs rows per config.

    .venv/bin/python scripts/bench/chunk_results.py [--images 64] [--repeat 3]

A worker writes each finished chunk as gzip JSON (``run_chunk``) and the parent reads it back
(``read_chunk``). Since chunk format 2 a result holds compact item records
(:func:`crepe_datasets.builders.productivity.rows.item_record`: each base row and each negative
once); before, it held the finished rows of every config, so a ground truth's base row was
written five times and each of its negatives twice. This script processes one chunk of the
real Visual Genome sample (template captions, no NLI), then, in the same run, serialises the
result both ways — the baseline layout made from the same records with
:func:`crepe_datasets.builders.productivity.chunks.chunk_rows`, so both hold the same rows — and
prints bytes, the worker's cost (``json.dumps`` + gzip at ``run_chunk``'s level) and the
parent's cost (gunzip + ``json.loads`` + rows back), best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SAMPLE = ROOT.parent / "shared/data/visual_genome/images_1-100"


def _best(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def _write(result: dict) -> bytes:
    """``run_chunk``'s serialisation: sorted-key JSON, gzip level 3, fixed mtime."""
    data = json.dumps(result, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return gzip.compress(data, compresslevel=3, mtime=0)


def _count_rows(result: dict) -> int:
    """Rows of a baseline-layout result (the parent appended each one)."""
    return sum(len(rows) for splits in result["rows"].values() for rows in splits.values())


def main() -> int:
    from crepe_datasets.builders.productivity.build import ProductivitySettings
    from crepe_datasets.builders.productivity.chunks import chunk_rows, process_chunk
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    infos = read_image_data(SAMPLE / "image_data.json", DropLog())
    graphs = list(iter_scene_graphs(SAMPLE / "scene_graphs.json", DropLog(), infos))
    records = [(g.to_dict(), infos[str(g.image_id)].file_name) for g in graphs[: args.images]]
    s = ProductivitySettings(vg=str(SAMPLE), out="unused", progress=False)
    compact = process_chunk(s, records)
    tables: dict = {}
    for config, split, row in chunk_rows(compact):
        tables.setdefault(config, {}).setdefault(split, []).append(row)
    per_config = {k: v for k, v in compact.items() if k != "items"} | {"rows": tables}
    print(f"one chunk of {args.images} real images ({len(compact['items']):,} ground truths)")
    print(f"{'layout':<34} {'JSON MB':>8} {'gzip MB':>8} {'write s':>8} {'read s':>8}")
    layouts = (
        ("rows per config (baseline)", per_config, _count_rows),
        ("compact item records (now)", compact, lambda r: sum(1 for _ in chunk_rows(r))),
    )
    for label, result, expand in layouts:
        write_s, blob = _best(lambda result=result: _write(result), args.repeat)
        read_s, rows = _best(
            lambda blob=blob, f=expand: f(json.loads(gzip.decompress(blob))), args.repeat
        )
        raw = len(gzip.decompress(blob))
        print(
            f"{label:<34} {raw / 1e6:>8.2f} {len(blob) / 1e6:>8.2f} {write_s:>8.3f} {read_s:>8.3f}"
            f"  ({rows:,} rows)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: the counter-image index on all FACTUAL regions (plus VG images 1-100).

Each phase runs in a fresh subprocess, so its peak memory (``ru_maxrss``) is its own:

* ``build`` — :func:`crepe_datasets.builders.counter_images.index.build_index` of the ``--vg``
  folder and FACTUAL's CSV into a temporary folder: wall time, regions/s, peak memory, bytes on disk;
* ``match`` — :func:`crepe_datasets.builders.counter_images.match.find_counter` for one HN-ATOM-like
  negative per FACTUAL region with a colour attribute (the colour replaced by another colour:
  "red shirt" → "blue shirt", the positive being the region's own graph): queries/s, share
  matched, peak memory;
* ``stated`` — :meth:`~crepe_datasets.builders.counter_images.index.CounterIndex.states` (systematicity's
  *stated elsewhere* judge) on the same negatives, their image left out: the one pass that maps
  regions to images (``first_call_s``), then look-ups per second (the cache emptied first), share
  stated, peak memory;
* ``scan`` (baseline) — the same rule without the index (every pool region visited with the
  same checks) on the first ``--scan`` queries.

* ``scale`` (with ``--vg-images N``) — the build of a Visual Genome folder of ``N`` images made by
  repeating the sample's records with new ids (``scripts/bench/vg_streaming.py``'s generator),
  with FACTUAL: how time and peak memory grow with the number of whole-image graphs.

Usage: ``.venv/bin/python scripts/bench/counter_index.py [--vg DIR] [--factual CSV] [--scan 40]
[--vg-images 20000]``.
Prints one line per phase. ``lexicon_rss_mb`` is the memory of the project's lexicon alone
(lemminflect and the spelling groups, loaded before the index is built): the index adds the rest.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
COLOURS = ("red", "blue", "green", "white", "black", "yellow", "brown", "gray", "orange", "pink")


def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _queries(index, limit: int | None = None) -> list:
    """(positive, negative, image id) per FACTUAL region with a colour attribute."""
    from crepe_datasets.scenegraph.types import SceneGraph, SGObject

    out = []
    for n in range(len(index)):
        r = index.region(n)
        if r.source != "factual":
            continue
        for o in r.graph.objects:
            colour = next((a for a in o.attributes if a in COLOURS), None)
            if colour is None:
                continue
            foil = COLOURS[(COLOURS.index(colour) + 1) % len(COLOURS)]
            attrs = tuple(foil if a == colour else a for a in o.attributes)
            objects = [
                SGObject(x.id, x.name, attrs if x.id == o.id else x.attributes)
                for x in r.graph.objects
            ]
            out.append((r.graph, SceneGraph(objects, r.graph.relationships), r.image_id))
            break
        if limit and len(out) >= limit:
            break
    return out


def phase_build(vg: str, factual: str, folder: str) -> dict:
    from crepe_datasets.builders.counter_images.index import build_index
    from crepe_datasets.generators.terms import Terms

    Terms.from_vg(vg).canon("object", "chairs")  # the project's lexicon (lemminflect, spellings)
    lexicon_mb = _peak_mb()
    start = time.perf_counter()
    manifest = build_index(vg, [factual], Path(folder))
    wall = time.perf_counter() - start
    size = sum(p.stat().st_size for p in Path(folder).iterdir())
    return {"phase": "build", "regions": manifest["regions"], "keys": manifest["keys"],
            "postings": manifest["postings"], "wall_s": round(wall, 2),
            "regions_per_s": round(manifest["regions"] / wall), "peak_rss_mb": _peak_mb(),
            "lexicon_rss_mb": lexicon_mb,
            "disk_mb": round(size / 2**20, 1)}  # fmt: skip


def phase_match(vg: str, folder: str) -> dict:
    from crepe_datasets.builders.counter_images.index import CounterIndex
    from crepe_datasets.builders.counter_images.match import find_counter
    from crepe_datasets.generators.terms import Terms

    index = CounterIndex(folder, Terms.from_vg(vg))
    queries = _queries(index)
    start = time.perf_counter()
    found = 0
    for k, (pos, neg, image) in enumerate(queries):
        found += not isinstance(find_counter(index, pos, neg, image, None, f"bench:{k}"), str)
    wall = time.perf_counter() - start
    return {"phase": "match", "queries": len(queries), "matched": found,
            "wall_s": round(wall, 2), "queries_per_s": round(len(queries) / wall, 1),
            "ms_per_query": round(1000 * wall / len(queries), 2), "peak_rss_mb": _peak_mb()}  # fmt: skip


def phase_stated(vg: str, folder: str) -> dict:
    from crepe_datasets.builders.counter_images.index import CounterIndex
    from crepe_datasets.generators.negatives.atom import graph_compounds
    from crepe_datasets.generators.terms import Terms

    index = CounterIndex(folder, Terms.from_vg(vg))
    queries = [(graph_compounds(neg), image) for _, neg, image in _queries(index)]
    start = time.perf_counter()
    index.region_images  # noqa: B018 (the one pass, on first use)
    first = time.perf_counter() - start
    start = time.perf_counter()
    stated = sum(index.states(compounds, image) for compounds, image in queries)
    wall = time.perf_counter() - start
    return {"phase": "stated", "queries": len(queries), "stated": stated,
            "first_call_s": round(first, 2), "wall_s": round(wall, 3),
            "queries_per_s": round(len(queries) / wall), "peak_rss_mb": _peak_mb()}  # fmt: skip


def phase_scan(vg: str, folder: str, limit: int) -> dict:
    """The same rule over every pool region, without the index (the baseline)."""
    from crepe_datasets.builders.counter_images.index import CounterIndex
    from crepe_datasets.builders.counter_images.match import _contradiction, exchange_of, find_map
    from crepe_datasets.generators.terms import Terms

    index = CounterIndex(folder, Terms.from_vg(vg))
    regions = [index.region(n) for n in range(len(index))]
    queries = _queries(index, limit)
    t, lo = index.terms.tight, index.terms.loose
    start = time.perf_counter()
    found = 0
    for pos, neg, image in queries:
        ex = exchange_of(pos, neg)
        for r in regions:
            if r.image_id == image:
                continue
            m = find_map(neg, r.graph, t)
            if (
                m is not None
                and find_map(pos, r.graph, lo) is None
                and _contradiction(r, m, neg, ex, lo)
            ):
                found += 1
                break
    wall = time.perf_counter() - start
    return {"phase": "scan (no index)", "queries": len(queries), "matched": found,
            "wall_s": round(wall, 2), "ms_per_query": round(1000 * wall / max(1, len(queries)), 2),
            "peak_rss_mb": _peak_mb()}  # fmt: skip


def _run(*args: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--phase", *args], check=True,
                         capture_output=True, text=True, cwd=REPO)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--vg", default=str(DATA / "visual_genome" / "images_1-100"))
    p.add_argument("--factual", default=str(DATA / "factual" / "factual_sg" / "factual_sg.csv"))
    p.add_argument("--scan", type=int, default=40, help="queries of the no-index baseline")
    p.add_argument("--vg-images", type=int, default=0, help="also build over N generated VG images")
    p.add_argument("--phase", nargs="*", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.phase:
        name, *rest = a.phase
        fn = {"build": phase_build, "match": phase_match, "stated": phase_stated,
              "scan": phase_scan}[name]  # fmt: skip
        args = [*rest[:-1], int(rest[-1])] if name == "scan" else rest
        print(json.dumps(fn(*args)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = str(Path(tmp) / "index")
        for result in (
            _run("build", a.vg, a.factual, folder),
            _run("match", a.vg, folder),
            _run("stated", a.vg, folder),
            _run("scan", a.vg, folder, str(a.scan)),
        ):
            print(json.dumps(result))
        if a.vg_images:
            import shutil

            from crepe_datasets.scripts.bench.vg_streaming import generate

            big = Path(tmp) / "vg"
            big.mkdir()
            generate(Path(a.vg), big, a.vg_images)
            for name in ("object_alias.txt", "relationship_alias.txt"):
                shutil.copy(Path(a.vg) / name, big / name)
            result = _run("build", str(big), a.factual, str(Path(tmp) / "big-index"))
            print(json.dumps({**result, "phase": f"build ({a.vg_images:,} VG images + FACTUAL)"}))


if __name__ == "__main__":
    main()

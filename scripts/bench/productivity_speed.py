"""Speed and memory of the crepe-productivity pipeline (template captions, no NLI).

1. On the real Visual Genome sample (images 1-100): images per second, stage by stage, side by
   side — reading only (baseline), + text cleaning, walks and regions, + negative candidates
   with plausible foils, + captions, refinement and rows (the full figure: the build's own chunk
   task) — cold (first pass: WordNet look-ups are cached as words appear) and warm (second
   pass).
2. On a 100,000-image VG-format file built from the sample (records repeated with new image ids,
   written streaming): peak resident memory of the streaming reader alone over all 100,000
   images (baseline; no language resources loaded) and of the full pipeline, rows spooled to
   disk as in a build, over the first ``--images`` images of that file (default: as many as
   ``--seconds`` allow), each in a fresh process. Resident memory after 100 images and at the
   end shows whether memory grows with the number of images (streaming: it should not).

3. The build's engine loop over the first ``--engine-images`` images of that file with 1 and 2
   local worker processes: steady-state images/s (after the first finished chunk), images per
   CPU-second of the processes doing the work over the same stretch (the speed of one process,
   which other programs on a shared machine slow down far less than the wall clock), the
   speed-up, peak memory per worker and the projected time for all of Visual Genome
   (108,077 images).

    .venv/bin/python scripts/bench/productivity_speed.py [--seconds 30] [--images N] [--engine-images 512]
        [--baseline REV] [--only-engines] [--repeat N] [--workers 1,2]

``--baseline REV`` runs part 3 with the code of git revision ``REV`` too (``git archive`` into
a temporary folder; measured by this script, so both sides are timed the same way), so the
figures before and after an optimisation come from one run; ``--repeat N`` alternates the two
``N`` times (before, after, before, …) and reports each run and the medians.

It takes about 8 minutes on 2 shared cores.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from crepe_datasets.scripts.bench.vg_streaming import generate  # noqa: E402

# the sample; a --baseline copy of this script, run from a checkout elsewhere, gets its path
SAMPLE = Path(
    os.environ.get("CREPE_BENCH_VG", ROOT.parent / "shared/data/visual_genome/images_1-100")
)


def _graphs(folder: Path, limit: int | None = None):
    """Raw graphs and image files (cleaning is part of the measured pipeline)."""
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    drops = DropLog()
    infos = read_image_data(folder / "image_data.json", drops)
    for i, g in enumerate(iter_scene_graphs(folder / "scene_graphs.json", drops, infos)):
        if limit is not None and i >= limit:
            return
        info = infos.get(str(g.image_id))
        yield g, info.file_name if info else f"{g.image_id}.jpg"


CHUNK = 64


def _settings(folder: Path):
    from crepe_datasets.builders.productivity.build import ProductivitySettings

    return ProductivitySettings(vg=str(folder), out=str(folder / "bench-out"), progress=False)


def _pipeline(graphs, stage: str, spool: Path | None = None) -> int:
    """Run the pipeline up to ``stage`` over ``graphs``; return the number of images.

    ``full`` is the build's own chunk task
    (:func:`crepe_datasets.builders.productivity.chunks.process_chunk`: clean, walks, negatives
    with plausible foils, template captions, refinement, rows) on chunks of 64 images.
    """
    from crepe_datasets.builders.productivity.chunks import (
        chunk_rows,
        process_chunk,
        worker_state,
    )
    from crepe_datasets.builders.productivity.items import sample_items
    from crepe_datasets.builders.productivity.regions import (
        PatchDeduplicator,
        region_reason,
        subgraph_region,
    )
    from crepe_datasets.builders.productivity.rows import CONFIG_NAMES, features
    from crepe_datasets.builders.productivity.sampler import sample_walks
    from crepe_datasets.builders.productivity.spool import SpooledRows
    from crepe_datasets.builders.region_filter import RegionFilter
    from crepe_datasets.infra.provenance import DropLog

    s = _settings(SAMPLE)
    ranker = worker_state(s)["ranker"]
    drops, rf = DropLog(), RegionFilter()
    tables = None
    if spool is not None:
        schemas = features(False)
        tables = {c: {f"complexity_{n}": SpooledRows(spool / c / str(n), schemas[c].arrow_schema)
                      for n in range(4, 13)} for c in CONFIG_NAMES}  # fmt: skip
    images, chunk = 0, []

    def flush() -> None:
        result = process_chunk(s, [(g.to_dict(), f) for g, f in chunk])
        for config, split, row in chunk_rows(result):
            if tables is not None:
                tables[config][split].append(row)
        chunk.clear()

    for g, image_file in graphs:
        images += 1
        if stage == "read":
            continue
        if stage == "full":
            chunk.append((g, image_file))
            if len(chunk) == CHUNK:
                flush()
            continue
        g = prepare(g, drops)
        if stage == "walks":
            dedup = PatchDeduplicator()
            for n in range(4, 13):
                for r in sample_walks(g, n, 0, 3):
                    if (
                        r.graph is not None
                        and region_reason(r.graph, box := subgraph_region(r.graph), rf) is None
                    ):
                        dedup.admit(n, box)
            continue
        sample_items(
            g, image_file, range(4, 13), 0, 3, 12, lambda n: "template", drops, ranker=ranker
        )
    if chunk:
        flush()
    return images


def prepare(g, drops):
    from crepe_datasets.builders.productivity.clean import clean_graph

    return clean_graph(g, drops)


def _warm_resources() -> float:
    from crepe_datasets.builders.productivity.chunks import worker_state
    from crepe_datasets.generators.negatives.foils import first_senses
    from crepe_datasets.infra.resources import wordnet
    from crepe_datasets.scenegraph.lexicon import singularize

    start = time.perf_counter()
    wordnet()
    first_senses()
    singularize("dogs")
    worker_state(_settings(SAMPLE))
    return time.perf_counter() - start


def sample_speed() -> None:
    print(
        f"resources (WordNet, sense index, lemminflect, n-gram LM) loaded in {_warm_resources():.1f} s"
    )
    print(
        f"\nreal VG sample: {len(list(_graphs(SAMPLE)))} images   (images per second; higher is better)"
    )
    print(f"{'stage (cumulative)':<38} {'cold':>8} {'warm':>8}")
    for stage, label in (
        ("read", "read graphs (baseline)"),
        ("walks", "+ clean text, walks, regions, dedup"),
        ("negatives", "+ negative candidates (plausible foils)"),
        ("full", "+ captions, refinement, rows = full"),
    ):
        rates = []
        for _ in range(2):
            start = time.perf_counter()
            n = _pipeline(_graphs(SAMPLE), stage)
            rates.append(n / max(time.perf_counter() - start, 1e-9))
        print(f"{label:<38} {rates[0]:>8.1f} {rates[1]:>8.1f}")


def _status_mib(key: str) -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def peak_rss_mib() -> float:
    """This process's peak resident memory (VmHWM; ru_maxrss would include the parent's, from fork)."""
    peak = _status_mib("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(folder: str, stage: str, limit: str, seconds: str) -> None:
    """Child process: run one stage over the big file; print a JSON line with RSS and speed."""
    if stage != "read":
        _warm_resources()
    base = peak_rss_mib()
    deadline = time.perf_counter() + float(seconds)
    lim = None if limit == "none" else int(limit)

    at: dict[str, float | None] = {}

    def budgeted():
        for i, item in enumerate(_graphs(Path(folder), lim)):
            if i == 100:
                at["rss_100"] = _status_mib("VmRSS")
            yield item
            if time.perf_counter() > deadline:
                return

    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as spool:
        n = _pipeline(budgeted(), stage, Path(spool) if stage == "full" else None)
    elapsed = time.perf_counter() - start
    peak = peak_rss_mib()
    print(
        json.dumps(
            {
                "images": n,
                "seconds": elapsed,
                "peak_mib": peak,
                "startup_mib": base,
                "rss_100": at.get("rss_100") or 0.0,
                "rss_end": _status_mib("VmRSS") or 0.0,
            }
        )
    )


def big_file_memory(seconds: float, images: int | None) -> None:
    with tempfile.TemporaryDirectory(dir=ROOT / "out" if (ROOT / "out").is_dir() else None) as tmp:
        start = time.perf_counter()
        n = 100 * 1000
        generate(SAMPLE, Path(tmp), n)  # the 100,000-image file of the streaming benchmark
        size = (Path(tmp) / "scene_graphs.json").stat().st_size
        print(
            f"\n100,000-image file: {n:,} images, {size / 2**20:,.0f} MiB, written in {time.perf_counter() - start:.1f} s"
        )
        print(
            f"{'run (fresh process each)':<44} {'images':>8} {'img/s':>8} {'peak RSS MiB':>13} {'RSS @100 img':>13} {'RSS at end':>11}"
        )
        runs = (
            ("read", "none", 10_000, "stream-read all graphs (baseline)"),
            ("full", str(images) if images else "none", seconds, "full pipeline, rows spooled"),
        )
        for stage, limit, budget, label in runs:
            out = subprocess.run(
                [sys.executable, __file__, "--child", tmp, stage, limit, str(budget)],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "TQDM_DISABLE": "1"},
            )
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(
                f"{label:<44} {r['images']:>8,} {r['images'] / r['seconds']:>8.1f} {r['peak_mib']:>13.0f} "
                f"{r['rss_100']:>13.0f} {r['rss_end']:>11.0f}"
            )


def _engine_child(folder: str, workers: str, limit: str) -> None:
    """Child process: the build's engine loop (chunks of 64) over the first ``limit`` images.

    Steady state: images after the first finished chunk, divided by the time from that chunk
    to the last (worker start-up and WordNet loading excluded). Peak RSS: the largest worker.
    """
    from crepe_datasets.builders.engines import make_engine
    from crepe_datasets.builders.productivity.chunks import read_chunk, run_chunk

    s = _settings(Path(folder))
    settings = {**vars(s)}
    n = int(limit)
    graphs = _graphs(Path(folder), n)
    said = _sample_descriptions()

    def tasks():
        chunk: list = []
        index = 0
        for g, f in graphs:  # image k of the file is a copy of the sample's image k mod 100
            if said is None:
                chunk.append((g.to_dict(), f))
            else:
                chunk.append((g.to_dict(), f, said[(int(g.image_id) - 1) % len(said)]))
            if len(chunk) == CHUNK:
                yield (settings, index, chunk, spool)
                chunk, index = [], index + 1
        if chunk:
            yield (settings, index, chunk, spool)

    with tempfile.TemporaryDirectory() as spool:
        start = time.perf_counter()
        first = None
        done = 0
        with make_engine("local", int(workers)) as engine:
            for path in engine.imap(run_chunk, tasks()):
                images = read_chunk(path)["images"]
                Path(path).unlink()
                if first is None:
                    first, first_images = time.perf_counter(), images
                    cpu_first = tree_cpu_seconds()
                done += images
            end, cpu_end = time.perf_counter(), tree_cpu_seconds()
    peak = peak_rss_mib()
    if int(workers) > 1:
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    steady = (done - first_images) / max(end - first, 1e-9) if first else 0.0
    cpu = cpu_end - cpu_first if first else 0.0
    per_cpu = (done - first_images) / cpu if cpu > 0 else 0.0
    print(
        json.dumps(
            {
                "images": done,
                "seconds": end - start,
                "steady": steady,
                "per_cpu": per_cpu,
                "peak_mib": peak,
            }
        )
    )


def _sample_descriptions() -> list[list] | None:
    """The region descriptions and questions of each image of the sample, in file order, as
    a build's chunk records carry them; ``None`` for code that reads none (a ``--baseline``
    checkout before them, whose records are ``(graph, image file)``)."""
    from crepe_datasets.infra.provenance import DropLog

    try:
        from crepe_datasets.scenegraph.vg.descriptions import ImageDescriptions
    except ImportError:
        return None

    ids = [r["image_id"] for r in json.loads((SAMPLE / "scene_graphs.json").read_text())]
    texts = ImageDescriptions(SAMPLE, DropLog())
    return [[d.to_list() for d in texts.take(i)] for i in ids]


def tree_cpu_seconds() -> float:
    """User + system CPU seconds of this process and its live children (the pool's workers)."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += sum(child.cpu_times()[:2])
    return total


def baseline_checkout(rev: str, into: Path) -> Path:
    """The repository's files at ``rev`` (``git archive``), to run the same benchmark on the
    code before an optimisation, in the same run; WordNet comes from this checkout. The
    measuring script is this one, copied in (it imports the checkout's code)."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    script = into / "scripts" / "bench" / "productivity_speed.py"
    shutil.copyfile(__file__, script)
    return script


def _run_engine(script: Path, tmp: str, workers: int, images: int) -> dict:
    nltk = os.pathsep.join(
        p for p in (os.environ.get("NLTK_DATA", ""), str(ROOT / ".nltk_data")) if p
    )
    out = subprocess.run(
        [sys.executable, str(script), "--engine-child", tmp, str(workers), str(images)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TQDM_DISABLE": "1", "NLTK_DATA": nltk, "CREPE_BENCH_VG": str(SAMPLE)},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def engines(
    images: int,
    baseline: str | None = None,
    repeat: int = 1,
    workers: tuple[int, ...] = (1, 2),
) -> None:
    """1 vs 2 worker processes on the first ``images`` images of the 100,000-image file; with
    ``baseline`` (a git revision), the same runs of that revision's code, alternating with
    this code's ``repeat`` times."""
    with tempfile.TemporaryDirectory(dir=ROOT / "out" if (ROOT / "out").is_dir() else None) as tmp:
        generate(SAMPLE, Path(tmp), 100 * 1000)
        print(
            f"\nengines on the first {images:,} images of the 100,000-image file (chunks of {CHUNK})"
        )
        print(
            f"{'code, engine':<34} {'images':>7} {'wall s':>8} {'steady img/s':>13} "
            f"{'img/CPU-s':>10} {'peak RSS MiB/worker':>20}"
        )
        codes = [("now", Path(__file__))]
        if baseline:
            script = baseline_checkout(baseline, Path(tmp) / "baseline")
            codes.insert(0, (f"before ({baseline[:8]})", script))
        runs: dict[tuple[str, int], list[dict]] = {}
        for _ in range(repeat):
            for label, script in codes:
                for w in workers:
                    r = _run_engine(script, tmp, w, images)
                    runs.setdefault((label, w), []).append(r)
                    print(
                        f"{label + ', ' + str(w) + ' worker(s)':<34} {r['images']:>7,} "
                        f"{r['seconds']:>8.1f} {r['steady']:>13.1f} {r.get('per_cpu', 0.0):>10.1f} "
                        f"{r['peak_mib']:>20.0f}",
                        flush=True,
                    )
        if repeat > 1:
            print(f"medians of {repeat} runs")
            for (label, w), rs in runs.items():
                print(
                    f"{label + ', ' + str(w) + ' worker(s)':<34} {'':>7} {'':>8} "
                    f"{statistics.median(r['steady'] for r in rs):>13.1f} "
                    f"{statistics.median(r.get('per_cpu', 0.0) for r in rs):>10.1f} "
                    f"{max(r['peak_mib'] for r in rs):>20.0f}"
                )
        rates = {w: statistics.median(r["steady"] for r in runs[("now", w)]) for w in workers}
        full_vg = 108_077
        if 1 in rates and 2 in rates and rates[1]:
            print(f"2 workers / 1 worker: {rates[2] / rates[1]:.2f}x")
        for w, rate in rates.items():
            if rate:
                print(
                    f"projected all of Visual Genome ({full_vg:,} images), {w} worker(s): {full_vg / rate / 60:.0f} min"
                )


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(*sys.argv[2:6])
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--engine-child":
        _engine_child(*sys.argv[2:5])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=30.0, help="time budget of the full-pipeline run"
    )
    parser.add_argument(
        "--images", type=int, default=None, help="images of the big file for the full run"
    )
    parser.add_argument("--only-big", action="store_true", help="skip the sample speed part")
    parser.add_argument(
        "--only-engines", action="store_true", help="only the 1 vs 2 worker comparison"
    )
    parser.add_argument(
        "--baseline",
        default=None,
        help="git revision whose code runs the engine comparison first (before vs after)",
    )
    parser.add_argument(
        "--engine-images", type=int, default=512, help="images of the 1 vs 2 worker comparison"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="engine runs per code (alternating with --baseline)"
    )
    parser.add_argument(
        "--workers", default="1,2", help="worker counts of the engine runs, comma-separated"
    )
    args = parser.parse_args()
    if not (args.only_big or args.only_engines):
        sample_speed()
    if not args.only_engines:
        big_file_memory(args.seconds, args.images)
    if args.engine_images:
        workers = tuple(int(w) for w in args.workers.split(","))
        engines(args.engine_images, args.baseline, max(1, args.repeat), workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())

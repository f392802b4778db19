"""Speed and memory of crepe-systematicity's text pipeline: filter + spelling + parse + split.

1. On the real Visual Genome sample (images 1-100), in this process, warm (spaCy, symspell and
   the seen tables loaded before timing; two passes, the first with empty caches): region records
   per second through
   (a) reading + region filter only, (b) reading + filter + spelling + parse + keep rules +
   split, the full text pipeline of a build (negatives and writing excluded); beside it the
   **parse-corpus rate** on the same machine, in the same run: ``parse_shard`` (what
   ``crepe parse-corpus`` runs per shard) on the very texts that (b) parsed.
2. On a 100,000-image VG-format ``region_descriptions.json`` made from the sample (records
   repeated with new image and region ids, written streaming): peak resident memory of
   (a) over **all** 100,000 images and of (b) over the first images that ``--seconds`` allow,
   each in a fresh process, with resident memory after 100 images and at the end (streaming:
   memory must not grow with the number of images).

    .venv/bin/python scripts/bench/systematicity_speed.py [--seconds 60]

The seen tables are those of COCO's 100-caption val2014 sample (``parse-corpus`` cost is not
part of these figures). It takes about 5 minutes on 2 shared cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"
SAMPLE = SHARED / "visual_genome" / "images_1-100"
CORPUS = SHARED / "coco" / "minyus_samples" / "captions_val2014.json_samples.json"
BIG_IMAGES = 100_000


class NoSpelling:
    """Stand-in for the corrector in the read + filter baseline (no spelling step)."""

    def correct(self, text: str) -> str:
        return text


def _status_mib(key: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def _seen(folder: Path):
    from crepe_datasets.builders.engines import InProcessEngine
    from crepe_datasets.builders.seen_build import build_seen_tables
    from crepe_datasets.scenegraph.seen import load_seen

    if not (folder / "manifest.json").exists():
        build_seen_tables(f"coco:{CORPUS}", folder, InProcessEngine(), progress=False)
    return load_seen(folder)


def run(vg: Path, stage: str, seen_dir: Path, seconds: float | None = None) -> dict:
    """Run ``stage`` ("filter" or "full") over ``vg``; figures as a dict."""
    from crepe_datasets.builders.engines import InProcessEngine
    from crepe_datasets.builders.seen_tables import worker_parser
    from crepe_datasets.builders.systematicity.spelling import SpellingCorrector, vg_vocabulary
    from crepe_datasets.builders.systematicity.split import classify
    from crepe_datasets.builders.systematicity.texts import (
        image_texts,
        keep_regions,
        parsed_images,
    )
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.visual_genome import iter_regions, read_image_data

    drops = DropLog()
    infos = read_image_data(vg / "image_data.json", drops)
    corrector = NoSpelling()
    seen = None
    if stage == "full":
        corrector = SpellingCorrector(vg_vocabulary(SAMPLE)[0])
        seen = _seen(seen_dir)
        worker_parser(None).parse(["a warm-up caption of a red bus"])
    deadline = time.perf_counter() + seconds if seconds else None
    at: dict[str, float] = {}
    counts = {"images": 0, "regions": 0, "texts": 0, "kept": 0}
    start = time.perf_counter()
    regions = iter_regions(vg / "region_descriptions.json", drops, infos)

    def counted():
        for r in regions:
            counts["regions"] += 1
            yield r

    images = image_texts(counted(), infos, corrector, drops)

    def budgeted():
        for image in images:
            yield image
            if deadline and time.perf_counter() > deadline:
                return

    stream = budgeted() if stage == "filter" else parsed_images(budgeted(), InProcessEngine())
    splits: dict[str, int] = {}
    for image in stream:
        counts["images"] += 1
        if counts["images"] == 100:
            at["rss_100"] = _status_mib("VmRSS")
        counts["texts"] += len(image.regions)
        if stage == "full":
            for region in keep_regions(image, drops):
                counts["kept"] += 1
                split = classify(region.graph, seen).split
                splits[split] = splits.get(split, 0) + 1
    elapsed = time.perf_counter() - start
    return {
        **counts,
        "seconds": elapsed,
        "splits": splits,
        "peak_mib": _status_mib("VmHWM"),
        "rss_100": at.get("rss_100", 0.0),
        "rss_end": _status_mib("VmRSS"),
    }


def parse_corpus_rate(texts: list[str]) -> float:
    """Captions per second of ``parse_shard`` (parse-corpus's unit of work) on ``texts``."""
    from crepe_datasets.builders.seen_tables import parse_shard

    start = time.perf_counter()
    parse_shard(texts)
    return len(texts) / (time.perf_counter() - start)


def sample_speed(seen_dir: Path) -> None:
    print("Visual Genome sample (images 1-100), this process; machine shared with others.")
    print("Order: parse-corpus pass 1, pipeline pass 1, pipeline pass 2, parse-corpus pass 2")
    print("(pass 1 starts with empty spelling and parser caches; parser caches are shared).")
    filt = run(SAMPLE, "filter", seen_dir)
    texts = [r.text for r in _filtered_texts()]
    rate = [parse_corpus_rate(texts)]
    full = [run(SAMPLE, "full", seen_dir) for _ in range(2)]
    rate.append(parse_corpus_rate(texts))
    print(f"{'stage':<50} {'regions/s':>10} {'texts/s pass 1':>15} {'texts/s pass 2':>15}")
    print(f"{'read + region filter (baseline)':<50} {filt['regions'] / filt['seconds']:>10.0f} "
          f"{filt['texts'] / filt['seconds']:>15.0f}")  # fmt: skip
    print(f"{'read + filter + spelling + parse + keep + split':<50} "
          f"{full[1]['regions'] / full[1]['seconds']:>10.0f} "
          f"{full[0]['texts'] / full[0]['seconds']:>15.0f} "
          f"{full[1]['texts'] / full[1]['seconds']:>15.0f}")  # fmt: skip
    print(f"{'parse-corpus (parse_shard) on the same texts':<50} {'':>10} {rate[0]:>15.0f} "
          f"{rate[1]:>15.0f}")  # fmt: skip
    full = full[1]
    print(f"  {full['regions']:,} region records, {full['texts']:,} pass the region filter, "
          f"{full['kept']:,} kept; splits {full['splits']}")  # fmt: skip


def _filtered_texts():
    """The region texts of the sample that pass the filter (no spelling: parse-corpus's input)."""
    from crepe_datasets.builders.systematicity.texts import image_texts
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.visual_genome import iter_regions, read_image_data

    drops = DropLog()
    infos = read_image_data(SAMPLE / "image_data.json", drops)
    regions = iter_regions(SAMPLE / "region_descriptions.json", drops, infos)
    return [r for im in image_texts(regions, infos, NoSpelling(), drops) for r in im.regions]


def generate(out_dir: Path, n_images: int) -> tuple[Path, int]:
    """A ``region_descriptions.json`` + ``image_data.json`` of ``n_images`` images, streamed."""
    records = json.loads((SAMPLE / "region_descriptions.json").read_text(encoding="utf-8"))
    sizes = {r["image_id"]: r for r in json.loads((SAMPLE / "image_data.json").read_text())}
    regions_path = out_dir / "region_descriptions.json"
    stride = 10_000_000
    with open(regions_path, "w") as rd, open(out_dir / "image_data.json", "w") as im:
        rd.write("[")
        im.write("[")
        for i in range(n_images):
            rec = records[i % len(records)]
            image_id, shift = i + 1, (i // len(records)) * stride
            regions = [
                {**r, "image_id": image_id, "region_id": r["region_id"] + shift}
                for r in rec["regions"]
            ]
            sep = ", " if i else ""
            rd.write(sep + json.dumps({"id": image_id, "regions": regions}))
            im.write(sep + json.dumps({**sizes[rec["id"]], "image_id": image_id}))
        rd.write("]")
        im.write("]")
    return regions_path, regions_path.stat().st_size


def big_file(seen_dir: Path, seconds: float) -> None:
    parent = ROOT / "out" if (ROOT / "out").is_dir() else None
    with tempfile.TemporaryDirectory(dir=parent) as tmp:
        start = time.perf_counter()
        _, size = generate(Path(tmp), BIG_IMAGES)
        print(f"\n{BIG_IMAGES:,}-image region_descriptions.json: {size / 2**20:,.0f} MiB, "
              f"written in {time.perf_counter() - start:.0f} s; each run in a fresh process")  # fmt: skip
        print(f"{'run':<46} {'images':>8} {'regions':>10} {'regions/s':>10} {'peak MiB':>9} "
              f"{'RSS@100 img':>12} {'RSS at end':>11}")  # fmt: skip
        for stage, budget, label in (
            ("filter", None, "read + region filter, all images (baseline)"),
            ("full", seconds, "filter + spelling + parse + split"),
        ):
            cmd = [sys.executable, __file__, "--child", tmp, stage, str(seen_dir), str(budget)]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                                 env={**os.environ, "TQDM_DISABLE": "1"})  # fmt: skip
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"{label:<46} {r['images']:>8,} {r['regions']:>10,} "
                  f"{r['regions'] / r['seconds']:>10.0f} {r['peak_mib']:>9.0f} "
                  f"{r['rss_100']:>12.0f} {r['rss_end']:>11.0f}")  # fmt: skip


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        folder, stage, seen_dir, budget = sys.argv[2:6]
        r = run(Path(folder), stage, Path(seen_dir), None if budget == "None" else float(budget))
        print(json.dumps(r))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget of the full run")
    parser.add_argument("--only-sample", action="store_true", help="skip the 100,000-image part")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as seen_tmp:
        seen_dir = Path(seen_tmp) / "seen"
        _seen(seen_dir)
        sample_speed(seen_dir)
        if not args.only_sample:
            big_file(seen_dir, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())

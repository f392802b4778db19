"""crepe-captioning build time: cold parse cache vs warm cache, beside the raw spaCy pipeline.

Run: ``.venv/bin/python scripts/bench/captioning_build.py [--images 5000] [--workers 1]``

On the first N images of COCO val2017 captions (all 5,000 by default: 25,014 captions), in the
same run:

1. baseline: the raw spaCy pipeline (``nlp.pipe``, every default pipe) over the same captions,
   docs consumed and nothing else;
2. ``crepe build captioning`` end to end with an empty parse cache (read, parse through the
   engine, split, write parquet + card);
3. the same build again with the cache filled (no parsing).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

COCO = ROOT.parent / "shared" / "data" / "coco" / "captions_val2017.json"


def _subset(out: Path, n_images: int) -> tuple[Path, int]:
    data = json.loads(COCO.read_text(encoding="utf-8"))
    images = data["images"][:n_images]
    keep = {im["id"] for im in images}
    anns = [a for a in data["annotations"] if a["image_id"] in keep]
    path = out / "captions_val2017.json"
    path.write_text(json.dumps({**data, "images": images, "annotations": anns}), encoding="utf-8")
    return path, len(anns)


def main() -> int:
    from crepe_datasets.builders.captioning.build import CaptioningSettings, build_captioning
    from crepe_datasets.infra.resources import load_spacy

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="crepe-bench-captioning-") as tmp:
        root = Path(tmp)
        captions, n = _subset(root, args.images)
        texts = [a["caption"] for a in json.loads(captions.read_text())["annotations"]]
        print(f"{args.images:,} images, {n:,} captions; {args.workers} worker(s); shared machine, "
              "compare only figures of this run")  # fmt: skip
        rows = []
        nlp = load_spacy()
        start = time.perf_counter()
        for _ in nlp.pipe(texts, batch_size=256):
            pass
        rows.append(("raw spaCy pipeline, all pipes (baseline)", time.perf_counter() - start))
        for label, cache in (("build, empty parse cache", "c"), ("build, parse cache filled", "c")):
            settings = CaptioningSettings(
                captions=[f"coco:{captions}"], out=str(root / f"out-{len(rows)}"),
                cache_dir=str(root / cache), workers=args.workers, progress=False,
            )  # fmt: skip
            start = time.perf_counter()
            build_captioning(settings)
            rows.append((label, time.perf_counter() - start))
        print(f"\n{'step':<44}{'seconds':>9}{'captions/s':>12}")
        for label, seconds in rows:
            print(f"{label:<44}{seconds:9.2f}{n / seconds:12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

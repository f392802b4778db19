"""Evaluator speed against a naive loop that encodes each [caption + negatives] set separately.

The naive loop is what CREPE's own script does (batch size 1: one image, then its retrieval set
of texts, per sample). Both run in the same process on the same samples: the first rows of
CREPE's released productivity CSVs (real captions and negatives, ``../shared/data/crepe_release``)
for the chosen complexity and the three negative types, restricted to a common set of images, with
synthetic JPEG images generated for their Visual Genome ids (sized to hold every box).

CPU: a tiny randomly initialised open_clip model. GPU (when ``torch.cuda.is_available()``): an
open_clip ViT-B-32 with random weights (no download; speed does not depend on the weights), AMP.

    .venv/bin/python scripts/bench/evaluator_speed.py [--images-per-type 60] [--complexity 4]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

RELEASE = (
    Path(os.environ.get("CREPE_SHARED_DATA", REPO.parent / "shared" / "data"))
    / "crepe_release"
    / "prod_hard_negatives"
)
TYPES = ("atom", "swap", "negate")


def slice_release(
    out: Path, complexity: int, n_images: int
) -> tuple[Path, dict[str, tuple[int, int]]]:
    """Copy the first rows of each type (over the first ``n_images`` atom images) into ``out``."""
    import csv

    csv.field_size_limit(1 << 24)
    name = "prod_vg_hard_negs_{t}_complexity_{n}.csv"
    with open(
        RELEASE / "atom" / name.format(t="atom", n=complexity), newline="", encoding="utf-8"
    ) as f:
        ids = list(dict.fromkeys(row["image_id"] for row in csv.DictReader(f)))[:n_images]
    keep, extent = set(ids), {}
    for t in TYPES:
        src = RELEASE / t / name.format(t=t, n=complexity)
        (out / t).mkdir(parents=True, exist_ok=True)
        with (
            open(src, newline="", encoding="utf-8") as f,
            open(out / t / src.name, "w", newline="", encoding="utf-8") as g,
        ):
            reader = csv.DictReader(f)
            writer = csv.DictWriter(g, reader.fieldnames)
            writer.writeheader()
            for row in reader:
                if row["image_id"] in keep:
                    writer.writerow(row)
                    x, y, w, h = (float(row[k]) for k in ("x", "y", "width", "height"))
                    old = extent.get(row["image_id"], (500, 375))
                    extent[row["image_id"]] = (
                        max(old[0], int(x + w) + 1),
                        max(old[1], int(y + h) + 1),
                    )
    return out, extent


def write_images(folder: Path, extent: dict[str, tuple[int, int]]) -> None:
    """Deterministic textured JPEGs named ``<image_id>.jpg``."""
    import numpy as np
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    for image_id, (w, h) in sorted(extent.items()):
        rng = np.random.default_rng(int(image_id))
        base = rng.integers(0, 255, size=(h // 8 + 1, w // 8 + 1, 3), dtype=np.uint8)
        img = Image.fromarray(base).resize((w, h), Image.BILINEAR)
        img.save(folder / f"{image_id}.jpg", quality=90)


def naive(model, splits, image_dir: Path) -> tuple[float, list[int]]:
    """CREPE-style: per sample, encode its image and its retrieval set, then rank."""
    import torch

    from crepe_datasets.evaluator.encode import RegionDataset

    loader = RegionDataset([], image_dir, model.preprocess)
    ranks = []
    start = time.perf_counter()
    for items in splits:
        for refs, texts in zip(items.images, items.texts, strict=True):
            image = model.encode_images([loader.load(refs[0])])
            scores = (image @ model.encode_texts(list(texts)).T)[0]
            ranks.append(int(1 + (scores[1:] >= scores[0]).sum()))
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    return time.perf_counter() - start, ranks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--images-per-type", type=int, default=60, help="images taken from the atom file"
    )
    parser.add_argument("--complexity", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1))
    args = parser.parse_args()

    import numpy as np
    import torch

    from crepe_datasets.evaluator.compat import open_compat
    from crepe_datasets.evaluator.models import load_model
    from crepe_datasets.evaluator.run import EvalSettings, evaluate_source
    from crepe_datasets.evaluator.tiny import write_tiny_open_clip

    cuda = torch.cuda.is_available()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        release, extent = slice_release(
            tmp / "prod_hard_negatives", args.complexity, args.images_per_type
        )
        write_images(tmp / "images", extent)
        if cuda:
            import open_clip

            ckpt = tmp / "vit_b_32_random.pt"
            torch.save(open_clip.create_model("ViT-B-32").state_dict(), ckpt)
            spec, precision, device = f"open_clip:ViT-B-32@{ckpt}", "amp", "cuda"
        else:
            spec, precision, device = (
                f"open_clip:{write_tiny_open_clip(tmp / 'tiny')}",
                "fp32",
                "cpu",
            )
        model = load_model(spec, device=device, precision=precision)
        source = open_compat(f"crepe-release:{release}", "crepe-release", str(release))
        splits = [items for config in source.configs for items in source.load(config).values()]
        n_samples = sum(len(s) for s in splits)
        n_texts = sum(len(t) for s in splits for t in s.texts)
        uniq_img = len({r.key for s in splits for refs in s.images for r in refs})
        uniq_txt = len({t for s in splits for ts in s.texts for t in ts})
        settings = EvalSettings(out=tmp / "results", images=tmp / "images", device=device, precision=precision,
                                batch_size=args.batch_size, workers=args.workers, cache_dir=None, n_boot=200,
                                progress=False)  # fmt: skip
        naive(model, splits[:1], tmp / "images")  # warm-up
        start = time.perf_counter()
        records = evaluate_source(model, source, splits, settings)
        ours_s = time.perf_counter() - start
        naive_s, ranks = naive(model, splits, tmp / "images")
        ours_r1 = np.average([r.main_value() for r in records], weights=[r.n for r in records])
        naive_r1 = float(np.mean(np.asarray(ranks) == 1))
        name = (
            "ViT-B-32 (random weights), CUDA AMP" if cuda else "tiny open_clip (random), CPU fp32"
        )
        print(
            f"model: {name}; device: {torch.cuda.get_device_name() if cuda else 'cpu'}; torch {torch.__version__}"
        )
        print(f"data: CREPE release complexity {args.complexity}, types {', '.join(TYPES)}: {n_samples} samples, "
              f"{n_texts} texts in their sets; unique: {uniq_img} image crops, {uniq_txt} texts")  # fmt: skip
        print(
            f"{'method':<34}{'wall s':>8}{'samples/s':>11}{'images/s':>10}{'texts/s':>10}{'R@1':>8}"
        )
        for label, secs, r1 in (
            ("naive loop (per-set encoding)", naive_s, naive_r1),
            ("evaluator (unique, batched)", ours_s, ours_r1),
        ):
            print(
                f"{label:<34}{secs:>8.2f}{n_samples / secs:>11.1f}{n_samples / secs:>10.1f}{n_texts / secs:>10.1f}{100 * r1:>8.2f}"
            )
        print(f"speed-up: {naive_s / ours_s:.1f}x  (images/s and texts/s count every sample's image and every text "
              f"of its set; the evaluator encodes {uniq_img} + {uniq_txt} unique inputs, workers={args.workers}, "
              f"batch={args.batch_size})")  # fmt: skip


if __name__ == "__main__":
    main()

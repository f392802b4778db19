"""Evaluator speed beside a per-set encoding loop and a pure-encode floor, per precision.

Three ways to score the same samples, each in the same process on the same data: the first
rows of CREPE's released productivity CSVs (real captions and negatives,
``../shared/data/crepe_release``; ``CREPE_SHARED_DATA`` points elsewhere) for the chosen
complexities and the three negative types, restricted to a common set of images, with synthetic
JPEG images generated for their Visual Genome ids (sized to hold every box):

* **naive loop**: what CREPE's own script does (batch size 1: per sample, load and encode its
  image crop, then its retrieval set of texts, then rank);
* **evaluator**: ``evaluate_source``, which encodes every unique crop and text once, batched,
  with crops decoded in DataLoader workers, then scores every split (metrics + bootstrap CIs);
* **pure encode**: the model's forward passes alone over the same unique inputs, with every crop
  already decoded, preprocessed and on the device and every text already tokenized: the floor
  that no evaluator over these inputs can beat.

CPU: a tiny randomly initialised open_clip model, fp32. GPU (when ``torch.cuda.is_available()``):
an open_clip ViT-B-32 with random weights (no download; speed does not depend on the weights;
``--arch`` picks another open_clip architecture, or ``hf-base``: a HuggingFace ``CLIPModel`` with
ViT-B/32 towers and a word-level tokenizer, on either device),
fp32 and AMP.

    .venv/bin/python scripts/bench/evaluator_speed.py [--images-per-type 60] [--complexities 4]
    python3 scripts/bench/evaluator_speed.py --complexities 4,8,12 --images-per-type 0   # GPU
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

RELEASE = (
    Path(os.environ.get("CREPE_SHARED_DATA", REPO.parent / "shared" / "data"))
    / "crepe_release"
    / "prod_hard_negatives"
)
TYPES = ("atom", "swap", "negate")
NAME = "prod_vg_hard_negs_{t}_complexity_{n}.csv"


def slice_release(out: Path, complexities: list[int], n_images: int) -> dict[str, tuple[int, int]]:
    """Copy each type's rows over the first ``n_images`` atom images (0: all) into ``out``.

    Returns each image id's extent (width, height), large enough to hold every box.
    """
    csv.field_size_limit(1 << 24)
    extent: dict[str, tuple[int, int]] = {}
    for n in complexities:
        with open(RELEASE / "atom" / NAME.format(t="atom", n=n), newline="", encoding="utf-8") as f:
            ids = list(dict.fromkeys(row["image_id"] for row in csv.DictReader(f)))
        keep = set(ids[:n_images] if n_images else ids)
        for t in TYPES:
            src = RELEASE / t / NAME.format(t=t, n=n)
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
    return extent


def _write_image(job: tuple[Path, str, int, int]) -> None:
    import numpy as np
    from PIL import Image

    folder, image_id, w, h = job
    rng = np.random.default_rng(int(image_id))
    base = rng.integers(0, 255, size=(h // 8 + 1, w // 8 + 1, 3), dtype=np.uint8)
    Image.fromarray(base).resize((w, h), Image.BILINEAR).save(
        folder / f"{image_id}.jpg", quality=90
    )


def write_images(folder: Path, extent: dict[str, tuple[int, int]], workers: int) -> None:
    """Deterministic textured JPEGs named ``<image_id>.jpg``."""
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(folder, i, w, h) for i, (w, h) in sorted(extent.items())]
    with ProcessPoolExecutor(max(1, workers)) as pool:
        list(pool.map(_write_image, jobs, chunksize=64))


def sync() -> None:
    import torch

    if torch.cuda.is_available():
        torch.cuda.synchronize()


def naive(model, splits, image_dir: Path, limit: int) -> tuple[float, int, int, list[int]]:
    """CREPE-style: per sample, encode its image and its retrieval set, then rank.

    Returns ``(seconds, samples, texts, ranks)`` over the first ``limit`` samples (0: all).
    """
    from crepe_datasets.evaluator.encode import RegionDataset

    loader = RegionDataset([], image_dir, model.preprocess)
    pairs = [pair for items in splits for pair in zip(items.images, items.texts, strict=True)]
    pairs = pairs[:limit] if limit else pairs
    ranks = []
    sync()
    start = time.perf_counter()
    for refs, texts in pairs:
        image = model.encode_images([loader.load(refs[0])])
        scores = (image @ model.encode_texts(list(texts)).T)[0]
        ranks.append(int(1 + (scores[1:] >= scores[0]).sum()))
    sync()
    return time.perf_counter() - start, len(pairs), sum(len(t) for _, t in pairs), ranks


def preprocessed(model, refs, image_dir: Path):
    """Every unique crop decoded and preprocessed, stacked on the CPU."""
    import torch

    from crepe_datasets.evaluator.encode import RegionDataset

    data = RegionDataset(refs, image_dir, model.preprocess)
    return torch.stack([data[i][1] for i in range(len(data))])


def pure_encode(model, pixels, texts, batch_size: int) -> tuple[float, float]:
    """Seconds of the forward passes alone: ``(images, texts)`` over the given unique inputs.

    ``pixels`` (every crop, preprocessed) is moved to the device beforehand; texts are tokenized
    beforehand (the model's own tokenizer) and moved to the device.
    """
    import torch

    def to_device(tokens):
        if isinstance(tokens, dict):
            return {k: v.to(model.device) for k, v in tokens.items()}
        return tokens.to(model.device)

    dtype = torch.float16 if model.precision == "fp16" else torch.float32
    batches = [b.to(model.device, dtype=dtype) for b in pixels.split(batch_size)]
    tokens = [to_device(model.tokenize(texts[s : s + batch_size]))
              for s in range(0, len(texts), batch_size)]  # fmt: skip
    with torch.inference_mode(), model._autocast():
        model._image_features(batches[0])  # warm-up (kernel selection)
        model._token_features(tokens[0])
        sync()
        start = time.perf_counter()
        for batch in batches:
            model._image_features(batch)
        sync()
        image_s = time.perf_counter() - start
        start = time.perf_counter()
        for batch in tokens:
            model._token_features(batch)
        sync()
    return image_s, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--images-per-type", type=int, default=60,
                        help="images taken from each complexity's atom file (0: all)")  # fmt: skip
    parser.add_argument("--complexities", default="4", help="comma-separated, e.g. 4,8,12")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--workers", type=int, default=min(8, os.cpu_count() or 1))
    parser.add_argument("--precisions", default=None,
                        help="comma-separated; default fp32 on CPU, fp32,amp on CUDA")  # fmt: skip
    parser.add_argument("--naive-samples", type=int, default=0,
                        help="time the naive loop on the first N samples only (0: all)")  # fmt: skip
    parser.add_argument("--arch", default=None,
                        help="open_clip architecture, or hf-base (a HuggingFace CLIPModel of ViT-B/32 size); random "
                             "weights (default: ViT-B-32 on CUDA, tiny open_clip on CPU)")  # fmt: skip
    args = parser.parse_args()

    import numpy as np
    import torch

    from crepe_datasets.evaluator.compat import open_compat
    from crepe_datasets.evaluator.models import load_model
    from crepe_datasets.evaluator.run import EvalSettings, evaluate_source
    from crepe_datasets.evaluator.tiny import write_tiny_hf_clip, write_tiny_open_clip

    cuda = torch.cuda.is_available()
    precisions = (args.precisions or ("fp32,amp" if cuda else "fp32")).split(",")
    complexities = [int(c) for c in args.complexities.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        release = tmp / "prod_hard_negatives"
        start = time.perf_counter()
        extent = slice_release(release, complexities, args.images_per_type)
        write_images(tmp / "images", extent, args.workers)
        prep_s = time.perf_counter() - start
        source = open_compat(f"crepe-release:{release}", "crepe-release", str(release))
        splits = [items for config in source.configs for items in source.load(config).values()]
        texts = sorted({t for s in splits for ts in s.texts for t in ts}, key=lambda t: (len(t), t))
        arch = args.arch or ("ViT-B-32" if cuda else None)
        if arch == "hf-base":
            spec = f"hf:{write_tiny_hf_clip(tmp / 'hf', texts, base=True)}"
            name = "HuggingFace CLIPModel, ViT-B/32 towers (random weights, word-level tokenizer)"
        elif arch:
            import open_clip

            ckpt = tmp / "random.pt"
            torch.manual_seed(0)
            torch.save(open_clip.create_model(arch).state_dict(), ckpt)
            spec, name = f"open_clip:{arch}@{ckpt}", f"{arch} (random weights)"
        else:
            spec = f"open_clip:{write_tiny_open_clip(tmp / 'tiny')}"
            name = "tiny open_clip (random weights)"
        device = "cuda" if cuda else "cpu"
        n_samples = sum(len(s) for s in splits)
        n_texts = sum(len(t) for s in splits for t in s.texts)
        refs = sorted({r.key: r for s in splits for rs in s.images for r in rs}.values(),
                      key=lambda r: (r.file or "", r.key))  # fmt: skip
        print(f"model: {name}; device: {torch.cuda.get_device_name() if cuda else 'cpu'}; "
              f"torch {torch.__version__}; {os.cpu_count()} CPUs, DataLoader workers {args.workers}, "
              f"batch {args.batch_size}")  # fmt: skip
        print(f"data: CREPE release complexities {args.complexities}, types {', '.join(TYPES)}: "
              f"{n_samples} samples, {n_texts} texts in their sets; unique: {len(refs)} image crops "
              f"of {len(extent)} images, {len(texts)} texts (data written in {prep_s:.1f} s)")  # fmt: skip
        header = f"{'precision':<10}{'method':<36}{'wall s':>8}{'samples/s':>11}{'crops/s':>9}{'texts/s':>9}{'R@1':>7}"
        lines, pixels = [header], None
        for precision in precisions:
            model = load_model(spec, device=device, precision=precision)
            settings = EvalSettings(out=tmp / f"results-{precision}", images=tmp / "images", device=device,
                                    precision=precision, batch_size=args.batch_size, workers=args.workers,
                                    cache_dir=None, n_boot=200, progress=False)  # fmt: skip
            naive(model, splits, tmp / "images", 8)  # warm-up
            start = time.perf_counter()
            records = evaluate_source(model, source, splits, settings)
            ours_s = time.perf_counter() - start
            naive_s, naive_n, naive_t, ranks = naive(
                model, splits, tmp / "images", args.naive_samples
            )
            if pixels is None:
                pixels = preprocessed(model, refs, tmp / "images")
            image_s, text_s = pure_encode(model, pixels, texts, args.batch_size)
            floor_s = image_s + text_s
            timing = records[0].timing
            r1 = np.average([r.main_value() for r in records], weights=[r.n for r in records])
            tag = model.precision
            lines += [
                f"{tag:<10}{f'naive loop ({naive_n} samples)':<36}{naive_s:>8.2f}{naive_n / naive_s:>11.1f}"
                f"{naive_n / naive_s:>9.1f}{naive_t / naive_s:>9.1f}{100 * np.mean(np.asarray(ranks) == 1):>7.2f}",
                f"{tag:<10}{'evaluator (unique, batched)':<36}{ours_s:>8.2f}{n_samples / ours_s:>11.1f}"
                f"{len(refs) / timing['images_s']:>9.1f}{len(texts) / timing['texts_s']:>9.1f}{100 * r1:>7.2f}",
                f"{tag:<10}{'pure encode (forward passes only)':<36}{floor_s:>8.2f}{n_samples / floor_s:>11.1f}"
                f"{len(refs) / image_s:>9.1f}{len(texts) / text_s:>9.1f}{'':>7}",
                f"{tag:<10}evaluator: images {timing['images_s']:.2f} s, texts {timing['texts_s']:.2f} s, "
                f"scoring {sum(r.timing['score_s'] for r in records):.2f} s; "
                f"{naive_n / naive_s and (n_samples / ours_s) / (naive_n / naive_s):.1f}x the naive loop's "
                f"samples/s, {floor_s / ours_s:.0%} of the pure-encode rate",
            ]  # fmt: skip
            del model
            if cuda:
                torch.cuda.empty_cache()
        print("\n".join(lines))
        print("samples/s: samples scored per second of wall time (naive: timed over the samples it ran); "
              "crops/s and texts/s: unique inputs per second of the encode step (naive: every sample's "
              "crop and every text of its set).")  # fmt: skip


if __name__ == "__main__":
    main()

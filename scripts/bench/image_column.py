"""The ``image`` column: size per 1,000 crops, crop and embed throughput on the CPU, and the
projection for all of Visual Genome.

Inputs: the real Visual Genome sample (images 1-100: ``image_data.json`` sizes and the 7,278
boxes of ``region_descriptions.json``; ``CREPE_SHARED_DATA`` points elsewhere). Without the
real photos (``--images VG_100K`` uses them where a machine has them), each image is written as a
JPEG (quality 90) of 1/f² ("pink") noise in colour at its real size: its spectrum falls off like a
natural photo's, which is what PNG and JPEG sizes depend on, but real crops will differ, so the
sizes here are indicative.

Measured, in this process:

* **crop**: every region cropped by :func:`crepe_datasets.scenegraph.crops.embed_rows` (decode,
  crop rule, lossless PNG), crops per second on one core — what ``crepe add-images`` does per
  worker;
* **size**: PNG bytes per 1,000 crops, and the parquet bytes of the image column written with the
  writer's settings (zstd 3); a JPEG (quality 90) of each crop for comparison only (the column is
  PNG so that a crop read back has the file's pixels);
* **embed**: crops read back from the column (PNG decode), preprocessed and embedded by
  ``EncoderModel.encode_pixels`` in batches, images per second, for random-weight ViT-B/32 CLIP
  (open_clip and HuggingFace) and SigLIP ViT-B/16 (HuggingFace): speed does not depend on the
  weights;
* **projection** for all of Visual Genome (108,077 images, 5,408,689 region descriptions, v1.2):
  bytes and hours at the measured rates.

    .venv/bin/python scripts/bench/image_column.py [--embed-crops 256] [--threads 2] [--images DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

VG_IMAGES = 108_077
VG_REGIONS = 5_408_689


def pink_noise_jpeg(path: Path, width: int, height: int, seed: int) -> None:
    """A colour 1/f² noise image at ``width`` × ``height`` as a JPEG (quality 90)."""
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(seed)
    fy = np.fft.fftfreq(height)[:, None]
    fx = np.fft.rfftfreq(width)[None, :]
    falloff = 1.0 / np.maximum(np.hypot(fx, fy), 1.0 / max(width, height))
    channels = []
    for _ in range(3):
        spectrum = falloff * np.exp(2j * np.pi * rng.random(falloff.shape))
        plane = np.fft.irfft2(spectrum, s=(height, width))
        plane = (plane - plane.mean()) / (plane.std() + 1e-9)
        channels.append(np.clip(128 + 48 * plane, 0, 255))
    Image.fromarray(np.stack(channels, -1).astype("uint8"), "RGB").save(path, quality=90)


def regions(vg: Path) -> list[dict]:
    """Rows ``{image_file, bbox}`` of every region of the sample, in file order."""
    from crepe_datasets.scenegraph.visual_genome import read_image_data

    infos = read_image_data(vg / "image_data.json")
    rows = []
    for entry in json.loads((vg / "region_descriptions.json").read_text()):
        for r in entry["regions"]:
            info = infos[str(r["image_id"])]
            rows.append(
                {"image_file": info.file_name,
                 "bbox": [float(r["x"]), float(r["y"]), float(r["width"]), float(r["height"])]}
            )  # fmt: skip
    return rows


def crop_and_size(rows: list[dict], images: Path) -> dict:
    """Crop every row (one core) and measure the column's sizes."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from PIL import Image

    from crepe_datasets.builders.writer import PARQUET_OPTIONS
    from crepe_datasets.scenegraph.crops import ImageCropper, embed_rows

    cropper = ImageCropper(images)
    start = time.perf_counter()
    out, failed = embed_rows(rows, cropper, "image_file", "bbox")
    crop_s = time.perf_counter() - start
    pngs = [r["image"]["bytes"] for r in out if r["image"]]
    jpeg_bytes = 0
    for data in pngs:
        buffer = io.BytesIO()
        Image.open(io.BytesIO(data)).save(buffer, format="JPEG", quality=90)
        jpeg_bytes += len(buffer.getvalue())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "image.parquet"
        table = pa.table({"image": pa.array([{"bytes": d, "path": None} for d in pngs])})
        pq.write_table(table, path, **PARQUET_OPTIONS)
        parquet_bytes = path.stat().st_size
    return {
        "crops": len(pngs), "failed": failed, "crop_s": crop_s, "crops_per_s": len(pngs) / crop_s,
        "png_bytes": sum(map(len, pngs)), "parquet_bytes": parquet_bytes, "jpeg_q90_bytes": jpeg_bytes,
        "pngs": pngs,
    }  # fmt: skip


def embed_rate(spec: str, pngs: list[bytes], batch: int) -> float:
    """Images per second: PNG decode + preprocess + encode, in batches, on the CPU."""
    import torch

    from crepe_datasets.evaluator.datasets_io import ImageRef
    from crepe_datasets.evaluator.encode import RegionDataset
    from crepe_datasets.evaluator.models import load_model

    model = load_model(spec, device="cpu", precision="fp32")
    data = RegionDataset([ImageRef.embedded(p) for p in pngs], None, model.preprocess)
    model.encode_pixels(torch.stack([data[i][1] for i in range(min(4, len(pngs)))]))  # warm-up
    start = time.perf_counter()
    for lo in range(0, len(pngs), batch):
        model.encode_pixels(
            torch.stack([data[i][1] for i in range(lo, min(lo + batch, len(pngs)))])
        )
    return len(pngs) / (time.perf_counter() - start)


def models(tmp: Path) -> dict[str, str]:
    """Random-weight base-size models written to folders (no download)."""
    import open_clip
    import torch

    from crepe_datasets.evaluator.tiny import write_tiny_hf_clip, write_tiny_hf_siglip

    ckpt = tmp / "ViT-B-32-random.pt"
    torch.manual_seed(0)
    torch.save(open_clip.create_model("ViT-B-32").state_dict(), ckpt)
    words = ["a", "photo"]
    return {
        "open_clip ViT-B-32": f"open_clip:ViT-B-32@{ckpt}",
        "HF CLIPModel ViT-B/32": f"hf:{write_tiny_hf_clip(tmp / 'clip', words, base=True)}",
        "HF SiglipModel ViT-B/16-224": f"hf:{write_tiny_hf_siglip(tmp / 'siglip', words, base=True)}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--vg", type=Path, default=None, help="VG sample folder (image_data.json …)."
    )
    parser.add_argument(
        "--images", type=Path, default=None, help="Real VG images (else synthetic)."
    )
    parser.add_argument("--embed-crops", type=int, default=256)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads.")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    shared = Path(os.environ.get("CREPE_SHARED_DATA", REPO.parent / "shared" / "data"))
    vg = args.vg or shared / "visual_genome" / "images_1-100"
    rows = regions(vg)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        images = args.images
        if images is None:
            from crepe_datasets.scenegraph.visual_genome import read_image_data

            images = tmp / "images"
            images.mkdir()
            for k, info in enumerate(read_image_data(vg / "image_data.json").values()):
                pink_noise_jpeg(images / info.file_name, info.width, info.height, k)
        source = "real VG photos" if args.images else "synthetic 1/f² noise JPEGs at the real sizes"
        size = crop_and_size(rows, images)
        n = size["crops"]
        per_1000 = {k: size[k] * 1000 / n for k in ("png_bytes", "parquet_bytes", "jpeg_q90_bytes")}
        print(
            f"VG sample: {len(rows):,} regions of 100 images ({source}); {n:,} crops, failed {size['failed']}"
        )
        print(f"crop (decode + crop rule + PNG), one core: {size['crops_per_s']:,.0f} crops/s "
              f"({size['crop_s']:.1f} s)")  # fmt: skip
        print(f"per 1,000 crops: PNG {per_1000['png_bytes'] / 1e6:.1f} MB, parquet column "
              f"{per_1000['parquet_bytes'] / 1e6:.1f} MB (zstd 3), JPEG q90 for comparison "
              f"{per_1000['jpeg_q90_bytes'] / 1e6:.1f} MB")  # fmt: skip
        pngs = size["pngs"][: args.embed_crops]
        rates = {}
        for name, spec in models(tmp).items():
            rates[name] = embed_rate(spec, pngs, args.batch)
            print(f"embed from the column, CPU ({args.threads} threads, fp32, batch {args.batch}): "
                  f"{name}: {rates[name]:,.1f} images/s over {len(pngs)} crops")  # fmt: skip
        total_gb = VG_REGIONS * per_1000["parquet_bytes"] / 1000 / 1e9
        print(f"projection, all of Visual Genome ({VG_IMAGES:,} images, {VG_REGIONS:,} regions):")
        print(f"  image column {total_gb:,.0f} GB (parquet); crop time {VG_REGIONS / size['crops_per_s'] / 3600:,.1f} "
              f"core-hours (add-images --workers N divides it)")  # fmt: skip
        for name, rate in rates.items():
            print(f"  embed on this CPU, {name}: {VG_REGIONS / rate / 3600:,.0f} hours")


if __name__ == "__main__":
    main()

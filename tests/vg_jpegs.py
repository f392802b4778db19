"""JPEG files standing in for Visual Genome's images, at the sizes its ``image_data.json`` gives.

Each image is a deterministic colour gradient (so crops differ from one another), written in one
of the forms real collections hold: baseline RGB, grayscale, CMYK, with an EXIF orientation tag
(rotate 90°: the stored pixels are not what a viewer shows), truncated, or missing.
"""

from __future__ import annotations

from pathlib import Path

KINDS = ("rgb", "gray", "cmyk", "exif_rotated", "truncated", "missing")


def gradient(width: int, height: int, seed: int):
    """An RGB image whose pixels depend on their position and ``seed``."""
    import numpy as np
    from PIL import Image

    y, x = np.mgrid[0:height, 0:width]
    rgb = np.stack(
        [(x * 255 // max(1, width - 1) + seed * 37) % 256, (y * 255 // max(1, height - 1)) % 256,
         ((x + y) // 3 + seed * 11) % 256], axis=-1,
    ).astype("uint8")  # fmt: skip
    return Image.fromarray(rgb, "RGB")


def write_vg_jpegs(vg: Path, out: Path, limit: int) -> dict[str, str]:
    """JPEGs for the first ``limit`` images of ``vg/image_data.json`` in ``out``; image id →
    kind, cycling through :data:`KINDS`."""
    from PIL import Image

    from crepe_datasets.scenegraph.visual_genome import read_image_data

    out.mkdir(parents=True, exist_ok=True)
    infos = read_image_data(vg / "image_data.json")
    kinds = {}
    for k, image_id in enumerate(sorted(infos, key=int)[:limit]):
        info, kind = infos[image_id], KINDS[k % len(KINDS)]
        kinds[image_id] = kind
        path = out / info.file_name
        img = gradient(info.width, info.height, k)
        if kind == "missing":
            continue
        if kind == "gray":
            img.convert("L").save(path, format="JPEG", quality=90)
        elif kind == "cmyk":
            img.convert("CMYK").save(path, format="JPEG", quality=90)
        elif kind == "exif_rotated":
            exif = Image.Exif()
            exif[0x0112] = 6  # orientation: rotate 90° clockwise to display
            img.save(path, format="JPEG", quality=90, exif=exif)
        else:
            img.save(path, format="JPEG", quality=90)
        if kind == "truncated":
            data = path.read_bytes()
            path.write_bytes(data[: len(data) // 2])
    return kinds


def productivity_builds(vg: Path, root: Path, limit: int) -> tuple[dict[str, str], Path, Path]:
    """``(kinds, plain build, build with images)`` of the first ``limit`` VG images, with the
    JPEGs of :func:`write_vg_jpegs` in ``root/images``."""
    from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity

    kinds = write_vg_jpegs(vg, root / "images", limit)
    common = {"vg": str(vg), "limit": limit, "progress": False, "max_n": 6}
    plain, _ = build_productivity(ProductivitySettings(out=str(root / "plain"), **common))
    with_images, _ = build_productivity(
        ProductivitySettings(out=str(root / "with"), images=str(root / "images"), **common)
    )
    return kinds, plain, with_images

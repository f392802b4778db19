"""A tiny dataset folder with real PNG images, and tiny random CLIP models, for evaluator tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from crepe_datasets.builders.writer import write_dataset
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo, ConfigInfo, TaskSpec

COLORS = {
    "red": (220, 30, 30),
    "green": (30, 200, 40),
    "blue": (30, 40, 220),
    "yellow": (230, 220, 20),
}
SHAPES = ("square", "circle")


def _draw_images(image_dir: Path) -> list[tuple[str, str, str]]:
    """PNG files of coloured shapes on grey; returns (file, colour, shape)."""
    from PIL import Image, ImageDraw

    image_dir.mkdir(parents=True, exist_ok=True)
    out = []
    for color, rgb in COLORS.items():
        for shape in SHAPES:
            name = f"{color}_{shape}.png"
            img = Image.new("RGB", (96, 64), (128, 128, 128))
            draw = ImageDraw.Draw(img)
            box = (8, 8, 56, 56)
            (draw.rectangle if shape == "square" else draw.ellipse)(box, fill=rgb)
            draw.rectangle((64, 20, 90, 44), fill=(255 - rgb[0], 255 - rgb[1], 255 - rgb[2]))
            img.save(image_dir / name)
            out.append((name, color, shape))
    return out


def build_demo(root: Path) -> tuple[Path, Path, list[str]]:
    """Write images and a dataset folder with every task type; returns (dataset, images, texts)."""
    images = root / "images"
    files = _draw_images(images)
    other = {c: next(o for o in COLORS if o != c) for c in COLORS}
    tables: dict[str, dict[str, list[dict]]] = {
        "hn_atom": {},
        "hn_all": {},
        "syst": {},
        "bind": {},
        "raw": {},
        "pairs": {},
    }
    texts: list[str] = []
    for n, (lo, hi) in ((4, (0, 6)), (5, (2, 8))):
        rows = []
        for i, (name, color, shape) in enumerate(files[lo:hi]):
            cap = f"a {color} {shape} on grey"
            negs = [f"a {c} {shape} on grey" for c in COLORS if c != color][:2] + [
                f"a {color} {s} on grey" for s in SHAPES if s != shape
            ]
            rows.append(
                {
                    "id": f"{n}-{i}",
                    "image_id": name,
                    "image_file": name,
                    "bbox": [0.0, 0.0, 64.0, 64.0],
                    "caption": cap,
                    "hard_negatives": negs,
                    "negative_types": ["atom"] * len(negs),
                    "complexity": n,
                }
            )
            texts += [cap, *negs]
        tables["hn_atom"][f"complexity_{n}"] = rows
        tables["hn_all"][f"complexity_{n}"] = [
            {
                **r,
                "hard_negatives": [*r["hard_negatives"][:2], f"no {r['caption']}"],
                "negative_types": ["atom", "atom", "negate"],
            }
            for r in rows
        ]
        texts += [f"no {r['caption']}" for r in rows]
    for split, part in (("sc", files[:4]), ("uc", files[4:])):
        tables["syst"][split] = [
            {"id": f"{split}-{i}", "image_id": f, "image_file": f, "bbox": None, "caption": f"{c} {s}",
             "hard_negatives": [f"{other[c]} {s}", f"{c} thing"], "negative_types": ["atom", "comp"]}
            for i, (f, c, s) in enumerate(part)
        ]  # fmt: skip
    buckets = {"seen": "definitely_seen", "mixed": "amb_mixed", "unseen": "definitely_unseen"}
    for k, split in enumerate(("seen", "mixed", "unseen")):
        tables["bind"][split] = [
            {"id": f"{split}-{i}", "image_id": f, "image_file": f, "bbox": [0.0, 0.0, 96.0, 64.0],
             "caption": f"the {c} {s}", "hard_negatives": [f"the {other[c]} {s}"],
             "bucket": buckets[split] if i % 2 else "amb_perfect_close"}
            for i, (f, c, s) in enumerate(files[k : k + 4])
        ]  # fmt: skip
    tables["raw"]["complexity_4"] = [
        {
            "id": str(i),
            "image_id": f,
            "image_file": f,
            "bbox": [0.0, 0.0, 64.0, 64.0],
            "caption": f"a {c} {s} on grey",
        }
        for i, (f, c, s) in enumerate(files)
    ]
    tables["pairs"]["test"] = [
        {
            "id": str(i),
            "caption_0": f"a {files[i][1]} {files[i][2]}",
            "caption_1": f"a {files[i + 1][1]} {files[i + 1][2]}",
            "image_0_file": files[i][0],
            "image_1_file": files[i + 1][0],
            "image_0_bbox": [0.0, 0.0, 64.0, 64.0],  # the shape, as the counter-image groups do
            "image_1_bbox": [0.0, 0.0, 64.0, 64.0],
        }
        for i in range(0, 8, 2)
    ]
    texts += [r[k] for r in tables["pairs"]["test"] for k in ("caption_0", "caption_1")]
    texts += [r["caption"] for s in ("syst", "bind") for rs in tables[s].values() for r in rs]
    texts += [
        t
        for s in ("syst", "bind")
        for rs in tables[s].values()
        for r in rs
        for t in r["hard_negatives"]
    ]
    tasks = {
        "hn_atom": "retrieval",
        "hn_all": "retrieval",
        "syst": "retrieval",
        "bind": "binary",
        "raw": "raw_retrieval",
        "pairs": "group",
    }
    manifest = BuildManifest(
        dataset="demo-eval", version="0.0.1", builder="tests.evaluator",
        card=CardInfo(pretty_name="Demo eval", summary="Tiny dataset for evaluator tests."),
        configs={c: ConfigInfo(c, f"{t} demo", TaskSpec(t)) for c, t in tasks.items()}, seed=0,
    )  # fmt: skip
    dataset = write_dataset(root / "demo-eval", tables, manifest)
    return dataset, images, sorted(set(texts))


@pytest.fixture(scope="session")
def demo(tmp_path_factory) -> tuple[Path, Path, list[str]]:
    return build_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory, demo) -> tuple[Path, Path]:
    from crepe_datasets.evaluator.tiny import write_tiny_hf_clip, write_tiny_open_clip

    root = tmp_path_factory.mktemp("models")
    return write_tiny_open_clip(root / "oc"), write_tiny_hf_clip(root / "hf", demo[2])

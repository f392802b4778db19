"""Batched encoding with DataLoader workers equals encoding one input at a time."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PIL import Image

from crepe_datasets.evaluator.datasets_io import ImageRef
from crepe_datasets.evaluator.encode import encode_images, encode_texts
from crepe_datasets.evaluator.models import load_model

pytestmark = pytest.mark.slow  # imports torch, writes tiny CLIP models, runs DataLoader workers


DEVICES = ["cpu", *(["cuda"] if torch.cuda.is_available() else [])]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kind", ["open_clip", "hf"])
@pytest.mark.parametrize("workers", [0, 2])
def test_batched_with_workers_equals_one_by_one(demo, tiny_models, kind, workers, device) -> None:
    _, image_dir, texts = demo
    path = tiny_models[0] if kind == "open_clip" else tiny_models[1]
    model = load_model(f"{kind}:{path}", device=device, precision="fp32")
    atol = 1e-5 if device == "cpu" else 1e-4  # other kernels for other batch sizes
    files = sorted(
        p.name for p in [*image_dir.glob("*_square.png"), *image_dir.glob("*_circle.png")]
    )
    refs = [ImageRef(f, (2.0, 3.0, 50.0, 40.0)) for f in files] + [ImageRef(files[0])]
    refs += [ImageRef("missing.png"), ImageRef(files[1], (500.0, 500.0, 4.0, 4.0))]
    images, failed = encode_images(model, refs, image_dir, batch_size=3, workers=workers,
                                   progress=False)  # fmt: skip
    assert failed == {"file:missing.png|full": "missing_image",
                      f"file:{files[1]}|500,500,4,4": "empty_crop"}  # fmt: skip
    assert len(images) == len(files) + 1
    for ref in refs[: len(files) + 1]:
        with Image.open(image_dir / ref.file) as img:
            crop = img.convert("RGB")
            if ref.bbox:
                x, y, w, h = ref.bbox
                crop = crop.crop((round(x), round(y), round(x + w), round(y + h)))
        one = model.encode_images([crop])[0].cpu().numpy()
        np.testing.assert_allclose(images[ref.key], one, rtol=0, atol=atol)
    table = encode_texts(model, texts, batch_size=4, progress=False, workers=workers)
    assert sorted(table) == sorted(set(texts))
    for text in texts[:: max(1, len(texts) // 7)]:
        one = model.encode_texts([text])[0].cpu().numpy()
        np.testing.assert_allclose(table[text], one, rtol=0, atol=atol)

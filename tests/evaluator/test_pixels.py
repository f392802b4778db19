"""The worker/device split of image preprocessing gives the same pixels as the whole transform."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PIL import Image

from crepe_datasets.evaluator.models import load_model
from crepe_datasets.evaluator.pixels import normalize_on_device, split_normalize

DEVICES = ["cpu", *(["cuda"] if torch.cuda.is_available() else [])]


def _textured(w: int, h: int, seed: int) -> Image.Image:
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 255, size=(h // 8 + 1, w // 8 + 1, 3), dtype=np.uint8)
    return Image.fromarray(base).resize((w, h), Image.BILINEAR)


@pytest.mark.parametrize("device", DEVICES)
def test_open_clip_transform_splits_into_uint8_and_equal_normalisation(tiny_models, device) -> None:
    model = load_model(f"open_clip:{tiny_models[0]}", device="cpu", precision="fp32")
    worker, norm = split_normalize(model.preprocess)
    assert norm is not None and model.pixel_norm == norm
    assert repr(model.loader_transform) == repr(worker) and repr(worker).endswith("PILToUint8()\n)")
    for seed, (w, h) in enumerate([(500, 375), (37, 211), (640, 480), (3, 3)]):
        img = _textured(w, h, seed).crop((1, 1, w - 1, h - 1)) if w > 3 else _textured(w, h, seed)
        part = worker(img)
        assert part.dtype == torch.uint8
        finished = normalize_on_device(part.unsqueeze(0).to(device), *norm)[0]
        assert finished.device.type == device and torch.equal(finished.cpu(), model.preprocess(img))
        assert torch.equal(model.finish_pixels(part.unsqueeze(0))[0], model.preprocess(img))


def test_other_transforms_stay_whole(tiny_models) -> None:
    from torchvision import transforms as T

    model = load_model(f"hf:{tiny_models[1]}", device="cpu", precision="fp32")
    assert model.pixel_norm is None and model.loader_transform is model.preprocess
    assert torch.equal(model.finish_pixels(torch.ones(1, 3, 2, 2)), torch.ones(1, 3, 2, 2))
    no_norm = T.Compose([T.Resize(8), T.ToTensor()])
    assert split_normalize(no_norm) == (no_norm, None)
    in_place = T.Compose([T.ToTensor(), T.Normalize((0.5,) * 3, (0.5,) * 3, inplace=True)])
    assert split_normalize(in_place) == (in_place, None)

"""Image preprocessing split between DataLoader workers and the device.

A CLIP image transform ends with "to float in [0, 1]" and "normalise by mean and std"
(open_clip: ``Compose([Resize, CenterCrop, MaybeConvertMode, MaybeToTensor, Normalize])``).
Those two steps quadruple the bytes of every crop (uint8 → float32) before it crosses from a
worker to the main process, to pinned memory and to the GPU, and they cost more CPU time in the
worker than decoding. :func:`split_normalize` gives the workers the transform up to a ``uint8``
tensor and returns the mean and std; :func:`normalize_on_device` applies the same two steps to
the batch on the device, with the same float32 operations in the same order (divide by 255,
subtract the mean, divide by the std), so the pixels are equal to the full transform's.

Transforms of another shape (HuggingFace image processors) are left whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_TO_FLOAT = frozenset({"ToTensor", "MaybeToTensor"})


class PILToUint8:
    """PIL image → ``(C, H, W)`` ``uint8`` tensor (torchvision's ``pil_to_tensor``); picklable."""

    def __call__(self, image):
        from torchvision.transforms.functional import pil_to_tensor

        return pil_to_tensor(image)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def split_normalize(
    transform: Callable[[Any], Any],
) -> tuple[Callable[[Any], Any], tuple[tuple[float, ...], tuple[float, ...]] | None]:
    """``(worker transform, (mean, std))`` when ``transform`` ends in to-float + Normalize.

    Otherwise ``(transform, None)``: the workers run the whole transform.
    """
    from torchvision import transforms as T

    steps = getattr(transform, "transforms", None)
    if not isinstance(transform, T.Compose) or not steps or len(steps) < 2:
        return transform, None
    to_float, norm = steps[-2], steps[-1]
    if type(to_float).__name__ not in _TO_FLOAT or not isinstance(norm, T.Normalize):
        return transform, None
    if norm.inplace:
        return transform, None
    mean, std = tuple(float(v) for v in norm.mean), tuple(float(v) for v in norm.std)
    return T.Compose([*steps[:-2], PILToUint8()]), (mean, std)


def normalize_on_device(batch, mean: tuple[float, ...], std: tuple[float, ...]):
    """``uint8`` ``(n, C, H, W)`` → float32, divided by 255, normalised by ``mean`` and ``std``."""
    import torch

    def on_device(values) -> torch.Tensor:
        return torch.as_tensor(values, dtype=torch.float32, device=batch.device).view(1, -1, 1, 1)

    # A tensor divisor, not the Python number 255: CUDA turns division by a host scalar into
    # multiplication by its reciprocal, which differs from the CPU's division in the last bit.
    return batch.to(torch.float32).div(on_device([255.0])).sub(on_device(mean)).div(on_device(std))

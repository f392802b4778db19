"""CLIP-style models behind one interface: open_clip and HuggingFace dual encoders.

Model specs:

* ``open_clip:NAME/TAG`` — an open_clip architecture and pretrained tag (``ViT-B-32/laion400m_e32``);
* ``open_clip:NAME@PATH`` — an architecture and a local checkpoint file;
* ``open_clip:DIR`` or a bare ``DIR`` holding ``open_clip_config.json`` (+ weights) — a local
  open_clip model folder; ``open_clip:hf-hub:ORG/REPO`` is passed to open_clip as is;
* ``hf:NAME_OR_PATH`` or a bare ``DIR`` holding ``config.json`` — any HuggingFace dual encoder
  (CLIP, SigLIP, ALIGN …) loaded by ``AutoModel`` with ``AutoTokenizer`` and
  ``AutoImageProcessor`` from the same place.

QuickGELU is forced for OpenAI-derived weights: the ``openai`` tag, and checkpoint files named
like OpenAI's releases (``ViT-B-32.pt``, ``RN50.pt`` …) or whose path contains ``openai``.
Names that are not cached locally fail with :class:`MissingResourceError` when offline.
"""

from __future__ import annotations

import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError

OPENAI_NAMES = frozenset(
    n.lower()
    for n in [
        "RN50",
        "RN101",
        "RN50x4",
        "RN50x16",
        "RN50x64",
        "ViT-B-32",
        "ViT-B-16",
        "ViT-L-14",
        "ViT-L-14-336",
        "ViT-B/32",
        "ViT-B/16",
        "ViT-L/14",
        "ViT-L/14@336px",
    ]
)


def file_digest(path: Path) -> str:
    """Short SHA-256 of a file (or of a folder's weight and config files), for model ids."""
    digest = hashlib.sha256()
    files = (
        [path]
        if path.is_file()
        else sorted(
            p
            for p in path.iterdir()
            if p.is_file() and p.suffix in {".json", ".bin", ".pt", ".pth", ".safetensors", ".txt"}
        )
    )
    for f in files:
        digest.update(f.name.encode())
        with open(f, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()[:12]


@contextmanager
def _no_tf32_convolutions() -> Iterator[None]:
    import torch

    before = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = before


class EncoderModel(ABC):
    """A dual encoder: L2-normalised image and text embeddings.

    Attributes:
        model_id: Stable identity of the weights (cache key and result records).
        spec: The spec the model was loaded from.
        preprocess: PIL image → ``(3, H, W)`` float tensor; picklable, runs in DataLoader workers.
        loader_transform: PIL image → ``(3, H, W)`` tensor for DataLoader workers: ``preprocess``
            without its last steps (to float, normalise) where those can run on the device
            (:func:`crepe_datasets.evaluator.pixels.split_normalize`), else ``preprocess``.
        pixel_norm: ``(mean, std)`` that :meth:`finish_pixels` applies on the device after
            ``loader_transform``, or ``None`` when ``loader_transform`` is ``preprocess``.
        tokenize: texts → token tensors on the CPU; picklable, runs in DataLoader workers.
        device: Torch device string.
        precision: ``amp``, ``fp16`` or ``fp32`` as actually used (``amp`` falls back to
            ``fp32`` on CPU).
        score_rule: the model's own image–text score as a function of the cosine (CLIP's
            ``softmax(exp(logit_scale) * cosine)``, SigLIP's sigmoid …); the metrics rank cosines,
            which every such rule keeps in order.
    """

    model_id: str
    spec: str
    preprocess: Callable[[Any], Any]
    loader_transform: Callable[[Any], Any]
    pixel_norm: tuple[tuple[float, ...], tuple[float, ...]] | None = None
    tokenize: Callable[[list[str]], Any]
    device: str = "cpu"
    precision: str = "fp32"
    score_rule: str = "cosine"

    def _autocast(self):
        """fp16 autocast for ``amp`` on CUDA; for ``fp32`` on CUDA, convolutions in float32.

        cuDNN runs float32 convolutions in TF32 by default (10-bit mantissa), which ``fp32``
        results should not silently depend on; matrix products are already float32 by default.
        """
        import contextlib

        import torch

        if not self.device.startswith("cuda"):
            return contextlib.nullcontext()
        if self.precision == "amp":
            return torch.autocast(device_type="cuda", dtype=torch.float16)
        return _no_tf32_convolutions() if self.precision == "fp32" else contextlib.nullcontext()

    def finish_pixels(self, batch):
        """A batch from ``loader_transform`` → what ``preprocess`` gives, on the device."""
        from crepe_datasets.evaluator.pixels import normalize_on_device

        batch = batch.to(self.device, non_blocking=True)
        return batch if self.pixel_norm is None else normalize_on_device(batch, *self.pixel_norm)

    def encode_pixels(self, pixels):
        """Embed a preprocessed batch ``(n, 3, H, W)``; returns normalised float32 ``(n, d)``."""
        import torch

        with torch.inference_mode(), self._autocast():
            dtype = torch.float16 if self.precision == "fp16" else torch.float32
            feats = self._image_features(pixels.to(self.device, dtype=dtype, non_blocking=True))
        return torch.nn.functional.normalize(feats.float(), dim=-1)

    def encode_images(self, images: Sequence[Any]):
        """Embed PIL images (preprocessed here); returns normalised float32 ``(n, d)``."""
        import torch

        return self.encode_pixels(torch.stack([self.preprocess(img) for img in images]))

    def encode_tokens(self, tokens):
        """Embed the output of :attr:`tokenize`; returns normalised float32 ``(n, d)``."""
        import torch

        with torch.inference_mode(), self._autocast():
            feats = self._token_features(tokens)
        return torch.nn.functional.normalize(feats.float(), dim=-1)

    def encode_texts(self, texts: Sequence[str]):
        """Embed texts; returns normalised float32 ``(n, d)``."""
        return self.encode_tokens(self.tokenize(list(texts)))

    @abstractmethod
    def _image_features(self, pixels): ...

    @abstractmethod
    def _token_features(self, tokens): ...


def is_openai_derived(name: str, pretrained: str | None) -> bool:
    """Whether weights come from OpenAI's CLIP (trained with QuickGELU)."""
    if name.lower().endswith("-quickgelu"):
        return False  # the config already uses QuickGELU
    if not pretrained:
        return False
    if pretrained.lower() == "openai":
        return True
    path = Path(pretrained)
    return path.stem.lower() in OPENAI_NAMES or "openai" in str(path).lower()


def parse_model_spec(spec: str) -> tuple[str, str, str | None]:
    """``(kind, name, pretrained)`` with kind ``open_clip`` or ``hf``; see the module docstring."""
    if spec.startswith("hf:"):
        return "hf", spec[3:], None
    if spec.startswith("open_clip:"):
        body = spec[len("open_clip:") :]
        if body.startswith(("hf-hub:", "local-dir:")):
            return "open_clip", body, None
        if Path(body).is_dir():
            return "open_clip", f"local-dir:{body}", None
        if "@" in body:
            name, path = body.split("@", 1)
            if not Path(path).is_file():
                raise CrepeInputError(
                    f"checkpoint {path} of model spec {spec} does not exist; fix the path."
                )
            return "open_clip", name, path
        if "/" in body:
            name, tag = body.split("/", 1)
            return "open_clip", name, tag
        return "open_clip", body, None
    path = Path(spec)
    if path.is_dir() and (path / "open_clip_config.json").is_file():
        return "open_clip", f"local-dir:{spec}", None
    if path.is_dir() and (path / "config.json").is_file():
        return "hf", spec, None
    raise CrepeInputError(
        f"model spec {spec!r} is not understood; use open_clip:NAME/TAG, open_clip:NAME@CHECKPOINT, "
        "hf:NAME_OR_PATH, or a folder holding open_clip_config.json or config.json."
    )


def model_identity(kind: str, name: str, pretrained: str | None) -> str:
    """A stable id: names as given, local weights with a short content hash."""
    if kind == "hf":
        local = Path(name)
        return f"hf:{local.name}#{file_digest(local)}" if local.exists() else f"hf:{name}"
    if name.startswith("local-dir:"):
        local = Path(name[len("local-dir:") :])
        return f"open_clip:{local.name}#{file_digest(local)}"
    if pretrained and Path(pretrained).is_file():
        return f"open_clip:{name}@{Path(pretrained).name}#{file_digest(Path(pretrained))}"
    return f"open_clip:{name}/{pretrained}" if pretrained else f"open_clip:{name}"


def resolve_device(device: str | None) -> str:
    """``cuda`` when available and not overridden, else ``cpu``."""
    import torch

    if device:
        if device.startswith("cuda") and not torch.cuda.is_available():
            raise CrepeInputError(
                f"--device {device} was asked for but CUDA is not available; use --device cpu."
            )
        return device
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_model(spec: str, device: str | None = None, precision: str = "amp") -> EncoderModel:
    """Load a model from its spec (see the module docstring).

    Args:
        spec: the model spec.
        device: ``cuda``, ``cuda:1``, ``cpu``; default CUDA when available.
        precision: ``amp`` (autocast fp16 on CUDA, fp32 on CPU), ``fp16`` or ``fp32``.
    """
    if precision not in ("amp", "fp16", "fp32"):
        raise CrepeInputError(f"--precision {precision} is not one of amp, fp16, fp32.")
    device = resolve_device(device)
    if precision == "amp" and not device.startswith("cuda"):
        precision = "fp32"
    if precision == "fp16" and not device.startswith("cuda"):
        raise CrepeInputError("--precision fp16 needs a CUDA device; use amp or fp32 on the CPU.")
    kind, name, pretrained = parse_model_spec(spec)
    model_id = model_identity(kind, name, pretrained)
    from crepe_datasets.evaluator.backends import HFDualEncoder, OpenClipModel

    if kind == "hf":
        return HFDualEncoder(spec, name, model_id, device, precision)
    return OpenClipModel(spec, name, pretrained, model_id, device, precision)


def safe_name(text: str, limit: int = 60) -> str:
    """File-name-safe form of a model or dataset id."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:limit] or "x"

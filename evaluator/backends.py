"""The two model backends behind :class:`crepe_datasets.evaluator.models.EncoderModel`: open_clip and HF CLIP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crepe_datasets.evaluator.models import EncoderModel, is_openai_derived
from crepe_datasets.evaluator.pixels import split_normalize
from crepe_datasets.scenegraph.errors import CrepeInputError, MissingResourceError


class OpenClipModel(EncoderModel):
    """An open_clip model (specs: see :mod:`crepe_datasets.evaluator.models`)."""

    def __init__(
        self,
        spec: str,
        name: str,
        pretrained: str | None,
        model_id: str,
        device: str,
        precision: str,
    ):
        import open_clip

        if ":" not in name and name not in open_clip.list_models():
            raise CrepeInputError(
                f"open_clip has no architecture {name!r} (model spec {spec}); see open_clip.list_models()."
            )
        quick_gelu = is_openai_derived(name, pretrained)
        try:
            model, _, preprocess = open_clip.create_model_and_transforms(
                name, pretrained=pretrained, device=device, force_quick_gelu=quick_gelu,
                precision="fp16" if precision == "fp16" else "fp32",
            )  # fmt: skip
        except (RuntimeError, OSError, ValueError) as err:
            if (pretrained and Path(pretrained).exists()) or name.startswith("local-dir:"):
                raise CrepeInputError(f"cannot load open_clip model {spec}: {err}") from err
            raise MissingResourceError(
                f"open_clip model {spec} is not available offline ({type(err).__name__}); download it "
                "where a network exists or pass a local checkpoint as open_clip:NAME@/path/to/checkpoint."
            ) from err
        self.model = model.eval()
        self.tokenize = open_clip.get_tokenizer(name)
        self.preprocess = preprocess
        self.loader_transform, self.pixel_norm = split_normalize(preprocess)
        self.spec, self.model_id, self.device, self.precision = spec, model_id, device, precision
        self.quick_gelu = quick_gelu

    def _image_features(self, pixels):
        return self.model.encode_image(pixels)

    def _token_features(self, tokens):
        return self.model.encode_text(tokens.to(self.device, non_blocking=True))


class _HFPreprocess:
    """Picklable PIL → pixel tensor wrapper around a HuggingFace image processor."""

    def __init__(self, processor: Any) -> None:
        self.processor = processor

    def __call__(self, image):
        return self.processor(images=image.convert("RGB"), return_tensors="pt")["pixel_values"][0]


class _HFTokenize:
    """Picklable texts → ``{input_ids, attention_mask}`` wrapper around a HuggingFace tokenizer."""

    def __init__(self, tokenizer: Any, max_length: int) -> None:
        self.tokenizer, self.max_length = tokenizer, max_length

    def __call__(self, texts: list[str]) -> dict:
        batch = self.tokenizer(
            texts, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt"
        )
        return {k: v for k, v in batch.items() if k in ("input_ids", "attention_mask")}


class HFClipModel(EncoderModel):
    """A HuggingFace ``CLIPModel`` with ``CLIPProcessor`` (or tokenizer + image processor)."""

    def __init__(self, spec: str, name_or_path: str, model_id: str, device: str, precision: str):
        import torch
        from transformers import AutoImageProcessor, AutoTokenizer, CLIPModel

        try:
            dtype = torch.float16 if precision == "fp16" else torch.float32
            self.model = CLIPModel.from_pretrained(name_or_path, dtype=dtype).to(device).eval()
            tokenizer = AutoTokenizer.from_pretrained(name_or_path)
            image_processor = AutoImageProcessor.from_pretrained(name_or_path)
        except OSError as err:
            if Path(name_or_path).exists():
                raise CrepeInputError(
                    f"cannot load HuggingFace CLIP model from {name_or_path}: {err}"
                ) from err
            raise MissingResourceError(
                f"HuggingFace model {name_or_path} is not cached and cannot be downloaded here; "
                "download it where a network exists or pass a local folder as hf:/path/to/model."
            ) from err
        self.preprocess = self.loader_transform = _HFPreprocess(image_processor)
        max_length = min(getattr(self.model.config.text_config, "max_position_embeddings", 77), 77)
        self.tokenize = _HFTokenize(tokenizer, max_length)
        self.spec, self.model_id, self.device, self.precision = spec, model_id, device, precision

    @staticmethod
    def _pooled(out):
        return out if hasattr(out, "dim") else out.pooler_output

    def _image_features(self, pixels):
        return self._pooled(self.model.get_image_features(pixel_values=pixels))

    def _token_features(self, tokens):
        batch = {k: v.to(self.device, non_blocking=True) for k, v in tokens.items()}
        return self._pooled(self.model.get_text_features(**batch))

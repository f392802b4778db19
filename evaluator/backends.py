"""The model backends behind :class:`crepe_datasets.evaluator.models.EncoderModel`: open_clip and HuggingFace."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crepe_datasets.evaluator.models import EncoderModel, is_openai_derived
from crepe_datasets.evaluator.pixels import split_normalize
from crepe_datasets.infra.errors import CrepeInputError, MissingResourceError


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
        self.score_rule = (
            "sigmoid(exp(logit_scale) * cosine + logit_bias)"
            if getattr(model, "logit_bias", None) is not None
            else "softmax(exp(logit_scale) * cosine)"
        )

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
    """Picklable texts → ``{input_ids, attention_mask}`` wrapper around a HuggingFace tokenizer.

    ``padding`` is the model's own: ``"max_length"`` for models trained on padded texts whose
    text tower pools a fixed position (SigLIP), ``True`` (to the longest text) otherwise.
    """

    def __init__(self, tokenizer: Any, max_length: int, padding: bool | str = True) -> None:
        self.tokenizer, self.max_length, self.padding = tokenizer, max_length, padding

    def __call__(self, texts: list[str]) -> dict:
        batch = self.tokenizer(
            texts, padding=self.padding, truncation=True, max_length=self.max_length,
            return_tensors="pt",
        )  # fmt: skip
        return {k: v for k, v in batch.items() if k in ("input_ids", "attention_mask")}


def hf_text_padding(model_type: str, text_config: Any) -> tuple[bool | str, int]:
    """``(padding, max_length)`` with which a HuggingFace dual encoder's texts are tokenized.

    The processor's own text defaults where its class declares them (ALIGN: ``max_length`` 64);
    SigLIP models (``siglip``, ``siglip2``) pad to ``max_length`` = their position count (64),
    as they were trained and as their last-position text pooling needs; other models pad to the
    longest text, at most 77 tokens (CLIP's context).
    """
    positions = getattr(text_config, "max_position_embeddings", 77) or 77
    defaults = _processor_text_defaults(model_type)
    if defaults.get("padding"):
        return defaults["padding"], min(int(defaults.get("max_length") or positions), positions)
    if model_type.startswith("siglip"):
        return "max_length", positions
    return True, min(positions, 77)


def _processor_text_defaults(model_type: str) -> dict:
    """The ``text_kwargs`` a model type's processor class declares (``{}`` when none)."""
    try:
        import transformers
        from transformers.models.auto.processing_auto import PROCESSOR_MAPPING_NAMES
    except ImportError:
        return {}
    name = PROCESSOR_MAPPING_NAMES.get(model_type)
    cls = getattr(transformers, name, None) if isinstance(name, str) else None
    defaults = getattr(cls, "text_kwargs", None)
    return dict(defaults) if isinstance(defaults, dict) else {}


def hf_score_rule(model: Any) -> str:
    """How the model turns the cosine of its normalised embeddings into a score.

    Every metric of :mod:`crepe_datasets.evaluator.metrics` ranks or compares scores of one
    model, and each rule is increasing in the cosine, so the metrics are computed on the cosine
    and equal those of the model's own scores (the sigmoid's saturation cannot add ties there).
    """
    if hasattr(model, "logit_bias") and hasattr(model, "logit_scale"):
        return "sigmoid(exp(logit_scale) * cosine + logit_bias)"
    if hasattr(model, "temperature"):
        return "softmax(cosine / temperature)"
    if hasattr(model, "logit_scale"):
        return "softmax(exp(logit_scale) * cosine)"
    return "cosine"


class HFDualEncoder(EncoderModel):
    """Any HuggingFace dual encoder: ``AutoModel`` + ``AutoTokenizer`` + ``AutoImageProcessor``.

    The model must have ``get_image_features`` and ``get_text_features`` (CLIP, SigLIP,
    SigLIP 2, ALIGN, AltCLIP, Chinese-CLIP, MetaCLIP …); its embeddings are L2-normalised and
    compared by cosine (:func:`hf_score_rule` names the model's own scoring, recorded in
    :attr:`score_rule`). Texts are padded the model's way (:func:`hf_text_padding`).
    """

    def __init__(self, spec: str, name_or_path: str, model_id: str, device: str, precision: str):
        import torch
        from transformers import AutoImageProcessor, AutoModel, AutoTokenizer

        try:
            dtype = torch.float16 if precision == "fp16" else torch.float32
            model = AutoModel.from_pretrained(name_or_path, dtype=dtype)
            tokenizer = AutoTokenizer.from_pretrained(name_or_path)
            image_processor = AutoImageProcessor.from_pretrained(name_or_path)
        except (OSError, ValueError) as err:
            if Path(name_or_path).exists():
                raise CrepeInputError(
                    f"cannot load HuggingFace model from {name_or_path}: {err}"
                ) from err
            raise MissingResourceError(
                f"HuggingFace model {name_or_path} is not cached and cannot be downloaded here; "
                "download it where a network exists or pass a local folder as hf:/path/to/model."
            ) from err
        if not all(hasattr(model, m) for m in ("get_image_features", "get_text_features")):
            raise CrepeInputError(
                f"HuggingFace model {name_or_path} ({type(model).__name__}) is not a dual encoder: "
                "it has no get_image_features / get_text_features."
            )
        self.model = model.to(device).eval()
        config = self.model.config
        self.model_type = str(getattr(config, "model_type", ""))
        self.preprocess = self.loader_transform = _HFPreprocess(image_processor)
        text_config = getattr(config, "text_config", config)
        padding, max_length = hf_text_padding(self.model_type, text_config)
        self.tokenize = _HFTokenize(tokenizer, max_length, padding)
        self.score_rule = hf_score_rule(self.model)
        self.spec, self.model_id, self.device, self.precision = spec, model_id, device, precision

    @staticmethod
    def _pooled(out):
        return out if hasattr(out, "dim") else out.pooler_output

    def _image_features(self, pixels):
        return self._pooled(self.model.get_image_features(pixel_values=pixels))

    def _token_features(self, tokens):
        batch = {k: v.to(self.device, non_blocking=True) for k, v in tokens.items()}
        return self._pooled(self.model.get_text_features(**batch))


HFClipModel = HFDualEncoder

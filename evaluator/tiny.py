"""Tiny randomly initialised dual encoders written to folders, for tests, benchmarks and demos.

No download is involved: the open_clip model is built from a small config (its default
tokenizer ships inside the wheel) and the HuggingFace ones (CLIP, SigLIP, ALIGN) from their
configs with a word-level tokenizer whose vocabulary is given. Both folders load through the ordinary model
specs (``open_clip:DIR`` / ``hf:DIR``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

TINY_OPEN_CLIP_CFG = {
    "embed_dim": 32,
    "vision_cfg": {"image_size": 32, "layers": 1, "width": 64, "patch_size": 8, "head_width": 32},
    "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 64, "heads": 2, "layers": 1},
}


def write_tiny_open_clip(folder: str | Path, seed: int = 0, cfg: dict | None = None) -> Path:
    """An open_clip model folder (``open_clip_config.json`` + ``open_clip_pytorch_model.bin``)."""
    import open_clip
    import torch

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cfg = cfg or TINY_OPEN_CLIP_CFG
    (folder / "open_clip_config.json").write_text(
        json.dumps({"model_cfg": cfg, "preprocess_cfg": {}}), encoding="utf-8"
    )
    torch.manual_seed(seed)
    model = open_clip.CLIP(**cfg)
    torch.save(model.state_dict(), folder / "open_clip_pytorch_model.bin")
    return folder


def _words(texts: Iterable[str]) -> list[str]:
    return sorted({w for t in texts for w in re.findall(r"\w+|[^\w\s]", t.lower())})


def _write_word_tokenizer(folder: Path, texts: Iterable[str], max_length: int = 77) -> int:
    """A word-level fast tokenizer over ``texts``' words saved in ``folder``; returns its size.

    Ids: ``[PAD]`` 0, ``[UNK]`` 1, ``[BOS]`` 2, ``[EOS]`` 3 (appended to every text), then words.
    """
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast

    specials = ["[PAD]", "[UNK]", "[BOS]", "[EOS]"]
    vocab = {w: i for i, w in enumerate(specials + _words(texts))}
    tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="$A [EOS]", special_tokens=[("[EOS]", 3)]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", eos_token="[EOS]", bos_token="[BOS]",
        model_max_length=max_length,
    )  # fmt: skip
    fast.save_pretrained(folder)
    return len(vocab)


_TINY_TOWER = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
}


def write_tiny_hf_clip(
    folder: str | Path, texts: Iterable[str], seed: int = 0, base: bool = False
) -> Path:
    """A HuggingFace ``CLIPModel`` folder with a word-level tokenizer over ``texts``' words.

    ``base=True`` gives the towers of CLIP ViT-B/32 (``CLIPConfig``'s defaults: 224-pixel
    images, 32-pixel patches, 12 + 12 layers) instead of the tiny ones, for speed benchmarks.
    """
    import torch
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab_size = _write_word_tokenizer(folder, texts)
    text = {"vocab_size": vocab_size, "max_position_embeddings": 77, "pad_token_id": 0,
            "bos_token_id": 2, "eos_token_id": 3}  # fmt: skip
    side = 224 if base else 32
    config = CLIPConfig(
        text_config=text if base else {**text, **_TINY_TOWER},
        vision_config={"image_size": 224, "patch_size": 32} if base
        else {**_TINY_TOWER, "image_size": 32, "patch_size": 8},
        projection_dim=512 if base else 16,
    )  # fmt: skip
    torch.manual_seed(seed)
    CLIPModel(config).save_pretrained(folder)
    CLIPImageProcessor(
        size={"shortest_edge": side}, crop_size={"height": side, "width": side}
    ).save_pretrained(folder)
    return folder


def write_tiny_hf_siglip(
    folder: str | Path, texts: Iterable[str], seed: int = 0, base: bool = False
) -> Path:
    """A HuggingFace ``SiglipModel`` folder (64-token texts, sigmoid scores) with a word tokenizer.

    ``base=True`` gives SigLIP ViT-B/16-224's towers (``SiglipConfig``'s defaults).
    """
    import torch
    from transformers import SiglipConfig, SiglipImageProcessor, SiglipModel

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab_size = _write_word_tokenizer(folder, texts, max_length=64)
    text = {"vocab_size": vocab_size, "max_position_embeddings": 64, "pad_token_id": 0,
            "bos_token_id": 2, "eos_token_id": 3}  # fmt: skip
    side = 224 if base else 32
    config = SiglipConfig(
        text_config=text if base else {**text, **_TINY_TOWER},
        vision_config={"image_size": 224, "patch_size": 16} if base
        else {**_TINY_TOWER, "image_size": 32, "patch_size": 8},
    )  # fmt: skip
    torch.manual_seed(seed)
    SiglipModel(config).save_pretrained(folder)
    SiglipImageProcessor(size={"height": side, "width": side}).save_pretrained(folder)
    return folder


def write_tiny_hf_align(folder: str | Path, texts: Iterable[str], seed: int = 0) -> Path:
    """A HuggingFace ``AlignModel`` folder (EfficientNet + BERT towers, tiny) with a word tokenizer."""
    import torch
    from transformers import AlignConfig, AlignModel, EfficientNetImageProcessor

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab_size = _write_word_tokenizer(folder, texts, max_length=64)
    config = AlignConfig(
        text_config={**_TINY_TOWER, "vocab_size": vocab_size, "max_position_embeddings": 64,
                     "pad_token_id": 0},
        # A wider initialisation than ALIGN's 0.02, or the tiny random EfficientNet's outputs
        # underflow to about 1e-17 and cannot be normalised.
        vision_config={"image_size": 32, "width_coefficient": 0.1, "depth_coefficient": 0.1,
                       "hidden_dim": 64, "initializer_range": 0.5},
        projection_dim=32,  # ALIGN's image embedding is the vision pooler output (32 wide here)
    )  # fmt: skip
    torch.manual_seed(seed)
    AlignModel(config).save_pretrained(folder)
    EfficientNetImageProcessor(
        size={"height": 32, "width": 32}, crop_size={"height": 32, "width": 32}
    ).save_pretrained(folder)
    return folder

"""Tiny randomly initialised CLIP models written to folders, for tests, benchmarks and demos.

No download is involved: the open_clip model is built from a small config (its default
tokenizer ships inside the wheel) and the HuggingFace model from a ``CLIPConfig`` with a
word-level tokenizer whose vocabulary is given. Both folders load through the ordinary model
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


def write_tiny_hf_clip(
    folder: str | Path, texts: Iterable[str], seed: int = 0, base: bool = False
) -> Path:
    """A HuggingFace ``CLIPModel`` folder with a word-level tokenizer over ``texts``' words.

    ``base=True`` gives the towers of CLIP ViT-B/32 (``CLIPConfig``'s defaults: 224-pixel
    images, 32-pixel patches, 12 + 12 layers) instead of the tiny ones, for speed benchmarks.
    """
    import torch
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordLevel
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, PreTrainedTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
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
        model_max_length=77,
    )  # fmt: skip
    fast.save_pretrained(folder)
    text = {"vocab_size": len(vocab), "max_position_embeddings": 77, "pad_token_id": 0,
            "bos_token_id": 2, "eos_token_id": 3}  # fmt: skip
    tiny = {
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
    }
    side = 224 if base else 32
    config = CLIPConfig(
        text_config=text if base else {**text, **tiny},
        vision_config={"image_size": 224, "patch_size": 32} if base
        else {**tiny, "image_size": 32, "patch_size": 8},
        projection_dim=512 if base else 16,
    )  # fmt: skip
    torch.manual_seed(seed)
    CLIPModel(config).save_pretrained(folder)
    CLIPImageProcessor(
        size={"shortest_edge": side}, crop_size={"height": side, "width": side}
    ).save_pretrained(folder)
    return folder

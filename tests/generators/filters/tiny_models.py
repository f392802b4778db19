"""Tiny randomly initialised models and offline tokenizers, saved to a folder (no hub access)."""

from __future__ import annotations

from pathlib import Path

SENTENCES = [
    "a tall man wearing a black hat",
    "a man wearing a hat",
    "a dog on the grass next to a red car",
    "there is no dog on the grass",
    "a white plate on a wooden table",
    "the cat is not orange",
    "an open window above a closed window",
]

STYLES = {
    # special tokens, single template, pair template
    "roberta": (
        {"cls": "<s>", "sep": "</s>", "pad": "<pad>", "unk": "<unk>", "mask": "<mask>"},
        "<s> $A </s>",
        "<s> $A </s> </s> $B </s>",
    ),
    "bert": (
        {"cls": "[CLS]", "sep": "[SEP]", "pad": "[PAD]", "unk": "[UNK]", "mask": "[MASK]"},
        "[CLS] $A [SEP]",
        "[CLS] $A [SEP] $B [SEP]",
    ),
}


def tiny_tokenizer(style: str = "roberta"):
    """A word-level fast tokenizer trained on :data:`SENTENCES`, in RoBERTa or BERT style."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    special, single, pair = STYLES[style]
    tokens = [special[k] for k in ("cls", "pad", "sep", "unk", "mask")]
    tok = Tokenizer(models.WordLevel(unk_token=special["unk"]))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(SENTENCES, trainers.WordLevelTrainer(special_tokens=tokens))
    ids = {t: tok.token_to_id(t) for t in tokens}
    tok.post_processor = processors.TemplateProcessing(
        single=single,
        pair=pair,
        special_tokens=[(t, ids[t]) for t in (special["cls"], special["sep"])],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=special["cls"],
        eos_token=special["sep"],
        cls_token=special["cls"],
        sep_token=special["sep"],
        pad_token=special["pad"],
        unk_token=special["unk"],
        mask_token=special["mask"],
        model_input_names=["input_ids", "attention_mask"],
    )


#: Sizes of every tiny transformer saved here (2 layers, hidden size 32).
TINY_TRANSFORMER = {
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "intermediate_size": 64,
    "max_position_embeddings": 40,
}


def save_tiny_nli(folder: Path, id2label: dict[int, str] | None = None, seed: int = 0) -> Path:
    """A 2-layer, hidden-32 RoBERTa sequence classifier with 3 NLI labels, saved to ``folder``."""
    import torch
    from transformers import RobertaConfig, RobertaForSequenceClassification

    id2label = id2label or {0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"}
    tokenizer = tiny_tokenizer("roberta")
    config = RobertaConfig(
        vocab_size=len(tokenizer),
        **TINY_TRANSFORMER,
        type_vocab_size=1,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )
    torch.manual_seed(seed)
    RobertaForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def save_tiny_mlm(folder: Path, seed: int = 0) -> Path:
    """A 2-layer, hidden-32 BERT masked language model, saved to ``folder``."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    tokenizer = tiny_tokenizer("bert")
    config = BertConfig(
        vocab_size=len(tokenizer),
        **TINY_TRANSFORMER,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(seed)
    BertForMaskedLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def one_thread():
    """Generator for a module fixture: torch on one thread (tiny models gain nothing from more,
    and on a shared 2-core machine extra threads only wait on each other)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)

"""The NLI entailment filter of HN-SWAP and the other negatives (SPEC §3.4).

A "negative" that its positive caption entails is not a negative: the builder asks
``entailed([positive, …], [negative, …])`` and drops (and counts) the pairs that come back
``True``. The paper used RoBERTa; the default here is ``roberta-large-mnli``, by hub name or
from a local folder (see :mod:`crepe_datasets.generators.filters.loading`).

* The entailment class is found from the model's ``label2id`` / ``id2label`` (case-insensitive
  "entailment"), never assumed to be a fixed index.
* Pairs are sorted by length before batching (less padding) and the results are put back in
  the input order; inference runs under ``torch.inference_mode`` in evaluation mode, on CUDA
  when available. The same inputs give the same probabilities.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crepe_datasets.generators.filters.loading import (
    load_model_and_tokenizer,
    model_id,
    resolve_device,
)
from crepe_datasets.infra.errors import MissingResourceError

DEFAULT_NLI_MODEL = "roberta-large-mnli"
MAX_TOKENS = 512


def entailment_index(config: Any) -> int:
    """Index of the "entailment" class in a sequence-classification config.

    Raises:
        MissingResourceError: when no label is called "entailment" (not an NLI model).
    """
    for label, index in (getattr(config, "label2id", None) or {}).items():
        if str(label).strip().lower() == "entailment":
            return int(index)
    for index, label in (getattr(config, "id2label", None) or {}).items():
        if str(label).strip().lower() == "entailment":
            return int(index)
    labels = sorted(str(v) for v in (getattr(config, "id2label", None) or {}).values())
    raise MissingResourceError(
        f"the NLI model has no 'entailment' label (its labels: {', '.join(labels) or 'none'}); "
        "pass --nli an MNLI-style model with an ENTAILMENT class."
    )


def length_batches(sizes: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices sorted by size (longest first, ties by index), cut into batches."""
    order = sorted(range(len(sizes)), key=lambda i: (-sizes[i], i))
    return [order[k : k + batch_size] for k in range(0, len(order), batch_size)]


class EntailmentFilter:
    """Does a premise entail a hypothesis? A ``transformers`` NLI model, batched.

    Args:
        model_name_or_path: hub name (from the local cache or the network) or a local folder.
        device: ``"cuda"``, ``"cpu"``, … (``None``: CUDA when available, else CPU).
        batch_size: pairs per forward pass.
        threshold: entailment probability at or above which a pair counts as entailed.
        local_files_only: never use the network (``None``: cache first, then the network).
    """

    def __init__(
        self,
        model_name_or_path: str = DEFAULT_NLI_MODEL,
        device: str | None = None,
        batch_size: int = 32,
        threshold: float = 0.5,
        local_files_only: bool | None = None,
    ) -> None:
        from transformers import AutoModelForSequenceClassification

        self.name = str(model_name_or_path)
        self.batch_size = max(1, int(batch_size))
        self.threshold = float(threshold)
        self.device = resolve_device(device)
        self.tokenizer, model = load_model_and_tokenizer(
            self.name, AutoModelForSequenceClassification, "NLI model", "--nli", local_files_only
        )
        self.model = model.to(self.device).eval()
        self.entailment_index = entailment_index(self.model.config)
        positions = getattr(self.model.config, "max_position_embeddings", MAX_TOKENS + 2) or 0
        limits = [MAX_TOKENS, positions - 2, int(getattr(self.tokenizer, "model_max_length", 0))]
        self.max_length = min(x for x in limits if x > 0)

    @property
    def model_id(self) -> str:
        """The model's identity for the build manifest (name, or name@commit from the hub)."""
        return model_id(self.name, self.model)

    def entailment_probs(self, premises: Sequence[str], hypotheses: Sequence[str]) -> list[float]:
        """P(entailment) of each (premise, hypothesis) pair, in input order.

        Raises:
            ValueError: when the two lists differ in length.
        """
        import torch

        if len(premises) != len(hypotheses):
            raise ValueError(f"{len(premises)} premises but {len(hypotheses)} hypotheses")
        probs = [0.0] * len(premises)
        sizes = [len(p) + len(h) for p, h in zip(premises, hypotheses, strict=True)]
        with torch.inference_mode():
            for batch in length_batches(sizes, self.batch_size):
                encoded = self.tokenizer(
                    [str(premises[i]) for i in batch],
                    [str(hypotheses[i]) for i in batch],
                    padding=True,
                    truncation=True,
                    max_length=self.max_length,
                    return_tensors="pt",
                ).to(self.device)
                logits = self.model(**encoded).logits.float()
                column = logits.softmax(dim=-1)[:, self.entailment_index].cpu().tolist()
                for i, p in zip(batch, column, strict=True):
                    probs[i] = float(p)
        return probs

    def entailed(self, premises: Sequence[str], hypotheses: Sequence[str]) -> list[bool]:
        """Whether each premise entails its hypothesis (probability ≥ ``threshold``)."""
        return [p >= self.threshold for p in self.entailment_probs(premises, hypotheses)]

    def describe(self) -> dict[str, Any]:
        """Settings for the build manifest."""
        return {
            "model": self.model_id,
            "threshold": self.threshold,
            "batch_size": self.batch_size,
            "device": self.device,
            "entailment_label": self.model.config.id2label.get(self.entailment_index),
        }

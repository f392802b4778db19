"""Masked-LM plausibility of candidate foils (SPEC §2.5: "rank candidate foils by a masked
language model's plausibility (the paper used BERT) and keep the most sensible ones").

The score of a sentence is its pseudo-log-likelihood (Salazar et al., 2020): every word piece
is masked in turn and the model's log-probability of the true piece is summed. By default the
sum is divided by the number of pieces (``normalize=True``), so that a foil of several pieces
("in front of") is not penalised for its length alone; higher is more plausible.

All masked copies of all sentences are sorted by length and batched together; results come
back in input order. Inference runs under ``torch.inference_mode`` on CUDA when available.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crepe_datasets.generators.filters.entailment import length_batches
from crepe_datasets.generators.filters.loading import (
    load_model_and_tokenizer,
    model_id,
    resolve_device,
)

DEFAULT_MLM = "bert-base-uncased"
MAX_TOKENS = 128


class PlausibilityRanker:
    """Scores sentences with a masked language model, by hub name or local folder.

    Args:
        model_name_or_path: hub name (from the local cache or the network) or a local folder.
        device: ``"cuda"``, ``"cpu"``, … (``None``: CUDA when available, else CPU).
        batch_size: masked copies per forward pass.
        normalize: divide the pseudo-log-likelihood by the number of word pieces.
        local_files_only: never use the network (``None``: cache first, then the network).
    """

    def __init__(
        self,
        model_name_or_path: str = DEFAULT_MLM,
        device: str | None = None,
        batch_size: int = 64,
        normalize: bool = True,
        local_files_only: bool | None = None,
    ) -> None:
        from transformers import AutoModelForMaskedLM

        self.name = str(model_name_or_path)
        self.batch_size = max(1, int(batch_size))
        self.normalize = normalize
        self.device = resolve_device(device)
        self.tokenizer, model = load_model_and_tokenizer(
            self.name, AutoModelForMaskedLM, "masked language model", "--mlm", local_files_only
        )
        self.model = model.to(self.device).eval()
        if self.tokenizer.mask_token_id is None:
            raise ValueError(f"the tokenizer of {self.name} has no mask token")

    @property
    def model_id(self) -> str:
        """The model's identity for the build manifest (name, or name@commit from the hub)."""
        return model_id(self.name, self.model)

    def _copies(self, sentences: Sequence[str]) -> list[tuple[int, int, list[int]]]:
        """``(sentence, position, ids)`` for every maskable word piece of every sentence."""
        special = set(self.tokenizer.all_special_ids)
        encoded = self.tokenizer(
            [str(s) for s in sentences], truncation=True, max_length=MAX_TOKENS
        )["input_ids"]
        return [
            (s, pos, ids)
            for s, ids in enumerate(encoded)
            for pos, token in enumerate(ids)
            if token not in special
        ]

    def rank(self, sentences: Sequence[str]) -> list[float]:
        """Plausibility score of each sentence (higher is more plausible), in input order.

        A sentence without any word piece scores ``-inf``.
        """
        import torch

        if not sentences:
            return []
        copies = self._copies(sentences)
        totals = [0.0] * len(sentences)
        counts = [0] * len(sentences)
        mask_id, pad_id = self.tokenizer.mask_token_id, self.tokenizer.pad_token_id or 0
        with torch.inference_mode():
            for batch in length_batches([len(c[2]) for c in copies], self.batch_size):
                width = max(len(copies[i][2]) for i in batch)
                ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
                attention = torch.zeros((len(batch), width), dtype=torch.long)
                positions, targets = [], []
                for row, i in enumerate(batch):
                    _, pos, tokens = copies[i]
                    ids[row, : len(tokens)] = torch.tensor(tokens)
                    attention[row, : len(tokens)] = 1
                    ids[row, pos] = mask_id
                    positions.append(pos)
                    targets.append(tokens[pos])
                logits = self.model(
                    input_ids=ids.to(self.device), attention_mask=attention.to(self.device)
                ).logits.float()
                rows = torch.arange(len(batch), device=logits.device)
                picked = logits[rows, torch.tensor(positions, device=logits.device)]
                scores = picked.log_softmax(-1)[rows, torch.tensor(targets, device=logits.device)]
                for i, score in zip(batch, scores.cpu().tolist(), strict=True):
                    totals[copies[i][0]] += float(score)
                    counts[copies[i][0]] += 1
        return [
            float("-inf") if n == 0 else (t / n if self.normalize else t)
            for t, n in zip(totals, counts, strict=True)
        ]

    def top(self, sentences: Sequence[str], k: int) -> list[int]:
        """Indices of the ``k`` most plausible sentences, best first (ties: input order)."""
        scores = self.rank(sentences)
        return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[: max(k, 0)]

    def describe(self) -> dict[str, Any]:
        """Settings for the build manifest."""
        return {"model": self.model_id, "normalize": self.normalize, "device": self.device}

"""Checks of the caption scores on real captions: COCO leave-one-out and an independent BLEU.

Leave-one-out: each image's first caption (annotation order) is the "prediction" and its other
captions are the references, a human-level reference point for every metric.
:func:`independent_bleu` recomputes corpus BLEU with ``sacrebleu`` on the same PTB-tokenised
text (``tokenize="none"``, no smoothing, closest reference length), so a disagreement with
pycocoevalcap's BLEU can only come from the BLEU computation itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError


def leave_one_out(path: str | Path) -> tuple[dict[str, list[str]], dict[str, str]]:
    """``(references, candidates)`` of a COCO captions file; images with < 2 captions are skipped."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("annotations"), list):
        raise CrepeInputError(f"{path} has no 'annotations' list; give a COCO captions file.")
    by_image: dict[str, list[str]] = {}
    for ann in data["annotations"]:
        by_image.setdefault(str(ann["image_id"]), []).append(str(ann["caption"]))
    refs = {i: caps[1:] for i, caps in by_image.items() if len(caps) > 1}
    cands = {i: by_image[i][0] for i in refs}
    return refs, cands


def independent_bleu(
    references: Mapping[str, Sequence[str]], candidates: Mapping[str, str]
) -> dict[str, float]:
    """Corpus BLEU-1..4 (0–1) by sacrebleu over already tokenised texts (sorted id order)."""
    from sacrebleu.metrics import BLEU

    ids = sorted(candidates)
    width = max(len(references[i]) for i in ids)
    streams = [
        [references[i][k] if k < len(references[i]) else None for i in ids] for k in range(width)
    ]
    hyps = [candidates[i] for i in ids]
    out = {}
    for n in range(1, 5):
        metric = BLEU(tokenize="none", smooth_method="none", max_ngram_order=n, force=True)
        out[f"BLEU-{n}"] = metric.corpus_score(hyps, streams).score / 100
    return out


def tokenized_pair(
    references: Mapping[str, Sequence[str]], candidates: Mapping[str, str]
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """References and candidates through the COCO evaluation's PTB tokenizer."""
    from crepe_datasets.evaluator.caption_scores import ptb_tokenize

    gts = ptb_tokenize(references)
    res = ptb_tokenize({i: [c] for i, c in candidates.items()})
    return gts, {i: v[0] for i, v in res.items()}

"""Captioning scores through the maintained COCO caption evaluation package (``pycocoevalcap``).

:func:`coco_scores` tokenises references and candidates with the package's PTB tokenizer
(Stanford CoreNLP, a Java program), then computes BLEU-1..4, METEOR (Java), ROUGE-L and CIDEr
exactly as the COCO caption leaderboard does. SPICE is not computed: its jar fetches Stanford
CoreNLP models at run time, and the toolkit does not download anything while it runs.

:func:`pair_recall` is the systematicity metric of the captioning splits: the share of
(image, held-out pair) items of a split for which at least one of the first K generated
captions binds the pair (found by the caption parser, as in the build).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from crepe_datasets.infra.errors import MissingResourceError

METRICS = ("BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4", "METEOR", "ROUGE-L", "CIDEr")
MAX_K = 5


def require_java() -> str:
    """Path of the ``java`` executable the scorer needs.

    Raises:
        MissingResourceError: no Java runtime on ``PATH``.
    """
    java = shutil.which("java")
    if java is None:
        raise MissingResourceError(
            "the COCO caption scorer (PTB tokenizer, METEOR) needs a Java runtime: run `make setup` "
            "as root or `apt-get install default-jre-headless`, then retry."
        )
    return java


def ptb_tokenize(texts: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """PTB-tokenised, lower-cased texts per key (the COCO evaluation's own tokenizer)."""
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    require_java()
    data = {k: [{"caption": t} for t in v] for k, v in texts.items()}
    with contextlib.redirect_stdout(None), _quiet_java_stderr():
        return PTBTokenizer().tokenize(data)


@contextlib.contextmanager
def _quiet_java_stderr() -> Iterator[None]:
    """Hide the tokenizer's "PTBTokenizer tokenized N tokens" line; pass other messages on."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            for line in tmp.read().decode("utf-8", errors="replace").splitlines():
                if line.strip() and not line.startswith("PTBTokenizer tokenized"):
                    print(line, file=sys.stderr)


def _meteor(gts: dict[str, list[str]], res: dict[str, list[str]]) -> tuple[float, list[float]]:
    from pycocoevalcap.meteor.meteor import Meteor

    scorer = Meteor()
    try:
        score, scores = scorer.compute_score(gts, res)
    finally:
        with contextlib.suppress(Exception):
            scorer.meteor_p.stdin.close()
            scorer.meteor_p.kill()
            scorer.meteor_p.wait(timeout=10)
    return float(score), [float(s) for s in scores]


def coco_scores(
    references: Mapping[str, Sequence[str]],
    candidates: Mapping[str, str],
    *,
    meteor: bool = True,
) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Corpus scores and per-image scores of one candidate caption per image.

    Args:
        references: image id → reference captions (raw text).
        candidates: image id → the generated caption (raw text); same keys as ``references``.
        meteor: compute METEOR (a Java process; the slowest metric).

    Returns:
        ``({metric: corpus score}, {metric: per-image scores in sorted id order})``.
    """
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    ids = sorted(candidates)
    if set(ids) != set(references):
        raise ValueError("references and candidates must have the same image ids")
    gts = ptb_tokenize({i: references[i] for i in ids})
    res = ptb_tokenize({i: [candidates[i]] for i in ids})
    corpus: dict[str, float] = {}
    per_image: dict[str, list[float]] = {}
    with contextlib.redirect_stdout(None):
        bleu, bleu_each = Bleu(4).compute_score(gts, res, verbose=0)
    for n in range(4):
        corpus[f"BLEU-{n + 1}"] = float(bleu[n])
        per_image[f"BLEU-{n + 1}"] = [float(x) for x in bleu_each[n]]
    if meteor:
        corpus["METEOR"], per_image["METEOR"] = _meteor(gts, res)
    for name, scorer in (("ROUGE-L", Rouge()), ("CIDEr", Cider())):
        score, each = scorer.compute_score(gts, res)
        corpus[name], per_image[name] = float(score), [float(x) for x in each]
    return corpus, per_image


def pair_recall(
    items: Sequence[tuple[str, str]],
    generated: Mapping[str, Sequence[Any]],
    pairs: Mapping[str, Any],
    max_k: int = MAX_K,
) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Recall@K of held-out pairs over the first K generated captions, K = 1..``max_k``.

    Args:
        items: ``(image_id, pair_id)`` to look for (an image with two pairs gives two items).
        generated: image id → facts (:class:`~crepe_datasets.builders.captioning.concepts.CaptionFacts`)
            of its generated captions, in the order given.
        pairs: pair id → :class:`~crepe_datasets.builders.captioning.pairs.ConceptPair`.

    Returns:
        ``({"R@K": value}, {pair_id: {"R@K": value, "n": items}})``; an image with fewer than
        K captions counts with the captions it has.
    """
    overall: dict[str, float] = {}
    per_pair: dict[str, dict[str, float]] = {}
    hits_at: dict[tuple[str, str], int | None] = {}
    for image_id, pid in items:
        first = next(
            (k for k, f in enumerate(generated[image_id], 1) if pairs[pid].in_facts(f)), None
        )
        hits_at[(image_id, pid)] = first
    for k in range(1, max_k + 1):
        hit = {key: first is not None and first <= k for key, first in hits_at.items()}
        overall[f"R@{k}"] = sum(hit.values()) / len(hit) if hit else float("nan")
        for pid in sorted({p for _, p in hits_at}):
            mine = [v for (_, p), v in hit.items() if p == pid]
            per_pair.setdefault(pid, {"n": float(len(mine))})[f"R@{k}"] = sum(mine) / len(mine)
    return overall, per_pair

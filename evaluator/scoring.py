"""From embeddings to metrics: score matrices per item, then the task's metrics and breakdowns.

Subsets of one split: ``""`` (everything), ``<column>=<value>`` for each breakdown column of
:data:`crepe_datasets.evaluator.datasets_io.BREAKDOWN_COLUMNS`, and ``neg=<type>`` for retrieval sets that mix
negative types (the positive against the negatives of that type only).
"""

from __future__ import annotations

import numpy as np

from crepe_datasets.evaluator.datasets_io import EvalItems
from crepe_datasets.evaluator.encode import Embeddings
from crepe_datasets.evaluator.metrics import (
    DEFAULT_RAW_SET_SIZE,
    MetricResult,
    binary_metrics,
    group_metrics,
    raw_retrieval_metrics,
    restrict_negatives,
    retrieval_metrics,
)
from crepe_datasets.infra.provenance import DropLog

_CHUNK = 4096


def usable(items: EvalItems, emb: Embeddings, drops: DropLog) -> EvalItems:
    """The items whose every image was encoded; the others are counted by failure reason."""
    keep = []
    for item_id, refs in zip(items.ids, items.images, strict=True):
        bad = [emb.failed.get(r.key, "missing_image") for r in refs if r.key not in emb.images]
        if bad:
            drops.drop("evaluate", bad[0], example=f"{items.config}/{items.split} {item_id}")
        keep.append(not bad)
    return items.select(keep)


def _text_matrix(items: EvalItems, emb: Embeddings) -> tuple[np.ndarray, np.ndarray]:
    """Texts as a padded index matrix into a stacked text table."""
    vocab = sorted({t for texts in items.texts for t in texts})
    row = {t: i for i, t in enumerate(vocab)}
    table = np.stack([emb.texts[t] for t in vocab]) if vocab else np.zeros((0, 1), np.float32)
    width = max((len(t) for t in items.texts), default=0)
    idx = np.full((len(items), width), -1, dtype=np.int64)
    for i, texts in enumerate(items.texts):
        idx[i, : len(texts)] = [row[t] for t in texts]
    return idx, table


def pair_scores(items: EvalItems, emb: Embeddings, image: int = 0) -> np.ndarray:
    """``(n, T)`` cosine scores of image ``image`` of each item against its texts (NaN = padding)."""
    idx, table = _text_matrix(items, emb)
    img = (
        np.stack([emb.images[refs[image].key] for refs in items.images])
        if len(items)
        else np.zeros((0, table.shape[1]))
    )
    out = np.full(idx.shape, np.nan, dtype=np.float64)
    for start in range(0, len(items), _CHUNK):
        sl = slice(start, start + _CHUNK)
        txt = table[np.maximum(idx[sl], 0)]  # (c, T, d)
        s = np.einsum("ctd,cd->ct", txt.astype(np.float64), img[sl].astype(np.float64))
        out[sl] = np.where(idx[sl] >= 0, s, np.nan)
    return out


def _score(
    items: EvalItems, emb: Embeddings, raw_set_size: int, seed: int
) -> tuple[MetricResult, np.ndarray | None]:
    task = items.task.type
    if task == "group":
        s = np.stack([pair_scores(items, emb, 0), pair_scores(items, emb, 1)], axis=1)
        return group_metrics(s), None
    if task == "raw_retrieval":
        img_keys = [refs[0].key for refs in items.images]
        txt = [t[0] for t in items.texts]
        img = np.stack([emb.images[k] for k in img_keys])
        txt_emb = np.stack([emb.texts[t] for t in txt])
        _, ikeys = np.unique(img_keys, return_inverse=True)
        _, tkeys = np.unique(txt, return_inverse=True)
        return raw_retrieval_metrics(img, txt_emb, ikeys, tkeys, raw_set_size, seed), None
    scores = pair_scores(items, emb)
    if task == "binary" and scores.shape[1] == 2:
        return binary_metrics(scores), scores
    return retrieval_metrics(scores), scores


def evaluate_split(
    items: EvalItems, emb: Embeddings, raw_set_size: int = DEFAULT_RAW_SET_SIZE, seed: int = 0
) -> dict[str, MetricResult]:
    """Metrics of the whole split (subset ``""``) and of every breakdown subset."""
    if len(items) == 0:
        return {}
    main, scores = _score(items, emb, raw_set_size, seed)
    results = {"": main}
    for col, values in sorted(items.groups.items()):
        values = np.asarray([str(v) for v in values])
        for value in sorted(set(values)):
            mask = values == value
            sub = items.select(mask.tolist())
            results[f"{col}={value}"] = _score(sub, emb, raw_set_size, seed)[0]
    if scores is not None and items.negative_types is not None:
        width = scores.shape[1] - 1
        types = np.full((len(items), width), "", dtype=object)
        for i, t in enumerate(items.negative_types):
            types[i, : len(t)] = t
        kinds = sorted({t for row in items.negative_types for t in row if t})
        if len(kinds) > 1:
            for kind in kinds:
                restricted = restrict_negatives(scores, types, kind)
                has = ~np.all(np.isnan(restricted[:, 1:]), axis=1)
                results[f"neg={kind}"] = retrieval_metrics(restricted[has])
    return results

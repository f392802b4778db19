"""How unevenly a benchmark uses words as foils and as the words they replace, read from texts.

Each hard negative is compared with its caption word by word: the caption's words missing from
the negative are the *truths* it replaced, the negative's words missing from the caption its
*foils*. A word used mostly as a foil ("lacks", "beneath") or mostly as a truth marks its text's
side for any text-only model (:mod:`crepe_datasets.generators.negatives.foil_balance` explains
why, and how our builders avoid it). Texts only, so any benchmark can be measured.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def text_exchange(caption: str, negative: str) -> tuple[Counter, Counter]:
    """Words of ``caption`` missing from ``negative`` (truths) and words of ``negative`` missing
    from ``caption`` (foils), as multisets of lower-case words."""
    a, b = Counter(_WORD.findall(caption.lower())), Counter(_WORD.findall(negative.lower()))
    return a - b, b - a


def foil_imbalance(sets: Iterable[Sequence[str]], min_uses: int = 5) -> dict[str, Any]:
    """How unevenly words are used as foils and as truths over retrieval sets (caption first).

    Reads texts only, so it applies to any benchmark. Returns the number of distinct foil words,
    those used *only* as foils (with their total uses and the most used), and the largest
    per-word ``|log2((foil uses + 1) / (truth uses + 1))|`` among words used at least
    ``min_uses`` times either way (with the word). A use is a word's place in a text ("harness"
    for "shelf" in "book on the shelf, another book on the shelf" is two uses);
    ``foil_only_max_negatives`` counts the negatives instead (one)."""
    foils: Counter = Counter()
    truths: Counter = Counter()
    negatives: Counter = Counter()  # per word, the negatives it is a foil in
    for texts in sets:
        for negative in texts[1:]:
            removed, added = text_exchange(texts[0], negative)
            truths.update(removed)
            foils.update(added)
            negatives.update(added.keys())
    only = {w: n for w, n in foils.items() if truths.get(w, 0) == 0}
    worst, worst_word = 0.0, None
    for word in set(foils) | set(truths):
        f, t = foils.get(word, 0), truths.get(word, 0)
        if f + t >= min_uses:
            ratio = abs(math.log2((f + 1) / (t + 1)))
            if ratio > worst or (ratio == worst and worst_word is not None and word < worst_word):
                worst, worst_word = ratio, word
    top_only = sorted(only.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    return {
        "foil_words": len(foils),
        "foil_only_words": len(only),
        "foil_only_uses": sum(only.values()),
        "foil_only_max_uses": top_only[0][1] if top_only else 0,
        "foil_only_max_negatives": max((negatives[w] for w in only), default=0),
        "foil_only_top": [f"{w} ({n})" for w, n in top_only],
        "max_log2_ratio": round(worst, 3),
        "max_log2_ratio_word": worst_word,
        "min_uses": min_uses,
    }


def imbalance_by_config(
    tables: Mapping[str, Mapping[str, Iterable[Mapping[str, Any]]]],
) -> dict[str, dict[str, Any]]:
    """:func:`foil_imbalance` of each config with negatives, per split and pooled (``all``)."""
    out: dict[str, dict[str, Any]] = {}
    for config, splits in sorted(tables.items()):
        per_split = {
            split: [
                [r["caption"], *r["hard_negatives"]]
                for r in rows
                if isinstance(r.get("caption"), str) and r.get("hard_negatives")
            ]
            for split, rows in splits.items()
        }
        pooled = [s for sets in per_split.values() for s in sets]
        if pooled:
            out[config] = {
                "all": foil_imbalance(pooled),
                "splits": {s: foil_imbalance(v) for s, v in per_split.items() if v},
            }
    return out


SUMMARY_KEYS = ("foil_only_words", "foil_only_uses", "foil_only_max_uses", "max_log2_ratio")


def foil_balance_summary(
    tables: Mapping[str, Mapping[str, Iterable[Mapping[str, Any]]]],
) -> dict[str, dict[str, Any]]:
    """The card's view of :func:`imbalance_by_config`: per config (all splits), the counts of
    words used only as foils, the largest log-ratio (with its word) and the most used foil-only
    words."""
    out = {}
    for config, data in imbalance_by_config(tables).items():
        pooled = data["all"]
        out[config] = {key: pooled[key] for key in SUMMARY_KEYS}
        out[config]["max_log2_ratio_word"] = pooled["max_log2_ratio_word"] or ""
        out[config]["foil_only_top"] = ", ".join(pooled["foil_only_top"][:5])
        for key in ("foil_only_max_uses", "foil_only_max_negatives"):
            out[config][f"worst_split_{key}"] = max(s[key] for s in data["splits"].values())
    return out

"""Adversarial refinement (issue 13, part 5; SugarCrepe's idea applied at generation time).

A text-only scorer that prefers the positive over its negatives (or the reverse) solves a
retrieval set without the image. For each ground truth and negative type with more valid
candidates than the ``k`` a set needs, the ``k`` negatives are chosen so that the positive's
rank among them is balanced under the generation-time blind scorers:

1. every scorer (word frequency and the n-gram LM of
   :class:`crepe_datasets.generators.filters.frequency_lm.FrequencyLMRanker`) marks each candidate
   *above* the positive (scores at least as high: a tie beats the positive half the time) or not;
2. a target ``t`` in ``0..k`` — how many chosen negatives should be above the positive — is
   taken in turn (``t = c mod (k + 1)`` for the ``c``-th set of this type and complexity in the
   chunk), so targets are spread evenly and the positive is ranked first, second, … last
   equally often: both "pick the most plausible" and "pick the least plausible" score chance;
3. candidates fall into four groups (above for both scorers, for one, for the other, for none);
   the choice of counts per group that misses the target by the fewest candidates (summed over
   both scorers) wins, ties to the choice that keeps earlier candidates; within a group
   candidates keep their generation order;
4. when a set cannot reach its target (no candidate is more plausible than the positive, say),
   the positive ends up first; so a choice that puts the positive first (or last) under a
   scorer is made only while such sets stay within chance's share ``1 / (k + 1)`` of the sets
   seen so far — later sets compensate for earlier shortfalls.

The chosen negatives move to the front of the item's list (the configs take the first ``k``);
the others stay behind them, unused. :class:`RefineStats` counts sets, candidates, those
discarded and sets whose choice differs from the first ``k``, per type, for the manifest.
Deterministic: no random numbers; the chunk's order of items fixes the targets.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crepe_datasets.builders.productivity.items import RenderedItem

REFINED_TYPES = ("atom", "swap")


@dataclass
class RefineStats:
    """Per negative type: sets refined, candidates seen, discarded, sets changed."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    def merge(self, other: RefineStats) -> None:
        for t, c in other.counts.items():
            self.counts[t].update(c)

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {t: dict(sorted(c.items())) for t, c in sorted(self.counts.items())}


@dataclass
class _Balance:
    """Running counts of one (type, complexity) in a chunk: sets, and how often each scorer
    ranked the positive first (no chosen negative above it) or last (all above it)."""

    seen: int = 0
    first: list[int] = field(default_factory=lambda: [0, 0])
    last: list[int] = field(default_factory=lambda: [0, 0])

    def allowed(self, k: int) -> tuple[list[bool], list[bool]]:
        budget = (self.seen + 1) / (k + 1)
        return [f + 1 <= budget for f in self.first], [x + 1 <= budget for x in self.last]

    def add(self, above: list[int], k: int) -> None:
        self.seen += 1
        for s in (0, 1):
            self.first[s] += above[s] == 0
            self.last[s] += above[s] == k


def _choose(flags: list[tuple[bool, bool]], k: int, target: int, balance: _Balance) -> list[int]:
    """Indices of ``k`` candidates: above-counts closest to ``target`` per scorer, and the
    positive first (or last) under a scorer only while that stays within chance's share."""
    groups: dict[tuple[bool, bool], list[int]] = defaultdict(list)
    for i, f in enumerate(flags):
        groups[f].append(i)
    keys = [(True, True), (True, False), (False, True), (False, False)]
    first_ok, last_ok = balance.allowed(k)
    best: tuple[int, list[int], list[int]] | None = None
    for counts in itertools.product(*(range(min(k, len(groups[key])) + 1) for key in keys)):
        if sum(counts) != k:
            continue
        above = [sum(n for key, n in zip(keys, counts, strict=True) if key[s]) for s in (0, 1)]
        cost = sum(abs(a - target) for a in above)
        cost += sum(k + 1 for s, a in enumerate(above) if a == 0 and not first_ok[s])
        cost += sum(k + 1 for s, a in enumerate(above) if a == k and not last_ok[s])
        chosen = sorted(i for key, n in zip(keys, counts, strict=True) for i in groups[key][:n])
        if best is None or (cost, chosen) < (best[0], best[1]):
            best = (cost, chosen, above)
    if best is None:
        return list(range(k))
    balance.add(best[2], k)
    return best[1]


def refine(
    rendered: list[RenderedItem],
    scorers: Sequence[Callable[[str], float]],
    k: int,
    stats: RefineStats,
    types: Sequence[str] = REFINED_TYPES,
) -> None:
    """Reorder each item's negatives so the first ``k`` of each type are the balanced choice."""
    balances: dict[tuple[str, int], _Balance] = defaultdict(_Balance)
    for r in rendered:
        for t in types:
            pool = [neg for neg in r.negatives if neg.type == t]
            if len(pool) < k:
                continue
            c = stats.counts[t]
            c["sets"] += 1
            c["candidates"] += len(pool)
            balance = balances[(t, r.item.n)]
            target = balance.seen % (k + 1)
            base = [fn(r.caption) for fn in scorers[:2]]
            flags = [
                tuple(fn(neg.text) >= b for fn, b in zip(scorers[:2], base, strict=True))
                for neg in pool
            ]
            chosen = _choose(flags, k, target, balance)  # type: ignore[arg-type]
            c["discarded"] += len(pool) - k
            c["changed"] += chosen != list(range(k))
            picked = [pool[i] for i in chosen]
            rest = [neg for neg in pool if all(neg is not p for p in picked)]
            others = [neg for neg in r.negatives if neg.type != t]
            r.negatives = others + picked + rest


def default_scorers(ranker: Any = None) -> list[Callable[[str], float]]:
    """Word frequency and the ranker's score (default: the shipped COCO n-gram LM)."""
    from crepe_datasets.generators.filters.frequency_lm import (
        FrequencyLMRanker,
        word_frequency_score,
    )

    lm = ranker or FrequencyLMRanker()
    score = getattr(lm, "score", None) or (lambda text: lm.rank([text])[0])
    return [word_frequency_score, score]

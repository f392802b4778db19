"""The foil balance of what a config keeps: drop the fewest sets that leave a word unbalanced.

The foil ledger (:mod:`~crepe_datasets.generators.negatives.foil_balance`) bounds a word's
*surplus* (uses as a foil minus uses as the replaced truth) while the sets are being chosen, by
``cap + rate × occurrences`` where *occurrences* counts the word in the positives. It has to
count positives before their sets are decided, and some of those sets are then left out (no
balanced choice under the refinement's scorers, too few candidates): their words' bounds were
wider than the kept sets justify. The result can hold a foil ("couch", "bed") whose positives
were all left out, which a classifier trained on part of the benchmark learns as "negative".

:func:`settle` measures the surpluses and occurrences over the sets kept, and drops sets until
every word is within ``cap + rate × occurrences`` (the bound productivity's ledger uses, rate
:data:`SETTLE_RATE`), greedily:

1. take the word furthest beyond its bound (largest excess; ties: the smallest word);
2. among the kept sets whose surplus of that word has the excess's sign, drop the one whose
   removal lowers the total excess ``Σ max(0, |surplus| − bound)`` the most (ties: the earliest);
3. a word no drop can bring closer is left as it is; repeat until no word is beyond its bound.

Deterministic (no random numbers), and each step touches only the dropped set's words, so it
runs in time proportional to the drops times the sets holding a word.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping, Sequence

# bound growth per occurrence at the end (productivity's ledger rate); the choice itself uses
# the wider systematicity rate, so that more sets find a balanced choice
SETTLE_RATE = 0.5


def settle(
    sets: Sequence[tuple[Mapping[Hashable, int], Mapping[Hashable, int]]],
    cap: float,
    rate: float = SETTLE_RATE,
) -> list[int]:
    """Indices of the sets to drop, in the order they were dropped (module docstring).

    Args:
        sets: per set, its positive's word occurrences and its negatives' word surpluses
            (``Σ`` over its negatives of the negative's words minus the positive's).
        cap: the bound of a word no kept positive holds.
        rate: how much the bound grows per occurrence in the kept positives.
    """
    surplus: Counter = Counter()
    occurrences: Counter = Counter()
    holders: dict[Hashable, list[int]] = defaultdict(list)
    for i, (positive, delta) in enumerate(sets):
        occurrences.update(positive)
        surplus.update(delta)
        for word in {*positive, *delta}:
            holders[word].append(i)

    def excess(word: Hashable, s: float, o: float) -> float:
        return max(0.0, abs(s) - (cap + rate * o))

    def change(i: int) -> float:
        positive, delta = sets[i]
        return sum(
            excess(w, surplus[w] - delta.get(w, 0), occurrences[w] - positive.get(w, 0))
            - excess(w, surplus[w], occurrences[w])
            for w in {*positive, *delta}
        )

    beyond = {w: e for w in surplus if (e := excess(w, surplus[w], occurrences[w])) > 0}
    kept = [True] * len(sets)
    dropped: list[int] = []
    while beyond:
        word = min(beyond, key=lambda w: (-beyond[w], repr(w)))
        sign = 1 if surplus[word] > 0 else -1
        best, best_change = None, 0.0
        for i in holders[word]:
            if kept[i] and sets[i][1].get(word, 0) * sign > 0:
                c = change(i)
                if c < best_change - 1e-12:
                    best, best_change = i, c
        if best is None:  # no drop brings it closer: leave it
            del beyond[word]
            continue
        kept[best] = False
        dropped.append(best)
        positive, delta = sets[best]
        occurrences.subtract(positive)
        surplus.subtract(delta)
        for w in {*positive, *delta}:
            e = excess(w, surplus[w], occurrences[w])
            if e > 0:
                beyond[w] = e
            else:
                beyond.pop(w, None)
    return dropped

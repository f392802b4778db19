"""Choosing the negatives of many sets jointly, so that words *and the pairs they form* are as
frequent among the negatives as the positives make them.

The foil ledger (:mod:`crepe_datasets.generators.negatives.foil_balance`) bounds each word's
foil and truth uses set by set, in the order the sets come. Two cues survive it:

* **pairs**: a word balanced on its own can still form pairs that only negatives hold. An
  attribute foil turns "red flower" into "black flower", an object foil "green tree" into
  "green desk", a swap "black dog, red couch" into "red dog, black couch": a classifier of word
  bigrams learns "black flower" = negative however often "black" and "flower" are truths;
* **order**: a set chosen early cannot know which words the later sets will need as foils.

Since an HN-ATOM or HN-SWAP negative is its positive with a controlled change, each
candidate's *feature delta* (:func:`feature_delta`: features of the negative's graph minus
those of the positive's) says exactly what choosing it adds to the negatives' feature counts,
beyond ``k`` copies of the positive's. Features (:func:`graph_features`) are the atoms by kind
(object, attribute, relationship) and the pairs a caption writes next to each other:
attribute–object ("black flower"), two attributes of one object ("black and white", in
alphabetical order), subject–relation ("flower on") and relation–object ("on table"). Over the
sets of one split (a complexity of a productivity chunk, a systematicity split) the
*surplus* of a feature is the sum of the chosen negatives' deltas; the negatives' count of the
feature is then ``k × occurrences + surplus``, where *occurrences* is its count in the positives.

:func:`rebalance` lowers ``Σ surplus² / (k × occurrences + 1)`` (a chi-square-like distance of
the negatives' feature counts from ``k`` times the positives') by local search after the sets'
first choice: it replaces a chosen negative of a set by an unchosen candidate of the *same
state* under the refinement's blind scorers (:mod:`crepe_datasets.generators.balance.refine`),
so the positive's rank balance under those scorers is unchanged, when that lowers the
distance without taking a word beyond the foil ledger's bounds; a candidate whose foil repeats (or is a synonym of) another chosen foil of the set is
never taken in. Sets are visited in order, each chosen slot takes the best improving candidate
(ties: the earlier one), and passes repeat until none improves or ``max_passes`` is reached:
deterministic, no random numbers.

Work saved without changing a single choice: deltas are computed only for candidates of a
chosen state (:func:`lazy_deltas`; no swap can bring in another), a swap's change is summed
from the two deltas without building their difference (:meth:`FeatureBalance.change_of_swap`,
the same terms in the same order, so the same float), and a set visited without a swap is
skipped until a later swap touches one of its features. ``tests/builders/productivity/
test_speed_paths.py`` checks the result against the plain revision on real chunks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from crepe_datasets.scenegraph.types import SceneGraph, SGObject

# A feature: (kind, text); kinds are the atom kinds and the pair kinds below.
Feature = tuple[str, str]
PAIR_KINDS = ("attribute_object", "attribute_attribute", "subject_relation", "relation_object")
MAX_PASSES = 4
T = TypeVar("T")


def graph_features(graph: SceneGraph, memo: dict[int, tuple] | None = None) -> Counter:
    """Atoms by kind and the adjacent pairs of a graph (module docstring), with counts.

    ``memo`` (``id(object) -> (object, its features)``, kept by the caller) reuses the features
    of objects already seen: a pool's negatives share all their objects but one with their
    positive."""
    names = {o.id: o.name for o in graph.objects}
    out: list[Feature] = []
    for o in graph.objects:  # the atoms as SceneGraph.atoms() counts them, and their pairs
        if memo is None:
            out += _object_features(o)
            continue
        seen = memo.get(id(o))
        if seen is None or seen[0] is not o:
            seen = memo[id(o)] = (o, _object_features(o))
        out += seen[1]
    for r in graph.relationships:
        if r.subject in names and r.object in names:
            out.append(("relationship", r.predicate))
            out.append(("subject_relation", f"{names[r.subject]} {r.predicate}"))
            out.append(("relation_object", f"{r.predicate} {names[r.object]}"))
    return Counter(out)


def _object_features(o: SGObject) -> list[Feature]:
    out: list[Feature] = [("object", o.name)]
    out += [("attribute", a) for a in o.attributes]
    out += [("attribute_object", f"{a} {o.name}") for a in o.attributes]
    if len(o.attributes) > 1:
        attrs = sorted(o.attributes)
        out += [
            ("attribute_attribute", f"{a} {b}") for i, a in enumerate(attrs) for b in attrs[i + 1 :]
        ]
    return out


def feature_delta(
    positive: Counter, negative: SceneGraph, memo: dict[int, tuple] | None = None
) -> dict[Feature, int]:
    """Features of ``negative`` minus ``positive``'s (:func:`graph_features`, with ``memo``),
    non-zero only."""
    neg = graph_features(negative, memo)
    get = positive.get
    delta = {f: d for f, n in neg.items() if (d := n - get(f, 0))}  # the negative's order,
    delta.update({f: -n for f, n in positive.items() if n and f not in neg})  # then the positive's
    return delta


def swappable(states: Sequence[Hashable], chosen: Iterable[int]) -> list[bool]:
    """Which candidates :func:`rebalance` can ever look at: those of the same state as a chosen
    one (a swap keeps the chosen states, so no other candidate can come in)."""
    wanted = {states[i] for i in chosen}
    return [state in wanted for state in states]


def lazy_deltas(
    positive: Counter,
    negatives: Sequence[T],
    graph: Callable[[T], SceneGraph],
    states: Sequence[Hashable],
    chosen: Iterable[int],
) -> list[dict[Feature, int] | None]:
    """:func:`feature_delta` of each candidate :func:`rebalance` can ever look at
    (:func:`swappable`), ``None`` for the others (a state no chosen candidate has); objects
    shared by the pool's graphs have their features computed once."""
    memo: dict[int, tuple] = {}  # the pool's objects, most of them shared
    return [
        feature_delta(positive, graph(neg), memo) if need else None
        for neg, need in zip(negatives, swappable(states, chosen), strict=True)
    ]


@dataclass
class JointSet:
    """One retrieval set's candidates, as :func:`rebalance` sees them.

    Attributes:
        states: each candidate's marks under the refinement's scorers (equal states are
            interchangeable for the rank balance).
        deltas: each candidate's :func:`feature_delta`; ``None`` for a candidate of a state no
            chosen candidate has (:func:`lazy_deltas`), which :func:`rebalance` never reads.
        exclusive: each candidate's words that no other chosen candidate may share (its foil
            and the foil's synonyms); empty when there is no such rule.
        chosen: indices of the chosen candidates; :func:`rebalance` rewrites them.
    """

    states: Sequence[tuple[int, ...]]
    deltas: Sequence[dict[Feature, int] | None]
    exclusive: Sequence[frozenset]
    chosen: list[int]


@dataclass
class FeatureBalance:
    """Feature surpluses of the negatives chosen so far and feature occurrences in the positives
    of one type's sets in one split (a complexity of a productivity chunk, whose splits share
    the chunk's foil ledger and so bound their sum, :attr:`bounded`; a systematicity split)."""

    k: int
    surplus: Counter = field(default_factory=Counter)
    occurrences: Counter = field(default_factory=Counter)
    bound: Callable[[Feature], float] | None = None
    # the surplus ``bound`` applies to, when the balance is one of several sharing a ledger (a
    # productivity chunk's splits: each balanced on its own, the ledger's bounds on their sum);
    # ``None``: this balance's own surplus
    bounded: Counter | None = None

    def __post_init__(self) -> None:
        if self.bounded is None:
            self.bounded = self.surplus

    def add(self, delta: dict[Feature, int], sign: int = 1) -> None:
        counters = (self.surplus,) if self.bounded is self.surplus else (self.surplus, self.bounded)
        for counter in counters:  # .get: faster than a Counter's []
            for f, d in delta.items():
                counter[f] = counter.get(f, 0) + sign * d  # type: ignore[union-attr]

    def change(self, delta: dict[Feature, int]) -> float:
        """How much adding ``delta`` changes the distance (negative: closer); infinite when it
        takes a feature's surplus further beyond ``bound`` (the foil ledger's bounds on words,
        which the first choice kept)."""
        k, surplus, occ, bound, bounded = (
            self.k, self.surplus, self.occurrences, self.bound, self.bounded
        )  # fmt: skip
        total = 0.0
        for f, d in delta.items():
            old, new = surplus[f], surplus[f] + d
            if bound is not None:
                b_old = bounded.get(f, 0)  # type: ignore[union-attr]
                b_new = b_old + d
                if abs(b_new) > abs(b_old) and abs(b_new) > bound(f):
                    return math.inf
            total += (new * new - old * old) / (k * occ[f] + 1)
        return total

    def change_of_swap(self, add: dict[Feature, int], remove: dict[Feature, int]) -> float:
        """:meth:`change` of the delta ``add − remove`` (a candidate whose delta is ``add`` in
        place of one whose delta is ``remove``), without building that delta: its non-zero
        terms, ``add``'s features first, then ``remove``'s others, each in its own order."""
        k, surplus, occ, bound, bounded = (
            self.k, self.surplus, self.occurrences, self.bound, self.bounded
        )  # fmt: skip
        total = 0.0
        for f, a in add.items():
            d = a - remove.get(f, 0)
            if not d:
                continue
            old = surplus.get(f, 0)
            new = old + d
            if bound is not None:
                b_old = bounded.get(f, 0)  # type: ignore[union-attr]
                b_new = b_old + d
                if abs(b_new) > abs(b_old) and abs(b_new) > bound(f):
                    return math.inf
            total += (new * new - old * old) / (k * occ.get(f, 0) + 1)
        for f, r in remove.items():
            if f in add:
                continue
            old = surplus.get(f, 0)
            new = old - r
            if bound is not None:
                b_old = bounded.get(f, 0)  # type: ignore[union-attr]
                b_new = b_old - r
                if abs(b_new) > abs(b_old) and abs(b_new) > bound(f):
                    return math.inf
            total += (new * new - old * old) / (k * occ.get(f, 0) + 1)
        return total

    def distance(self) -> float:
        """``Σ surplus² / (k × occurrences + 1)`` over every feature."""
        return sum(s * s / (self.k * self.occurrences[f] + 1) for f, s in self.surplus.items())


def rebalance(
    sets: Iterable[JointSet], balance: FeatureBalance, max_passes: int = MAX_PASSES
) -> int:
    """Swap chosen candidates for same-state ones while that lowers the distance (module
    docstring); ``balance`` must already hold the chosen candidates' deltas. Returns the number
    of swaps."""
    sets = list(sets)
    # per set, the candidates of each state in pool order (a swap stays within one state), and
    # every feature its candidates' deltas touch
    by_state: list[dict[Hashable, list[int]]] = []
    touches: list[frozenset[Feature]] = []
    for s in sets:
        groups: dict[Hashable, list[int]] = {}
        for j, state in enumerate(s.states):
            groups.setdefault(state, []).append(j)
        by_state.append(groups)
        touches.append(frozenset().union(*(d for d in s.deltas if d is not None)))
    # A set visited without a swap is visited again only once a swap elsewhere has changed the
    # surplus of a feature it touches: until then every gain it computes is the same, so it
    # would find no swap again (skipping it changes nothing, only saves the work).
    clock = 0  # swaps so far
    changed_at: dict[Feature, int] = {}  # feature -> clock of the last swap that touched it
    quiet_since: list[int | None] = [None] * len(sets)  # clock of a set's last swapless visit
    swaps = 0
    for _ in range(max_passes):
        changed = 0
        for n, (s, groups) in enumerate(zip(sets, by_state, strict=True)):
            quiet = quiet_since[n]
            if quiet is not None and (  # no swap since its last visit, or none it touches
                quiet == clock or all(changed_at.get(f, -1) <= quiet for f in touches[n])
            ):
                continue
            before = changed
            for slot, i in enumerate(s.chosen):
                same = groups[s.states[i]]
                if len(same) < 2:  # nothing of its state to swap in
                    continue
                taken = set(s.chosen)
                free = [j for j in same if j not in taken]
                if not free:  # every candidate of its state is chosen already
                    continue
                others = frozenset().union(*(s.exclusive[c] for c in s.chosen if c != i))
                best, best_gain = None, -1e-9
                di = s.deltas[i]
                for j in free:
                    if s.exclusive[j] & others:
                        continue
                    gain = balance.change_of_swap(s.deltas[j], di)  # type: ignore[arg-type]
                    if gain < best_gain:
                        best, best_gain = j, gain
                if best is not None:
                    balance.add(di, -1)  # type: ignore[arg-type]
                    balance.add(s.deltas[best])  # type: ignore[arg-type]
                    clock += 1
                    for f in (*di, *s.deltas[best]):  # type: ignore[misc]
                        changed_at[f] = clock
                    s.chosen[slot] = best
                    changed += 1
            quiet_since[n] = clock if changed == before else None
        swaps += changed
        if not changed:
            break
    for s in sets:
        s.chosen.sort()
    return swaps

"""Adversarial refinement (issue 13, part 5; SugarCrepe's idea applied at generation time).

A text-only scorer that prefers the positive over its negatives (or the reverse) solves a
retrieval set without the image. For each ground truth and negative type with more valid
candidates than the ``k`` a set needs, the ``k`` negatives are chosen so that the positive's
rank among them is balanced under the generation-time blind scorers:

1. every scorer (word frequency and the n-gram LM of
   :class:`crepe_datasets.generators.balance.frequency_lm.FrequencyLMRanker`) marks each candidate
   above, tied with or below the positive;
2. a target ``t`` in ``0..k`` — how many chosen negatives should be above the positive — is
   taken in turn (``t = c mod (k + 1)`` for the ``c``-th set of this type and complexity in the
   chunk), so targets are spread evenly and the positive is ranked first, second, … last
   equally often: both "pick the most plausible" and "pick the least plausible" score chance;
3. candidates fall into groups by their marks under both scorers; the choice of counts per
   group whose number of candidates at or above the positive misses the target by the fewest
   (summed over both scorers) wins, ties to the choice that keeps earlier candidates; within a
   group candidates keep their generation order;
4. a set that cannot reach its target (no candidate as plausible as the positive, say) would
   rank the positive first; so a choice is allowed only while, under each scorer, the expected
   R@1 of "pick the highest" and of "pick the lowest" (ties shared) summed over the sets kept
   so far stays within chance's share ``1 / (k + 1)`` per set. An item with no allowed choice loses that type's
   negatives (stage ``productivity_refinement``, reason ``<type>_no_balanced_choice``, one
   count per candidate), so its row leaves that config (and ``hn_all``), not the dataset.

With a :class:`~crepe_datasets.generators.balance.attestation.PairAttestation`
(:attr:`RefineState.attestation`; productivity sets it per chunk), a third judge marks each
candidate too: whether other images' annotations state its word pairs more or less often than
the positive's. Its marks join the scorers' in steps 3 and 4, so negatives said more often than
their positive are chosen as often as negatives said less often.

Before step 3, HN-ATOM pools pass the foil ledger
(:mod:`crepe_datasets.generators.negatives.foil_balance`, one per chunk): only
candidates that keep every word's foil and truth uses balanced within the ledger's cap, and no
two with the same or synonymous foils, stay in the pool, best balancing first; the others are
dropped (reason ``atom_foil_unbalanced``, one count per candidate), and an item whose pool falls
below ``k`` loses its HN-ATOM negatives (``atom_no_balanced_foils``).

With ``--one-atom-sets`` (:attr:`RefineState.one_atom`), HN-ATOM candidates come in groups
that each replace one atom of the positive
(:func:`crepe_datasets.generators.negatives.atom.atom_groups`), and a set's ``k`` negatives
come from one group, so its texts differ from each other at one place only (no text is the one
the others were made from: :mod:`crepe_datasets.generators.balance.set_structure`). The groups are
tried in turn, each through the foil ledger and the balanced choice above; the first that gives
a choice is kept, the candidates of the later ones are dropped (``atom_other_atom_chosen``).

At the end of the chunk, :func:`finish` revises the choices of all its sets of a type
together (:mod:`crepe_datasets.generators.negatives.joint_balance`): a chosen negative gives way
to an unchosen one of the same marks under both scorers (so nothing above changes) when that
brings the negatives' words and word pairs closer to the positives'.

The chosen negatives move to the front of the item's list (the configs take the first ``k``);
the others stay behind them, unused. :class:`RefineStats` counts sets, candidates, those
discarded and sets whose choice differs from the first ``k``, per type, for the manifest.
Deterministic: no random numbers; the chunk's order of items fixes the targets.
"""

from __future__ import annotations

import functools
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from crepe_datasets.generators.balance.attestation import PairAttestation
from crepe_datasets.generators.balance.items import Negative, RenderedItem
from crepe_datasets.generators.negatives.atom import atom_groups
from crepe_datasets.generators.negatives.foil_balance import (
    Exchange,
    FoilLedger,
    eligible,
    foil_words,
    ledger_bound,
    positive_atoms,
)
from crepe_datasets.generators.negatives.joint_balance import (
    FeatureBalance,
    JointSet,
    graph_features,
    lazy_deltas,
    rebalance,
)
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import SceneGraph

REFINED_TYPES = ("atom", "swap")
FOIL_BALANCED_TYPES = ("atom",)
# types whose candidates come in groups that each replace one atom; a set takes one group
ONE_ATOM_TYPES = ("atom",)
STAGE = "productivity_refinement"


@dataclass
class RefineStats:
    """Per negative type: sets refined, candidates seen, discarded, sets changed."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    def merge(self, other: RefineStats) -> None:
        for t, c in other.counts.items():
            self.counts[t].update(c)

    def merge_dict(self, data: dict[str, dict[str, int]]) -> None:
        for t, c in data.items():
            self.counts[t].update(c)

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {t: dict(sorted(c.items())) for t, c in sorted(self.counts.items())}


@dataclass
class Balance:
    """Running counts of one (type, complexity) in a chunk: sets kept, and each scorer's
    expected R@1 sums of "pick the highest" (``first``) and "pick the lowest" (``last``), one
    entry per scorer (sized by the first choice added)."""

    seen: int = 0
    first: list[float] = field(default_factory=list)
    last: list[float] = field(default_factory=list)

    def _sums(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        if not self.first:
            return np.zeros(n), np.zeros(n)
        return np.array(self.first), np.array(self.last)

    def fits(self, first: list[float], last: list[float], k: int) -> bool:
        return bool(self.fits_rows(np.array([first]), np.array([last]), k)[0])

    def fits_rows(self, first: np.ndarray, last: np.ndarray, k: int) -> np.ndarray:
        """:meth:`fits` for every row of ``first`` and ``last`` (one column per scorer)."""
        budget = (self.seen + 1) / (k + 1) + 1e-9
        was_first, was_last = self._sums(first.shape[1])
        return ((was_first + first <= budget) & (was_last + last <= budget)).all(axis=1)

    def add(self, first: list[float], last: list[float]) -> None:
        self.seen += 1
        if not self.first:
            self.first, self.last = [0.0] * len(first), [0.0] * len(last)
        for s in range(len(first)):
            self.first[s] += first[s]
            self.last[s] += last[s]


# A candidate's state under each scorer: 1 above the positive, 0 tied, -1 below.
State = tuple[int, ...]


@functools.lru_cache(maxsize=1024)  # bounded: a matrix has up to 1,287 rows
def _count_matrix(caps: tuple[int, ...], k: int) -> np.ndarray:
    """Every ``counts`` with ``0 <= counts[i] <= caps[i]`` and ``sum(counts) == k``, as rows of
    a matrix in the order of ``itertools.product``. Built one group at a time, keeping only the
    partial rows that can still sum to ``k``."""
    rows = np.zeros((1, 0), dtype=np.int64)
    sums = np.zeros(1, dtype=np.int64)
    rest = sum(caps)
    for cap in caps:
        rest -= cap
        values = np.arange(cap + 1, dtype=np.int64)
        grown = (sums[:, None] + values[None, :]).ravel()  # each row, then each value
        keep = (grown <= k) & (grown + rest >= k)
        rows = np.hstack([np.repeat(rows, cap + 1, axis=0), np.tile(values, len(rows))[:, None]])
        rows, sums = rows[keep], grown[keep]
    return rows if k == 0 or caps else rows[:0]


@functools.lru_cache(maxsize=4096)  # bounded: memory stays flat over long builds
def _choices(keys: tuple[State, ...], caps: tuple[int, ...], k: int) -> tuple[np.ndarray, ...]:
    """Every choice of counts per group (rows of :func:`_count_matrix`) with, per scorer
    (columns), how many chosen candidates are at or above the positive and the expected R@1 of
    "pick the highest" (``first``) and "pick the lowest" (``last``), ties shared. It depends
    only on the groups' states and sizes, so it is computed once per distinct combination."""
    counts = _count_matrix(caps, k)
    states = np.array(keys, dtype=np.int64).reshape(len(keys), -1)
    picked = counts > 0
    above = counts @ (states >= 0)
    ties = counts @ (states == 0)
    shared = 1.0 / (1 + ties)
    first = np.where(picked @ (states > 0) > 0, 0.0, shared)
    last = np.where(picked @ (states < 0) > 0, 0.0, shared)
    return counts, above, first, last


@functools.lru_cache(maxsize=4096)  # bounded, as _choices
def _cost(keys: tuple[State, ...], caps: tuple[int, ...], k: int, target: int) -> np.ndarray:
    """Per row of :func:`_choices`: how far its counts at or above the positive miss
    ``target``, summed over the scorers."""
    above = _choices(keys, caps, k)[1]
    return np.abs(above - target).sum(axis=1)


def choose_balanced(states: list[State], k: int, target: int, balance: Balance) -> list[int] | None:
    """Indices of ``k`` candidates (module docstring, steps 3–4); ``None`` when every choice
    would rank the positive first or last beyond chance's share.

    Among the allowed choices of counts per group, the one of least cost wins; among equal
    costs, the one whose sorted indices come first (the one that keeps earlier candidates)."""
    groups: dict[State, list[int]] = defaultdict(list)
    for i, st in enumerate(states):
        groups[st].append(i)
    keys = tuple(sorted(groups, reverse=True))
    caps = tuple(min(k, len(groups[key])) for key in keys)
    counts, _, first, last = _choices(keys, caps, k)
    if not len(counts):
        return None
    allowed = balance.fits_rows(first, last, k)
    if not allowed.any():
        return None
    cost = _cost(keys, caps, k, target)
    least = cost[allowed].min()
    best: tuple[list[int], int] | None = None
    for row in np.flatnonzero(allowed & (cost == least)):
        chosen = sorted(
            i for key, n in zip(keys, counts[row].tolist(), strict=True) for i in groups[key][:n]
        )
        if best is None or chosen < best[0]:
            best = (chosen, int(row))
    assert best is not None
    row = best[1]
    balance.add([float(x) for x in first[row]], [float(x) for x in last[row]])
    return best[0]


def _state(score: float, base: float) -> int:
    return (score > base) - (score < base)


@dataclass
class JointSets:
    """The sets of one negative type and complexity chosen in a chunk, kept for
    :func:`finish`'s joint rebalancing: their feature balance and, per set, its item, pool and
    :class:`JointSet`."""

    balance: FeatureBalance
    sets: list[tuple[RenderedItem, list[Negative], JointSet]] = field(default_factory=list)


@dataclass
class RefineState:
    """What the refinement carries from set to set in one chunk: the balances per (type,
    complexity), a split view of the foil ledger per complexity
    (:meth:`~crepe_datasets.generators.negatives.foil_balance.FoilLedger.for_split`; ``None``:
    no foil balance), shared with the HN-ATOM generator so that it proposes foils the ledger
    can take, and the chosen sets per type for
    the joint rebalancing of :func:`finish` (``None``: none), and the third judge (``None``:
    the scorers alone)."""

    balances: dict[tuple[str, int], Balance] = field(default_factory=lambda: defaultdict(Balance))
    ledgers: dict[int, FoilLedger] | None = None
    joint: dict[tuple[str, int], JointSets] | None = None
    one_atom: bool = False  # HN-ATOM candidates come in one-atom groups (``--one-atom-sets``)
    attestation: PairAttestation | None = None


def refine(
    rendered: list[RenderedItem],
    scorers: Sequence[Callable[[str], float]],
    k: int,
    stats: RefineStats,
    types: Sequence[str] = REFINED_TYPES,
    drops: DropLog | None = None,
    state: RefineState | None = None,
) -> None:
    """Reorder each item's negatives so the first ``k`` of each type are the balanced choice;
    an item without a balanced choice loses that type's negatives (counted). ``state`` carries
    the balances and the foil ledger across calls (default: a new one without a ledger)."""
    state = state or RefineState()
    for r in rendered:
        features: list[Counter] = []  # the positive's graph_features, once for all types
        for t in types:
            pool = [neg for neg in r.negatives if neg.type == t]
            others = [neg for neg in r.negatives if neg.type != t]
            groups = atom_groups(pool) if state.one_atom and t in ONE_ATOM_TYPES else [pool]
            for n, group in enumerate(groups):
                r.negatives = others + group
                if _refine_group(r, t, group, scorers, k, stats, drops, state, features):
                    rest = sum(len(g) for g in groups[n + 1 :])
                    if drops is not None and rest:
                        drops.drop(STAGE, f"{t}_other_atom_chosen", r.caption, n=rest)
                    break
                counted = state.ledgers is not None and t in FOIL_BALANCED_TYPES  # by the ledger
                if n + 1 < len(groups) and drops is not None and len(group) < k and not counted:
                    drops.drop(STAGE, f"{t}_fewer_than_k_for_atom", r.caption, n=len(group))


def _states(
    r: RenderedItem, pool: Sequence[Negative], scorers: Sequence[Callable[[str], float]]
) -> list[State]:
    """Each candidate's state under the first two scorers: above, tied with or below the caption."""
    base = [fn(r.caption) for fn in scorers[:2]]
    if len(base) == 2:  # the usual two scorers, written out (a generator per candidate is slower)
        (f0, f1), (b0, b1) = scorers[:2], base
        return [
            (((s0 := f0(text)) > b0) - (s0 < b0), ((s1 := f1(text)) > b1) - (s1 < b1))
            for text in [neg.text for neg in pool]
        ]
    return [
        tuple(_state(fn(neg.text), b) for fn, b in zip(scorers[:2], base, strict=True))  # type: ignore[misc]
        for neg in pool
    ]


def _refine_group(
    r: RenderedItem,
    t: str,
    pool: list[Negative],
    scorers: Sequence[Callable[[str], float]],
    k: int,
    stats: RefineStats,
    drops: DropLog | None,
    state: RefineState,
    features: list[Counter],
) -> bool:
    """Choose ``k`` of ``pool`` (the item's candidates of type ``t``) and place them; ``False``
    when the pool gives no balanced choice (its candidates are then dropped, counted) or has
    fewer than ``k``. ``features`` caches the positive's :func:`graph_features` for the item."""
    exchanges: list[Exchange | None] = []
    ledger = None
    if state.ledgers is not None and t in FOIL_BALANCED_TYPES:
        ledger = state.ledgers.get(r.item.n)
    if ledger is not None and pool:
        pool, exchanges = _balanced_pool(r, t, pool, ledger, k, stats, drops)
    if len(pool) < k:
        return False
    c = stats.counts[t]
    c["sets"] += 1
    c["candidates"] += len(pool)
    balance = state.balances[(t, r.item.n)]
    states = _states(r, pool, scorers)
    if state.attestation is not None:
        graphs = (_negative_graph(neg) for neg in pool)
        marks = state.attestation.marks(r.item.graph, graphs, r.item.image_id)
        states = [(*st, mark) for st, mark in zip(states, marks, strict=True)]
    chosen = choose_balanced(states, k, balance.seen % (k + 1), balance)  # type: ignore[arg-type]
    if chosen is None:
        c["sets_without_balanced_choice"] += 1
        c["discarded"] += len(pool)
        if drops is not None:
            drops.drop(STAGE, f"{t}_no_balanced_choice", r.caption, n=len(pool))
        r.negatives = [neg for neg in r.negatives if neg.type != t]
        return False
    c["discarded"] += len(pool) - k
    c["changed"] += chosen != list(range(k))
    if ledger is not None and exchanges:
        ledger.record(
            (exchanges[i] for i in chosen),  # type: ignore[misc]
            positive_atoms(r.item.graph),
        )
    _place(r, t, pool, chosen)
    if state.joint is not None:
        if not features:
            features.append(graph_features(r.item.graph))
        _keep_for_joint(state.joint, ledger, r, t, pool, states, chosen, k, features[0])
    return True


def _place(r: RenderedItem, t: str, pool: list[Negative], chosen: Sequence[int]) -> None:
    """Put the chosen candidates of type ``t`` first among the item's negatives of that type
    (in pool order), the others of the pool behind them."""
    taken = set(chosen)
    picked = [pool[i] for i in sorted(taken)]
    rest = [neg for i, neg in enumerate(pool) if i not in taken]
    r.negatives = [neg for neg in r.negatives if neg.type != t] + picked + rest


def _negative_graph(neg: Negative) -> SceneGraph:
    if isinstance(neg.source, SceneGraph):
        return neg.source
    return SceneGraph.from_dict(json.loads(neg.source))


def _keep_for_joint(
    joint: dict[tuple[str, int], JointSets],
    ledger: FoilLedger | None,
    r: RenderedItem,
    t: str,
    pool: list[Negative],
    states: list[State],
    chosen: list[int],
    k: int,
    positive: Counter,
) -> None:
    """Record a chosen set for :func:`finish` (its candidates' feature deltas and foils);
    ``positive``: the positive's :func:`graph_features`."""
    deltas = lazy_deltas(positive, pool, _negative_graph, states, chosen)
    exclusive = [
        foil_words(neg.exchange[0], neg.exchange[2]) if neg.exchange else frozenset()
        for neg in pool
    ]
    sets = joint.get((t, r.item.n))
    if sets is None:  # each split balanced on its own; the ledger bounds the chunk's total
        total = next((js.balance.bounded for (u, _), js in joint.items() if u == t), Counter())
        balance = FeatureBalance(k, bound=ledger_bound(ledger), bounded=total)
        sets = joint[(t, r.item.n)] = JointSets(balance)
    sets.balance.occurrences.update(positive)
    for i in chosen:
        sets.balance.add(deltas[i])
    sets.sets.append((r, pool, JointSet(states, deltas, exclusive, list(chosen))))


def finish(state: RefineState, stats: RefineStats) -> None:
    """Rebalance the chunk's chosen sets of each type jointly
    (:func:`~crepe_datasets.generators.negatives.joint_balance.rebalance`: same-state swaps
    that bring the negatives' words and pairs closer to the positives'), and place the result."""
    for (t, _), joint in sorted((state.joint or {}).items()):
        before = joint.balance.distance()
        swaps = rebalance((js for _, _, js in joint.sets), joint.balance)
        stats.counts[t]["joint_swaps"] += swaps
        stats.counts[t]["joint_distance_before"] += round(before)
        stats.counts[t]["joint_distance_after"] += round(joint.balance.distance())
        for r, pool, js in joint.sets:
            _place(r, t, pool, js.chosen)


def _balanced_pool(
    r: RenderedItem,
    t: str,
    pool: list[Negative],
    ledger: FoilLedger,
    k: int,
    stats: RefineStats,
    drops: DropLog | None,
) -> tuple[list[Negative], list[Exchange | None]]:
    """The pool's candidates the foil ledger allows, best balancing first (module docstring);
    the item's negatives of type ``t`` become that pool (or none, below ``k``)."""
    exchanges = [neg.exchange for neg in pool]  # set by the HN-ATOM generator
    order = eligible(exchanges, ledger, positive_atoms(r.item.graph))
    c = stats.counts[t]
    c["foil_unbalanced"] += len(pool) - len(order)
    if drops is not None and len(pool) > len(order):
        drops.drop(STAGE, f"{t}_foil_unbalanced", r.caption, n=len(pool) - len(order))
    kept = [pool[i] for i in order] if len(order) >= k else []
    if not kept and order:
        c["sets_without_balanced_foils"] += 1
        if drops is not None:
            drops.drop(STAGE, f"{t}_no_balanced_foils", r.caption, n=len(order))
    r.negatives = [neg for neg in r.negatives if neg.type != t] + kept
    return kept, [exchanges[i] for i in order] if kept else []


def default_scorers(ranker: Any = None) -> list[Callable[[str], float]]:
    """Word frequency and the ranker's score (default: the shipped COCO n-gram LM)."""
    from crepe_datasets.generators.balance.frequency_lm import (
        FrequencyLMRanker,
        word_frequency_score,
    )

    lm = ranker or FrequencyLMRanker()
    score = getattr(lm, "score", None) or (lambda text: lm.rank([text])[0])
    return [word_frequency_score, score]

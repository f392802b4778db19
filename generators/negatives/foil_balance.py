"""Foils drawn like the truths: every word is a foil about as often as it is the replaced truth.

An HN-ATOM negative is its positive with one atom's word (the *truth*) replaced by a *foil*. If
a word is used as a foil more often than it is replaced (or the reverse), its mere presence
tells a text-only model which side a text is on: one-way foil tables make "under", "lacks" or
"rack" negative words and "on", "table" positive ones, whatever the image shows. Since each
negative is its positive with one word exchanged, a word's count among the negatives of a split
is ``k`` times its count among the positives minus its uses as a truth plus its uses as a foil;
when those two uses are equal for every word, no word's count tells positives from negatives.

:class:`FoilLedger` keeps, per atom kind (object, attribute, relationship) and word, the
*surplus* ``uses as a foil − uses as a truth`` over the sets chosen so far, and :func:`eligible`
lets a set use only candidates that keep every surplus within ``± (cap + rate × occurrences)``,
where *occurrences* counts the word in the positives (:meth:`FoilLedger.bound`): an absolute
``cap`` for a word no positive holds, a share of its frequency for a common one:

* a candidate ``truth → foil`` is eligible when, counting the eligible candidates before it in
  the same set, the foil's surplus stays within its bound and the truth's too. The check
  ignores cancellations inside the set, so *any* subset of the eligible candidates keeps the
  bounds, and the choice made afterwards (the adversarial refinement) is free;
* a foil equal to, or a synonym of, an eligible foil of the same kind is not eligible (WordNet,
  and the relation table's ``same_meaning`` groups: "under" and "underneath" in one set): no
  two negatives of a set use the same foil;
* eligible candidates are ordered so that those which bring surpluses back toward zero come
  first (the refinement keeps earlier candidates among equal choices); ties keep the pool's
  order, so the result is deterministic.

A word that is never a truth (a foil such as "lacks" that no positive holds) can therefore be a
foil at most ``cap`` times per ledger. Productivity keeps one ledger per work chunk, whose
positives are known before any foil is chosen (:meth:`FoilLedger.for_positives`;
:mod:`crepe_datasets.builders.productivity.chunks`), seen by each complexity through a split
view (:meth:`FoilLedger.for_split`) in which a word the split has not replaced is a foil at most
``split_cap`` times, so in a split such a word is a foil at most that many times the number of
chunks; systematicity keeps one per split, counting each
batch's positives before any of their foils is chosen
(:mod:`crepe_datasets.builders.systematicity.negatives`). Both then choose the sets' negatives
jointly (:mod:`crepe_datasets.generators.negatives.joint_balance`), which also balances the
pairs the words form.
:func:`crepe_datasets.validation.foil_imbalance.foil_imbalance` measures the result on the texts.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from crepe_datasets.scenegraph.types import SceneGraph

DEFAULT_CAP = 3
DEFAULT_RATE = 0.5
# the uses as a foil a split view allows a word its split has not replaced (FoilLedger.for_split)
DEFAULT_SPLIT_CAP = 2
# systematicity's rate: a one-compound caption's four negatives replace one or two words, so
# tighter bounds leave few sets; at 0.5, the 100-image builds kept 258 instead of 303 HN-ATOM
# sets (coco, cc, laion) and the trained audit was no lower
SYSTEMATICITY_RATE = 1.0
# A swap of one word: (atom kind, truth, foil)
Exchange = tuple[str, str, str]


@dataclass
class FoilLedger:
    """Per ``(kind, word)``: uses as a foil minus uses as a truth over the sets recorded, and
    occurrences in their positives.

    A word's surplus must stay within ``± (cap + rate × occurrences)``: an absolute ``cap`` for a
    word the positives rarely hold ("lacks" can never be balanced, so it is used at most ``cap``
    times), a share of its occurrences for a common one (with ``k`` negatives per set, ``rate``
    bounds the relative difference of the word's frequency in negatives and positives by about
    ``rate / k``).

    A *split view* (:meth:`for_split`) shares its ledger's surpluses, occurrences and bounds
    (every split's uses count toward them) and counts its own split's foil and truth uses too:
    in it, a word the split has not yet replaced is a foil at most ``split_cap`` times. A word
    common in the ledger's other splits is otherwise free to be a foil many times in a split
    that never replaces it ("black" six times a foil among 26 sets that hold it once), where it
    marks the negatives however balanced it is over the chunk."""

    cap: int = DEFAULT_CAP
    rate: float = DEFAULT_RATE
    surplus: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    seen: Counter = field(default_factory=Counter)
    known_positives: bool = False
    split_cap: int | None = None  # a split view's limit (None: no split view)
    split_foils: Counter = field(default_factory=Counter)
    split_truths: Counter = field(default_factory=Counter)

    @classmethod
    def for_positives(cls, cap: int, rate: float, positives: Counter) -> FoilLedger:
        """A ledger whose occurrences are those of every positive it will see, known in advance
        (a chunk's walks do not depend on their negatives): a word's bound is then as wide at
        the chunk's first set as at its last."""
        return cls(cap, rate, seen=Counter(positives), known_positives=True)

    def copy(self) -> FoilLedger:
        """An independent copy (a generator's forecast of what the refinement will keep)."""
        return FoilLedger(
            self.cap,
            self.rate,
            defaultdict(int, self.surplus),
            Counter(self.seen),
            self.known_positives,
            self.split_cap,
            Counter(self.split_foils),
            Counter(self.split_truths),
        )

    def for_split(self, split_cap: int | None = DEFAULT_SPLIT_CAP) -> FoilLedger:
        """A view of this ledger for one split (class docstring), with no uses of its own yet
        (``split_cap=None``: no limit of its own, the ledger's bounds only)."""
        return FoilLedger(
            self.cap, self.rate, self.surplus, self.seen, self.known_positives, split_cap
        )

    def split_allows(self, kind: str, foil: str, more: int = 1) -> bool:
        """Whether a split view may use ``foil`` ``more`` times more (always outside a view)."""
        key = (kind, foil)
        return (
            self.split_cap is None
            or self.split_truths.get(key, 0) > 0
            or self.split_foils.get(key, 0) + more <= self.split_cap
        )

    def bound(self, kind: str, word: str, pending: Counter | None = None) -> float:
        """The largest surplus allowed for ``word`` (``pending``: occurrences not yet recorded)."""
        occurrences = self.seen.get(
            (kind, word), 0
        )  # .get: a Counter's [] of a missing key is slower
        if pending and not self.known_positives:
            occurrences += pending.get((kind, word), 0)
        return self.cap + self.rate * occurrences

    def record(
        self, exchanges: Iterable[Exchange], positive: Counter | None = None, sign: int = 1
    ) -> None:
        """Count the exchanges of the negatives a set keeps and its positive's atoms
        (``sign=-1``: take back exchanges recorded before, a choice that was changed)."""
        view = self.split_cap is not None
        for kind, truth, foil in exchanges:
            self.surplus[(kind, foil)] += sign
            self.surplus[(kind, truth)] -= sign
            if view:
                self.split_foils[(kind, foil)] += sign
                self.split_truths[(kind, truth)] += sign
        if positive and not self.known_positives:
            self.seen.update(positive)

    def gain(self, ex: Exchange) -> int:
        """How much the exchange brings the two surpluses toward zero (higher is better)."""
        kind, truth, foil = ex
        return self.surplus.get((kind, truth), 0) - self.surplus.get((kind, foil), 0)


ATOM_KINDS = frozenset({"object", "attribute", "relationship"})
# appended to an atom's kind where its word ends the text (:func:`slot_kind`)
FINAL = ":final"


def copy_splits(views: Mapping[int, FoilLedger]) -> dict[int, FoilLedger]:
    """Independent copies of split views of one ledger (:meth:`FoilLedger.for_split`) that
    share one copy of its surpluses and occurrences, as the views share the ledger's."""
    if not views:
        return {}
    shared = next(iter(views.values())).copy()
    return {
        n: replace(
            shared,
            split_cap=v.split_cap,
            split_foils=Counter(v.split_foils),
            split_truths=Counter(v.split_truths),
        )
        for n, v in views.items()
    }


def ledger_bound(ledger: FoilLedger | None) -> Callable[[tuple[str, str]], float] | None:
    """The ledger's bound on a word's surplus as a function of a ``(kind, text)`` feature
    (:mod:`~crepe_datasets.generators.negatives.joint_balance`); unbounded for pairs. A ledger
    kept by place (:func:`slot_kind`) counts the word's occurrences in both places."""
    if ledger is None:
        return None
    seen, rate = ledger.seen, ledger.rate
    return lambda f: (
        ledger.bound(*f) + rate * seen.get((f[0] + FINAL, f[1]), 0)
        if f[0] in ATOM_KINDS
        else math.inf
    )


def _final_word(text: str) -> str:
    words = text.lower().split()
    return words[-1].strip(".,;:!?'\"()") if words else ""


def slot_kind(kind: str, word: str, text: str) -> str:
    """``kind``, with :data:`FINAL` appended when ``word`` (its last word, or that word's
    singular) ends ``text``.

    A word's place is a cue of its own: a colour that is a truth before its noun ("a blue
    scooter") but a foil at the end of a caption ("the table is blue") is told apart by
    character n-grams ("blue " against "blue" at the end) however often it is each. A ledger
    kept by place (:func:`text_atoms`, :func:`slotted`) balances a word's foil and truth uses
    at the end of texts and elsewhere separately."""
    from crepe_datasets.scenegraph.lexicon import singularize

    last = _final_word(text)
    head = word.lower().split()[-1] if word.strip() else ""
    return kind + FINAL if last and head in (last, singularize(last)) else kind


def text_atoms(text: str, graph: SceneGraph) -> Counter:
    """:func:`positive_atoms` of a text's graph with each kind placed in the text
    (:func:`slot_kind`)."""
    return Counter((slot_kind(a.type, a.text, text), a.text) for a in graph.atoms())


@functools.lru_cache(maxsize=65536)  # a candidate's is asked by the choice, keep and finish
def slotted(ex: Exchange | None, text: str) -> Exchange | None:
    """An exchange whose kind is placed where its foil stands in the negative's ``text`` (the
    truth stood at the same place in the positive)."""
    if ex is None:
        return None
    kind, truth, foil = ex
    return slot_kind(kind, foil, text), truth, foil


@functools.lru_cache(maxsize=1)
def _same_meaning() -> dict[str, frozenset[str]]:
    """Predicates of one meaning (``same_meaning`` of the relation foil table: "under",
    "underneath", "beneath"), which WordNet does not relate."""
    from crepe_datasets.generators.negatives.foils import RELATION_TABLE

    groups = json.loads(RELATION_TABLE.read_text(encoding="utf-8")).get("same_meaning", [])
    return {word: frozenset(group) for group in groups for word in group}


@functools.lru_cache(maxsize=100_000)
def foil_synonyms(word: str) -> frozenset[str]:
    """The word, its WordNet synonyms and the predicates of the same meaning."""
    from crepe_datasets.generators.negatives.foils import synonyms

    return synonyms(word) | _same_meaning().get(word, frozenset()) | {word}


@functools.lru_cache(maxsize=100_000)
def foil_words(kind: str, foil: str) -> frozenset[tuple[str, str]]:
    """``(kind, word)`` of the foil and its synonyms (:func:`foil_synonyms`): the words
    :class:`Tentative` takes once the foil is admitted, and that no other negative of the set
    may use in the joint revision (memoised: one frozenset per foil)."""
    return frozenset((kind, word) for word in foil_synonyms(foil))


def positive_atoms(graph: SceneGraph) -> Counter:
    """``(kind, word)`` occurrences of a positive's graph, as :meth:`FoilLedger.record` takes."""
    return Counter((a.type, a.text) for a in graph.atoms())


class Tentative:
    """The bounds check of one set's candidates against a ledger, counting the candidates
    admitted so far (module docstring): any subset of the admitted candidates keeps the
    ledger's bounds."""

    def __init__(self, ledger: FoilLedger, positive: Counter | None = None) -> None:
        self.ledger = ledger
        self.positive = positive
        self.foils_up: Counter = Counter()
        self.truths_down: Counter = Counter()
        self.taken: set[tuple[str, str]] = set()  # (kind, word): admitted foils and synonyms

    def admits(self, ex: Exchange) -> bool:
        """Whether ``ex`` keeps the bounds and repeats no admitted foil (or a synonym of one)."""
        kind, truth, foil = ex
        ledger = self.ledger
        up = ledger.surplus.get((kind, foil), 0) + self.foils_up.get((kind, foil), 0) + 1
        if up > ledger.bound(kind, foil, self.positive):
            return False
        down = ledger.surplus.get((kind, truth), 0) - self.truths_down.get((kind, truth), 0) - 1
        if -down > ledger.bound(kind, truth, self.positive):
            return False
        if not ledger.split_allows(kind, foil, self.foils_up.get((kind, foil), 0) + 1):
            return False
        return (kind, foil) not in self.taken

    def add(self, ex: Exchange) -> None:
        kind, truth, foil = ex
        self.foils_up[(kind, foil)] = self.foils_up.get((kind, foil), 0) + 1
        self.truths_down[(kind, truth)] = self.truths_down.get((kind, truth), 0) + 1
        self.taken.update(foil_words(kind, foil))


def eligible(
    exchanges: Sequence[Exchange | None], ledger: FoilLedger, positive: Counter | None = None
) -> list[int]:
    """Indices of the candidates a set may use, best balancing first (module docstring).

    ``exchanges[i]`` is candidate ``i``'s exchange; a candidate without one (``None``) is not
    eligible. ``positive``: the set's positive atoms (:func:`positive_atoms`), which count toward
    the bounds."""
    tentative = Tentative(ledger, positive)
    kept: list[int] = []
    for i, ex in enumerate(exchanges):
        if ex is not None and tentative.admits(ex):
            tentative.add(ex)
            kept.append(i)
    return sorted(kept, key=lambda i: -ledger.gain(exchanges[i]))  # type: ignore[arg-type]

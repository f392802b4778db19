"""Foil ledger: foils and truths stay balanced; no repeated or synonymous foils in one set."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from crepe_datasets.generators.negatives.atom import atom_negatives
from crepe_datasets.generators.negatives.foil_balance import (
    FINAL,
    FoilLedger,
    Tentative,
    copy_splits,
    eligible,
    ledger_bound,
    positive_atoms,
    slot_kind,
    slotted,
)
from crepe_datasets.generators.negatives.graphs import GraphIndex
from tests.generators.negatives.helpers import image_graph, subgraph


def exchange(positive, negative) -> tuple[str, str, str]:
    """The one atom ``negative`` holds instead of one of ``positive``'s, from the graphs."""
    (old,) = Counter(positive.atoms()) - Counter(negative.atoms())
    (new,) = Counter(negative.atoms()) - Counter(positive.atoms())
    return (old.type, old.text, new.text)


def test_a_word_never_a_truth_is_a_foil_at_most_cap_times():
    ledger = FoilLedger(cap=1, rate=0.0)
    uses = 0
    for _ in range(10):
        order = eligible([("relationship", "has", "lacks")], ledger)
        if order:
            ledger.record([("relationship", "has", "lacks")])
            uses += 1
    assert uses == 1
    # once "lacks" is replaced as a truth, it may be a foil again
    ledger.record([("relationship", "lacks", "has")])
    assert eligible([("relationship", "has", "lacks")], ledger) == [0]


def test_bounds_grow_with_the_words_occurrences_in_positives():
    ledger = FoilLedger(cap=0, rate=0.5)
    positive = Counter({("object", "table"): 4})
    assert eligible([("object", "table", "desk")], ledger) == []  # desk: never seen, cap 0
    ledger.record([], Counter({("object", "desk"): 2}))
    assert eligible([("object", "table", "desk")], ledger, positive) == [0]


def test_any_subset_of_the_eligible_keeps_the_bounds():
    ledger = FoilLedger(cap=1, rate=0.0)
    exchanges = [
        ("object", "man", "woman"),
        ("object", "man", "boy"),  # a second truth "man" would reach -2
        ("object", "cup", "woman"),  # a second foil "woman" would reach +2
        ("object", "woman", "man"),
    ]
    kept = eligible(exchanges, ledger)
    assert sorted(kept) == [0, 3]
    for subset in ([0], [3], [0, 3]):
        trial = FoilLedger(cap=1, rate=0.0)
        trial.record(exchanges[i] for i in subset)
        assert all(abs(v) <= 1 for v in trial.surplus.values())


@pytest.mark.slow  # WordNet
def test_no_two_foils_of_a_set_are_equal_or_synonyms():
    tentative = Tentative(FoilLedger(cap=5, rate=0.0))
    tentative.add(("relationship", "on", "under"))
    assert not tentative.admits(("relationship", "above", "under"))
    assert not tentative.admits(("relationship", "on top of", "underneath"))  # same synset
    assert tentative.admits(("relationship", "in", "outside"))


def test_balancing_candidates_come_first():
    ledger = FoilLedger(cap=3, rate=0.0)
    ledger.record([("relationship", "on", "under")] * 2)  # "under" used twice as a foil
    order = eligible([("relationship", "on", "under"), ("relationship", "under", "on")], ledger)
    assert order == [1, 0]


def test_a_split_uses_a_word_it_never_replaces_as_a_foil_at_most_split_cap_times():
    chunk = FoilLedger(cap=3, rate=1.0, seen=Counter({("attribute", "black"): 20}))
    small, large = chunk.for_split(split_cap=2), chunk.for_split(split_cap=2)
    large.record([("attribute", "black", "white")] * 3)  # "black" is replaced in another split
    green_to_black = ("attribute", "green", "black")
    uses = 0
    for _ in range(5):
        if eligible([green_to_black], small):
            small.record([green_to_black])
            uses += 1
    assert uses == 2  # the chunk's bounds would allow more: black's surplus there is -3
    assert eligible([green_to_black], large) == [0]  # the split that replaces it is not limited
    small.record([("attribute", "black", "red")])  # once the small split replaces it, free again
    assert eligible([green_to_black], small) == [0]
    # uses counted in a set before this one count too
    fresh = chunk.for_split(split_cap=2)
    fresh.record([green_to_black])
    assert fresh.split_allows("attribute", "black") and not fresh.split_allows(
        "attribute", "black", 2
    )


def test_split_views_share_their_ledgers_bounds_and_copies_share_one_copy():
    chunk = FoilLedger(cap=1, rate=0.0)
    views = {4: chunk.for_split(), 5: chunk.for_split()}
    views[4].record([("object", "cup", "mug")])
    assert chunk.surplus[("object", "mug")] == 1
    assert eligible([("object", "bowl", "mug")], views[5]) == []  # the chunk's cap 1 is taken
    copies = copy_splits(views)
    copies[5].record([("object", "mug", "cup")])  # a forecast of split 5
    assert copies[4].surplus is copies[5].surplus and copies[4].surplus[("object", "mug")] == 0
    assert copies[5].split_truths[("object", "mug")] == 1 and not views[5].split_truths
    assert chunk.surplus[("object", "mug")] == 1  # the originals are untouched


@pytest.mark.slow  # WordNet
def test_atom_negatives_follow_the_ledger_and_record_their_exchange():
    g = image_graph()
    index = GraphIndex(g)
    sub = subgraph(g, [1, 2, 3], [0, 1])
    free = atom_negatives(sub, index, random.Random(0), 8)
    assert all(c.exchange == exchange(sub, c.graph) for c in free)
    ledger = FoilLedger(cap=0, rate=0.0)  # nothing can be unbalanced: no candidate at all
    assert atom_negatives(sub, index, random.Random(0), 8, ledger=ledger) == []
    ledger = FoilLedger(cap=1, rate=0.0)
    cands = atom_negatives(sub, index, random.Random(0), 8, ledger=ledger)
    foils = Counter(c.exchange[2] for c in cands)
    truths = Counter(c.exchange[1] for c in cands)
    assert cands and max(foils.values()) == 1 and max(truths.values()) == 1
    assert positive_atoms(sub)[("object", sub.objects[0].name)] >= 1


def test_a_word_is_placed_where_it_ends_the_text():
    assert slot_kind("attribute", "blue", "the table is blue.") == "attribute" + FINAL
    assert slot_kind("attribute", "blue", "a blue scooter") == "attribute"
    assert slot_kind("object", "table", "two cups on the tables") == "object" + FINAL
    assert slot_kind("object", "stop sign", "a red stop sign") == "object" + FINAL
    assert slotted(("attribute", "brown", "blue"), "the table is blue") == (
        "attribute" + FINAL,
        "brown",
        "blue",
    )
    assert slotted(None, "the table is blue") is None


def test_a_ledger_by_place_balances_a_colour_at_the_end_apart_from_before_a_noun():
    # "blue" is a truth twice before a noun; as a foil at the end it has no truth to lean on
    ledger = FoilLedger(cap=0, rate=1.0)
    for text in ("a blue scooter", "a blue car"):
        ledger.record([], Counter({(slot_kind("attribute", "blue", text), "blue"): 1}))
    at_end = slotted(("attribute", "brown", "blue"), "the table is blue")
    before_noun = slotted(("attribute", "red", "blue"), "a blue bus")
    ledger.seen.update({("attribute" + FINAL, "brown"): 1, ("attribute", "red"): 1})
    assert eligible([at_end], ledger) == []
    assert eligible([before_noun], ledger) == [0]
    # the joint revision's bound on the word counts it in both places
    ledger.seen[("attribute" + FINAL, "blue")] += 1
    assert ledger_bound(ledger)(("attribute", "blue")) == 3.0

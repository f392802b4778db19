"""The word-bound pass over the sets a config keeps."""

from __future__ import annotations

from collections import Counter

from crepe_datasets.generators.negatives.settle import settle

CHAIR, RED = ("object", "chair"), ("attribute", "red")
BLUE, COUCH = ("attribute", "blue"), ("object", "couch")


def _set(positive: dict, surplus: dict) -> tuple[Counter, dict]:
    return Counter(positive), surplus


def test_a_foil_no_kept_positive_holds_is_cut_to_the_cap() -> None:
    # five sets use "couch" as a foil for "chair"; no positive holds "couch"
    sets = [_set({CHAIR: 1, RED: 1}, {CHAIR: -1, COUCH: 1}) for _ in range(5)]
    dropped = settle(sets, cap=2, rate=0.5)
    surplus = Counter()
    for i, (_, d) in enumerate(sets):
        if i not in dropped:
            surplus.update(d)
    assert surplus[COUCH] <= 2  # the cap of a word no positive holds
    assert len(dropped) == 3 and dropped == sorted(dropped)  # earliest first, deterministic


def test_balanced_sets_are_all_kept() -> None:
    # red -> blue in one set, blue -> red in the other: both words balance
    sets = [
        _set({RED: 1, CHAIR: 1}, {RED: -1, BLUE: 1}),
        _set({BLUE: 1, CHAIR: 1}, {BLUE: -1, RED: 1}),
    ]
    assert settle(sets, cap=0, rate=0.0) == []


def test_a_word_no_drop_can_help_is_left_and_the_pass_ends() -> None:
    # the only set holding the word also holds a word that its removal would unbalance more
    sets = [
        _set({RED: 1}, {RED: -2, BLUE: 2}),
        _set({BLUE: 1}, {BLUE: -1}),
    ]
    out = settle(sets, cap=0, rate=0.0)
    assert out == settle(sets, cap=0, rate=0.0)  # deterministic
    assert len(out) <= 2

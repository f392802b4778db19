"""Adversarial refinement: balanced choice among valid candidates, counted discards."""

from __future__ import annotations

import pytest

from crepe_datasets.generators.balance.items import Item, Negative, RenderedItem
from crepe_datasets.generators.balance.refine import STAGE, RefineState, RefineStats, refine
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, SceneGraph, SGObject


def _item(scores: list[float], n: int = 5) -> RenderedItem:
    item = Item("1", "1.jpg", n, 0, SceneGraph([SGObject(1, "x")]), Box(0, 0, 1, 1), "template")
    negatives = [Negative("atom", "atom:object", f"neg {s}", "{}") for s in scores]
    return RenderedItem(item, "pos 0", negatives)


def _score(text: str) -> float:
    return float(text.split()[1])


def _expected_r1(items: list[RenderedItem], k: int, sign: float) -> float:
    total = 0.0
    for r in items:
        scores = [sign * _score(t) for t in [r.caption, *[n.text for n in r.negatives[:k]]]]
        best = max(scores)
        total += 1 / scores.count(best) if scores[0] == best else 0.0
    return total / len(items)


def test_targets_spread_the_positive_rank_evenly():
    items = [_item([-3, -2, -1, 1, 2, 3, 4, -4, 5, -5]) for _ in range(60)]
    stats = RefineStats()
    refine(items, [_score, _score], 5, stats)
    ranks = [sum(_score(n.text) > 0 for n in r.negatives[:5]) for r in items]
    assert sorted(set(ranks)) == [0, 1, 2, 3, 4, 5]
    assert all(abs(ranks.count(t) - 10) <= 1 for t in range(6))
    assert 9 / 60 <= _expected_r1(items, 5, 1) <= 10 / 60
    assert 9 / 60 <= _expected_r1(items, 5, -1) <= 10 / 60
    counts = stats.to_dict()["atom"]
    assert counts["sets"] == 60 and counts["candidates"] == 600 and counts["discarded"] == 300


def test_sets_without_a_balanced_choice_leave_the_config():
    balanced = [_item([-3, -2, -1, 1, 2, 3]) for _ in range(30)]  # positive never first or last
    on_top = [_item([-1, -2, -3, -4, -5, -6]) for _ in range(30)]  # positive always first
    items = [x for pair in zip(balanced, on_top, strict=True) for x in pair]
    stats, drops = RefineStats(), DropLog()
    refine(items, [_score, _score], 5, stats, drops=drops)
    kept = [r for r in items if r.negatives]
    assert _expected_r1(kept, 5, 1) <= 1 / 6 and _expected_r1(kept, 5, -1) <= 1 / 6
    dropped = stats.counts["atom"]["sets_without_balanced_choice"]
    assert 0 < dropped == 60 - len(kept)
    assert drops.to_dict()[STAGE]["atom_no_balanced_choice"] == 6 * dropped


def test_ties_share_the_win():
    items = [_item([0, 0, 0, 0, 0, 0]) for _ in range(6)]  # every negative ties the positive
    refine(items, [_score, _score], 5, RefineStats())
    assert all(len(r.negatives) == 6 for r in items)
    assert _expected_r1(items, 5, 1) == _expected_r1(items, 5, -1) == 1 / 6


def test_deterministic_and_types_kept_apart():
    a = [_item([3, -1, 2, -2, 1, -3, 4]) for _ in range(7)]
    b = [_item([3, -1, 2, -2, 1, -3, 4]) for _ in range(7)]
    for items in (a, b):
        items[0].negatives.append(Negative("negate", "negate:caption", "there is no pos 0", "{}"))
        refine(items, [_score, _score], 5, RefineStats())
    assert [[n.text for n in r.negatives] for r in a] == [[n.text for n in r.negatives] for r in b]
    assert a[0].negatives[0].type == "negate"


def _grouped(groups: list[list[float]]) -> RenderedItem:
    """An item whose HN-ATOM candidates come in groups, each replacing its own atom."""
    item = Item("1", "1.jpg", 5, 0, SceneGraph([SGObject(1, "x")]), Box(0, 0, 1, 1), "template")
    negatives = [
        Negative("atom", "atom:object", f"neg {s}", "{}", ("object", f"truth{g}", f"foil{g}_{i}"))
        for g, scores in enumerate(groups)
        for i, s in enumerate(scores)
    ]
    return RenderedItem(item, "pos 0", negatives)


def test_a_set_takes_all_its_negatives_from_one_group():
    """The first group would rank the positive first; the second can be balanced: each set's
    five negatives come from one group, mostly the second, and the candidates of a group that
    gave no balanced choice are counted."""
    items = [_grouped([[-1, -2, -3, -4, -5, -6], [-3, -2, -1, 1, 2, 3]]) for _ in range(12)]
    stats, drops = RefineStats(), DropLog()
    refine(items, [_score, _score], 5, stats, drops=drops, state=RefineState(one_atom=True))
    groups = []
    for r in items:
        chosen = [n for n in r.negatives if n.type == "atom"][:5]
        assert len(chosen) == 5 and len({n.exchange[:2] for n in chosen}) == 1
        groups.append(chosen[0].exchange[1])
    assert groups.count("truth1") >= 10
    assert drops.to_dict()[STAGE]["atom_no_balanced_choice"] == 6 * groups.count("truth1")


def test_later_groups_are_dropped_when_the_first_is_chosen():
    items = [_grouped([[-3, -2, -1, 1, 2, 3], [-3, -2, -1, 1, 2, 3]]) for _ in range(6)]
    drops = DropLog()
    refine(items, [_score, _score], 5, RefineStats(), drops=drops, state=RefineState(one_atom=True))
    assert all({n.exchange[1] for n in r.negatives} == {"truth0"} for r in items)
    assert drops.to_dict()[STAGE]["atom_other_atom_chosen"] == 6 * 6


def test_without_one_atom_sets_groups_are_one_pool():
    """By default a set may take negatives that replace different atoms."""
    items = [_grouped([[-3, -2, -1], [1, 2, 3]]) for _ in range(6)]
    refine(items, [_score, _score], 5, RefineStats())
    assert all(len({n.exchange[1] for n in r.negatives[:5]}) == 2 for r in items)


def test_any_number_of_judges_is_balanced() -> None:
    """A third judge (systematicity's "stated elsewhere") is balanced like the two others: a
    set whose every candidate it ranks below the positive is refused once the positive would
    win under it beyond chance's share."""
    from crepe_datasets.generators.balance.refine import Balance, choose_balanced

    balance = Balance()
    tied = [(0, 0, 0)] * 5
    below = [(0, 0, -1)] * 5
    assert choose_balanced(tied, 4, 0, balance) == [0, 1, 2, 3]
    assert balance.first == [0.2, 0.2, 0.2]
    assert choose_balanced(below, 4, 0, balance) is None  # the positive first under judge 3
    mixed = [(0, 0, -1), (0, 0, 1), (0, 0, -1), (0, 0, 0), (0, 0, 1)]
    assert choose_balanced(mixed, 4, 1, balance) is not None
    assert balance.seen == 2 and balance.first[2] == pytest.approx(0.2)

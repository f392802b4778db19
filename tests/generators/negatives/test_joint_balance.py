import itertools
import math
from collections import Counter

import pytest

from crepe_datasets.generators.negatives.joint_balance import (
    FeatureBalance,
    JointSet,
    feature_delta,
    graph_features,
    lazy_deltas,
    rebalance,
    swappable,
)
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def _graph(colour: str, name: str, predicate: str = "on", ground: str = "table") -> SceneGraph:
    return SceneGraph(
        objects=[SGObject(0, name, (colour,)), SGObject(1, ground)],
        relationships=[Relationship(0, predicate, 1)],
    )


def test_graph_features_hold_atoms_and_adjacent_pairs():
    f = graph_features(_graph("red", "flower"))
    assert f[("attribute", "red")] == 1 and f[("object", "flower")] == 1
    assert f[("attribute_object", "red flower")] == 1
    assert f[("subject_relation", "flower on")] == 1
    assert f[("relation_object", "on table")] == 1


def test_feature_delta_of_an_attribute_foil_changes_the_word_and_its_pair():
    delta = feature_delta(graph_features(_graph("red", "flower")), _graph("black", "flower"))
    assert delta == {
        ("attribute", "black"): 1,
        ("attribute", "red"): -1,
        ("attribute_object", "black flower"): 1,
        ("attribute_object", "red flower"): -1,
    }


def _set(positive: SceneGraph, negatives: list[SceneGraph], chosen: list[int]) -> JointSet:
    pos = graph_features(positive)
    return JointSet(
        states=[(0, 0)] * len(negatives),
        deltas=[feature_delta(pos, n) for n in negatives],
        exclusive=[frozenset()] * len(negatives),
        chosen=chosen,
    )


def _balance(sets: list[JointSet], positives: list[SceneGraph], k: int) -> FeatureBalance:
    b = FeatureBalance(k)
    for p in positives:
        b.occurrences.update(graph_features(p))
    for s in sets:
        for i in s.chosen:
            b.add(s.deltas[i])
    return b


def test_rebalance_chooses_foils_that_the_other_sets_hold_as_truths():
    # Two sets, "red flower" and "yellow flower"; the first choice makes "black flower" a
    # negative twice, although no positive holds "black". Swapping lets each positive's colour be
    # the other's foil, so every word and pair is as frequent among negatives as among positives.
    red, yellow = _graph("red", "flower"), _graph("yellow", "flower")
    black = _graph("black", "flower")
    s1 = _set(red, [black, yellow], [0])
    s2 = _set(yellow, [black, red], [0])
    balance = _balance([s1, s2], [red, yellow], k=1)
    before = balance.distance()
    assert rebalance([s1, s2], balance) == 2
    assert s1.chosen == [1] and s2.chosen == [1]
    assert balance.distance() == 0 < before
    assert all(v == 0 for v in balance.surplus.values())


def test_rebalance_keeps_states_and_exclusive_foils():
    red, yellow, green = (_graph(c, "flower") for c in ("red", "yellow", "green"))
    black = _graph("black", "flower")
    pos = graph_features(red)
    s = JointSet(
        states=[(1, 0), (0, 0), (1, 0), (0, 1)],
        deltas=[feature_delta(pos, n) for n in (black, black, yellow, green)],
        exclusive=[frozenset({"a"}), frozenset({"b"}), frozenset({"b"}), frozenset()],
        chosen=[0, 1],
    )
    balance = FeatureBalance(2, occurrences=Counter({("attribute", "yellow"): 5}))
    for i in s.chosen:
        balance.add(s.deltas[i])
    rebalance([s], balance)
    # candidate 2 has the same state as 0 but shares "b" with the chosen candidate 1;
    # candidate 3 has another state: nothing may change
    assert s.chosen == [0, 1]


def test_rebalance_is_deterministic_and_a_no_op_when_balanced():
    red, yellow = _graph("red", "flower"), _graph("yellow", "flower")
    s1, s2 = _set(red, [yellow], [0]), _set(yellow, [red], [0])
    balance = _balance([s1, s2], [red, yellow], k=1)
    assert balance.distance() == 0
    assert rebalance([s1, s2], balance) == 0
    assert s1.chosen == [0] and s2.chosen == [0]


def test_swappable_marks_the_candidates_of_a_chosen_state():
    states = [(1, 0), (0, 0), (1, 0), (0, 1), (0, 0)]
    assert swappable(states, [0]) == [True, False, True, False, False]
    assert swappable(states, [1, 3]) == [False, True, False, True, True]


def test_lazy_deltas_leave_out_only_candidates_rebalance_never_reads():
    red = _graph("red", "flower")
    negatives = [_graph(c, "flower") for c in ("black", "yellow", "green", "blue")]
    states = [(1, 0), (0, 0), (1, 0), (0, 1)]
    pos = graph_features(red)
    lazy = lazy_deltas(pos, negatives, lambda g: g, states, [0])
    assert lazy[1] is None and lazy[3] is None
    assert lazy[0] == feature_delta(pos, negatives[0])
    assert lazy[2] == feature_delta(pos, negatives[2])


def _colour_sets() -> tuple[list[JointSet], list[JointSet], list[SceneGraph]]:
    """The same sets twice: with every delta, and with lazy deltas."""
    colours = ("red", "yellow", "black", "green", "blue", "white")
    positives = [_graph(c, "flower") for c in colours[:3]]
    full, lazy = [], []
    for n, pos in enumerate(positives):
        negatives = [_graph(c, "flower") for c in colours if c != pos.objects[0].attributes[0]]
        states = [(i % 2, 0) for i in range(len(negatives))]
        chosen = [n % 2, 2 + n % 2]
        feats = graph_features(pos)
        full.append(
            JointSet(
                states,
                [feature_delta(feats, g) for g in negatives],
                [frozenset()] * len(negatives),
                list(chosen),
            )
        )
        lazy.append(
            JointSet(
                states,
                lazy_deltas(feats, negatives, lambda g: g, states, chosen),
                [frozenset()] * len(negatives),
                list(chosen),
            )
        )
    return full, lazy, positives


def test_rebalance_with_lazy_deltas_makes_the_same_swaps():
    full, lazy, positives = _colour_sets()
    assert any(d is None for s in lazy for d in s.deltas)
    b_full, b_lazy = _balance(full, positives, 2), _balance(lazy, positives, 2)
    assert rebalance(full, b_full) == rebalance(lazy, b_lazy) > 0
    assert [s.chosen for s in full] == [s.chosen for s in lazy]
    assert b_full.surplus == b_lazy.surplus


def _difference(add: dict, remove: dict) -> dict:
    out = dict(add)
    for f, d in remove.items():
        out[f] = out.get(f, 0) - d
    return {f: d for f, d in out.items() if d}


@pytest.mark.parametrize("bounded", [False, True])
def test_change_of_swap_is_the_change_of_the_difference_to_the_last_bit(bounded):
    graphs = [_graph(c, n, p) for c, n, p in itertools.product(
        ("red", "black"), ("flower", "dog"), ("on", "near"))]  # fmt: skip
    balance = FeatureBalance(5, bound=(lambda f: 1.0) if bounded else None)
    balance.occurrences.update(graph_features(graphs[0]))
    balance.add(feature_delta(graph_features(graphs[0]), graphs[3]))
    balance.add(feature_delta(graph_features(graphs[1]), graphs[6]))
    pos = graph_features(graphs[2])
    deltas = [feature_delta(pos, g) for g in graphs]
    for a, r in itertools.product(deltas, repeat=2):
        expected = balance.change(_difference(a, r))
        assert balance.change_of_swap(a, r) == expected  # same float, inf included


def test_balances_sharing_a_bound_are_bounded_on_their_sum():
    """A productivity chunk balances each split on its own, but the ledger's bound holds for the
    chunk's sum: a change that keeps one split's surplus within the bound is refused when the
    splits together would pass it."""
    total: Counter = Counter()
    word = ("attribute", "lacks")
    a = FeatureBalance(5, bound=lambda f: 1.0, bounded=total)
    b = FeatureBalance(5, bound=lambda f: 1.0, bounded=total)
    a.add({word: 1})
    assert total[word] == 1 and a.surplus[word] == 1 and not b.surplus[word]
    assert b.change({word: 1}) == math.inf  # the sum would be 2
    assert b.change({word: -1}) < math.inf
    alone = FeatureBalance(5, bound=lambda f: 1.0)
    assert alone.change({word: 1}) < math.inf and alone.bounded is alone.surplus

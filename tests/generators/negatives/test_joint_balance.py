from collections import Counter

from crepe_datasets.generators.negatives.joint_balance import (
    FeatureBalance,
    JointSet,
    feature_delta,
    graph_features,
    rebalance,
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

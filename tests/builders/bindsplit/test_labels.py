"""Binding labels, each of the seven bucket rules, the collapse, the rates and the asymmetry."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.bindsplit.adapters import BindingSample
from crepe_datasets.builders.bindsplit.labels import (
    BUCKETS,
    CLOSE,
    COLLAPSED,
    NONE,
    PERFECT,
    bucket_of,
    label_binding,
    label_sample,
    summarize,
)

P, C, N = PERFECT, CLOSE, NONE


def test_label_binding() -> None:
    assert label_binding(3, 0) == P
    assert label_binding(1, 5) == P  # any perfect count wins
    assert label_binding(0, 2) == C
    assert label_binding(0, 0) == N


@pytest.mark.parametrize(
    ("labels", "bucket", "split"),
    [
        ((P, P, P, P), "definitely_seen", "seen"),
        ((P, C, P, C), "amb_perfect_close", "mixed"),
        ((P, C, N, P), "amb_mixed", "mixed"),
        ((P, N, N, P), "amb_perfect_none", "mixed"),
        ((C, C, C, C), "amb_close_only", "mixed"),
        ((C, N, C, N), "amb_close_none", "mixed"),
        ((N, N, N, N), "definitely_unseen", "unseen"),
        ((P,), "definitely_seen", "seen"),  # free-form samples may have any number of bindings
        ((N, C, N), "amb_close_none", "mixed"),
    ],
)
def test_each_bucket_rule(labels, bucket, split) -> None:
    assert bucket_of(labels) == bucket
    assert COLLAPSED[bucket] == split


def test_bucket_of_rejects_empty_and_unknown() -> None:
    with pytest.raises(ValueError):
        bucket_of(())
    with pytest.raises(ValueError):
        bucket_of(("maybe",))


def _sample(i: int, pos, neg) -> BindingSample:
    return BindingSample(str(i), "p", "n", tuple(pos), tuple(neg), "swap")


def test_label_sample_and_summary_rates() -> None:
    table = {("red", "car"): (2, 0), ("blue", "ball"): (0, 1), ("blue", "car"): (1, 1)}

    def lookup(a: str, o: str) -> tuple[int, int]:
        return table.get((a, o), (0, 0))

    samples = [
        # pos (red car: P, blue ball: C), neg (blue car: P, red ball: N) -> amb_mixed
        _sample(0, [("red", "car"), ("blue", "ball")], [("blue", "car"), ("red", "ball")]),
        # all perfect -> definitely_seen
        _sample(1, [("red", "car"), ("blue", "car")], [("blue", "car"), ("red", "car")]),
        # all none -> definitely_unseen
        _sample(2, [("x", "y"), ("z", "w")], [("z", "y"), ("x", "w")]),
        # all close-only -> amb_close_only
        _sample(3, [("blue", "ball")] * 2, [("blue", "ball")] * 2),
    ]
    labelled = [label_sample(s, lookup) for s in samples]
    assert labelled[0].pos_labels == (P, C) and labelled[0].neg_labels == (P, N)
    assert labelled[0].pos_counts == ((2, 0), (0, 1))
    assert [x.bucket for x in labelled] == [
        "amb_mixed",
        "definitely_seen",
        "definitely_unseen",
        "amb_close_only",
    ]
    summary = summarize(labelled)
    assert list(summary["buckets"]) == list(BUCKETS)
    assert summary["collapsed"] == {"seen": 1, "mixed": 2, "unseen": 1}
    assert summary["rates"]["strict"] == {
        "all_seen": 0.25,
        "all_unseen": 0.5,
    }  # unseen: samples 2 and 3
    assert summary["rates"]["loose"] == {
        "all_seen": 0.5,
        "all_unseen": 0.25,
    }  # seen: samples 1 and 3
    full = summary["asymmetry"]["in_table"]["full"]
    assert full["positive"] == {"fully_seen": 3, "with_bindings": 4, "rate": 0.75}
    assert full["negative"] == {"fully_seen": 2, "with_bindings": 4, "rate": 0.5}
    mixed = summary["asymmetry"]["in_table"]["mixed"]
    assert mixed["positive"]["rate"] == 1.0 and mixed["negative"]["rate"] == 0.5
    strict = summary["asymmetry"]["strict"]["full"]
    assert strict["positive"]["fully_seen"] == 1 and strict["negative"]["fully_seen"] == 1


def test_asymmetry_leaves_out_sides_without_bindings() -> None:
    s = BindingSample("0", "p", "n", (("red", "car"),), (), "all")
    summary = summarize([label_sample(s, lambda a, o: (1, 0))])
    assert summary["asymmetry"]["in_table"]["full"]["negative"] == {
        "fully_seen": 0,
        "with_bindings": 0,
        "rate": None,
    }

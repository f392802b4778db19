"""Set-level blind judges: a set whose negatives change different atoms of the positive gives
the positive away; a set whose texts are interchangeable scores chance exactly."""

from __future__ import annotations

import ast
import csv

from crepe_datasets.generators.balance.blind import audit_sets
from crepe_datasets.generators.balance.set_structure import (
    SET_JUDGES,
    shared,
    unique,
    unique_words,
)
from tests.conftest import require_shared

STAR = [  # CREPE's release style: each negative changes a different atom of the positive
    "black dog on red couch",
    "white dog on red couch",
    "black cat on red couch",
    "black dog under red couch",
    "black dog on blue couch",
    "black dog on red bed",
]
ONE_ATOM = [  # every text differs from every other at the same place only
    "black dog on red couch",
    "black dog on blue couch",
    "black dog on green couch",
    "black dog on white couch",
    "black dog on brown couch",
    "black dog on grey couch",
]
ORBIT = [  # all six arrangements of three names over three places
    "man on horse near tree",
    "horse on man near tree",
    "tree on horse near man",
    "man on tree near horse",
    "horse on tree near man",
    "tree on man near horse",
]


def _best(texts: list[str]) -> dict[str, int]:
    """For each judge, the index of the text it picks (the highest score; None on a tie)."""
    out = {}
    for name, judge in SET_JUDGES.items():
        scores = judge(texts)
        top = [i for i, s in enumerate(scores) if s == max(scores)]
        out[name] = top[0] if len(top) == 1 else None
    return out


def test_star_sets_give_the_positive_away():
    assert unique_words(STAR)[0] == 0 and all(s == -1 for s in unique_words(STAR)[1:])
    assert _best(STAR) == {"unique_words": 0, "unique_3": 0, "shared_1": 0, "shared_2": 0}


def test_symmetric_sets_tie_every_judge():
    for texts in (ONE_ATOM, ORBIT):
        for judge in SET_JUDGES.values():
            assert len(set(judge(texts))) == 1, (texts, judge(texts))
        result = audit_sets([texts])
        assert all(
            abs(v - 1 / 6) < 1e-9 for k, v in result.r1().items() if k.startswith("set_structure")
        )


def test_shared_counts_other_texts_only():
    assert shared(1)(["a b", "a c"]) == [0.5, 0.5]
    assert shared(2)(["a b", "x y"]) == [0.0, 0.0]


def test_a_text_whose_phrases_no_other_text_repeats_is_found():
    """Negatives that reuse each other's compounds ("the car is white", "the cup is pink")
    beside a positive whose compounds are its own: every word is in two texts or more, so the
    word judges tie; the trigram judge's lowest score is the positive."""
    texts = [
        "the car is pink and the plate is white",
        "the car is white and the cup is pink",
        "the car is white and the plate is pink",
        "the car is grey and the cup is pink",
        "the car is grey and the plate is pink",
    ]
    assert len(set(unique_words(texts))) == 1
    scores = unique(3)(texts)
    assert scores[0] < min(scores[1:]) and len(set(scores[1:])) == 1


def test_blind_audit_reports_the_family_as_its_best_cue():
    result = audit_sets([STAR] * 10)
    assert result.summary()["set_structure"] == 1.0
    assert all(not k.startswith("set_structure:") for k in result.summary())


def test_crepe_release_hn_atom_is_solved_by_the_set_judges():
    """CREPE's released HN-ATOM sets (complexity 4): the positive is the medoid."""
    path = require_shared(
        "crepe_release", "prod_hard_negatives", "atom", "prod_vg_hard_negs_atom_complexity_4.csv"
    )
    with path.open(encoding="utf-8") as f:
        sets = [[row["caption"], *ast.literal_eval(row["hard_negs"])] for row in csv.DictReader(f)]
    sets = [s for s in sets if len(s) == 6][:300]
    result = audit_sets(sets)
    assert len(sets) == 300
    assert result.summary()["set_structure"] > 0.9  # chance 1/6

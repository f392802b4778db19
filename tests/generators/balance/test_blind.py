"""Blind baselines: chance without information, caught shortcuts, negation cue reported only."""

from __future__ import annotations

import pytest

from crepe_datasets.generators.balance.blind import (
    TARGETS,
    audit_sets,
    blind_audit,
    blind_lines,
    counted_baselines,
)


def test_identical_texts_score_chance():
    r = audit_sets([["a dog on grass"] * 6 for _ in range(12)])
    assert r.chance == pytest.approx(1 / 6)
    assert all(v == pytest.approx(1 / 6) for v in r.summary().values())


def test_rare_word_negatives_are_caught():
    sets = [
        ["black car on street", "black burr on street", "black tetrode on street"]
        for _ in range(20)
    ]
    r = audit_sets(sets)
    assert r.summary()["word_frequency:max"] == 1.0 and r.summary()["ngram_lm:max"] == 1.0
    assert not r.verdict(counted_baselines("hn_atom"))[2]


def test_negation_cue_counts_only_outside_negation_sets():
    rows = [
        {"caption": "dog on grass", "hard_negatives": ["there is no dog on grass"]}
        for _ in range(20)
    ]
    report = blind_audit({"hn_negate": {"complexity_4": rows}, "hn_atom": {"complexity_4": rows}})
    data = report.to_dict()
    assert data["configs"]["hn_negate"]["all"]["baselines"]["no_negation:max"] == 1.0
    assert "no_negation" not in data["configs"]["hn_negate"]["counted"]
    assert not data["configs"]["hn_atom"]["passed"] and not report.passed
    assert data["targets"] == [c for c in TARGETS if c in ("hn_atom",)]
    lines = blind_lines(data)
    assert "FAILED" in lines[0] and any("above target" in line for line in lines)
    assert any("(cue)" in line for line in lines if line.startswith("hn_negate"))


def test_splits_in_numeric_order():
    rows = [{"caption": "a", "hard_negatives": ["b"]}]
    report = blind_audit({"hn_swap": {f"complexity_{n}": rows for n in (12, 4, 10)}}).to_dict()
    assert list(report["configs"]["hn_swap"]["splits"]) == [
        "complexity_4",
        "complexity_10",
        "complexity_12",
    ]


def test_small_splits_fail_only_on_evidence():
    rows = [{"caption": "black car", "hard_negatives": ["black tetrode"]}]
    few = blind_audit({"hn_atom": {"complexity_4": rows * 2}}).to_dict()
    split = few["configs"]["hn_atom"]["splits"]["complexity_4"]
    assert split["best_r1"] == 1.0 and not split["judged"] and split["passed"]
    assert any("too few rows" in line for line in blind_lines(few))
    many = blind_audit({"hn_atom": {"complexity_4": rows * 30}}).to_dict()
    assert not many["configs"]["hn_atom"]["splits"]["complexity_4"]["passed"] and not many["passed"]


def test_hn_comp_length_cue_is_reported_as_inherent_and_not_counted():
    comp = [
        {"caption": "a pink car", "hard_negatives": ["a blue car and a pink toy"] * 6}
        for _ in range(30)
    ]
    atom = [{"caption": "a pink car", "hard_negatives": ["a pink car"] * 4} for _ in range(30)]
    report = blind_audit({"hn_comp": {"seen_compounds": comp}, "hn_atom": {"seen_compounds": atom}})
    data = report.to_dict()
    assert data["configs"]["hn_comp"]["all"]["baselines"]["ngram_lm:max"] == 1.0
    assert data["configs"]["hn_comp"]["inherent_cue"].startswith("length")
    assert not data["configs"]["hn_comp"]["target"] and data["configs"]["hn_atom"]["target"]
    assert data["configs"]["hn_atom"]["inherent_cue"] is None
    assert report.passed and data["targets"] == ["hn_atom"]
    lines = blind_lines(data)
    assert any("inherent cue, not counted" in line for line in lines if line.startswith("hn_comp"))
    assert any(line.startswith("hn_comp: known inherent cue: length") for line in lines)


def test_negation_words_are_counted_in_contractions_too():
    from crepe_datasets.generators.balance.blind import NEGATION

    assert len(NEGATION.findall("the cat isn't on a mat, there is no dog")) == 2
    assert len(NEGATION.findall("a dog doesn't sit; NOT a cat, nothing else")) == 3
    assert not NEGATION.findall("a notebook on a nose, snow in town")

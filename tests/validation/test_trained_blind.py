"""Trained blind audit: a text-only classifier finds a learnable cue and scores chance without one."""

from __future__ import annotations

import random

import pytest

from crepe_datasets.validation.trained_blind import (
    MIN_SETS,
    AuditSet,
    cross_validated,
    trained_audit,
    trained_lines,
)

COLOURS = ["red", "blue", "green", "black", "white", "brown", "gray", "yellow"]
THINGS = ["car", "dog", "chair", "table", "cup", "shirt", "bag", "lamp"]


def _rows(n: int, cue: bool, seed: int = 0) -> list[dict]:
    """Sets "a C T" with 4 negatives that change the colour; with ``cue``, every negative
    uses a colour no caption uses ("lacks"-like foil words)."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        colour, thing = rng.choice(COLOURS), rng.choice(THINGS)
        others = [c for c in COLOURS if c != colour]
        foils = ["purple", "orange", "pink", "beige"] if cue else rng.sample(others, 4)
        rows.append(
            {
                "image_id": str(i // 2),
                "caption": f"a {colour} {thing}",
                "hard_negatives": [f"a {f} {thing}" for f in foils],
            }
        )
    return rows


def test_a_foil_vocabulary_is_learnt_and_fails_the_target():
    report = trained_audit({"hn_atom": {"complexity_4": _rows(200, cue=True)}}).to_dict()
    config = report["configs"]["hn_atom"]
    assert config["judged"] and not config["passed"] and not report["passed"]
    assert config["all"]["best_r1"] == pytest.approx(1.0)
    assert "purple" in config["indicative"]["negative"]
    assert any("above target" in line for line in trained_lines(report))


def test_foils_drawn_like_the_truths_score_about_chance():
    report = trained_audit({"hn_atom": {"complexity_4": _rows(400, cue=False)}}).to_dict()
    pooled = report["configs"]["hn_atom"]["all"]
    assert pooled["chance"] == pytest.approx(0.2)
    assert pooled["best_r1"] <= 0.2 + 0.08
    assert report["passed"]


def test_small_configs_are_reported_not_judged():
    report = trained_audit({"hn_swap": {"test": _rows(MIN_SETS - 1, cue=True)}}).to_dict()
    assert report["configs"]["hn_swap"]["judged"] is False and report["passed"]


def test_folds_never_split_an_image_and_ties_share_the_win():
    sets = [AuditSet(str(i // 3), "s", ("same text", "same text")) for i in range(30)]
    scores = cross_validated(sets)
    assert scores["all"].r1() == {"ngram_logreg": 0.5, "word_nb": 0.5}


def test_crepe_release_hn_atom_is_learnable(shared_data):
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.sources.crepe_release import read_crepe_release

    rows = [
        {"image_id": s.image_id, "caption": s.caption, "hard_negatives": list(s.negatives)}
        for s in read_crepe_release(shared_data / "crepe_release", DropLog())
        if s.meta["negative_type"] == "atom" and s.meta["n"] == 4
    ]
    report = trained_audit({"hn_atom": {"complexity_4": rows[:600]}}).to_dict()
    pooled = report["configs"]["hn_atom"]["all"]
    assert pooled["best_r1"] > pooled["chance"] + 0.1  # the release's foils are learnable

"""Benchmark adapters: the ARO regex, malformed rows, swapped pairs in free-form captions, real ARO."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.builders.bindsplit.adapters import (
    aro_samples,
    find_swap,
    free_form_samples,
    parse_aro_caption,
)
from crepe_datasets.builders.bindsplit.extract import load_extractor_nlp
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.aro import read_aro_attribution
from crepe_datasets.sources.records import GroupSample, PairSample
from tests.conftest import require_shared


def test_parse_aro_caption_normalises_like_the_training_side() -> None:
    assert parse_aro_caption("The Smiling Children and the white geese") == (
        ("smiling", "child"),
        ("white", "goose"),
    )
    assert (
        parse_aro_caption("the long sleeved shirt and the open door") is None
    )  # two-word attribute
    assert parse_aro_caption("a red car and the blue ball") is None


def test_malformed_aro_rows_are_excluded_with_a_reason() -> None:
    pairs = [
        PairSample(
            "0",
            "the red car and the blue ball",
            ("the blue car and the red ball",),
            "7",
            "7.jpg",
            (1, 2, 3, 4),
        ),
        PairSample(
            "1", "the long sleeved shirt and the man", ("the sleeved man and the long shirt now",)
        ),
        PairSample("2", "the red car and the blue ball", ("a blue car and a red ball",)),
        PairSample("3", "red car and blue ball", ("the blue car and the red ball",)),
        PairSample("4", "the red car and the blue ball", ()),  # no negative at all
        # equal attributes: the swapped caption is the caption itself
        PairSample(
            "5", "the green bench and the green kite", ("the green bench and the green kite",)
        ),
    ]
    drops = DropLog()
    kept = list(aro_samples(pairs, drops, stage="s"))
    assert [s.id for s in kept] == ["0"]
    s = kept[0]
    assert s.pos_bindings == (("red", "car"), ("blue", "ball"))
    assert s.neg_bindings == (("blue", "car"), ("red", "ball"))
    assert (s.image_id, s.image_file, s.bbox, s.form) == ("7", "7.jpg", (1, 2, 3, 4), "swap")
    assert drops.to_dict() == {
        "s": {
            "negative_equals_caption": 1,
            "negative_no_match": 2,
            "neither_matches": 1,
            "positive_no_match": 1,
        }
    }


def test_aro_lists_with_non_string_rows(tmp_path) -> None:
    (tmp_path / "att-original-true.json").write_text(
        json.dumps(["the red car and the blue ball", 5, ""])
    )
    (tmp_path / "att-original-false.json").write_text(
        json.dumps(["the blue car and the red ball", "x", "y"])
    )
    drops = DropLog()
    kept = list(aro_samples(read_aro_attribution(tmp_path, drops), drops))
    assert len(kept) == 1
    assert drops.total("aro_attribution") == 2  # counted by the reader, not silently lost


def test_find_swap() -> None:
    pos = (("white", "plate"), ("red", "apple"), ("green", "bowl"))
    neg = (("red", "plate"), ("white", "apple"), ("green", "bowl"))
    assert find_swap(pos, neg) == (
        ("white", "plate"),
        ("red", "apple"),
        ("red", "plate"),
        ("white", "apple"),
    )
    assert find_swap(pos, pos) is None


@pytest.fixture(scope="module")
def nlp():
    return load_extractor_nlp()


def test_free_form_samples(nlp) -> None:
    items = [
        PairSample(
            "a",
            "A white plate with a red apple.",
            ("A red plate with a white apple.",),
            "1",
            "1.jpg",
        ),
        GroupSample(
            "b",
            "A black dog on a sofa.",
            "A black cat on a sofa.",
            "x.jpg",
            "y.jpg",
            {"type": "replace"},
        ),
        PairSample("c", "The dog is running.", ("The cat is running.",)),
    ]
    drops = DropLog()
    got = list(free_form_samples(items, nlp, drops, stage="ff"))
    assert [s.id for s in got] == ["a", "b"]
    assert got[0].form == "swap"
    assert got[0].pos_bindings == (("white", "plate"), ("red", "apple"))
    assert got[0].neg_bindings == (("red", "plate"), ("white", "apple"))
    assert got[1].form == "all" and got[1].pos_bindings == (("black", "dog"),)
    assert got[1].neg_bindings == (("black", "cat"),) and got[1].image_1_file == "y.jpg"
    assert drops.to_dict() == {"ff": {"no_binding": 1}}


def test_real_aro_vga_keeps_26508_and_excludes_2240() -> None:
    folder = require_shared("aro", "att-original-true.json").parent
    drops = DropLog()
    kept = list(aro_samples(read_aro_attribution(folder, drops), drops, stage="aro_vga"))
    assert len(kept) == 26_508
    assert drops.total("aro_vga") == 2_240
    assert drops.total() == 2_240
    assert kept[0].pos_bindings == (("open", "door"), ("crouched", "man"))

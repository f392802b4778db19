"""Held-out pairs are found through the caption parser's bindings, not by substring."""

from __future__ import annotations

import json
import re

import pytest

from crepe_datasets.builders.captioning.concepts import parse_facts
from crepe_datasets.builders.captioning.pairs import load_pairs, load_synonyms, pairs_in
from crepe_datasets.infra.errors import CrepeInputError
from tests.conftest import require_shared


@pytest.fixture(scope="module")
def pairs():
    return load_pairs()


@pytest.mark.parametrize(
    ("caption", "expected"),
    [
        ("Two black cats sleeping on a bed.", ["black_cat"]),
        ("The cat on the sofa is black.", ["black_cat"]),
        ("A black dog and a cat on the grass.", []),  # both words, not bound
        ("A man is eating.", ["eat_man"]),  # intransitive verb, subject found
        ("Men eating hot dogs at a stand.", ["eat_man"]),
        ("A woman lying on a bed with a book.", ["lie_woman"]),
        ("A man next to a woman who is eating.", []),  # the woman eats, not the man
        ("A large jetliner parked at the gate.", ["big_plane"]),  # forms of big and plane
        ("A little dog on a leash.", ["small_dog"]),
    ],
)
def test_pairs_from_bindings(pairs, caption, expected) -> None:
    assert pairs_in(pairs, parse_facts([caption])) == expected


def test_real_captions_with_the_phrase_are_found(pairs) -> None:
    """Every real COCO caption with a literal "black cat(s)" binds black_cat."""
    data = json.loads(require_shared("coco", "captions_val2017.json").read_text())
    texts = [
        a["caption"]
        for a in data["annotations"]
        if re.search(r"\bblack cats?\b", a["caption"].lower())
    ]
    assert len(texts) >= 20
    black_cat = next(p for p in pairs if p.id == "black_cat")
    found = [black_cat.in_facts(f) for f in parse_facts(texts)]
    assert all(found), [t for t, ok in zip(texts, found, strict=True) if not ok]


def test_constituents_co_occur_without_binding(pairs) -> None:
    black_cat = next(p for p in pairs if p.id == "black_cat")
    unbound, apart = parse_facts(["A black dog and a cat on the grass.", "A cat on a mat."])
    assert black_cat.co_occur(unbound) and not black_cat.in_facts(unbound)
    assert not black_cat.co_occur(apart)


def test_lengths_count_tokens_without_punctuation() -> None:
    facts = parse_facts(["A man, a dog.", "Two dogs play in the park"])
    assert [f.n_tokens for f in facts] == [4, 6]


def test_synonym_groups_and_bad_files(tmp_path) -> None:
    groups = {g.canonical: g for g in load_synonyms()}
    facts = parse_facts(["People riding bikes past a parked airplane."])[0]
    assert groups["person"].words_in(facts) == {"person"}
    assert groups["bicycle"].words_in(facts) == {"bike"}
    assert groups["airplane"].words_in(facts) == {"airplane"}
    bad = tmp_path / "pairs.json"
    bad.write_text(json.dumps({"pairs": [{"type": "noun_noun", "modifier": "a", "noun": "b"}]}))
    with pytest.raises(CrepeInputError, match="adjective_noun or verb_noun"):
        load_pairs(bad)
    with pytest.raises(CrepeInputError, match="does not exist"):
        load_pairs(tmp_path / "missing.json")

"""Split rules: sizes, balance, determinism."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.captioning import splits as S
from crepe_datasets.infra.errors import CrepeInputError


def test_scaled_size_follows_the_paper_share() -> None:
    assert S.scaled_size(5000) == 256
    assert S.scaled_size(123_287) == 5000
    assert S.scaled_size(500, 100) == 100
    with pytest.raises(CrepeInputError, match="too large"):
        S.scaled_size(10, 4)


def test_by_score_is_seeded_and_ranked() -> None:
    ids = [str(i) for i in range(100)]
    score = {i: float(int(i) % 17) for i in ids}
    a = S.by_score(ids, score, 10, 0, ("test_high_density", "test_low_density"), "d")
    assert a == S.by_score(ids, score, 10, 0, ("test_high_density", "test_low_density"), "d")
    assert a != S.by_score(ids, score, 10, 1, ("test_high_density", "test_low_density"), "d")
    high = [score[i] for i in ids if a[i] == "test_high_density"]
    low = [score[i] for i in ids if a[i] == "test_low_density"]
    rest = [score[i] for i in ids if a[i] in ("train", "validation")]
    assert len(high) == len(low) == 10 and min(high) >= max(rest) and max(low) <= min(rest)
    assert sum(v == "validation" for v in a.values()) == 10


def test_systematicity_balances_each_pair_with_noun_images_first() -> None:
    ids = [str(i) for i in range(40)]
    present = {"0": ["black_cat"], "1": ["black_cat", "red_bus"], "2": ["red_bus"]}
    nouns = {i: {"black_cat"} for i in ("10", "11", "12")} | {"3": {"black_cat"}}
    split, balances, stats = S.systematicity(ids, present, nouns, ["black_cat", "red_bus"], 5, 0)
    assert [i for i in ids if split[i] == "test_comb"] == ["0", "1", "2"]
    assert stats["black_cat"] == {"test_comb": 2, "test_no_comb": 2, "test_no_comb_with_noun": 2}
    assert stats["red_bus"]["test_no_comb"] == 2
    assert all(split[i] == "test_no_comb" for i in balances)
    assert sum(v == "validation" for v in split.values()) == 5
    assert not any(present.get(i) for i in ids if split[i] in ("train", "validation"))


def test_systematicity_skips_images_where_the_constituents_co_occur() -> None:
    ids = [str(i) for i in range(20)]
    present = {"0": ["black_cat"]}
    nouns = {"5": {"black_cat"}, "6": {"black_cat"}}
    split, _, _ = S.systematicity(ids, present, nouns, ["black_cat"], 2, 0, {"5": {"black_cat"}})
    assert [i for i, v in split.items() if v == "test_no_comb"] == ["6"]

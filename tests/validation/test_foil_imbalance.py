"""Foil imbalance read from texts: words used only as foils, and the largest log-ratio."""

from __future__ import annotations

from crepe_datasets.validation.foil_imbalance import (
    foil_balance_summary,
    foil_imbalance,
    text_exchange,
)


def test_text_exchange_finds_the_replaced_words():
    truths, foils = text_exchange("a cup on the table", "a cup under the table")
    assert dict(truths) == {"on": 1} and dict(foils) == {"under": 1}


def test_one_way_foils_are_counted():
    sets = [["a cup on the table", "a cup under the table"]] * 6 + [
        ["a man has a hat", "a man lacks a hat"]
    ]
    figures = foil_imbalance(sets)
    assert figures["foil_only_words"] == 2 and figures["foil_only_uses"] == 7
    assert figures["foil_only_top"][0] == "under (6)"
    assert figures["max_log2_ratio_word"] in {"on", "under"}
    assert figures["max_log2_ratio"] > 2.5


def test_two_way_foils_are_balanced():
    sets = [["a cup on the table", "a cup under the table"]] * 3 + [
        ["a cup under the table", "a cup on the table"]
    ] * 3
    figures = foil_imbalance(sets)
    assert figures["foil_only_words"] == 0 and figures["max_log2_ratio"] == 0.0


def test_summary_per_config():
    tables = {"hn_atom": {"complexity_4": [{"caption": "red car", "hard_negatives": ["blue car"]}]}}
    summary = foil_balance_summary(tables)
    assert summary["hn_atom"]["foil_only_words"] == 1
    assert summary["hn_atom"]["worst_split_foil_only_max_uses"] == 1
    assert summary["hn_atom"]["worst_split_foil_only_max_negatives"] == 1


def test_a_foil_named_twice_in_one_negative_is_one_negative():
    sets = [
        [
            "book on the shelf, another book on the shelf",
            "book on the rack, another book on the rack",
        ]
    ]
    figures = foil_imbalance(sets)
    assert figures["foil_only_max_uses"] == 2 and figures["foil_only_max_negatives"] == 1

"""The typed registry every reader of the ``sources`` layer is found through."""

from __future__ import annotations

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.sources.registry import CORPORA, Registry


def _first() -> None: ...


def _second() -> None: ...


def test_lookup_normalizes_and_lists_what_is_available():
    registry: Registry[int] = Registry("widget", "widgets", lambda n, e: f"{n} (#{e})", str.lower)
    registry.add("a", 1, _first)
    registry.add("b", 2, _second)
    assert registry.get("A") == 1 and "B" in registry and "c" not in registry
    assert registry.known() == {"a": 1, "b": 2}
    with pytest.raises(CrepeInputError, match=r"unknown widget 'c'; known widgets are a \(#1\); b"):
        registry.get("c")


def test_a_second_entry_under_one_name_names_both():
    registry: Registry[int] = Registry("widget", "widgets", lambda n, e: n)
    registry.add("a", 1, _first)
    with pytest.raises(ValueError, match=r"test_registry\._first and .*test_registry\._second"):
        registry.add("a", 2, _second)
    assert registry.get("a") == 1


def test_corpus_formats_are_one_instance():
    assert set(CORPORA.known()) >= {"coco", "cc", "laion", "jsonl", "text"}

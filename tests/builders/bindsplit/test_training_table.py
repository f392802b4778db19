"""The training-side table: counts, sorting, duplicates parsed once, the cache, an empty corpus."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

import crepe_datasets.builders.bindsplit.training_table as tt
from crepe_datasets.builders.bindsplit.training_table import COLUMNS, build_training_table
from crepe_datasets.infra.errors import CrepeInputError

CAPTIONS = [
    "A red car parked on the street.",
    "A red car parked on the street.",  # duplicate: parsed once, counted twice
    "Two small white dogs play.",
    "A woman feeds the hungry children.",
]


def test_table_counts_sorting_and_cache(tmp_path, monkeypatch) -> None:
    corpus = tmp_path / "captions.txt"
    corpus.write_text("\n".join(CAPTIONS) + "\n")
    parsed: list[str] = []
    real = tt.extract_many

    def spy(nlp, texts, batch_size=512):
        texts = list(texts)
        parsed.extend(texts)
        return real(nlp, texts, batch_size)

    monkeypatch.setattr(tt, "extract_many", spy)
    table = build_training_table(f"text:{corpus}", cache_dir=tmp_path / "cache", progress=False)
    assert sorted(parsed) == sorted(set(CAPTIONS))  # duplicates extracted once
    assert table.lookup("red", "car") == (2, 0)
    assert table.lookup("small", "dog") == (0, 1) and table.lookup("white", "dog") == (0, 1)
    assert table.lookup("hungry", "child") == (1, 0)
    assert table.lookup("blue", "car") == (0, 0)
    assert table.info["captions"] == 4 and table.info["distinct_captions"] == 3
    assert table.info["from_cache"] is False
    data = pq.read_table(table.info["cache_path"])
    assert tuple(data.column_names) == COLUMNS
    keys = list(zip(data["attr"].to_pylist(), data["obj_lemma"].to_pylist(), strict=True))
    assert keys == sorted(keys)

    # second build: read from the cache, nothing parsed
    def boom(*args, **kwargs):
        raise AssertionError("the corpus was parsed again")

    monkeypatch.setattr(tt, "extract_many", boom)
    again = build_training_table(f"text:{corpus}", cache_dir=tmp_path / "cache", progress=False)
    assert again.info["from_cache"] is True and again.counts == table.counts
    assert again.checksum == table.checksum

    # a changed corpus changes the key and is parsed again
    corpus.write_text("A blue car.\n")
    monkeypatch.setattr(tt, "extract_many", real)
    changed = build_training_table(f"text:{corpus}", cache_dir=tmp_path / "cache", progress=False)
    assert changed.info["from_cache"] is False and changed.lookup("blue", "car") == (1, 0)


def test_empty_corpus_is_a_clear_error(tmp_path) -> None:
    corpus = tmp_path / "empty.txt"
    corpus.write_text("\n  \n")
    with pytest.raises(CrepeInputError, match="yielded no caption"):
        build_training_table(f"text:{corpus}", cache_dir=tmp_path / "cache", progress=False)


def test_missing_corpus_file_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(CrepeInputError):
        build_training_table(
            f"coco:{tmp_path / 'nope.json'}", cache_dir=tmp_path / "cache", progress=False
        )

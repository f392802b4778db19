"""The controlled k x k hold-out: block coverage, balance, determinism, the dataset folder."""

from __future__ import annotations

import pytest
from datasets import load_dataset

from crepe_datasets.builders.bindsplit.holdout import build_holdout, grid_from_rows, make_grid
from crepe_datasets.builders.bindsplit.holdout_build import build_holdout_dataset
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog

COLOURS = ["red", "blue", "green", "yellow", "black", "white", "brown", "gray"]
ANIMALS = [
    "dog",
    "cat",
    "horse",
    "cow",
    "sheep",
    "bird",
    "bear",
    "elephant",
    "zebra",
    "giraffe",
    "lion",
    "tiger",
]


def test_holdout_splits_are_balanced_and_cover_the_block() -> None:
    grid = make_grid(COLOURS, ANIMALS)
    assert len(grid) == 8 * 7 * 12 * 11
    drops = DropLog()
    block, splits = build_holdout(grid, k=3, seed=0, drops=drops)
    assert len(block.attributes) == 3 and len(block.objects) == 3
    for s in splits["train"] + splits["fully_seen"]:
        assert not any(block.held(b) for b in s.positive_bindings + s.negative_bindings)
    for name, n in (("partially_unseen", 1), ("fully_unseen", 2)):
        assert splits[name]
        for s in splits[name]:
            assert (
                sum(map(block.held, s.positive_bindings))
                == n
                == sum(map(block.held, s.negative_bindings))
            )
    train_attrs = {a for s in splits["train"] for a, _ in s.positive_bindings}
    train_objs = {o for s in splits["train"] for _, o in s.positive_bindings}
    assert set(block.attributes) <= train_attrs and set(block.objects) <= train_objs
    assert sum(len(v) for v in splits.values()) + drops.total() == len(grid)
    assert drops.to_dict()["holdout"]["unbalanced"] > 0
    again = build_holdout(grid, k=3, seed=0)
    assert again[0] == block and again[1] == splits  # deterministic per seed
    assert build_holdout(grid, k=3, seed=1)[0] != block


def test_k_too_large_and_empty_grid() -> None:
    with pytest.raises(CrepeInputError, match="k=3"):
        build_holdout(make_grid(["a", "b", "c"], ["x", "y", "z", "w"]), k=3, seed=0)
    with pytest.raises(CrepeInputError):
        build_holdout([], k=1, seed=0)


def test_grid_rows_missing_columns_are_counted() -> None:
    drops = DropLog()
    rows = [{"attr_1": "Red", "obj_1": "dog", "attr_2": "blue", "obj_2": "cat"}, {"attr_1": "red"}]
    samples = grid_from_rows(rows, drops)
    assert [(s.attr_1, s.id) for s in samples] == [("red", "0")]
    assert drops.to_dict() == {"holdout": {"missing_column": 1}}


def test_holdout_dataset_folder(tmp_path) -> None:
    grid = tmp_path / "grid.csv"
    lines = ["attr_1,obj_1,attr_2,obj_2,image_file"]
    lines += [
        f"{s.attr_1},{s.obj_1},{s.attr_2},{s.obj_2},{s.id}.png"
        for s in make_grid(COLOURS[:4], ANIMALS[:4])
    ]
    grid.write_text("\n".join(lines) + "\n")
    folder, manifest = build_holdout_dataset(tmp_path / "ds", grid=grid, k=2, seed=3)
    assert manifest.summary["block"]["seed"] == 3
    ds = load_dataset(str(folder), "holdout", split="fully_unseen")
    assert len(ds) == manifest.counts["holdout"]["fully_unseen"] > 0
    assert set(ds["held_out_positive"]) == {2}
    row = ds[0]
    assert row["hard_negatives"] == [
        f"the {row['attr_2']} {row['obj_1']} and the {row['attr_1']} {row['obj_2']}"
    ]
    with pytest.raises(CrepeInputError):
        build_holdout_dataset(tmp_path / "x", k=2, seed=0)

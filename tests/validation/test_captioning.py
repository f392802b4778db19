"""Captioning invariants on a real build, and on tampered copies of its rows."""

from __future__ import annotations

import copy
import json

import pytest

from crepe_datasets.scripts.cli import main
from crepe_datasets.validation.captioning import check_captioning
from crepe_datasets.validation.invariants import read_tables
from tests.builders.captioning.helpers import built_dataset


@pytest.mark.slow
def test_real_build_passes_and_leaks_are_caught(capsys) -> None:
    folder = built_dataset()[0]
    tables = read_tables(folder)
    summary = json.loads((folder / "build_manifest.json").read_text())["summary"]
    report = check_captioning(tables, summary)
    assert report["passed"] and report["rows_checked"] == sum(
        len(rows) for splits in tables.values() for rows in splits.values()
    )
    assert main(["validate", "captioning", str(folder)]) == 0
    assert "captioning invariants: passed" in capsys.readouterr().out

    leaky = copy.deepcopy(tables)
    moved = leaky["systematicity"]["test_comb"].pop()
    leaky["systematicity"]["train"].append(moved)  # a held-out pair in train, pair unbalanced
    leaky["productivity_length"]["validation"].append(leaky["productivity_length"]["train"][0])
    bad = check_captioning(leaky, summary)
    assert not bad["passed"]
    assert {"heldout_pair_in_train", "unbalanced_pair", "image_in_several_splits"} <= set(
        bad["violations"]
    )

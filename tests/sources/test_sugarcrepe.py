from __future__ import annotations

import json

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.sugarcrepe import SUBSETS, read_sugarcrepe
from tests.conftest import require_shared


def test_all_subsets_counts_match_the_files():
    folder = require_shared("sugarcrepe")
    raw = {s: json.loads((folder / f"{s}.json").read_text()) for s in SUBSETS}
    drops = DropLog()
    samples = list(read_sugarcrepe(folder, drops))
    assert len(samples) == sum(len(v) for v in raw.values()) == 7_511
    assert len(drops) == 0
    by_subset = {s: [x for x in samples if x.meta["subset"] == s] for s in SUBSETS}
    assert {s: len(v) for s, v in by_subset.items()} == {s: len(v) for s, v in raw.items()}
    first = raw["swap_att"]["0"]
    sample = by_subset["swap_att"][0]
    assert (sample.id, sample.caption, sample.negatives, sample.image_file) == (
        "swap_att:0", first["caption"], (first["negative_caption"],), first["filename"],
    )  # fmt: skip
    assert sample.image_id == str(int(first["filename"].split(".")[0]))


def test_subset_selection_and_errors(tmp_path):
    folder = require_shared("sugarcrepe")
    only = list(read_sugarcrepe(folder, DropLog(), subsets=["swap_obj"]))
    assert {s.meta["subset"] for s in only} == {"swap_obj"}
    with pytest.raises(CrepeInputError, match="not_a_subset"):
        read_sugarcrepe(folder, DropLog(), subsets=["not_a_subset"])
    with pytest.raises(CrepeInputError, match="none of the SugarCrepe files"):
        read_sugarcrepe(tmp_path, DropLog())


def test_bad_rows_are_counted(tmp_path):
    path = tmp_path / "swap_att.json"
    rows = {
        "0": {"filename": "000000000001.jpg", "caption": "a", "negative_caption": "b"},
        "1": {"filename": "000000000001.jpg", "caption": "", "negative_caption": "b"},
        "2": {"caption": "a", "negative_caption": "b"},
        "3": [1, 2],
    }
    path.write_text(json.dumps(rows))
    drops = DropLog()
    assert len(list(read_sugarcrepe(path, drops))) == 1
    assert drops.to_dict()["sugarcrepe"] == {
        "empty_caption": 1,
        "missing_filename": 1,
        "not_an_object": 1,
    }

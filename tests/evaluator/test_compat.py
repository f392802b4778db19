"""Released benchmarks become configs, splits and rows of the evaluator's task types."""

from __future__ import annotations

import pytest

from crepe_datasets.evaluator.compat import open_compat, read_benchmark
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from tests.conftest import require_shared


def test_bivlc_groups_and_sugarcrepe_pairs():
    name, task, tables = read_benchmark("bivlc", str(require_shared("bivlc")), DropLog())
    assert (name, task.type, list(tables), list(tables["bivlc"])) == (
        "bivlc", "group", ["bivlc"], ["test"],
    )  # fmt: skip
    row = tables["bivlc"]["test"][0]
    assert row["caption_0"] != row["caption_1"] and row["id"]
    name, task, tables = read_benchmark("sugarcrepe", str(require_shared("sugarcrepe")), DropLog())
    assert (name, task.type) == ("sugarcrepe", "binary")
    row = tables["swap_att"]["test"][0]
    assert len(row["hard_negatives"]) == 1 and row["image_file"].endswith(".jpg")


def test_releases_without_images_and_unknown_kinds_are_refused():
    folder = require_shared("aro")
    with pytest.raises(CrepeInputError, match="names no image files"):
        open_compat(f"aro-vga:{folder}", "aro-vga", str(folder))
    with pytest.raises(CrepeInputError, match="unknown benchmark release 'aro'"):
        read_benchmark("aro", str(folder), DropLog())

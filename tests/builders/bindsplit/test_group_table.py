"""VisMin-style and generic 2x2 tables."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from crepe_datasets.builders.bindsplit.group_table import read_group_table
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog


def test_vismin_parquet_columns(tmp_path) -> None:
    table = pa.table(
        {
            "id": ["v1", "v2"],
            "text_0": ["A red car.", ""],
            "text_1": ["A blue car.", "x"],
            "image_0": [{"bytes": b"..", "path": "a.png"}, {"bytes": b"..", "path": "b.png"}],
            "image_1": [{"bytes": b"..", "path": "c.png"}, {"bytes": None, "path": None}],
            "question_1": ["q", "q"],
            "category": ["attribute", "object"],
        }
    )
    pq.write_table(table, tmp_path / "test.parquet")
    drops = DropLog()
    groups = list(read_group_table(tmp_path, drops, "vismin"))
    assert len(groups) == 1
    g = groups[0]
    assert (g.id, g.caption_0, g.caption_1, g.image_0_file, g.image_1_file) == (
        "v1",
        "A red car.",
        "A blue car.",
        "a.png",
        "c.png",
    )
    assert g.meta == {"category": "attribute"}
    assert drops.to_dict() == {"vismin": {"missing_caption": 1}}


def test_generic_csv_and_jsonl(tmp_path) -> None:
    (tmp_path / "t.csv").write_text(
        "caption_0,caption_1,image_0_file\nA red car.,A blue car.,0.jpg\n"
    )
    (tmp_path / "t.jsonl").write_text(json.dumps({"caption_0": "a", "caption_1": "b"}) + "\n")
    assert next(iter(read_group_table(tmp_path / "t.csv", DropLog()))).image_0_file == "0.jpg"
    assert next(iter(read_group_table(tmp_path / "t.jsonl", DropLog()))).id == "0"


def test_missing_caption_columns_is_a_clear_error(tmp_path) -> None:
    (tmp_path / "t.csv").write_text("a,b\n1,2\n")
    with pytest.raises(CrepeInputError, match="text_0/caption_0"):
        read_group_table(tmp_path / "t.csv", DropLog())
    with pytest.raises(CrepeInputError, match="does not exist"):
        read_group_table(tmp_path / "nope", DropLog())

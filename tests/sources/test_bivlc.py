from __future__ import annotations

import csv

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.bivlc import read_bivlc
from tests.conftest import require_shared


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_text_table_counts_match_the_file():
    path = require_shared("bivlc", "BiVLC_ViT-B-32.csv")
    rows = _rows(path)
    drops = DropLog()
    groups = list(read_bivlc(path.parent, drops))  # the folder resolves to the text table
    assert len(groups) == len(rows) == 2_933
    assert len(drops) == 0
    g, r = groups[3], rows[3]
    assert (g.id, g.caption_0, g.caption_1) == ("3", r["caption"], r["negative_caption"])
    assert g.meta == {"type": r["type"], "subtype": r["subtype"]}
    assert g.image_0_file is None and g.image_1_file is None  # PIL reprs are not files


def test_generation_table_gives_image_files():
    path = require_shared("bivlc", "BiVLC_negative_imgs.csv")
    rows = _rows(path)
    groups = list(read_bivlc(path, DropLog()))
    assert len(groups) == len(rows)
    g, r = groups[0], rows[0]
    assert g.image_0_file == r["filename"] and g.id == r["index"]
    assert g.meta["negative_image_candidates"] == [r[f"hn_img_{i}"] for i in range(4)]


def test_bad_rows_and_tables(tmp_path):
    path = tmp_path / "b.csv"
    path.write_bytes(
        b"caption,negative_caption,type\na dog,a cat,swap\n,a cat,swap\na \xff dog,a cat,swap\n"
    )
    drops = DropLog()
    assert [g.caption_0 for g in read_bivlc(path, drops)] == ["a dog"]
    assert drops.to_dict()["bivlc"] == {"empty_caption": 1, "invalid_utf8": 1}
    bad = tmp_path / "c.csv"
    bad.write_text("caption,other\nx,y\n")
    with pytest.raises(CrepeInputError, match="negative_caption"):
        read_bivlc(bad, DropLog())

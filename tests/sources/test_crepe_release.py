from __future__ import annotations

import ast
import csv

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.crepe_release import (
    parse_literal_strings,
    read_crepe_release,
    release_files,
)
from tests.conftest import require_shared

HEADER = "image_id,caption,n,n_objects,n_relations,n_attributes,n_connected_components,hard_negs,x,y,width,height\n"


@pytest.mark.slow
def test_every_file_count_matches():
    folder = require_shared("crepe_release", "prod_hard_negatives")
    files = sorted(folder.rglob("*.csv"))
    assert len(files) == 27
    drops = DropLog()
    samples = list(read_crepe_release(folder, drops))
    assert len(drops) == 0
    per_file: dict[tuple[str, int], int] = {}
    for s in samples:
        key = (s.meta["negative_type"], s.meta["n"])
        per_file[key] = per_file.get(key, 0) + 1
    for f in files:
        with open(f, newline="", encoding="utf-8") as handle:
            n_rows = sum(1 for _ in csv.DictReader(handle))
        n = int(f.stem.rsplit("_", 1)[-1])
        assert per_file[(f.parent.name, n)] == n_rows, f
    assert len(samples) == sum(per_file.values())


def test_set_literals_keep_written_order():
    folder = require_shared("crepe_release", "prod_hard_negatives", "negate")
    path = folder / "prod_vg_hard_negs_negate_complexity_4.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    index = next(i for i, r in enumerate(rows) if r["hard_negs"].lstrip().startswith("{"))
    samples = list(read_crepe_release(path, DropLog()))
    sample = samples[index]
    written = [e.value for e in ast.parse(rows[index]["hard_negs"], mode="eval").body.elts]
    assert list(sample.negatives) == written
    assert set(sample.negatives) == ast.literal_eval(rows[index]["hard_negs"])
    r = rows[index]
    assert sample.bbox == (float(r["x"]), float(r["y"]), float(r["width"]), float(r["height"]))
    assert sample.meta["negative_type"] == "negate" and sample.meta["n"] == 4
    assert sample.image_file == f"{r['image_id']}.jpg"


def test_parse_literal_strings():
    assert parse_literal_strings("{'b', 'a', 'c'}") == ["b", "a", "c"]
    assert parse_literal_strings("['x', \"y\"]") == ["x", "y"]
    assert parse_literal_strings("['x', 3]") is None
    assert parse_literal_strings("__import__('os')") is None
    assert parse_literal_strings("['unclosed'") is None


def test_bad_rows_are_counted(tmp_path):
    path = tmp_path / "prod_vg_hard_negs_swap_complexity_5.csv"
    path.write_bytes(
        HEADER.encode()
        + b"1,a dog on a mat,5,2,1,0,1,\"['a mat on a dog']\",0,0,10,10\n"
        + b"2,,5,2,1,0,1,\"['x']\",0,0,10,10\n"
        + b"3,a cat,5,2,1,0,1,\"['x'\",0,0,10,10\n"
        + b"4,a cat,5,2,1,0,1,\"['x']\",0,0,nan,10\n"
        + b"5,a \xff cat,5,2,1,0,1,\"['x']\",0,0,10,10\n"
        + b"6,a cat,5,2,1,0,1,\"['a cat', 'x']\",0,0,10,10\n"
    )
    drops = DropLog()
    samples = list(read_crepe_release(path, drops))
    assert [s.image_id for s in samples] == ["1", "6"]
    assert samples[0].id == "swap:5:0" and samples[1].meta["positive_in_negatives"] is True
    assert drops.to_dict()["crepe_release"] == {
        "empty_caption": 1, "bad_hard_negs": 1, "bad_bbox": 1, "invalid_utf8": 1,
    }  # fmt: skip


def test_missing_columns_and_folders(tmp_path):
    with pytest.raises(CrepeInputError, match="no prod_vg_hard_negs"):
        release_files(tmp_path)
    bad = tmp_path / "prod_vg_hard_negs_atom_complexity_4.csv"
    bad.write_text("image_id,caption\n1,x\n")
    with pytest.raises(CrepeInputError, match="hard_negs"):
        list(read_crepe_release(bad, DropLog()))

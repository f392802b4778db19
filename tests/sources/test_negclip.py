from __future__ import annotations

import ast
import csv

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.negclip import read_negclip
from tests.conftest import require_shared


def test_valid_neg_clip_counts_match_the_file():
    path = require_shared("coco", "valid_neg_clip.tsv")
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    drops = DropLog()
    samples = list(read_negclip(path, drops))
    assert len(samples) + len(drops) == len(rows) == 4_839
    assert len(drops) == 0
    s, r = samples[2], rows[2]
    assert s.caption == r["title"] and list(s.negatives) == ast.literal_eval(r["neg_caption"])
    assert s.image_file == r["filepath"] and s.image_id == "562150"

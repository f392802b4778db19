from __future__ import annotations

import json

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.aro import read_aro_attribution, read_aro_relation
from tests.conftest import require_shared


@pytest.mark.parametrize(
    "reader, stem, expected",
    [(read_aro_attribution, "att", 28_748), (read_aro_relation, "rel", 23_937)],
)
def test_caption_lists_counts_match_the_files(reader, stem, expected):
    folder = require_shared("aro")
    trues = json.loads((folder / f"{stem}-original-true.json").read_text())
    falses = json.loads((folder / f"{stem}-original-false.json").read_text())
    drops = DropLog()
    samples = list(reader(folder, drops))
    assert len(samples) == len(trues) == len(falses) == expected
    assert len(drops) == 0
    assert samples[10].caption == trues[10] and samples[10].negatives == (falses[10],)
    # either file of the pair gives the same samples
    assert list(reader(folder / f"{stem}-original-false.json", DropLog()))[:5] == samples[:5]


def test_official_relation_records():
    path = require_shared("aro", "visual_genome_relation.first17.json")
    raw = json.loads(path.read_text())
    samples = list(read_aro_relation(path, DropLog()))
    assert len(samples) == len(raw) == 17
    s, r = samples[0], raw[0]
    assert (s.caption, s.negatives, s.image_id, s.image_file) == (
        r["true_caption"], (r["false_caption"],), str(r["image_id"]), r["image_path"],
    )  # fmt: skip
    assert s.bbox == (r["bbox_x"], r["bbox_y"], r["bbox_w"], r["bbox_h"])
    assert s.meta["relation_name"] == r["relation_name"]
    # ids are dataset positions, so both forms agree
    lists = list(read_aro_relation(path.parent, DropLog()))[:17]
    assert [x.id for x in lists] == [x.id for x in samples]
    assert [x.caption for x in lists] == [x.caption for x in samples]


def test_official_attribution_with_bad_records(tmp_path):
    good = {
        "image_id": 1, "true_caption": "the red car and the blue sky",
        "false_caption": "the blue car and the red sky", "attributes": ["red", "blue"],
        "bbox_x": 1, "bbox_y": 2, "bbox_w": 3, "bbox_h": 4, "image_path": "1.jpg",
    }  # fmt: skip
    path = tmp_path / "visual_genome_attribution.json"
    path.write_text(
        json.dumps([good, {"true_caption": "x", "false_caption": ""}, {"false_caption": "y"}, 5])
    )
    drops = DropLog()
    samples = list(read_aro_attribution(tmp_path, drops))
    assert len(samples) == 1 and samples[0].meta["attributes"] == ["red", "blue"]
    assert drops.to_dict()["aro_attribution"] == {
        "empty_caption": 1,
        "missing_caption": 1,
        "not_an_object": 1,
    }


def test_misaligned_or_missing_files(tmp_path):
    (tmp_path / "att-original-true.json").write_text(json.dumps(["a", "b"]))
    with pytest.raises(CrepeInputError, match="partner"):
        read_aro_attribution(tmp_path / "att-original-true.json", DropLog())
    (tmp_path / "att-original-false.json").write_text(json.dumps(["c"]))
    with pytest.raises(CrepeInputError, match="index-aligned"):
        list(read_aro_attribution(tmp_path, DropLog()))
    with pytest.raises(CrepeInputError, match="neither"):
        read_aro_relation(tmp_path, DropLog())
    (tmp_path / "rel-original-true.json").write_text('["a", "b"')
    (tmp_path / "rel-original-false.json").write_text('["a", "b"]')
    with pytest.raises(CrepeInputError, match="not valid JSON at line 1"):
        list(read_aro_relation(tmp_path, DropLog()))

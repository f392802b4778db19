from __future__ import annotations

import json

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.coco import read_coco_captions
from crepe_datasets.sources.corpus import iter_corpus
from tests.conftest import require_shared


def test_val2017_counts_match_the_file():
    path = require_shared("coco", "captions_val2017.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    drops = DropLog()
    records = list(iter_corpus(f"coco:{path}", drops))
    assert len(records) == len(raw["annotations"]) == 25_014
    assert len({r.image_id for r in records}) == len(raw["images"]) == 5_000
    assert len(drops) == 0
    first = raw["annotations"][0]
    assert records[0].text == first["caption"].strip()
    assert records[0].id == str(first["id"]) and records[0].image_id == str(first["image_id"])
    assert records[0].source == "coco:captions_val2017.json"


def test_minyus_sample_format():
    path = require_shared("coco", "minyus_samples", "captions_val2014.json_samples.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert len(list(read_coco_captions(path, DropLog()))) == len(raw["annotations"])


def test_bad_annotations_are_counted(tmp_path):
    path = tmp_path / "c.json"
    anns = [
        {"id": 1, "image_id": 5, "caption": " A dog. "},
        {"id": 2, "image_id": 5, "caption": "   "},
        {"id": 3, "image_id": 5, "caption": 17},
        {"id": 4, "image_id": 5},
        "not a dict",
    ]
    path.write_text(json.dumps({"images": [], "annotations": anns}))
    drops = DropLog()
    records = list(read_coco_captions(path, drops))
    assert [r.text for r in records] == ["A dog."]
    assert drops.to_dict()["coco"] == {
        "empty_caption": 1,
        "not_a_string": 1,
        "missing_caption": 1,
        "not_an_object": 1,
    }


@pytest.mark.parametrize(
    "content, message",
    [
        (
            b'{"annotations": [{"id": 1, "caption": "a"}, {"id": 2, "capt',
            "not valid JSON near byte",
        ),
        (b'{"annotations": [{"caption": "caf\xe9"}]}', "not valid JSON"),
        (b'{"images": []}', "no 'annotations'"),
        (b'[{"caption": "x"}]', "top level is not a JSON object"),
    ],
)
def test_broken_files_raise_one_clear_error(tmp_path, content, message):
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    with pytest.raises(CrepeInputError, match=message) as info:
        list(read_coco_captions(path, DropLog()))
    assert "broken.json" in str(info.value)

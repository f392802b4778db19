from __future__ import annotations

import json

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.corpus import iter_corpus


def test_jsonl_fields_and_counted_skips(tmp_path):
    path = tmp_path / "c.jsonl"
    lines = [
        json.dumps({"caption": "a dog", "image_id": 7, "id": "x1"}),
        json.dumps({"text": "a cat"}),
        "",
        '{"caption": "trunc',
        json.dumps(["not", "object"]),
        json.dumps({"caption": 3}),
        json.dumps({"caption": " "}),
        json.dumps({"other": "no caption"}),
    ]
    path.write_bytes(("\n".join(lines) + "\n").encode() + b'{"caption": "\xff"}\n')
    drops = DropLog()
    records = list(iter_corpus(f"jsonl:{path}", drops))
    assert [(r.text, r.id, r.image_id) for r in records] == [
        ("a dog", "x1", "7"),
        ("a cat", "2", None),
    ]
    assert drops.to_dict()["jsonl"] == {
        "invalid_json": 1,
        "not_an_object": 1,
        "not_a_string": 1,
        "empty_caption": 1,
        "missing_caption": 1,
        "invalid_utf8": 1,
    }
    chosen = list(iter_corpus(f"jsonl:{path}#other", DropLog()))
    assert [r.text for r in chosen] == ["no caption"]

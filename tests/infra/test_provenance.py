from __future__ import annotations

import hashlib

import pytest

from crepe_datasets.infra.provenance import (
    DropLog,
    atomic_directory,
    describe_inputs,
    write_json_atomic,
)


def test_drop_log_counts_merges_and_serialises():
    a, b = DropLog(), DropLog()
    a.drop("coco", "empty_caption", example="ann 1")
    a.drop("coco", "empty_caption", example="ann 2")
    b.drop("coco", "invalid_utf8", n=3)
    a.merge(b)
    assert a.to_dict() == {"coco": {"empty_caption": 2, "invalid_utf8": 3}}
    assert a.total() == 5 and len(a) == 5
    assert DropLog.from_dict(a.to_dict()).to_dict() == a.to_dict()
    assert a.examples_dict()["coco"]["empty_caption"] == ["ann 1", "ann 2"]


def test_describe_inputs_checksums_files_and_folders(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.txt").write_bytes(b"hello")
    files = describe_inputs([tmp_path / "d"])
    assert files[0].bytes == 5
    assert files[0].sha256 == hashlib.sha256(b"hello").hexdigest()


def test_atomic_directory_keeps_old_content_on_error(tmp_path):
    target = tmp_path / "ds"
    with atomic_directory(target) as tmp:
        write_json_atomic(tmp / "a.json", {"v": 1})
    with pytest.raises(RuntimeError), atomic_directory(target) as tmp:
        write_json_atomic(tmp / "a.json", {"v": 2})
        raise RuntimeError("interrupted")
    assert (target / "a.json").read_text().strip().endswith("}")
    assert '"v": 1' in (target / "a.json").read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["ds"]


def test_repairs_are_reported_beside_drops_not_in_them():
    log = DropLog()
    log.repair("vg", "object_box_clipped", n=2)
    log.drop("vg", "object_outside_image")
    assert log.total() == 1
    assert log.repairs_dict() == {"vg": {"object_box_clipped": 2}}
    again = DropLog.from_dict(log.to_dict(), log.repairs_dict())
    assert again.repairs_dict() == log.repairs_dict()

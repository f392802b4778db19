"""Run records of parse-corpus: a failed start never blocks a corrected rerun; a corpus is its
content, not the path it was named with; Ctrl-C ends the workers and leaves resumable state."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from crepe_datasets.builders.engines import InProcessEngine
from crepe_datasets.builders.seen_build import build_seen_tables
from crepe_datasets.infra.errors import CrepeInputError
from tests.builders.test_seen_tables import _Counting
from tests.conftest import REPO_ROOT, require_shared
from tests.interrupts import assert_ctrl_c_ends, child_pids


def _coco_sample(n: int) -> bytes:
    """The first ``n`` annotations of the real COCO val2017 captions, as a COCO captions file."""
    data = json.loads(require_shared("coco", "captions_val2017.json").read_text())
    anns = data["annotations"][:n]
    ids = {a["image_id"] for a in anns}
    images = [i for i in data["images"] if i["id"] in ids]
    return json.dumps({"images": images, "annotations": anns}).encode()


@pytest.mark.slow
def test_a_failed_start_does_not_block_the_corrected_rerun(tmp_path):
    good = _coco_sample(240)
    corpus = tmp_path / "captions.json"
    corpus.write_bytes(good[: int(len(good) * 0.8)])  # a truncated download
    out = tmp_path / "seen"
    with pytest.raises(CrepeInputError, match="not valid JSON"):
        build_seen_tables(f"coco:{corpus}", out, InProcessEngine(), shard_size=80, progress=False)
    record = json.loads((out / "shards" / "run.json").read_text())
    assert "not valid JSON" in record["failed"]
    assert list((out / "shards").glob("shard-*.json"))  # shards of the broken file were written
    corpus.write_bytes(good)  # the user downloads it again
    counting = _Counting()
    m = build_seen_tables(f"coco:{corpus}", out, counting, shard_size=80, progress=False)
    assert counting.tasks == 3 and m["counts"]["shards_skipped_on_resume"] == 0
    assert m["counts"]["captions_parsed"] == 240
    assert "failed" not in json.loads((out / "shards" / "run.json").read_text())


def test_a_corpus_that_yields_nothing_leaves_no_blocking_record(tmp_path):
    corpus = tmp_path / "captions.txt"
    corpus.write_text("12\n34\n")
    out = tmp_path / "seen"
    with pytest.raises(CrepeInputError, match="no_letters"):
        build_seen_tables(f"text:{corpus}", out, InProcessEngine(), progress=False)
    corpus.write_text("a dog on a re\x00d cou\u200bch\n")  # fixed, but with a NUL and a ZWSP
    m = build_seen_tables(f"text:{corpus}", out, InProcessEngine(), progress=False)
    assert m["counts"]["captions_parsed"] == 1
    assert m["repairs"] == {"text": {"control_chars": 1, "invisible_chars": 1}}
    assert m["tables"]["compounds_ao"] == 1  # (red, couch), not (re d, cou ch)


def test_the_same_corpus_by_another_path_is_the_same_corpus(tmp_path, monkeypatch):
    corpus = tmp_path / "data" / "captions.json"
    corpus.parent.mkdir()
    corpus.write_bytes(_coco_sample(90))
    (tmp_path / "link.json").symlink_to(corpus)
    out = tmp_path / "seen"
    monkeypatch.chdir(tmp_path)
    first = build_seen_tables(
        "coco:data/captions.json", out, InProcessEngine(), shard_size=30, progress=False
    )
    assert first["counts"]["shards"] == 3
    for spec in (
        f"coco:{corpus}",
        f"coco:{tmp_path / 'link.json'}",
        "coco:./data/../data/captions.json",
    ):
        counting = _Counting()
        again = build_seen_tables(spec, out, counting, shard_size=30, progress=False)
        assert counting.tasks == 0 and again["counts"]["shards_skipped_on_resume"] == 3, spec
        assert again["tables"] == first["tables"]
    other = tmp_path / "other.json"
    other.write_bytes(_coco_sample(60))
    with pytest.raises(
        CrepeInputError, match=r"3 finished shard\(s\) of another corpus .*inputs_sha256"
    ):
        build_seen_tables(f"coco:{other}", out, InProcessEngine(), shard_size=30, progress=False)


@pytest.mark.slow
def test_ctrl_c_ends_parse_corpus_workers_included_and_the_rerun_resumes(tmp_path):
    data = json.loads(require_shared("coco", "captions_val2017.json").read_text())
    corpus = tmp_path / "captions.txt"
    corpus.write_text("\n".join(a["caption"].strip() for a in data["annotations"][:2400]) + "\n")
    out = tmp_path / "seen"
    cmd = [sys.executable, "-m", "crepe_datasets", "parse-corpus", "--corpus", f"text:{corpus}",
           "--out", str(out), "--workers", "2", "--shard-size", "200", "--quiet"]  # fmt: skip
    proc = subprocess.Popen(
        cmd, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    started = time.time()
    while not list((out / "shards").glob("shard-*.json")) and time.time() - started < 240:
        time.sleep(0.2)
    workers = child_pids(proc.pid)
    assert workers, "no worker process was started"
    assert_ctrl_c_ends(proc, workers)
    done = len(list((out / "shards").glob("shard-*.json")))
    assert done >= 1
    counting = _Counting()
    m = build_seen_tables(f"text:{corpus}", out, counting, shard_size=200, progress=False)
    assert m["counts"]["shards_skipped_on_resume"] == done and counting.tasks == 12 - done
    assert m["counts"]["captions_parsed"] == 2400

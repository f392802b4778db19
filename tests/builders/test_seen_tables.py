"""Corpus parsing into seen tables: counts, robustness, resume, engines (issue 3, parts 4-5)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from crepe_datasets.builders.engines import InProcessEngine, make_engine
from crepe_datasets.builders.seen_build import build_seen_tables
from crepe_datasets.builders.seen_clean import clean_caption
from crepe_datasets.builders.seen_tables import ShardCounts
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject
from tests.conftest import require_shared

CAPTIONS = [
    "a small white dog on a red couch",
    "two men riding horses on the beach",
    "a small white dog on a red couch",  # exact duplicate
    "a woman in a blue shirt holding an umbrella",
    "trees and bushes growing on a green lawn",
    "a cat sitting next to a laptop",
]
ODD = [
    "",  # empty line: the text reader drops it
    "<b>a black cat</b> on a &amp; mat",  # html: stripped, kept
    "a dog 😀 on the grass",  # emoji: removed, kept
    "一只狗坐在沙发上",  # not English: dropped
    "!!!",  # no letter: dropped by the reader (no_letters)
    "a long caption about a dog " * 40,  # too long: truncated, kept
]


def test_counts_and_bindings() -> None:
    g = SceneGraph(
        [SGObject(0, "dog", ("small", "white", "2")), SGObject(1, "couch", ("red",))],
        [Relationship(0, "on", 1)],
    )
    c = ShardCounts()
    c.add_graph(g, times=3)
    assert c.atoms[("object", "dog")] == 3 and c.atoms[("relationship", "on")] == 3
    assert c.compounds_oro[("dog", "on", "couch")] == 3
    assert c.perfect == Counter({("red", "couch"): 3})
    assert c.close == Counter({("small", "dog"): 3, ("white", "dog"): 3})
    again = ShardCounts.from_json(json.loads(json.dumps(c.to_json())))
    assert again.compounds_ao == c.compounds_ao and again.close == c.close


def test_clean_caption_robustness() -> None:
    drops, counts = DropLog(), Counter()
    assert clean_caption("<i>red</i> car &amp; bus", drops, counts) == "red car & bus"
    assert clean_caption("a dog 🐶 running", drops, counts) == "a dog running"
    assert clean_caption("un chien et le chat dans la maison", drops, counts) is None
    assert clean_caption("狗在沙发上", drops, counts) is None
    assert clean_caption("bad \udcff bytes", drops, counts) is None
    assert clean_caption("  ", drops, counts) is None
    long = clean_caption("word " * 200, drops, counts, max_chars=50)
    assert long is not None and len(long) <= 50
    assert counts == Counter({"html": 1, "emoji": 1, "truncated": 1})
    assert drops.to_dict() == {"seen_tables": {"empty": 1, "invalid_utf8": 1, "non_english": 2}}


def _corpus(tmp_path: Path, lines: list[str], invalid: bool = False) -> str:
    path = tmp_path / "captions.txt"
    data = "\n".join(lines).encode("utf-8")
    if invalid:
        data += b"\na caf\xe9 table with a cup\n"
    path.write_bytes(data)
    return f"text:{path}"


def test_build_tables_and_manifest(tmp_path: Path) -> None:
    spec = _corpus(tmp_path, CAPTIONS + ODD, invalid=True)
    m = build_seen_tables(spec, tmp_path / "seen", InProcessEngine(), shard_size=4, progress=False)
    out = tmp_path / "seen"
    assert {p.name for p in out.iterdir()} >= {
        "atoms.parquet",
        "compounds_ao.parquet",
        "compounds_oro.parquet",
        "bindings.parquet",
        "manifest.json",
    }
    assert m["inputs"][0]["sha256"] and m["parser_version"] and m["spacy_model"]
    assert m["cleaning"] == {"emoji": 1, "html": 1, "truncated": 1}
    drops = {r for reasons in m["drops"].values() for r in reasons}
    assert {"non_english", "no_letters", "invalid_utf8"} <= drops
    assert m["counts"]["captions_parsed"] == 9 and m["counts"]["shards"] == 3
    ao = pd.read_parquet(out / "compounds_ao.parquet")
    assert ao.set_index(["attribute", "object"])["count"][("red", "couch")] == 2
    bindings = pd.read_parquet(out / "bindings.parquet").set_index(["attr", "obj"])
    assert bindings.loc[("red", "couch"), "perfect_count"] == 2
    assert bindings.loc[("small", "dog"), "close_count"] == 2
    oro = pd.read_parquet(out / "compounds_oro.parquet")
    assert ((oro.subject == "bush") & (oro.predicate == "grow on")).any()


class _Dies(InProcessEngine):
    """Parses ``n`` shards, then dies like a killed run."""

    def __init__(self, n: int) -> None:
        self.n = n

    def imap(self, fn, tasks):
        for k, result in enumerate(super().imap(fn, tasks)):
            if k == self.n:
                raise KeyboardInterrupt
            yield result


class _Counting(InProcessEngine):
    def __init__(self) -> None:
        self.tasks = 0

    def imap(self, fn, tasks):
        for task in tasks:
            self.tasks += 1
            yield fn(*task)


def test_resume_skips_finished_shards(tmp_path: Path) -> None:
    spec = _corpus(tmp_path, CAPTIONS * 2)
    with pytest.raises(KeyboardInterrupt):
        build_seen_tables(spec, tmp_path / "seen", _Dies(2), shard_size=3, progress=False)
    assert len(list((tmp_path / "seen" / "shards").glob("shard-*.json"))) == 2
    counting = _Counting()
    m = build_seen_tables(spec, tmp_path / "seen", counting, shard_size=3, progress=False)
    assert counting.tasks == 2 and m["counts"]["shards_skipped_on_resume"] == 2
    fresh = build_seen_tables(
        spec, tmp_path / "fresh", InProcessEngine(), shard_size=3, progress=False
    )
    assert fresh["tables"] == m["tables"]
    for name in ("atoms", "compounds_ao", "compounds_oro", "bindings"):
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "seen" / f"{name}.parquet"),
            pd.read_parquet(tmp_path / "fresh" / f"{name}.parquet"),
        )


@pytest.mark.slow
def test_dask_local_cluster_gives_identical_tables(tmp_path: Path) -> None:
    coco = json.loads(require_shared("coco", "captions_val2017.json").read_text())
    lines = [a["caption"].strip() for a in coco["annotations"][:240]]
    spec = _corpus(tmp_path, lines)
    build_seen_tables(spec, tmp_path / "one", InProcessEngine(), shard_size=60, progress=False)
    with make_engine("dask", 1) as eng:  # a LocalCluster worker process
        m = build_seen_tables(spec, tmp_path / "dask", eng, shard_size=60, progress=False)
    assert m["settings"]["engine"] == "dask"
    for name in ("atoms", "compounds_ao", "compounds_oro", "bindings"):
        ref = (tmp_path / "one" / f"{name}.parquet").read_bytes()
        assert (tmp_path / "dask" / f"{name}.parquet").read_bytes() == ref

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources import laion
from crepe_datasets.sources.corpus import corpus_files, iter_corpus
from tests.conftest import require_shared


def test_laion_like_counts_match_the_file():
    path = require_shared("laion_like", "test_10000.parquet")
    meta = pq.ParquetFile(path).metadata
    drops = DropLog()
    records = list(iter_corpus(f"laion:{path.parent}/*.parquet", drops))
    # Six captions of the real file hold U+FFFD (bytes an earlier tool could not decode): the
    # input hygiene drops them as invalid_utf8; ten hold invisible characters, removed. One
    # "caption" is a number (0.3289…, a similarity score in the caption column): no_letters.
    assert len(records) + len(drops) == meta.num_rows == 10_000
    assert drops.to_dict() == {"laion": {"invalid_utf8": 6, "no_letters": 1}}
    assert drops.repairs_dict() == {"laion": {"invisible_chars": 10}}
    assert not any("\ufffd" in r.text or not r.text.isprintable() for r in records)
    table = pq.read_table(path, columns=["TEXT", "URL"])
    assert records[5].text == table.column("TEXT")[5].as_py().strip()
    assert records[5].image_id == table.column("URL")[5].as_py()
    assert corpus_files(f"laion:{path.parent}") == [path]


def test_many_shards_batches_and_column_choice(tmp_path, monkeypatch):
    monkeypatch.setattr(laion, "BATCH_ROWS", 2)
    for i in range(2):
        table = pa.table({"caption": [f"cap {i}-{j}" for j in range(5)], "other": list(range(5))})
        pq.write_table(table, tmp_path / f"part-{i}.parquet")
    records = list(iter_corpus(f"laion:{tmp_path}/part-*.parquet", DropLog()))
    assert [r.id for r in records][:6] == [
        "part-0:0",
        "part-0:1",
        "part-0:2",
        "part-0:3",
        "part-0:4",
        "part-1:0",
    ]
    assert len(records) == 10 and records[-1].text == "cap 1-4"
    with pytest.raises(CrepeInputError, match="no caption column missing"):
        list(iter_corpus(f"laion:{tmp_path}/part-0.parquet#missing", DropLog()))


def test_bad_values_are_counted(tmp_path):
    table = pa.table({"TEXT": pa.array([b"ok", b"\xff\xfe", b"  ", None], type=pa.binary())})
    pq.write_table(table, tmp_path / "t.parquet")
    drops = DropLog()
    records = list(laion.read_laion_parquet(tmp_path / "t.parquet", drops))
    assert [r.text for r in records] == ["ok"]
    assert drops.to_dict()["laion"] == {"invalid_utf8": 1, "empty_caption": 1, "missing_caption": 1}


def test_missing_files_and_non_parquet(tmp_path):
    with pytest.raises(CrepeInputError, match="matches no file"):
        iter_corpus(f"laion:{tmp_path}/nothing-*.parquet", DropLog())
    with pytest.raises(CrepeInputError, match=r"no \*\.parquet"):
        iter_corpus(f"laion:{tmp_path}", DropLog())
    bad = tmp_path / "x.parquet"
    bad.write_bytes(b"not parquet at all")
    with pytest.raises(CrepeInputError, match="not a readable parquet"):
        list(iter_corpus(f"laion:{bad}", DropLog()))

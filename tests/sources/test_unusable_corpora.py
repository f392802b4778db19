"""A corpus that yields nothing usable is one clear error naming the likely cause, not an empty table.

Every case starts from a real file of ../shared/data, made malformed by the test.
"""

from __future__ import annotations

import gzip

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.corpus import iter_corpus
from tests.conftest import require_shared


def _cc_rows(n: int = 200) -> list[list[str]]:
    path = require_shared("cc3m", "Validation_GCC-1.1.0-Validation.tsv")
    lines = path.read_text(encoding="utf-8").splitlines()[:n]
    return [line.split("\t") for line in lines]


def _read(spec: str) -> list:
    return list(iter_corpus(spec, DropLog()))


def test_swapped_columns_name_the_cause(tmp_path):
    swapped = tmp_path / "swapped.tsv"
    swapped.write_text("".join(f"{url}\t{caption}\n" for caption, url in _cc_rows()))
    with pytest.raises(CrepeInputError, match=r"caption_is_url.*columns swapped"):
        _read(f"cc:{swapped}")


def test_an_id_column_read_as_the_caption_names_the_cause(tmp_path):
    ids = tmp_path / "ids.tsv"
    ids.write_text("".join(f"{i}\t{url}\t{cap}\n" for i, (cap, url) in enumerate(_cc_rows())))
    with pytest.raises(CrepeInputError, match=r"200 × cc/no_letters.*id column"):
        _read(f"cc:{ids}")


def test_binary_and_empty_files(tmp_path):
    binary = tmp_path / "captions.tsv"
    real = require_shared("cc3m", "Validation_GCC-1.1.0-Validation.tsv").read_bytes()
    binary.write_bytes(gzip.compress(real[:200_000]))
    for kind in ("cc", "text", "jsonl"):
        with pytest.raises(CrepeInputError, match="looks like a binary file"):
            _read(f"{kind}:{binary}")
    empty = tmp_path / "empty.tsv"
    empty.write_bytes(b"")
    with pytest.raises(CrepeInputError, match="yielded no caption: the file is empty"):
        _read(f"cc:{empty}")


def _laion_table():
    path = require_shared("laion_like", "test_10000.parquet")
    return pq.read_table(path).slice(0, 500)


def test_parquet_integer_text_column(tmp_path):
    table = _laion_table()
    table = table.set_column(
        table.schema.get_field_index("TEXT"), "TEXT", pa.array(range(len(table)), pa.int64())
    )
    pq.write_table(table, tmp_path / "ints.parquet")
    with pytest.raises(CrepeInputError, match=r"column TEXT .* holds int64 values, not text"):
        _read(f"laion:{tmp_path / 'ints.parquet'}")


@pytest.mark.parametrize("kind", [pa.string(), pa.null()])
def test_parquet_all_null_text_column(tmp_path, kind):
    table = _laion_table()
    table = table.set_column(
        table.schema.get_field_index("TEXT"), "TEXT", pa.nulls(len(table), kind)
    )
    pq.write_table(table, tmp_path / "nulls.parquet")
    with pytest.raises(CrepeInputError, match="500 × laion/missing_caption"):
        _read(f"laion:{tmp_path / 'nulls.parquet'}")


def test_control_and_invisible_characters_are_removed_from_captions(tmp_path):
    rows = _cc_rows(50)
    poisoned = tmp_path / "poisoned.tsv"
    poisoned.write_text(
        "".join(f"{c[:3]}\x00{c[3:]}\u200b\t{url}\n" for c, url in rows), encoding="utf-8"
    )
    drops = DropLog()
    records = list(iter_corpus(f"cc:{poisoned}", drops))
    assert [r.text for r in records] == [c.strip() for c, _ in rows]
    assert drops.repairs_dict() == {"cc": {"control_chars": 50, "invisible_chars": 50}}

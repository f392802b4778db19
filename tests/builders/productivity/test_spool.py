"""Rows spooled to parquet parts read back as a sequence, in order."""

from __future__ import annotations

import pyarrow as pa

from crepe_datasets.builders.productivity.spool import SpooledRows


def test_append_len_slices_and_iteration(tmp_path):
    schema = pa.schema([("i", pa.int64()), ("s", pa.list_(pa.string()))])
    rows = SpooledRows(tmp_path / "spool", schema, buffer_rows=3)
    for i in range(10):
        rows.append({"i": i, "s": [str(i)] * (i % 3)})
    assert len(rows) == 10 and len(rows.parts) == 3 and len(rows.buffer) == 1
    assert [r["i"] for r in rows] == list(range(10))
    assert [r["i"] for r in rows[2:8]] == [2, 3, 4, 5, 6, 7]
    assert [r["i"] for r in rows[8:20]] == [8, 9]
    assert rows[4] == {"i": 4, "s": ["4"]} and rows[-1]["i"] == 9
    assert [r["i"] for r in rows[0:10:4]] == [0, 4, 8]
    rows.flush()
    assert len(rows.parts) == 4 and [r["i"] for r in rows[:1000]] == list(range(10))

"""`crepe demo` builds crepe-productivity from the bundled inputs, images embedded."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.demo_data import write_demo_inputs
from crepe_datasets.builders.productivity.demo import build_demo

pytestmark = pytest.mark.slow


def test_demo_build(tmp_path):
    inputs = write_demo_inputs(tmp_path / "inputs", seed=0)
    manifest = build_demo(inputs, tmp_path / "crepe-productivity", 0)
    assert manifest.counts["hn_atom"]["complexity_4"] > 0
    assert (
        manifest.validation["invariants"]["passed"] and manifest.validation["shortcuts"]["passed"]
    )
    import pyarrow.parquet as pq

    table = pq.read_table(
        tmp_path / "crepe-productivity" / "data" / "raw" / "complexity_4-00000-of-00001.parquet"
    )
    assert (
        "image" in table.column_names and table.num_rows == manifest.counts["raw"]["complexity_4"]
    )

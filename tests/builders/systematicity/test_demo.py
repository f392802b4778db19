"""`crepe demo` builds crepe-systematicity from the bundled inputs: splits, negatives, images."""

from __future__ import annotations

import pytest
from datasets import load_dataset

from crepe_datasets.builders.demo_data import write_demo_inputs
from crepe_datasets.builders.systematicity.demo import build_demo

pytestmark = pytest.mark.slow


def test_demo_build(tmp_path):
    inputs = write_demo_inputs(tmp_path / "inputs", seed=0)
    out = tmp_path / "crepe-systematicity"
    manifest = build_demo(inputs, out, 0)
    assert manifest.counts["raw"]["seen_compounds"] > 0
    assert manifest.counts["raw"]["unseen_compounds"] > 0
    assert manifest.counts["hn_comp"]["seen_compounds"] > 0
    assert manifest.validation["invariants"]["passed"]
    assert manifest.validation["shortcuts"]["passed"]
    rows = load_dataset(str(out), "hn_comp", split="seen_compounds")
    assert (
        "image" in rows.column_names and len(rows) == manifest.counts["hn_comp"]["seen_compounds"]
    )
    assert (tmp_path / "cache" / "systematicity").is_dir()  # the parsed demo corpus is cached

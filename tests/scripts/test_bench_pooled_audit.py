"""``scripts/bench/pooled_trained_audit.py``: the build's trained audit over several builds."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from crepe_datasets.validation.trained_blind import MIN_SETS
from tests.builders.counter_images.conftest import groups_build  # noqa: F401 (fixture)
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # a systematicity build


def test_builds_are_pooled_with_their_images_as_folds(groups_build, tmp_path) -> None:  # noqa: F811
    copy = tmp_path / "copy"
    shutil.copytree(groups_build / "data", copy / "data")
    rows = sum(
        pq.read_metadata(p).num_rows for p in (groups_build / "data" / "hn_atom").glob("*.parquet")
    )
    script = REPO_ROOT / "scripts" / "bench" / "pooled_trained_audit.py"
    done = subprocess.run(
        [sys.executable, str(script), "hn_atom", str(groups_build), str(copy)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert report["sets"] == 2 * rows  # every set of both builds
    images = {str(r["image_id"]) for p in (groups_build / "data" / "hn_atom").glob("*.parquet")
              for r in pq.read_table(p).to_pylist()}  # fmt: skip
    assert report["images"] == len(images)  # a copy's sets share their image's fold
    assert report["judged"] == (2 * rows >= MIN_SETS)
    missing = subprocess.run(
        [sys.executable, str(script), "hn_atom", str(tmp_path / "none")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert missing.returncode != 0 and "no hn_atom rows" in missing.stderr

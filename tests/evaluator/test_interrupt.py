"""Ctrl-C during `crepe evaluate` with DataLoader workers: exit 130, no traceback, no worker left
behind, no results file written."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from crepe_datasets.builders.demo_data import write_demo_inputs
from crepe_datasets.builders.productivity.demo import build_demo
from crepe_datasets.evaluator.tiny import write_tiny_open_clip
from tests.conftest import REPO_ROOT
from tests.interrupts import assert_ctrl_c_ends, child_pids

pytestmark = pytest.mark.slow


def test_ctrl_c_ends_evaluate_and_its_dataloader_workers(tmp_path) -> None:
    inputs = write_demo_inputs(tmp_path / "inputs", seed=0)
    build_demo(inputs, tmp_path / "crepe-productivity", 0)  # 166 images embedded as crops
    model = write_tiny_open_clip(tmp_path / "model")
    out = tmp_path / "results"
    cmd = [sys.executable, "-m", "crepe_datasets", "evaluate", "--model", f"open_clip:{model}",
           "--dataset", str(tmp_path / "crepe-productivity"), "--images", str(inputs / "images"),
           "--out", str(out), "--device", "cpu", "--batch-size", "1", "--workers", "2",
           "--no-cache", "--bootstrap", "10"]  # fmt: skip
    proc = subprocess.Popen(
        cmd, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    started, workers = time.time(), []
    while len(workers) < 2 and proc.poll() is None and time.time() - started < 120:
        workers = child_pids(proc.pid)
        time.sleep(0.05)
    assert len(workers) >= 2, "the DataLoader workers never started"
    assert_ctrl_c_ends(proc, workers)
    assert not out.exists() or not any(out.iterdir())

"""Ctrl-C as a terminal sends it, for tests of commands that run worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import psutil


def child_pids(pid: int) -> list[int]:
    """The process's descendants (pool, Dask or DataLoader workers)."""
    try:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def assert_ctrl_c_ends(proc: subprocess.Popen, workers: list[int], within_s: float = 10) -> None:
    """SIGINT to ``proc``'s process group; assert it ends within ``within_s`` with status 130,
    "aborted" and no traceback on stderr, and that none of ``workers`` is left running."""
    os.killpg(proc.pid, signal.SIGINT)
    interrupted = time.time()
    try:
        _, err = proc.communicate(timeout=max(20, 2 * within_s))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert time.time() - interrupted < within_s
    assert proc.returncode == 130
    text = err.decode()
    assert "Traceback" not in text and text.strip().endswith("aborted"), text[-2000:]
    time.sleep(0.5)
    assert not [
        p for p in workers if psutil.pid_exists(p) and psutil.Process(p).status() != "zombie"
    ]

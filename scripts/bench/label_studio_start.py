"""Time to a ready Label Studio server (two annotator accounts + owner) for the round-trip tests.

Measured: the tests' way (copy the migrated template database that ``make label-studio`` makes,
then ``label-studio init`` for each annotator and ``label-studio start``) against the baseline
of the same steps on an empty data folder (every migration runs at the first command). Both in
the same run, on the same machine; then the round trip's own speed on the ready server: tasks
pushed per second and annotations submitted per second (through the API, one call each).

    .venv/bin/python scripts/bench/label_studio_start.py [--tasks 100]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LS_BIN = Path(os.environ.get("CREPE_LABEL_STUDIO", REPO / ".ls-venv" / "bin" / "label-studio"))
ACCOUNTS = [("a1@crepe.test", "bench-pass-1", "bench-token-0001"),
            ("a2@crepe.test", "bench-pass-2", "bench-token-0002")]  # fmt: skip
OWNER = ("owner@crepe.test", "bench-pass-0", "bench-token-0000")


def _account(email: str, password: str, token: str) -> list[str]:
    return ["--username", email, "--password", password, "--user-token", token]


def start(data: Path) -> tuple[float, subprocess.Popen, str]:
    """Create the accounts and start a server on ``data``; seconds until /health answers."""
    began = time.perf_counter()
    env = {**os.environ, "LABEL_STUDIO_BASE_DATA_DIR": str(data), "LOG_LEVEL": "WARNING"}
    common = ["--data-dir", str(data), "--enable-legacy-api-token"]
    for account in ACCOUNTS:
        subprocess.run([str(LS_BIN), "init", "-q", *_account(*account), *common],
                       env=env, check=True, capture_output=True)  # fmt: skip
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [str(LS_BIN), "start", "--no-browser", "--internal-host", "127.0.0.1", "--port", str(port),
         *_account(*OWNER), *common],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2):
                break
        except OSError:
            if proc.poll() is not None:
                sys.exit("label-studio exited during start")
            time.sleep(0.25)
    return time.perf_counter() - began, proc, url


def stop(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=60)


def round_trip_speed(url: str, n_tasks: int) -> tuple[float, float]:
    """Tasks pushed per second (one import call) and annotations created per second."""
    from label_studio_sdk import LabelStudio

    sys.path.insert(0, str(REPO))
    from crepe_datasets.validation.annotation.tasks import label_config

    owner = LabelStudio(base_url=url, api_key=OWNER[2])
    project = owner.projects.create(title="bench project", label_config=label_config())
    tasks = [{"data": {"item_id": f"i{i}", "image": "https://example.org/x.jpg", "text": f"t {i}",
                       "question": "q", "kind": "caption"}} for i in range(n_tasks)]  # fmt: skip
    t0 = time.perf_counter()
    ids = owner.projects.import_tasks(id=project.id, request=tasks, return_task_ids=True).task_ids
    push = n_tasks / (time.perf_counter() - t0)
    annotator = LabelStudio(base_url=url, api_key=ACCOUNTS[0][2])
    result = [{"from_name": "judgement", "to_name": "text", "type": "choices",
               "value": {"choices": ["yes"]}}]  # fmt: skip
    t0 = time.perf_counter()
    for task_id in ids:
        annotator.annotations.create(id=task_id, result=result)
    return push, n_tasks / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=100)
    args = parser.parse_args()
    template = LS_BIN.parent.parent / "template"
    if not LS_BIN.exists() or not template.is_dir():
        sys.exit(f"no Label Studio at {LS_BIN} with a template database: run `make label-studio`")
    with tempfile.TemporaryDirectory() as tmp:
        fresh, copied = Path(tmp) / "fresh", Path(tmp) / "copied"
        fresh.mkdir()
        shutil.copytree(template, copied)
        baseline, proc, _ = start(fresh)
        stop(proc)
        ours, proc, url = start(copied)
        try:
            push, annotate = round_trip_speed(url, args.tasks)
        finally:
            stop(proc)
    print("Label Studio ready with 2 annotators + owner (machine shared with other jobs):")
    print(f"  template database copied (tests):  {ours:6.1f} s")
    print(
        f"  empty data folder (baseline):      {baseline:6.1f} s   ({baseline / ours:.1f}x slower)"
    )
    print(f"push:     {push:7.1f} tasks/s ({args.tasks} tasks, one import call)")
    print(f"annotate: {annotate:7.1f} annotations/s (one API call each)")


if __name__ == "__main__":
    main()

"""A real Label Studio server on 127.0.0.1 for the round-trip tests (one per test session).

Label Studio lives in its own virtualenv (``make label-studio`` → ``.ls-venv``, or the
``label-studio`` executable named by ``$CREPE_LABEL_STUDIO``); it is missing → the tests fail
under CI and skip elsewhere. The fixture copies the migrated template database made by the make
target into a temporary data folder, creates two annotator accounts and the owner with Label
Studio's own CLI (``label-studio init`` / ``start --username``), starts the server on a free
port, waits for ``/health``, and always stops it at the end.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from crepe_datasets.scripts.cli import main
from tests.conftest import REPO_ROOT, require_shared

LS_BIN = Path(os.environ.get("CREPE_LABEL_STUDIO", REPO_ROOT / ".ls-venv" / "bin" / "label-studio"))
OWNER = ("owner@crepe.test", "owner-password-1", "crepe-owner-token-0001")
ANNOTATORS = (
    ("annotator1@crepe.test", "annotator-password-1", "crepe-annotator-token-0001"),
    ("annotator2@crepe.test", "annotator-password-2", "crepe-annotator-token-0002"),
)
START_TIMEOUT_S = 240


@dataclass(frozen=True)
class LabelStudioServer:
    """A running server: its URL, the owner's token and each annotator's token."""

    url: str
    token: str
    annotator_tokens: tuple[str, ...]
    log: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def _account(email: str, password: str, token: str) -> list[str]:
    return ["--username", email, "--password", password, "--user-token", token]


@pytest.fixture(scope="session")
def label_studio(tmp_path_factory) -> LabelStudioServer:
    """Start Label Studio with two annotator accounts; stop it after the session."""
    if not LS_BIN.exists():
        message = f"Label Studio is not installed at {LS_BIN} (run `make label-studio`)"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    data = tmp_path_factory.mktemp("label-studio")
    template = LS_BIN.parent.parent / "template"
    if template.is_dir():
        shutil.copytree(template, data, dirs_exist_ok=True)
    env = {**os.environ, "LABEL_STUDIO_BASE_DATA_DIR": str(data), "LOG_LEVEL": "WARNING"}
    common = ["--data-dir", str(data), "--enable-legacy-api-token"]
    for account in ANNOTATORS:
        subprocess.run(
            [str(LS_BIN), "init", "-q", *_account(*account), *common],
            env=env, check=True, capture_output=True, timeout=START_TIMEOUT_S,
        )  # fmt: skip
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = data / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(LS_BIN), "start", "--no-browser", "--internal-host", "127.0.0.1",
             "--port", str(port), *_account(*OWNER), *common],
            env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _ready(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(errors="replace")[-2000:]
                pytest.fail(f"Label Studio did not start at {url}:\n{tail}")
            time.sleep(0.5)
        yield LabelStudioServer(url, OWNER[2], tuple(a[2] for a in ANNOTATORS), log)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@pytest.fixture(scope="session")
def productivity_build(tmp_path_factory) -> Path:
    """The productivity build of the 100 real Visual Genome images (``--no-nli --seed 0``)."""
    vg = require_shared("visual_genome", "images_1-100")
    out = tmp_path_factory.mktemp("built") / "crepe-productivity"
    args = ["build", "productivity", "--vg", str(vg), "--no-nli", "--seed", "0", "--out", str(out)]
    assert main(args) == 0
    return out

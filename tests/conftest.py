"""Shared fixtures: where the real public samples are, and how to treat their absence.

Tests that read ``../shared/data`` use the ``shared_data`` fixture. Under CI (``CI=true``) a
missing folder fails the test; elsewhere it skips with a message naming the folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("CREPE_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))


def require_shared(*parts: str) -> Path:
    """Path under the shared data folder; fail under CI, skip elsewhere, when it is missing."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        message = f"real sample {path} is missing (set CREPE_SHARED_DATA or provide ../shared/data)"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture
def shared_data() -> Path:
    """The folder of real public samples (``../shared/data``)."""
    return require_shared()

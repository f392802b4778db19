"""Shared fixtures: where the real public samples are, and how to treat their absence.

Tests that read ``../shared/data`` use the ``shared_data`` fixture. Under CI (``CI=true``) a
missing folder fails the test; elsewhere it skips with a message naming the folder.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

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


def copy_vg_sample(tmp_path: Path) -> Path:
    """A copy of the real Visual Genome sample (images 1-100), so nothing can touch the original."""
    src = require_shared("visual_genome", "images_1-100")
    dst = tmp_path / "vg"
    dst.mkdir()
    for name in ("scene_graphs.json", "image_data.json", "region_descriptions.json"):
        shutil.copy(src / name, dst / name)
    return dst


def unwritable_target(tmp_path: Path, name: str) -> str:
    """A path below a folder that cannot be written (root writes through permission bits, so
    for root a place below ``/proc``)."""
    if os.geteuid() == 0:
        return f"/proc/crepe-no-such-dir/{name}"
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    return str(locked / name)


def assert_validate_reruns_the_build(folder: Path, **inputs: Any) -> dict[str, Any]:
    """``crepe validate dataset`` on a built folder reports every check its build recorded in the
    manifest's ``validation`` (those with a ``passed``), each with the same result; returns them."""
    import crepe_datasets.builders.checks  # noqa: F401  (registers every builder's checks)
    from crepe_datasets.validation.dataset import validate_dataset

    manifest = json.loads((folder / "build_manifest.json").read_text(encoding="utf-8"))
    recorded = {
        k: v for k, v in manifest["validation"].items() if isinstance(v, dict) and "passed" in v
    }
    result = validate_dataset(folder, **inputs)
    assert result.kind_registered, manifest["dataset"]
    assert json.loads(json.dumps(result.recorded_checks())) == recorded
    return recorded


@pytest.fixture
def shared_data() -> Path:
    """The folder of real public samples (``../shared/data``)."""
    return require_shared()


SEEN_CORPUS = ("coco", "minyus_samples", "captions_val2014.json_samples.json")


@pytest.fixture(scope="module")
def seen_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seen tables of the 100-caption COCO sample, made by parse-corpus's builder."""
    from crepe_datasets.builders.engines import InProcessEngine
    from crepe_datasets.builders.seen_build import build_seen_tables

    corpus = require_shared(*SEEN_CORPUS)
    out = tmp_path_factory.mktemp("seen")
    build_seen_tables(f"coco:{corpus}", out, InProcessEngine(), progress=False)
    return out

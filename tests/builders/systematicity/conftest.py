"""Shared fixtures: one small real build (VG images 1-100 sample, COCO val2014 sample corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import require_shared

VG = ("visual_genome", "images_1-100")


@pytest.fixture(scope="module")
def small_build(tmp_path_factory: pytest.TempPathFactory, seen_folder: Path):
    """A crepe-systematicity build of the first 30 images of the VG sample."""
    from crepe_datasets.builders.systematicity.build import (
        SystematicitySettings,
        build_systematicity,
    )

    vg = require_shared(*VG)
    out = tmp_path_factory.mktemp("build") / "syst"
    settings = SystematicitySettings(
        vg=str(vg), out=str(out), seen=str(seen_folder), limit=30, progress=False
    )
    folder, manifest = build_systematicity(settings)
    return settings, folder, manifest

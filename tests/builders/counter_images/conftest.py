"""Shared fixtures: the counter pool of the real VG sample (images 1-100) and FACTUAL, and a
small systematicity build with its ``groups`` config."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import require_shared

VG = ("visual_genome", "images_1-100")
FACTUAL = ("factual", "factual_sg", "factual_sg.csv")
CORPUS = ("coco", "minyus_samples", "captions_val2014.json_samples.json")


@pytest.fixture(scope="module")
def pool_index(tmp_path_factory: pytest.TempPathFactory):
    """The index of VG 1-100 + FACTUAL, built into a temporary cache."""
    from crepe_datasets.builders.counter_images.index import open_index

    cache = tmp_path_factory.mktemp("cache")
    index, info = open_index(str(require_shared(*VG)), [str(require_shared(*FACTUAL))], str(cache))
    yield index, info, cache
    index.close()


@pytest.fixture(scope="module")
def groups_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A systematicity build of the first 40 VG images with ``--counter-pool`` FACTUAL."""
    from crepe_datasets.builders.engines import InProcessEngine
    from crepe_datasets.builders.seen_build import build_seen_tables
    from crepe_datasets.builders.systematicity.build import (
        SystematicitySettings,
        build_systematicity,
    )

    seen = tmp_path_factory.mktemp("seen")
    build_seen_tables(f"coco:{require_shared(*CORPUS)}", seen, InProcessEngine(), progress=False)
    root = tmp_path_factory.mktemp("build")
    settings = SystematicitySettings(
        vg=str(require_shared(*VG)), out=str(root / "syst"), seen=str(seen), limit=40,
        progress=False, counter_pool=(str(require_shared(*FACTUAL)),),
        cache_dir=str(root / "cache"),
    )  # fmt: skip
    out, _ = build_systematicity(settings)
    return out


@pytest.fixture(scope="module")
def productivity_groups_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A productivity build of the first 60 VG images with ``--counter-pool`` FACTUAL (the first
    40 hold no group since one thing boxed twice is one object)."""
    from crepe_datasets.builders.productivity.build import (
        ProductivitySettings,
        build_productivity,
    )

    root = tmp_path_factory.mktemp("prod")
    settings = ProductivitySettings(
        vg=str(require_shared(*VG)), out=str(root / "prod"), limit=60, progress=False,
        counter_pool=(str(require_shared(*FACTUAL)),), cache_dir=str(root / "cache"),
    )  # fmt: skip
    out, _ = build_productivity(settings)
    return out

"""The crepe-systematicity step of ``crepe demo``: demo Visual Genome regions split against the
demo COCO-format captions (no NLI, the download-free plausibility ranker)."""

from __future__ import annotations

from pathlib import Path

from crepe_datasets.builders.systematicity.build import (
    SystematicitySettings,
    build_systematicity,
)
from crepe_datasets.cards.manifest import BuildManifest


def build_demo(inputs: Path, out: Path, seed: int) -> BuildManifest:
    """Build crepe-systematicity from the files of :func:`crepe_datasets.builders.demo_data.write_demo_inputs`."""
    settings = SystematicitySettings(
        vg=str(inputs / "vg"),
        out=str(out),
        training=f"coco:{inputs / 'captions_coco.json'}",
        images=str(inputs / "images"),
        cache_dir=str(Path(out).parent / "cache" / "systematicity"),
        seed=seed,
        progress=False,
    )
    return build_systematicity(settings)[1]

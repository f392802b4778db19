"""`crepe demo`: crepe-productivity from the bundled demo inputs (template captions, no NLI)."""

from __future__ import annotations

from pathlib import Path

from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity
from crepe_datasets.cards.manifest import BuildManifest


def build_demo(inputs: Path, out: Path, seed: int) -> BuildManifest:
    """Build crepe-productivity from the files of :func:`crepe_datasets.builders.demo_data.write_demo_inputs`."""
    settings = ProductivitySettings(
        vg=str(Path(inputs) / "vg"),
        out=str(out),
        seed=seed,
        images=str(Path(inputs) / "images"),
        progress=False,
    )
    return build_productivity(settings)[1]

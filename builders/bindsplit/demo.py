"""The BindSplit step of ``crepe demo``: the demo ARO set against the demo COCO-format captions."""

from __future__ import annotations

from pathlib import Path

from crepe_datasets.builders.bindsplit.build import BindSplitSettings, build_bindsplit
from crepe_datasets.cards.manifest import BuildManifest


def build_demo(inputs: Path, out: Path, seed: int) -> BuildManifest:
    """Build crepe-bindsplit from the files of :func:`crepe_datasets.builders.demo_data.write_demo_inputs`."""
    settings = BindSplitSettings(
        benchmarks=[("aro-vga", str(inputs / "aro"))],
        training=f"coco:{inputs / 'captions_coco.json'}",
        out=str(out),
        cache_dir=str(Path(out).parent / "cache" / "bindsplit"),
        seed=seed,
        progress=False,
    )
    return build_bindsplit(settings)[1]

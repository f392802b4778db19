"""`crepe build vg-regions`."""

from __future__ import annotations

import time
from pathlib import Path

import click

from crepe_datasets.scripts.commands.demo import print_summary
from crepe_datasets.scripts.options import checked_output


@checked_output("out", kind="dataset", inputs=("vg_dir", "images"))
@click.command("vg-regions")
@click.option(
    "--vg",
    "vg_dir",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    required=True,
    help="Visual Genome folder (region_descriptions.json, image_data.json).",
)
@click.option(
    "--images",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=None,
    help="Image folder: embeds each region as a crop.",
)
@click.option("--out", type=click.Path(path_type=Path), required=True)
def vg_regions(vg_dir: Path, images: Path | None, out: Path) -> None:
    """Build crepe-vg-regions: filtered Visual Genome region crops and their descriptions."""
    from crepe_datasets.builders.vg_regions import VGRegionsConfig, build_vg_regions

    start = time.time()
    manifest = build_vg_regions(VGRegionsConfig(vg_dir, out, images=images))
    print_summary([("crepe-vg-regions", out, manifest)], time.time() - start)


BUILD_COMMANDS = [vg_regions]

"""`crepe demo` and `crepe doctor`."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import click

from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.scripts.options import checked_output


def print_summary(built: list[tuple[str, Path, BuildManifest]], seconds: float) -> None:
    """Print each built dataset's counts and drops, then how to load it."""
    click.echo(f"\nBuilt {len(built)} demo dataset(s) in {seconds:.1f} s:")
    for name, folder, manifest in built:
        click.echo(f"\n  {name}  ->  {folder}")
        for config, splits in manifest.counts.items():
            counts = ", ".join(f"{split}={n:,}" for split, n in splits.items())
            click.echo(f"    {config:<12} {counts}")
        dropped = manifest.drops.total()
        if dropped:
            click.echo(f"    dropped (by reason in {folder}/build_manifest.json): {dropped:,}")
    if built:
        click.echo("\nLoad them (offline):")
        click.echo("  from datasets import load_dataset")
        for _, folder, manifest in built:
            config, splits = next(iter(manifest.counts.items()))
            split = next((s for s, n in splits.items() if n), None)
            click.echo(f'  load_dataset("{folder}", "{config}", split="{split}")')


def _demo_steps() -> list[tuple[str, Callable[[Path, Path, int], BuildManifest]]]:
    """(name, build function) of every builder's demo; each reads the demo inputs folder."""
    from crepe_datasets.builders.bindsplit.demo import build_demo as bindsplit_demo
    from crepe_datasets.builders.captioning.demo import build_demo as captioning_demo
    from crepe_datasets.builders.productivity.demo import build_demo as productivity_demo
    from crepe_datasets.builders.systematicity.demo import build_demo as systematicity_demo

    return [
        ("crepe-vg-regions", _build_vg_regions_demo),
        ("crepe-bindsplit", bindsplit_demo),
        ("crepe-systematicity", systematicity_demo),
        ("crepe-productivity", productivity_demo),
        ("crepe-captioning", captioning_demo),
    ]


def _build_vg_regions_demo(inputs: Path, out: Path, seed: int) -> BuildManifest:
    from crepe_datasets.builders.vg_regions import VGRegionsConfig, build_vg_regions

    return build_vg_regions(VGRegionsConfig(inputs / "vg", out, images=inputs / "images"))


DEMO_NAMES = (
    "inputs",
    "cache",
    "crepe-vg-regions",
    "crepe-bindsplit",
    "crepe-systematicity",
    "crepe-productivity",
    "crepe-captioning",
)


def demo_folder(folder: Path) -> bool:
    """Whether ``folder`` holds only what ``crepe demo`` writes (so it may be rebuilt)."""
    return all(p.name in DEMO_NAMES or p.name.startswith(".") for p in folder.iterdir())


@checked_output("out", kind="folder", recognise=demo_folder, what="the demo inputs and datasets")
@click.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("out/demo"),
    show_default=True,
    help="Folder for the demo inputs and datasets.",
)
@click.option("--seed", type=int, default=0, show_default=True)
def demo(out: Path, seed: int) -> None:
    """Write the bundled demo inputs and build every dataset that has a demo."""
    from crepe_datasets.builders.demo_data import write_demo_inputs

    start = time.time()
    inputs = write_demo_inputs(out / "inputs", seed=seed)
    click.echo(f"Demo inputs (Visual Genome format, images, captions, ARO) written to {inputs}")
    built = []
    for name, step in _demo_steps():
        click.echo(f"Building {name} ...")
        folder = out / name
        built.append((name, folder, step(inputs, folder, seed)))
    print_summary(built, time.time() - start)


@click.command()
def doctor() -> None:
    """Check that the language resources (spaCy pipeline, WordNet) are installed."""
    from crepe_datasets.infra.resources import check

    for line in check():
        click.echo(line)


COMMANDS = [demo, doctor]

"""``crepe add-images``: embed the region crops into an existing dataset folder."""

from __future__ import annotations

from pathlib import Path

import click

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scenegraph.crops import VG_IMAGE_LICENSE
from crepe_datasets.scripts.options import engine_options


@click.command("add-images")
@click.argument("dataset", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--images",
    type=click.Path(path_type=Path, exists=True),
    required=True,
    help="Folder (or zip) of the images the dataset's image_file column names.",
)
@click.option(
    "--license",
    "license_",
    default=VG_IMAGE_LICENSE,
    show_default=True,
    help="Licence of the images, written beside every crop and on the card.",
)
@engine_options("Processes cropping shards in parallel.")
def add_images_cmd(
    dataset: Path, images: Path, license_: str, engine: str, workers: int, scheduler: str | None
) -> None:
    """Add an `image` column (each row's region crop, PNG) to DATASET in place.

    Resumable (a killed run continues where it stopped; each shard is replaced atomically) and
    idempotent (a complete folder is left untouched). Rows whose image is missing keep an empty
    crop, counted by reason in the manifest.
    """
    from crepe_datasets.builders.add_images import add_images

    if scheduler and engine != "dask":
        raise CrepeInputError("--scheduler needs --engine dask.")
    result = add_images(
        dataset, images, license_, workers=workers, progress=True, engine=engine,
        scheduler=scheduler,
    )  # fmt: skip
    failed = ", ".join(f"{r}={n:,}" for r, n in result.failed.items()) or "none"
    if not result.changed:
        click.echo(f"{dataset}: every shard already holds its crops; nothing changed.")
    click.echo(
        f"{result.crops:,} crops in {dataset} ({result.shards_written} shards written, "
        f"{result.shards_skipped} already done); rows without a crop: {failed}"
    )


COMMANDS = [add_images_cmd]

"""`crepe build captioning` and `crepe evaluate-captions`."""

from __future__ import annotations

import time
from pathlib import Path

import click


@click.command("captioning")
@click.option(
    "--captions",
    multiple=True,
    required=True,
    help="coco:PATH of a COCO captions JSON (captions_train2014.json …); repeatable.",
)
@click.option(
    "--instances",
    multiple=True,
    type=click.Path(path_type=Path),
    help="COCO instances JSON (instances_train2014.json …) for the density config; repeatable.",
)
@click.option(
    "--images",
    type=click.Path(path_type=Path),
    default=None,
    help="COCO image root (holding train2014/, val2014/ …); recorded, rows keep relative image_file.",
)
@click.option("--pairs", type=click.Path(path_type=Path), default=None, help="Held-out pairs JSON (default: the paper's list).")
@click.option("--synonyms", type=click.Path(path_type=Path), default=None, help="Synonym groups JSON (default: SPEC §5 list).")
@click.option("--split-size", type=int, default=None, help="Images per held-out split (default: scaled, see the card).")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--workers", type=int, default=1, show_default=True, help="Parser processes.")
@click.option("--scheduler", default=None, help="Dask scheduler address (with --engine dask).")
@click.option("--cache-dir", type=click.Path(path_type=Path), default=None, help="Parse cache (default $CREPE_CACHE/captioning).")
@click.option("--spacy-model", default=None, help="spaCy pipeline name or folder.")
@click.option("--out", required=True, type=click.Path(path_type=Path))
@click.option("--seed", type=int, default=0, show_default=True)
def build_captioning_cmd(
    captions, instances, images, pairs, synonyms, split_size, engine, workers, scheduler,
    cache_dir, spacy_model, out, seed,
) -> None:  # fmt: skip
    """Build crepe-captioning: systematicity, productivity and substitutivity splits of COCO captions."""
    from crepe_datasets.builders.captioning.build import CaptioningSettings, build_captioning
    from crepe_datasets.scenegraph.errors import CrepeInputError

    if images is not None and not Path(images).is_dir():
        raise CrepeInputError(f"image folder {images} does not exist; fix --images.")
    if not instances:
        click.echo(
            "note: no --instances given, so the productivity_density config is not built "
            "(give COCO instances_*.json files to build it).",
            err=True,
        )
    start = time.time()
    settings = CaptioningSettings(
        captions=list(captions), out=str(out), instances=[str(p) for p in instances],
        images=str(images) if images else None, pairs=str(pairs) if pairs else None,
        synonyms=str(synonyms) if synonyms else None, seed=seed, split_size=split_size,
        engine=engine, workers=workers, scheduler=scheduler,
        cache_dir=str(cache_dir) if cache_dir else None, spacy_model=spacy_model,
    )  # fmt: skip
    folder, manifest = build_captioning(settings)
    s = manifest.summary
    cached = " (parse cache)" if s["parse"].get("from_cache") else ""
    click.echo(
        f"\nBuilt {folder} in {time.time() - start:.1f} s: {s['images']:,} images, "
        f"{s['captions']:,} captions{cached}, held-out split size {s['split_size']:,}"
    )
    for config, splits in manifest.counts.items():
        click.echo(f"  {config}: " + ", ".join(f"{k} {v:,}" for k, v in splits.items()))
    pairs_line = ", ".join(f"{p} {v['test_comb']}/{v['test_no_comb']}" for p, v in s["pairs"].items())
    click.echo(f"  held-out pairs (test_comb/test_no_comb images): {pairs_line}")
    click.echo(f"  dropped records: {manifest.drops.total():,}")


BUILD_COMMANDS = [build_captioning_cmd]
COMMANDS: list = []

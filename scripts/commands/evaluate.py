"""``crepe evaluate`` and ``crepe report``: score CLIP models on built datasets, render results."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import click

from crepe_datasets.infra.provenance import cache_root
from crepe_datasets.scripts.options import checked_output


@checked_output("out", kind="folder", inputs=("datasets", "images"), what="a results folder")
@click.command("evaluate")
@click.option(
    "--model",
    "models",
    multiple=True,
    required=True,
    help="open_clip:NAME/TAG, open_clip:NAME@CKPT, hf:NAME_OR_PATH or a model folder (repeatable).",
)
@click.option(
    "--dataset",
    "datasets",
    multiple=True,
    required=True,
    help="FOLDER[:CONFIG], ORG/NAME[:CONFIG][@REV], crepe-release:PATH, aro-vga:PATH, aro-vgr:PATH, sugarcrepe:PATH, bivlc:PATH (repeatable).",
)
@click.option(
    "--images",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder (or zip) the datasets' image_file columns are relative to; not needed for "
    "rows whose crop is in the dataset's image column.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Results folder (new files per run; nothing is overwritten).",
)
@click.option("--device", default=None, help="cuda, cuda:N or cpu (default: cuda when available).")
@click.option(
    "--precision",
    type=click.Choice(["amp", "fp32", "fp16"]),
    default="amp",
    show_default=True,
    help="amp = fp16 autocast on CUDA, fp32 on CPU.",
)
@click.option("--batch-size", type=int, default=256, show_default=True)
@click.option(
    "--workers",
    type=int,
    default=None,
    help="DataLoader workers for image decoding (default: min(8, CPUs)).",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of bootstrap CIs and RAW folds."
)
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Embedding cache (default $CREPE_CACHE/embeddings or ~/.cache/crepe/embeddings).",
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the embedding cache.")
@click.option(
    "--raw-set-size",
    type=int,
    default=6,
    show_default=True,
    help="N of RAW retrieval: K = min(20, |D| // N) folds.",
)
@click.option(
    "--bootstrap",
    "n_boot",
    type=int,
    default=1000,
    show_default=True,
    help="Bootstrap resamples for CIs.",
)
def evaluate_cmd(
    models,
    datasets,
    images,
    out,
    device,
    precision,
    batch_size,
    workers,
    seed,
    cache_dir,
    no_cache,
    raw_set_size,
    n_boot,
) -> None:
    """Evaluate models on datasets; one JSON record per model × dataset × config × split."""
    from crepe_datasets.evaluator.run import EvalSettings, run_evaluation, summary_table
    from crepe_datasets.infra.errors import CrepeInputError

    if images is not None and not (images.is_dir() or zipfile.is_zipfile(images)):
        raise CrepeInputError(
            f"image folder {images} does not exist and is not a zip; fix --images."
        )
    settings = EvalSettings(
        out=out, images=images, device=device, precision=precision, batch_size=batch_size,
        workers=min(8, os.cpu_count() or 1) if workers is None else workers, seed=seed,
        cache_dir=None if no_cache else (cache_dir or cache_root("embeddings")), raw_set_size=raw_set_size,
        n_boot=n_boot,
    )  # fmt: skip
    records = run_evaluation(list(models), list(datasets), settings)
    click.echo(summary_table(records))
    click.echo(f"{len(records)} records written to {out}")


@checked_output("out", kind="file", inputs=("results",))
@click.command("report")
@click.argument("results", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Markdown file (default RESULTS/report.md); plots go beside it.",
)
def report_cmd(results: Path, out: Path | None) -> None:
    """Render markdown tables, significance tests and PNG plots from a results folder."""
    from crepe_datasets.evaluator.report import build_report

    files = build_report(results, out or results / "report.md")
    click.echo(f"report: {files[0]} ({len(files) - 1} plots)")


COMMANDS = [evaluate_cmd, report_cmd]

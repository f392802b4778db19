"""`crepe annotate sample|push|pull|export-csv|import-csv|report`: human verification."""

from __future__ import annotations

import json
from pathlib import Path

import click

from crepe_datasets.infra.errors import CrepeInputError


def _columns(value: str) -> list[str]:
    return [c.strip() for c in value.split(",") if c.strip()]


@click.group()
def annotate() -> None:
    """Human verification: sample a built dataset, annotate it, put agreement into its card."""


@annotate.command("sample")
@click.argument("dataset", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--per-stratum", type=int, default=50, show_default=True, help="Items per stratum.")
@click.option(
    "--by",
    default="config,complexity",
    show_default=True,
    help="Strata: comma-separated columns among config, split, complexity, negative_type, kind.",
)
@click.option(
    "--kinds", default="caption,negative", show_default=True, help="Item kinds to sample."
)
@click.option("--configs", default="", help="Only these configs (comma-separated).")
@click.option("--images", type=click.Path(path_type=Path), help="Image folder: crop each region.")
@click.option(
    "--vg", type=click.Path(path_type=Path), help="VG folder: image URLs (image_data.json)."
)
@click.option("--image-base-url", default=None, help="Full images at URL/<image_file>.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Sample folder.")
def sample_cmd(dataset, per_stratum, by, kinds, configs, images, vg, image_base_url, seed, out):
    """Draw a stratified, seeded sample of DATASET's captions and negatives to judge."""
    from crepe_datasets.cards.manifest import read_manifest
    from crepe_datasets.validation.annotation.sampling import KINDS, candidates, stratified_sample
    from crepe_datasets.validation.annotation.store import SampleFolder
    from crepe_datasets.validation.annotation.tasks import attach_images

    bad = set(_columns(kinds)) - set(KINDS)
    if bad:
        raise CrepeInputError(f"unknown kind {', '.join(sorted(bad))}; use {', '.join(KINDS)}")
    manifest = read_manifest(dataset)
    pool = candidates(dataset, _columns(kinds), _columns(configs) or None)
    if not pool:
        raise CrepeInputError(f"{dataset} has no rows of kind {kinds} to sample")
    items, counts = stratified_sample(pool, _columns(by), per_stratum, seed)
    source = attach_images(items, dataset, out, images=images, vg=vg, image_base_url=image_base_url)
    meta = {
        "dataset": manifest.dataset,
        "dataset_version": manifest.version,
        "dataset_path": str(dataset),
        "by": _columns(by),
        "per_stratum": per_stratum,
        "kinds": _columns(kinds),
        "seed": seed,
        "strata": counts,
        "images": source,
        "items": len(items),
    }
    SampleFolder.create(out, meta, items)
    per_kind = {k: sum(i.kind == k for i in items) for k in KINDS}
    duplicates = sum(c["duplicates_dropped"] for c in counts.values())
    click.echo(
        f"Sampled {len(items):,} items ({', '.join(f'{k}: {n:,}' for k, n in per_kind.items())}) "
        f"in {len(counts)} strata of {len(pool):,} candidates ({duplicates:,} duplicate texts "
        f"dropped, counted per stratum in sample.json) -> {out} (images: {source})"
    )


def _client(url: str | None, token: str | None):
    from crepe_datasets.validation.annotation.labelstudio import LabelStudioClient

    if not url:
        raise CrepeInputError("pass --label-studio URL (e.g. http://localhost:8080)")
    return LabelStudioClient(url, token or "")


_server = click.option(
    "--label-studio", "url", default=None, help="Label Studio URL (pull: default, the pushed one)."
)
_token = click.option("--token", envvar="LS_TOKEN", default=None, help="API token ($LS_TOKEN).")
_partial = click.option(
    "--allow-partial", is_flag=True, help="Keep what is there when items are not annotated yet."
)


@annotate.command("push")
@click.argument("sample", type=click.Path(path_type=Path, exists=True, file_okay=False))
@_server
@_token
@click.option("--title", default=None, help="Project title (default: dataset and sample folder).")
def push_cmd(sample: Path, url: str | None, token: str | None, title: str | None) -> None:
    """Create a Label Studio project for SAMPLE and import its tasks."""
    from crepe_datasets.validation.annotation.store import SampleFolder

    folder = SampleFolder(sample)
    client = _client(url, token)
    state = client.push(folder, title or f"{folder.meta['dataset']} {sample.name}")
    click.echo(
        f"Pushed {len(state['tasks']):,} tasks to project {state['project_id']} at {state['url']} "
        f"(labeling config: image, region, text, yes/no/unsure)"
    )


@annotate.command("pull")
@click.argument("sample", type=click.Path(path_type=Path, exists=True, file_okay=False))
@_server
@_token
@click.option(
    "--export",
    "export_file",
    type=click.Path(path_type=Path, exists=True),
    help="A Label Studio JSON export file instead of the server.",
)
@_partial
def pull_cmd(sample, url, token, export_file, allow_partial) -> None:
    """Pull SAMPLE's annotations (from the server, or a JSON export file) and merge them."""
    from crepe_datasets.validation.annotation.labelstudio import pull
    from crepe_datasets.validation.annotation.store import SampleFolder

    folder = SampleFolder(sample)
    state = folder.path / "label_studio.json"
    if not url and not export_file and state.exists():
        url = json.loads(state.read_text())["url"]  # the server it was pushed to
    client = None if export_file else _client(url, token)
    judgements, (added, changed), skipped = pull(
        folder,
        client,
        export_file=str(export_file) if export_file else None,
        allow_partial=allow_partial,
    )
    items = {j.item_id for j in judgements}
    annotators = {j.annotator for j in judgements}
    click.echo(
        f"Pulled {len(judgements):,} judgements of {len(items):,}/{len(folder.items):,} items by "
        f"{len(annotators)} annotators: {added:,} new, {changed:,} changed"
        + "".join(f"; skipped {n:,} ({reason})" for reason, n in sorted(skipped.items()))
    )


@annotate.command("export-csv")
@click.argument("sample", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--out", required=True, type=click.Path(path_type=Path))
@click.option("--annotators", default="", help="One row per item for each of these names.")
def export_csv_cmd(sample: Path, out: Path, annotators: str) -> None:
    """Write a sheet to annotate in a spreadsheet or a crowdsourcing platform."""
    from crepe_datasets.validation.annotation.store import SampleFolder, export_csv

    n = export_csv(SampleFolder(sample), out, _columns(annotators))
    click.echo(f"Wrote {n:,} rows to {out}: fill `annotator` and `label` (yes/no/unsure)")


@annotate.command("import-csv")
@click.argument("sample", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("sheet", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@_partial
def import_csv_cmd(sample: Path, sheet: Path, allow_partial: bool) -> None:
    """Merge a filled sheet (columns item_id, annotator, label) into SAMPLE."""
    from crepe_datasets.validation.annotation.store import SampleFolder, import_csv

    folder = SampleFolder(sample)
    judgements = import_csv(folder, sheet, allow_partial)
    folder.keep_export(f"csv-{sheet.stem}.json", [j.__dict__ for j in judgements])
    added, changed = folder.merge(judgements)
    click.echo(f"Imported {len(judgements):,} judgements: {added:,} new, {changed:,} changed")


@annotate.command("report")
@click.argument("sample", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--dataset", required=True, type=click.Path(path_type=Path, exists=True, file_okay=False)
)
@click.option("--bootstrap", "n_resamples", type=int, default=1000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--no-card", is_flag=True, help="Write report.json only; leave the dataset as it is.")
def report_cmd(sample, dataset, n_resamples, seed, no_card) -> None:
    """Agreement and rates of SAMPLE's judgements, written into DATASET's manifest and card."""
    from crepe_datasets.cards.tables import verification_tables
    from crepe_datasets.infra.provenance import write_json_atomic
    from crepe_datasets.validation.annotation.report import build_report, write_to_dataset
    from crepe_datasets.validation.annotation.store import SampleFolder

    folder = SampleFolder(sample)
    dataset = dataset or Path(folder.meta["dataset_path"])
    judgements = folder.judgements()
    if not judgements:
        raise CrepeInputError(f"{sample} has no judgements yet: run `crepe annotate pull` first")
    report = build_report(
        folder.items, judgements, folder.meta.get("by") or [], n_resamples=n_resamples, seed=seed
    )
    write_json_atomic(sample / "report.json", report)
    if not no_card:
        report = write_to_dataset(dataset, report)
    click.echo(verification_tables(report)[0].markdown())
    where = "report.json" if no_card else f"report.json and the card of {dataset}"
    status = (
        ""
        if report.get("status") != "stale"
        else f" (STALE: {report['changed_rows']} rows changed)"
    )
    click.echo(
        f"{report['judged_items']:,} items, {report['annotators']} annotators -> {where}{status}"
    )


COMMANDS = [annotate]

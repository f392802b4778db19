"""`crepe build captioning` and `crepe evaluate-captions`."""

from __future__ import annotations

import time
from pathlib import Path

import click

from crepe_datasets.scripts.options import checked_output, engine_options


@checked_output(
    "out", kind="dataset", inputs=("captions", "instances", "images", "pairs", "synonyms")
)
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
    help="COCO image root (holding train2014/, val2014/ …): embed each image as an `image` column.",
)
@click.option(
    "--pairs",
    type=click.Path(path_type=Path),
    default=None,
    help="Held-out pairs JSON (default: the paper's list).",
)
@click.option(
    "--synonyms",
    type=click.Path(path_type=Path),
    default=None,
    help="Synonym groups JSON (default: SPEC §5 list).",
)
@click.option(
    "--split-size",
    type=int,
    default=None,
    help="Images per held-out split (default: scaled, see the card).",
)
@engine_options("Parser processes.")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Parse cache (default $CREPE_CACHE/captioning).",
)
@click.option("--spacy-model", default=None, help="spaCy pipeline name or folder.")
@click.option("--out", required=True, type=click.Path(path_type=Path))
@click.option("--seed", type=int, default=0, show_default=True)
def build_captioning_cmd(
    captions, instances, images, pairs, synonyms, split_size, engine, workers, scheduler,
    cache_dir, spacy_model, out, seed,
) -> None:  # fmt: skip
    """Build crepe-captioning: systematicity, productivity and substitutivity splits of COCO captions."""
    from crepe_datasets.builders.captioning.build import CaptioningSettings, build_captioning
    from crepe_datasets.infra.errors import CrepeInputError

    if images is not None and not Path(images).is_dir():
        raise CrepeInputError(f"image folder {images} does not exist; fix --images.")
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
    pairs_line = ", ".join(
        f"{p} {v['test_comb']}/{v['test_no_comb']}" for p, v in s["pairs"].items()
    )
    click.echo(f"  held-out pairs (test_comb/test_no_comb images): {pairs_line}")
    click.echo(f"  dropped records: {manifest.drops.total():,}")
    if not instances:
        click.echo(
            "note: no --instances given, so the productivity_density config was not built "
            "(give COCO instances_*.json files to build it).",
            err=True,
        )


@checked_output("out", kind="folder", inputs=("predictions",), what="a results folder")
@click.command("evaluate-captions")
@click.option(
    "--dataset",
    required=True,
    help="FOLDER[:CONFIG] of a crepe-captioning build (default: every captioning config).",
)
@click.option(
    "--predictions",
    required=True,
    type=click.Path(path_type=Path),
    help='JSONL: {"image_id": ID, "caption": TEXT} or {"image_id": ID, "captions": [TEXT, ...]}.',
)
@click.option("--model", default=None, help="Model name in the records (default: the file's stem).")
@click.option(
    "--split", "splits", multiple=True, help="Split to score (repeatable; default all but train)."
)
@click.option("--no-meteor", is_flag=True, help="Skip METEOR (a Java process; the slowest metric).")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Results folder (new files per run; nothing is overwritten).",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the CIDEr bootstrap CI."
)
def evaluate_captions_cmd(dataset, predictions, model, splits, no_meteor, out, seed) -> None:
    """Score generated captions: BLEU-1..4, METEOR, ROUGE-L, CIDEr and held-out pair Recall@K."""
    from crepe_datasets.evaluator.captions_run import CaptionEvalSettings, run_caption_eval

    start = time.time()
    settings = CaptionEvalSettings(
        dataset=dataset, predictions=Path(predictions), out=Path(out), model=model,
        splits=list(splits), meteor=not no_meteor, seed=seed,
    )  # fmt: skip
    records = run_caption_eval(settings, echo=lambda line: click.echo(line, err=True))
    click.echo(f"\n{'config/split':<34}{'n':>6}  " + "  ".join(f"{m:>8}" for m in SHOWN))
    click.echo(
        "(pair@K: held-out pair Recall@K on test_comb, pair rate@K on test_no_comb; all × 100)"
    )
    for r in records:
        values = "  ".join(f"{100 * _metric(r, m):8.2f}" for m in SHOWN)
        click.echo(f"{r.subset:<34}{r.n:>6}  {values}")
    click.echo(f"{len(records)} records written to {out} in {time.time() - start:.1f} s")


SHOWN = ("BLEU-1", "BLEU-4", "METEOR", "ROUGE-L", "CIDEr", "pair@1", "pair@5")


def _metric(record, name: str) -> float:
    if name.startswith("pair@"):
        k = name.split("@")[1]
        for key in (f"pair_R@{k}", f"pair_rate@{k}"):
            if record.key(key) in record.metrics:
                return record.metrics[record.key(key)]
    return record.metrics.get(record.key(name), float("nan"))


@click.command("captioning")
@click.argument("folder", type=click.Path(path_type=Path))
def validate_captioning_cmd(folder: Path) -> None:
    """Check a crepe-captioning folder: each image in one split per config, pairs out of train."""
    validate_captioning(folder)


def validate_captioning(folder: Path) -> None:
    """Print the invariant report of a crepe-captioning folder; fail when a check fails."""
    from crepe_datasets.cards.manifest import read_manifest
    from crepe_datasets.validation.captioning import check_captioning
    from crepe_datasets.validation.invariants import read_tables

    manifest = read_manifest(folder)
    report = check_captioning(read_tables(folder), manifest.summary)
    state = "passed" if report["passed"] else "FAILED"
    click.echo(f"captioning invariants: {state} on {report['rows_checked']:,} rows")
    for check, n in report["violations"].items():
        click.echo(f"  {check} = {n}")
    for example in report["examples"]:
        click.echo(f"  e.g. {example}")
    if not report["passed"]:
        raise click.ClickException(f"{folder} failed validation (see above)")


BUILD_COMMANDS = [build_captioning_cmd]
COMMANDS = [evaluate_captions_cmd]
VALIDATE_COMMANDS = [validate_captioning_cmd]

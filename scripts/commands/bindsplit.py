"""`crepe build bindsplit` and `crepe build bindsplit-holdout`."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scripts.options import checked_output


def _echo_summary(out: Path, summary: dict[str, Any], seconds: float) -> None:
    t = summary["training_table"]
    click.echo(f"\nBuilt {out} in {seconds:.1f} s")
    source = "cache" if t["from_cache"] else "parsed now"
    click.echo(
        f"  training table: {t['rows']:,} bindings from {t['captions']:,} captions ({source}: {t['cache_path']})"
    )
    for config, s in summary["benchmarks"].items():
        click.echo(
            f"\n  {config}: {s['samples']:,} kept, {s['excluded']:,} excluded  forms={s['forms']}"
        )
        click.echo("    buckets:   " + ", ".join(f"{b}={n:,}" for b, n in s["buckets"].items()))
        click.echo("    collapsed: " + ", ".join(f"{b}={n:,}" for b, n in s["collapsed"].items()))
        r = s["rates"]
        click.echo(
            f"    all-seen STRICT {r['strict']['all_seen']} / LOOSE {r['loose']['all_seen']};"
            f" all-unseen STRICT {r['strict']['all_unseen']} / LOOSE {r['loose']['all_unseen']}"
        )
        a = s["asymmetry"]["in_table"]
        click.echo(
            f"    bindings all in table: positive {a['full']['positive']['rate']} vs negative "
            f"{a['full']['negative']['rate']} (mixed subset {a['mixed']['positive']['rate']} vs "
            f"{a['mixed']['negative']['rate']})"
        )
    first = next(iter(summary["benchmarks"]), None)
    if first:
        click.echo(f'\nLoad: load_dataset("{out}", "{first}", split="seen")')


@checked_output("summary_json", kind="file")
@checked_output("out", kind="dataset", inputs=("paths", "training", "cache_dir"))
@click.command("bindsplit")
@click.option(
    "--benchmark",
    "benchmarks",
    multiple=True,
    required=True,
    help="Benchmark name (repeatable): aro-vga, sugarcrepe-swap-att, bivlc, vismin, group-table.",
)
@click.option(
    "--benchmark-path",
    "paths",
    multiple=True,
    required=True,
    help="Path of each --benchmark, in the same order.",
)
@click.option(
    "--training",
    required=True,
    help="Reference training corpus spec, e.g. coco:captions_train2014.json.",
)
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Dataset folder to write."
)
@click.option(
    "--summary-json",
    type=click.Path(path_type=Path),
    default=None,
    help="Also write the summary here.",
)
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Training-table cache (default $CREPE_CACHE/bindsplit or ~/.cache/crepe/bindsplit).",
)
@click.option(
    "--spacy-model", default=None, help="spaCy pipeline name or folder (default en_core_web_sm)."
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Recorded in the manifest (no random step).",
)
def bindsplit(
    benchmarks: tuple[str, ...],
    paths: tuple[str, ...],
    training: str,
    out: Path,
    summary_json: Path | None,
    cache_dir: Path | None,
    spacy_model: str | None,
    seed: int,
) -> None:
    """Build crepe-bindsplit: benchmarks split by binding overlap with a training corpus."""
    from crepe_datasets.builders.bindsplit.benchmarks import get_benchmark
    from crepe_datasets.builders.bindsplit.build import BindSplitSettings, build_bindsplit
    from crepe_datasets.infra.provenance import write_json_atomic

    if len(benchmarks) != len(paths):
        raise CrepeInputError(
            f"got {len(benchmarks)} --benchmark but {len(paths)} --benchmark-path; give one path after each benchmark."
        )
    for name in benchmarks:
        get_benchmark(name)  # unknown names fail before any parsing
    start = time.time()
    settings = BindSplitSettings(
        list(zip(benchmarks, paths, strict=True)), training, str(out), str(cache_dir) if cache_dir else None,
        seed, spacy_model=spacy_model,
    )  # fmt: skip
    folder, manifest = build_bindsplit(settings)
    if summary_json is not None:
        write_json_atomic(summary_json, manifest.summary)
    _echo_summary(folder, manifest.summary, time.time() - start)


@checked_output("out", kind="dataset", inputs=("grid",))
@click.command("bindsplit-holdout")
@click.option(
    "--grid",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    default=None,
    help="Table (.csv/.parquet/.jsonl) with attr_1, obj_1, attr_2, obj_2 [id, image_file, caption].",
)
@click.option(
    "--attributes",
    default=None,
    help="Comma-separated attributes (with --objects, instead of --grid).",
)
@click.option("--objects", default=None, help="Comma-separated objects (with --attributes).")
@click.option("--k", type=int, default=3, show_default=True, help="Side of the held-out block.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--seen-test-fraction", type=float, default=0.2, show_default=True)
@click.option("--out", type=click.Path(path_type=Path), required=True)
def bindsplit_holdout(
    grid: Path | None, attributes: str | None, objects: str | None, k: int, seed: int,
    seen_test_fraction: float, out: Path,
) -> None:  # fmt: skip
    """Build a controlled k×k hold-out (train / fully_seen / partially_unseen / fully_unseen)."""
    from crepe_datasets.builders.bindsplit.holdout_build import build_holdout_dataset

    start = time.time()
    folder, manifest = build_holdout_dataset(
        out, grid=grid, attributes=_csv(attributes), objects=_csv(objects), k=k, seed=seed,
        seen_test_fraction=seen_test_fraction,
    )  # fmt: skip
    click.echo(
        f"\nBuilt {folder} in {time.time() - start:.1f} s; held-out block {json.dumps(manifest.summary['block'])}"
    )
    for split, n in manifest.counts.get("holdout", {}).items():
        click.echo(f"  {split:<17} {n:,}")


def _csv(value: str | None) -> list[str] | None:
    return [v.strip().lower() for v in value.split(",") if v.strip()] if value else None


BUILD_COMMANDS = [bindsplit, bindsplit_holdout]

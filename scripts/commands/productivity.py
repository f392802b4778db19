"""`crepe build productivity`."""

from __future__ import annotations

import time
from pathlib import Path

import click

from crepe_datasets.generators.negatives.foil_balance import DEFAULT_RATE
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scripts.options import (
    allow_failed_checks_option,
    checked_output,
    counter_pool_option,
    engine_options,
    foil_balance_options,
)


@checked_output("out", kind="dataset", inputs=("vg", "images", "nli"))
@click.command("productivity")
@click.option(
    "--vg",
    required=True,
    type=click.Path(path_type=Path),
    help="Visual Genome folder with scene_graphs.json and image_data.json.",
)
@click.option(
    "--images",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder of VG images: embed each region's crop as an `image` column.",
)
@click.option(
    "--llm", default=None, help="openai:MODEL — LLM captions for n >= 5 (default: template)."
)
@click.option("--llm-base-url", default=None, help="Base URL of an OpenAI-compatible server.")
@click.option(
    "--llm-cache",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder of cached LLM answers (default: <out>/../.crepe_cache/llm).",
)
@click.option("--nli", default=None, help="NLI model name or local path for the entailment filter.")
@click.option(
    "--mlm",
    default=None,
    help="Masked LM (name or local path) ranking HN-ATOM foils (default: word frequency + n-gram LM).",
)
@click.option(
    "--lm-corpus",
    type=click.Path(path_type=Path),
    default=None,
    help="Caption corpus of the n-gram LM (text, COCO JSON, TSV or .json.gz counts; default: shipped COCO counts).",
)
@click.option(
    "--no-refine",
    is_flag=True,
    help="Take negatives in generation order (no adversarial refinement against blind scorers).",
)
@foil_balance_options(DEFAULT_RATE)
@click.option(
    "--no-nli", is_flag=True, help="Skip the entailment filter (recorded in the manifest)."
)
@click.option(
    "--walks", type=int, default=3, show_default=True, help="Random walks per image and n."
)
@click.option(
    "--min-negatives",
    type=click.IntRange(1, 5),
    default=5,
    show_default=True,
    help="Keep a retrieval set with at least this many negatives per type (5: fixed size).",
)
@click.option(
    "--limit", type=click.IntRange(min=1), default=None, help="Read only the first N images."
)
@engine_options(
    "Worker processes (local pool or Dask LocalCluster); the dataset does not depend on it."
)
@click.option(
    "--chunk-images",
    type=click.IntRange(1),
    default=64,
    show_default=True,
    help="Images per engine task (finished chunks are kept until the dataset is written).",
)
@counter_pool_option("`groups` config")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Cache of the counter pool's index (default: $CREPE_CACHE/counter-pool).",
)
@click.option("--out", required=True, type=click.Path(path_type=Path))
@click.option("--seed", type=int, default=0, show_default=True)
@allow_failed_checks_option
def build_productivity_cmd(
    vg: Path,
    images: Path | None,
    llm: str | None,
    llm_base_url: str | None,
    llm_cache: Path | None,
    nli: str | None,
    mlm: str | None,
    lm_corpus: Path | None,
    no_refine: bool,
    foil_cap: int,
    foil_rate: float,
    one_atom_sets: bool,
    no_nli: bool,
    walks: int,
    min_negatives: int,
    limit: int | None,
    engine: str,
    workers: int,
    scheduler: str | None,
    chunk_images: int,
    counter_pool: tuple[Path, ...],
    cache_dir: Path | None,
    out: Path,
    seed: int,
    allow_failed_checks: bool,
) -> None:
    """Build crepe-productivity: complexity 4..12 subgraphs with HN-ATOM / HN-SWAP / HN-NEG."""
    from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity

    if nli and no_nli:
        raise CrepeInputError("give either --nli NAME or --no-nli, not both.")
    if not nli and not no_nli:
        raise CrepeInputError(
            "choose the entailment filter: --nli NAME|PATH (e.g. roberta-large-mnli) or --no-nli."
        )
    if llm_base_url and not llm:
        raise CrepeInputError("--llm-base-url needs --llm openai:MODEL.")
    if scheduler and engine != "dask":
        raise CrepeInputError("--scheduler needs --engine dask.")
    from crepe_datasets.builders.engines import make_engine

    started = time.time()
    settings = ProductivitySettings(
        vg=str(vg),
        out=str(out),
        seed=seed,
        images=str(images) if images else None,
        llm=llm,
        llm_base_url=llm_base_url,
        llm_cache=str(llm_cache) if llm_cache else None,
        nli=None if no_nli else nli,
        mlm=mlm,
        lm_corpus=str(lm_corpus) if lm_corpus else None,
        refine=not no_refine,
        foil_cap=foil_cap,
        foil_rate=foil_rate,
        one_atom_sets=one_atom_sets,
        walks=walks,
        min_negatives=min_negatives,
        limit=limit,
        allow_failed_checks=allow_failed_checks,
        chunk_images=chunk_images,
        counter_pool=tuple(str(p) for p in counter_pool),
        cache_dir=str(cache_dir) if cache_dir else None,
    )
    with make_engine(engine, workers, scheduler) as eng:
        folder, manifest = build_productivity(settings, eng)
    s = manifest.summary
    click.echo(
        f"\nBuilt {folder} in {time.time() - started:.1f} s ({s['images_read']:,} images, {s['captions']})."
    )
    click.echo(
        "ground truths per n: "
        + ", ".join(f"{k.split('_')[1]}={v}" for k, v in s["ground_truths_per_n"].items())
    )
    for config, splits in manifest.counts.items():
        click.echo(
            f"  {config:<10} " + ", ".join(f"{k.split('_')[1]}={v}" for k, v in splits.items())
        )
    click.echo(f"dropped: {manifest.drops.total():,} (by reason in {folder}/build_manifest.json)")
    inv, sc = manifest.validation["invariants"], manifest.validation["shortcuts"]
    blind = manifest.validation.get("blind_baselines", {})
    click.echo(
        f"invariants: {'passed' if inv['passed'] else 'FAILED'} on {inv['rows_checked']:,} rows; "
        f"formatting shortcuts: {'passed' if sc['passed'] else 'FAILED'}; "
        f"blind baselines on {', '.join(blind.get('targets', []))}: "
        f"{'passed' if blind.get('passed') else 'FAILED'} (chance + {blind.get('margin', 0.05)})"
    )
    trained = manifest.validation.get("trained_blind") or {}
    cells = [
        f"{c} {r['all']['best_r1']:.3f} (chance {r['all']['chance']:.3f})"
        for c, r in trained.get("configs", {}).items()
        if r.get("target") and r.get("all")
    ]
    if trained:
        click.echo(
            f"trained blind audit: {'passed' if trained.get('passed') else 'FAILED'}"
            + (f": {'; '.join(cells)}" if cells else " (too few sets to judge)")
        )
    if isinstance(s.get("adversarial_refinement"), dict):
        click.echo(
            "adversarial refinement (candidates discarded): "
            + ", ".join(
                f"{t} {c.get('discarded', 0):,} of {c.get('candidates', 0):,}"
                for t, c in s["adversarial_refinement"].items()
            )
        )
    if "groups" in s:
        g = s["groups"]
        click.echo(
            f"groups (counter-regions, pool of {g['pool']['regions']:,} regions): "
            + ", ".join(
                f"{sp.split('_')[1]}={n:,}/{g['hn_atom_negatives_per_split'][sp]:,}"
                for sp, n in g["groups_per_split"].items()
            )
            + f" HN-ATOM negatives; unmatched {g['unmatched']}; re-verified: "
            + ("passed" if manifest.validation["groups_checks"]["passed"] else "FAILED")
        )
    for line in manifest.validation.get("failed_checks", []):
        click.echo(f"WARNING: written with --allow-failed-checks although {line}", err=True)
    click.echo(f'load: load_dataset("{folder}", "hn_swap", split="complexity_7")')


BUILD_COMMANDS = [build_productivity_cmd]

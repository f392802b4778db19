"""`crepe build systematicity`."""

from __future__ import annotations

import time
from pathlib import Path

import click

from crepe_datasets.generators.negatives.foil_balance import SYSTEMATICITY_RATE
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scripts.options import (
    allow_failed_checks_option,
    checked_output,
    counter_pool_option,
    engine_options,
    foil_balance_options,
)


@checked_output(
    "out", kind="dataset", inputs=("vg", "images", "seen", "training", "nli", "mlm", "factual")
)
@click.command("systematicity")
@click.option(
    "--vg",
    required=True,
    type=click.Path(path_type=Path),
    help="Visual Genome folder: region_descriptions.json, image_data.json, scene_graphs.json.",
)
@click.option(
    "--images",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder of VG images: embed each region's crop as an `image` column.",
)
@click.option("--seen", default=None, help="Seen-tables folder made by `crepe parse-corpus`.")
@click.option(
    "--training",
    default=None,
    help="KIND:PATH corpus to parse first (cached by checksum), instead of --seen.",
)
@click.option("--nli", default=None, help="NLI model name or local path for the entailment filter.")
@click.option("--no-nli", is_flag=True, help="Skip the entailment filter (recorded).")
@click.option(
    "--mlm",
    default=None,
    help="Masked LM (name or path) ranking foils; default: wordfreq frequency (no download).",
)
@click.option(
    "--min-count",
    type=int,
    default=1,
    show_default=True,
    help="Occurrences in the corpus for an atom or compound to count as seen.",
)
@click.option(
    "--factual",
    type=click.Path(path_type=Path),
    default=None,
    help="FACTUAL-format CSV: measure the parser's P/R now for the card (default: stored figures).",
)
@engine_options("Parser processes.")
@click.option("--limit", type=int, default=None, help="Read only the first N images.")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Cache of parsed --training corpora (default: $CREPE_CACHE/seen).",
)
@counter_pool_option("`groups` and `groups_comp` configs")
@click.option("--out", required=True, type=click.Path(path_type=Path))
@click.option("--seed", type=int, default=0, show_default=True)
@foil_balance_options(SYSTEMATICITY_RATE)
@allow_failed_checks_option
def build_systematicity_cmd(
    vg: Path,
    images: Path | None,
    seen: str | None,
    training: str | None,
    nli: str | None,
    no_nli: bool,
    mlm: str | None,
    min_count: int,
    factual: Path | None,
    engine: str,
    workers: int,
    scheduler: str | None,
    limit: int | None,
    cache_dir: Path | None,
    counter_pool: tuple[Path, ...],
    out: Path,
    seed: int,
    foil_cap: int,
    foil_rate: float,
    one_atom_sets: bool,
    allow_failed_checks: bool,
) -> None:
    """Build crepe-systematicity: SC / UC / UA splits of VG regions for a training corpus."""
    from crepe_datasets.builders.systematicity.build import (
        SystematicitySettings,
        build_systematicity,
    )

    if nli and no_nli:
        raise CrepeInputError("give either --nli NAME or --no-nli, not both.")
    if not nli and not no_nli:
        raise CrepeInputError(
            "choose the entailment filter: --nli NAME|PATH (e.g. roberta-large-mnli) or --no-nli."
        )
    if scheduler and engine != "dask":
        raise CrepeInputError("--scheduler needs --engine dask.")
    started = time.time()
    settings = SystematicitySettings(
        vg=str(vg),
        out=str(out),
        seen=seen,
        training=training,
        images=str(images) if images else None,
        nli=None if no_nli else nli,
        mlm=mlm,
        min_count=min_count,
        factual=str(factual) if factual else None,
        engine=engine,
        workers=workers,
        scheduler=scheduler,
        limit=limit,
        cache_dir=str(cache_dir) if cache_dir else None,
        seed=seed,
        foil_cap=foil_cap,
        foil_rate=foil_rate,
        one_atom_sets=one_atom_sets,
        allow_failed_checks=allow_failed_checks,
        counter_pool=tuple(str(p) for p in counter_pool),
    )
    folder, manifest = build_systematicity(settings)
    s = manifest.summary
    corpus = s["training_corpus"]
    click.echo(
        f"\nBuilt {folder} in {time.time() - started:.1f} s: {s['images_read']:,} images, "
        f"{s['regions_parsed']:,} region texts parsed; corpus {corpus['corpus']} "
        f"({corpus['seen_atoms']:,} seen atoms, {corpus['seen_compounds']:,} seen compounds)."
    )
    for config, splits in manifest.counts.items():
        click.echo(f"  {config:<8} " + ", ".join(f"{k}={v:,}" for k, v in splits.items()))
    share = s["raw_split_share"]
    click.echo(
        "raw shares: "
        + ", ".join(f"{k} {100 * v:.1f}%" for k, v in share.items())
        + " (paper, CC-12M: 68.1% / 29.5% / 2.5%)"
    )
    q = manifest.validation["parser_factual"]
    click.echo(
        f"parser on FACTUAL: triplets P {q['triplets']['precision']:.3f} R {q['triplets']['recall']:.3f} "
        f"({q['source']})"
    )
    click.echo(f"dropped: {manifest.drops.total():,} (by reason in {folder}/build_manifest.json)")
    for config, kind in (("groups", "hn_atom"), ("groups_comp", "hn_comp")):
        if config not in s:
            continue
        g = s[config]
        click.echo(
            f"{config} (counter-regions, pool of {g['pool']['regions']:,} regions): "
            + ", ".join(
                f"{sp} {n:,}/{g[f'{kind}_negatives_per_split'][sp]:,} {kind.upper().replace('_', '-')} "
                f"negatives ({100 * g['share_per_split'][sp]:.1f}%)"
                for sp, n in g["groups_per_split"].items()
            )
            + f"; unmatched {g['unmatched']}"
        )
    v = manifest.validation
    checks = v["systematicity_checks"]["passed"] and v["invariants"]["passed"]
    click.echo(
        f"row checks: {'passed' if checks else 'FAILED'}; formatting shortcuts: "
        f"{'passed' if v['shortcuts']['passed'] else 'FAILED'}"
    )
    blind = v.get("blind_baselines") or {}
    if blind:
        comp = blind.get("configs", {}).get("hn_comp", {}).get("all", {})
        atom = blind.get("configs", {}).get("hn_atom", {}).get("all", {})
        click.echo(
            f"blind baselines on {', '.join(blind.get('targets', [])) or 'none'}: "
            f"{'passed' if blind.get('passed') else 'FAILED'} (chance + {blind.get('margin')}); "
            f"hn_atom best {atom.get('best_r1', 0):.3f} vs chance {atom.get('chance', 0):.3f}; "
            f"hn_comp best {comp.get('best_r1', 0):.3f} vs chance {comp.get('chance', 0):.3f} "
            "(length cue inherent to HN-COMP, not counted)"
        )
    refine = manifest.summary.get("adversarial_refinement") or {}
    for kind, c in refine.items():
        click.echo(
            f"refinement hn_{kind}: {c.get('sets', 0):,} sets from {c.get('candidates', 0):,} "
            f"candidates, {c.get('discarded', 0):,} discarded, "
            f"{c.get('sets_without_balanced_choice', 0):,} sets dropped and "
            f"{c.get('sets_kept_unbalanced', 0):,} kept without a balanced choice"
        )
    click.echo(f'load: load_dataset("{folder}", "hn_comp", split="unseen_compounds")')


BUILD_COMMANDS = [build_systematicity_cmd]

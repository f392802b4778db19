"""``crepe validate blind``: text-only audits of any benchmark, ours or a released one."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from crepe_datasets.scripts.options import checked_output


def _group_as_pairs(tables: Mapping[str, Mapping[str, list]]) -> dict[str, dict[str, list]]:
    """Two-image groups (BiVLC) as one text set per group: image 0's caption against the other."""
    return {
        config: {
            split: [
                {
                    "caption": r["caption_0"],
                    "hard_negatives": [r["caption_1"]],
                    "image_id": r.get("image_0_file") or r.get("id"),
                }
                for r in rows
                if r.get("caption_0") and r.get("caption_1")
            ]
            for split, rows in splits.items()
        }
        for config, splits in tables.items()
    }


def benchmark_tables(spec: str) -> tuple[str, dict[str, dict[str, list]]]:
    """``(name, {config: {split: rows}})`` of a dataset folder or a ``KIND:PATH`` release."""
    from crepe_datasets.evaluator.compat import read_benchmark
    from crepe_datasets.infra.errors import CrepeInputError
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.sources.releases import RELEASES
    from crepe_datasets.validation.invariants import read_tables

    kind, sep, path = spec.partition(":")
    if sep and kind in RELEASES:
        if not Path(path).expanduser().exists():
            raise CrepeInputError(f"{kind} path {path} does not exist; fix the path in {spec}.")
        name, task, tables = read_benchmark(kind, str(Path(path).expanduser()), DropLog())
        return name, _group_as_pairs(tables) if task.type == "group" else tables
    folder = Path(spec)
    if not (folder / "build_manifest.json").is_file():
        raise CrepeInputError(
            f"{spec} is neither a dataset folder built by this toolkit nor KIND:PATH with a kind "
            f"of {', '.join(RELEASES.known())}."
        )
    tables = read_tables(folder)
    return folder.name, {c: t for c, t in tables.items() if c != "raw"}


def audit_benchmark(spec: str) -> dict[str, Any]:
    """Every text-only audit of one benchmark: untrained baselines, the trained audit and the
    foil imbalance, per config."""
    from crepe_datasets.generators.balance.blind import blind_audit
    from crepe_datasets.validation.foil_imbalance import foil_balance_summary
    from crepe_datasets.validation.trained_blind import trained_audit

    name, tables = benchmark_tables(spec)
    return {
        "benchmark": spec,
        "name": name,
        "blind_baselines": blind_audit(tables).to_dict(),
        "trained_blind": trained_audit(tables).to_dict(),
        "foil_balance": foil_balance_summary(tables),
    }


@checked_output("json_out", kind="file")
@click.command("blind")
@click.argument("benchmarks", nargs=-1, required=True)
@click.option(
    "--json-out", type=click.Path(path_type=Path), default=None, help="Write the reports as JSON."
)
def validate_blind_cmd(benchmarks: tuple[str, ...], json_out: Path | None) -> None:
    """Text-only audits of BENCHMARKS side by side: each a dataset folder of this toolkit or a
    released benchmark as KIND:PATH (crepe-release, aro-vga, aro-vgr, sugarcrepe, bivlc).

    For every config: the best untrained blind baseline (word frequency, an n-gram LM,
    formatting, negation), text-only classifiers trained with cross-validation grouped by image,
    and how unevenly words are used as foils and as the words they replace. Reports; never
    fails on a benchmark's figures.
    """
    from tqdm import tqdm

    from crepe_datasets.infra.provenance import write_json_atomic

    reports = []
    for spec in tqdm(benchmarks, desc="benchmarks", unit="benchmark"):
        reports.append(audit_benchmark(spec))
    head = (
        f"{'benchmark':<22} {'config':<18} {'sets':>6} {'chance':>6} {'untrained':>9} "
        f"{'trained':>8} {'foil-only':>9} {'max log2':>8}"
    )
    click.echo(head)
    for rep in reports:
        trained = rep["trained_blind"]["configs"]
        for config, blind in rep["blind_baselines"]["configs"].items():
            pooled = blind["all"]
            t = trained.get(config, {})
            best = t["all"]["best_r1"] if t.get("judged") else float("nan")
            fb = rep["foil_balance"].get(config, {})
            click.echo(
                f"{rep['name'][:22]:<22} {config[:18]:<18} {pooled['rows']:>6} "
                f"{pooled['chance']:>6.3f} {pooled['best_r1']:>9.3f} {best:>8.3f} "
                f"{fb.get('foil_only_uses', 0):>9} {fb.get('max_log2_ratio', 0):>8.2f}"
            )
    click.echo(
        "untrained: best of word frequency, n-gram LM, formatting and negation (either "
        "direction); trained: best held-out classifier; foil-only: uses of words that are "
        "never a replaced word; max log2: largest |log2 (foil uses / truth uses)|."
    )
    if json_out:
        write_json_atomic(json_out, {"reports": reports})


VALIDATE_COMMANDS = [validate_blind_cmd]

"""`crepe validate dataset`: every check of a built dataset folder, its build's own included."""

from __future__ import annotations

from pathlib import Path

import click

from crepe_datasets.scripts.options import checked_output


@checked_output("json_out", kind="file")
@click.command("dataset")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option(
    "--json-out", type=click.Path(path_type=Path), default=None, help="Write the report as JSON."
)
@click.option(
    "--lm-corpus",
    type=click.Path(path_type=Path),
    default=None,
    help="Caption corpus of the blind n-gram LM (default: shipped CC3M validation counts).",
)
@click.option(
    "--seen",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=None,
    help="Seen-tables folder of the training corpus (crepe-systematicity: re-derive the splits).",
)
@click.option(
    "--vg",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=None,
    help="Visual Genome folder of the build (the counter-image groups: where the pool's VG "
    "source lies now, when it moved).",
)
@click.option(
    "--counter-pool",
    "counter_pool",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="Where a source of the build's counter-image pool lies now, when it moved (the --vg "
    "folder or a --counter-pool source of the build; repeatable). Default: the manifest's paths.",
)
def validate_dataset_cmd(
    folder: Path,
    json_out: Path | None,
    lm_corpus: Path | None,
    seen: Path | None,
    vg: Path | None,
    counter_pool: tuple[Path, ...],
) -> None:
    """Check the files against the build manifest, every row's invariants, text-only
    shortcuts (formatting cues; blind baselines: word frequency, an n-gram LM, negation; text-only
    classifiers trained on part of the sets) and the checks the dataset's build runs (with a
    `groups` config: every group re-verified against the counter-image pool)."""
    import crepe_datasets.builders.checks  # noqa: F401  (registers every builder's checks)
    from crepe_datasets.generators.balance.blind import blind_lines
    from crepe_datasets.infra.provenance import write_json_atomic
    from crepe_datasets.validation.dataset import validate_dataset, violation_lines
    from crepe_datasets.validation.trained_blind import trained_lines

    result = validate_dataset(folder, lm_corpus, seen, vg, counter_pool)
    files = result.files
    click.echo(
        f"files: {'passed' if files.passed else 'FAILED'} ({files.files_checked} listed in the "
        f"manifest, {files.rows:,} rows)"
    )
    for problem in files.problems:
        click.echo(f"  {problem}")
    inv, sc = result.invariants, result.shortcuts
    if inv is not None and sc is not None:
        click.echo(f"invariants: {'passed' if inv.passed else 'FAILED'} on {inv.rows:,} rows")
        for (config, check), n in sorted(inv.violations.items()):
            click.echo(f"  {config}: {check} = {n}")
        for example in inv.examples:
            click.echo(f"  e.g. {example}")
        click.echo(f"{'config':<12} {'rows':>6} {'chance':>7} {'best R@1':>9}  baseline")
        for config, audit in sorted(sc.configs.items()):
            name, value = audit.best
            flag = "ok" if audit.passed else "SHORTCUT"
            click.echo(
                f"{config:<12} {audit.rows:>6} {audit.chance:>7.3f} {value:>9.3f}  {name} ({flag})"
            )
        if result.blind is not None:
            for line in blind_lines(result.blind.to_dict()):
                click.echo(line)
        if result.trained is not None:
            for line in trained_lines(result.trained.to_dict()):
                click.echo(line)
        if not result.kind_registered:
            click.echo(f"{result.dataset}: no builder registers this dataset kind's own checks")
        for name, report in result.dataset_checks.items():
            data = report.to_dict()
            state = "passed" if report.passed else "FAILED"
            click.echo(f"{result.dataset} {name}: {state} on {data.get('rows_checked', 0):,} rows")
            for reason, n in sorted((data.get("skipped") or {}).items()):
                click.echo(f"  skipped: {reason} = {n}")
            for line in violation_lines(data):
                click.echo(f"  {line}")
    else:
        click.echo("rows not checked: the files do not match the manifest")
    if json_out:
        write_json_atomic(json_out, result.to_dict())
    if not result.passed:
        raise click.ClickException(f"{folder} failed validation (see above)")


VALIDATE_COMMANDS = [validate_dataset_cmd]

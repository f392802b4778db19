"""`crepe publish`: upload a dataset folder to the Hub and tag the release."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("folder", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--repo", "repo_id", required=True, help="Hub dataset repo, e.g. my-org/crepe-bindsplit."
)
@click.option("--tag", default=None, help="Release tag (default: v<dataset version>).")
@click.option("--private", is_flag=True, help="Create the repo as private.")
@click.option(
    "--dry-run", is_flag=True, help="Validate the folder and show the plan; upload nothing."
)
@click.option(
    "--counter-pool",
    "counter_pool",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="Where the counter-image pool of a build with `groups` lies (as `validate dataset`).",
)
def publish(
    folder: Path,
    repo_id: str,
    tag: str | None,
    private: bool,
    dry_run: bool,
    counter_pool: tuple[Path, ...],
) -> None:
    """Check a dataset folder, upload it as one commit and tag it."""
    import crepe_datasets.builders.checks  # noqa: F401  (registers every builder's checks)
    from crepe_datasets.cards.publish import plan_release
    from crepe_datasets.cards.publish import publish as do_publish
    from crepe_datasets.infra.errors import CrepeInputError
    from crepe_datasets.validation.dataset import validate_dataset

    plan = plan_release(folder, repo_id, tag)
    result = validate_dataset(folder, counter_pool=counter_pool)
    if not result.passed:
        for line in result.failures():
            click.echo(f"  {line}", err=True)
        raise CrepeInputError(
            f"{folder} failed validation ({len(result.failures())} problems above); nothing was "
            "published: rebuild the dataset, or see `crepe validate dataset`"
        )
    click.echo(f"validation: passed (files, {result.files.rows:,} rows, invariants, shortcuts)")
    click.echo(
        f"{plan.folder} -> {plan.repo_id} @ {plan.tag}: {len(plan.files)} files, configs {', '.join(plan.configs)}"
    )
    if dry_run:
        return
    click.echo(f"Published: {do_publish(plan, private=private)}")
    click.echo(
        f'Load it: load_dataset("{plan.repo_id}", "{plan.configs[0]}", revision="{plan.tag}")'
    )


COMMANDS = [publish]

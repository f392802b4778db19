"""``crepe export mteb``: a dataset as mteb / MIEB tasks (metadata, and how to run them)."""

from __future__ import annotations

from pathlib import Path

import click

from crepe_datasets.scripts.options import checked_output


@click.group("export")
def export_group() -> None:
    """Describe a built dataset for other evaluation frameworks."""


@checked_output("out", kind="file")
@export_group.command("mteb")
@click.argument("dataset")
@click.option("--config", "configs", multiple=True, help="Only this config (repeatable).")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the tasks' metadata as JSON.",
)
def export_mteb_cmd(dataset: str, configs: tuple[str, ...], out: Path | None) -> None:
    """Show DATASET (a folder or a Hub repo ORG/NAME[@REVISION]) as mteb tasks.

    One image–text compositionality task per retrieval or binary config; run them with
    `mteb.evaluate(model, tasks=mteb_tasks(DATASET))` from crepe_datasets.evaluator.mteb_tasks.
    """
    from crepe_datasets.evaluator.mteb_tasks import mteb_tasks, task_summary
    from crepe_datasets.infra.provenance import write_json_atomic

    tasks = mteb_tasks(dataset, list(configs) or None)
    for task in tasks:
        meta = task.metadata
        click.echo(
            f"{meta.name}: {meta.type} ({meta.category}), main score {meta.main_score}, "
            f"splits {', '.join(meta.eval_splits)}, licence {meta.license}"
        )
    click.echo(
        "run: import mteb; from crepe_datasets.evaluator.mteb_tasks import mteb_tasks; "
        f"mteb.evaluate(MODEL, tasks=mteb_tasks({dataset!r}))"
    )
    if out is not None:
        write_json_atomic(out, {"dataset": dataset, "tasks": [task_summary(t) for t in tasks]})


COMMANDS = [export_group]

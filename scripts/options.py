"""The one guard every writing command puts on its output option.

``@checked_output("out", kind="dataset", inputs=("vg",))`` above ``@click.command`` makes the
command's ``--out`` safe (:func:`crepe_datasets.infra.outputs.check_output`): it keeps the
raw text of the option (so ``--out ''`` is told apart from ``--out .``), adds ``--overwrite``
to dataset commands, and checks the output against the command's inputs before any work starts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from crepe_datasets.infra.leftovers import clean_stale
from crepe_datasets.infra.outputs import OutputKind, check_output

OVERWRITE_HELP = (
    "Replace a dataset this toolkit built earlier at --out (kept until the new one is complete). "
    "A folder holding anything else is never replaced."
)


class _RawPath(click.ParamType):
    """Keeps the option's text as given (``click.Path`` turns ``''`` into ``'.'``)."""

    name = "path"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return value if isinstance(value, str) or value is None else str(value)


def checked_output(
    name: str = "out",
    *,
    kind: OutputKind = "dataset",
    inputs: Sequence[str] = (),
    recognise: Callable[[Path], bool] | None = None,
    what: str | None = None,
) -> Callable[[click.Command], click.Command]:
    """Decorate a click command so that its output option ``name`` is checked before it runs.

    Args:
        name: the parameter name of the output option (``out``, ``json_out`` …).
        kind: ``dataset`` (replaced as a whole; adds ``--overwrite``), ``folder`` or ``file``.
        inputs: parameter names of the command's inputs (paths or ``KIND:PATH`` specs).
        recognise: for ``folder``: the non-empty folders the command may write into.
        what: what is written there, for messages.
    """

    def decorate(command: click.Command) -> click.Command:
        param = next(p for p in command.params if p.name == name)
        param.type = _RawPath()
        option = "/".join(getattr(param, "opts", [name])[:1]) or name
        if kind == "dataset":
            command.params.append(click.Option(["--overwrite"], is_flag=True, help=OVERWRITE_HELP))
        callback = command.callback
        assert callback is not None

        @functools.wraps(callback)
        def run(*args: Any, **kwargs: Any) -> Any:
            overwrite = bool(kwargs.pop("overwrite", False)) if kind == "dataset" else False
            value = kwargs.get(name)
            if value is not None:
                out = check_output(
                    value,
                    kind,
                    inputs=[kwargs.get(i) for i in inputs],
                    overwrite=overwrite,
                    option=option,
                    recognise=recognise,
                    what=what or _WHAT[kind],
                )
                if kind != "file":  # leftovers of killed runs beside and (folders) inside it
                    clean_stale(out.resolve().parent)
                    if kind == "folder":
                        clean_stale(out)
                kwargs[name] = out
            return callback(*args, **kwargs)

        command.callback = run
        return command

    return decorate


_WHAT = {"dataset": "a dataset folder", "folder": "an output folder", "file": "an output file"}


def engine_options(workers_help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--engine local|dask``, ``--workers N`` (with the command's own help) and
    ``--scheduler ADDRESS``: the options of every command that runs on the parse engines."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(
            [
                click.option(
                    "--engine",
                    type=click.Choice(["local", "dask"]),
                    default="local",
                    show_default=True,
                ),
                click.option(
                    "--workers",
                    type=click.IntRange(min=1),
                    default=1,
                    show_default=True,
                    help=workers_help,
                ),
                click.option(
                    "--scheduler",
                    default=None,
                    help="Dask scheduler address, e.g. tcp://host:8786 (with --engine dask).",
                ),
            ]
        ):
            command = option(command)
        return command

    return decorate


def foil_balance_options(default_rate: float) -> Callable[[Callable], Callable]:
    """``--foil-cap`` and ``--foil-rate`` (default ``default_rate``): the bounds of the HN-ATOM
    foil ledger (:mod:`crepe_datasets.generators.negatives.foil_balance`)."""
    return functools.partial(_foil_balance_options, default_rate=default_rate)


def _foil_balance_options(command: Callable, default_rate: float) -> Callable:
    from crepe_datasets.generators.negatives.foil_balance import DEFAULT_CAP

    command = click.option(
        "--one-atom-sets",
        is_flag=True,
        help="Every HN-ATOM negative of a set replaces the same atom (no text of a set is the one "
        "the others were made from; per-text cues grow: see the docs).",
    )(command)
    command = click.option(
        "--foil-rate",
        type=click.FloatRange(min=0),
        default=default_rate,
        show_default=True,
        help="How much that bound grows per occurrence of the word in the positives seen.",
    )(command)
    return click.option(
        "--foil-cap",
        type=click.IntRange(min=0),
        default=DEFAULT_CAP,
        show_default=True,
        help="Largest surplus of a word's uses as an HN-ATOM foil over its uses as the replaced "
        "word (or the reverse) in a ledger, for a word no positive holds.",
    )(command)


def counter_pool_option(configs: str) -> Callable[[Callable], Callable]:
    """``--counter-pool PATH`` (repeatable): the pool sources of the counter-image ``configs``."""
    return click.option(
        "--counter-pool",
        "counter_pool",
        multiple=True,
        type=click.Path(path_type=Path),
        help=f"Add the {configs}: counter-regions from --vg plus this pool source "
        "(a FACTUAL CSV or another VG folder; repeatable).",
    )


allow_failed_checks_option = click.option(
    "--allow-failed-checks",
    is_flag=True,
    help="Write the dataset even when its invariants or shortcut audits fail (the card says which).",
)

"""Per-dataset checks of ``crepe validate dataset``, keyed by the manifest's dataset kind.

The checks every dataset gets (files against the manifest, row invariants, shortcut and blind
audits) are :func:`crepe_datasets.validation.dataset.validate_dataset`'s own. A builder whose
build runs more checks than those (crepe-systematicity re-derives every row's split from the seen
tables) registers them here under its manifest's ``dataset`` name, so that validating a built
folder runs every check its build ran. ``validation`` imports no builder: the command line imports
the builders' check modules (:mod:`crepe_datasets.builders.checks`), which fill this registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.validation.invariants import InvariantReport

Tables = Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]


@dataclass(frozen=True)
class CheckInput:
    """What a per-dataset check reads: the folder, its manifest, its rows and optional inputs.

    Attributes:
        folder: the dataset folder.
        manifest: its build manifest.
        tables: every row, ``{config: {split: rows}}``.
        seen: the seen-tables folder of the training corpus (``--seen``), when given.
        counter_pool: where the sources of the counter-image pool lie now (``--counter-pool``),
            when they moved since the build.
    """

    folder: Path
    manifest: BuildManifest
    tables: Tables
    seen: Path | None = None
    counter_pool: tuple[Path, ...] = ()


# A check returns its report, or None when it does not apply to the folder (a config it checks
# was not built): then it is left out of the validation report.
DatasetCheck = Callable[[CheckInput], InvariantReport | None]

_CHECKS: dict[str, dict[str, DatasetCheck]] = {}


def register_check(dataset: str, name: str, check: DatasetCheck) -> None:
    """Register ``check`` under ``name`` for the datasets whose manifest says ``dataset``.

    Raises:
        ValueError: when another function is already registered under that dataset and name.
    """
    checks = _CHECKS.setdefault(dataset, {})
    if checks.get(name, check) is not check:
        raise ValueError(f"a different check is already registered as {dataset}/{name}.")
    checks[name] = check


def checks_for(dataset: str) -> dict[str, DatasetCheck]:
    """The checks registered for ``dataset``, by name (sorted; empty when none)."""
    return dict(sorted(_CHECKS.get(dataset, {}).items()))


def registered_datasets() -> list[str]:
    """The dataset kinds that have checks registered (sorted)."""
    return sorted(d for d, checks in _CHECKS.items() if checks)

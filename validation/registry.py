"""What a build of each dataset kind checks, so that ``crepe validate dataset`` runs it too.

The checks every dataset gets (files against the manifest, row invariants, shortcut and blind
audits) are :func:`crepe_datasets.validation.dataset.validate_dataset`'s own
(:data:`COMMON_CHECKS`). Every builder declares its manifest's ``dataset`` kind here with
:func:`register_dataset`: which of the common checks its build records in the manifest's
``validation``, and its own checks (:func:`register_check`: crepe-systematicity re-derives every
row's split from the seen tables, crepe-captioning checks its splits for leakage), each under the
name the build records it as. Validating a built folder then runs every check its build ran,
and :func:`recorded_checks` names them. ``validation`` imports no builder: the command line
imports the builders' check modules (:mod:`crepe_datasets.builders.checks`), which fill this
registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from crepe_datasets.cards.manifest import BuildManifest

Tables = Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]

#: The checks :func:`~crepe_datasets.validation.dataset.validate_dataset` runs on every dataset,
#: by the name a build records them under in its manifest's ``validation``.
COMMON_CHECKS = ("invariants", "shortcuts", "blind_baselines", "trained_blind")


class CheckReport(Protocol):
    """What a check returns: whether it passed, and the dict a manifest records."""

    @property
    def passed(self) -> bool: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class RecordedReport:
    """A check's result that is a plain dict with a ``passed`` key (as the manifest records it)."""

    data: dict[str, Any]

    @property
    def passed(self) -> bool:
        return bool(self.data.get("passed"))

    def to_dict(self) -> dict[str, Any]:
        return self.data


@dataclass(frozen=True)
class CheckInput:
    """What a per-dataset check reads: the folder, its manifest, its rows and optional inputs.

    Attributes:
        folder: the dataset folder.
        manifest: its build manifest.
        tables: every row, ``{config: {split: rows}}``.
        seen: the seen-tables folder of the training corpus (``--seen``), when given.
        vg: the Visual Genome folder the dataset was built from (``--vg``), when given.
        counter_pool: where the sources of the counter-image pool lie now (``--counter-pool``),
            when they moved since the build.
    """

    folder: Path
    manifest: BuildManifest
    tables: Tables
    seen: Path | None = None
    vg: Path | None = None
    counter_pool: tuple[Path, ...] = ()


#: A dataset's own check; ``None`` when it does not apply to this folder (e.g. a config the
#: build did not make): then it is left out of the validation report.
DatasetCheck = Callable[[CheckInput], "CheckReport | None"]


@dataclass
class DatasetKind:
    """One registered dataset kind: the common checks its build records, and its own."""

    common: tuple[str, ...] = ()
    own: dict[str, DatasetCheck] = field(default_factory=dict)
    claimed: set[str] = field(default_factory=set)


_KINDS: dict[str, DatasetKind] = {}


def register_dataset(dataset: str, common: Sequence[str] = ()) -> None:
    """Declare a dataset kind and the :data:`COMMON_CHECKS` its build records.

    Raises:
        ValueError: on an unknown common check, or when the kind was declared with others.
    """
    unknown = sorted(set(common) - set(COMMON_CHECKS))
    if unknown:
        raise ValueError(f"{dataset}: no common check is named {', '.join(unknown)}.")
    kind = _KINDS.setdefault(dataset, DatasetKind(tuple(common)))
    if kind.common != tuple(common):
        raise ValueError(f"{dataset} is already registered with the common checks {kind.common}.")


def register_check(
    dataset: str, name: str, check: DatasetCheck, configs: Sequence[str] = ()
) -> None:
    """Register ``check`` under ``name`` for the datasets whose manifest says ``dataset``.

    ``configs``: configs this check alone covers (the build checks them apart from the common
    checks, e.g. crepe-systematicity's ``groups``); the common checks leave them out.

    Raises:
        ValueError: when ``dataset`` is not declared (:func:`register_dataset`), or another
            function is already registered under that dataset and name.
    """
    if dataset not in _KINDS:
        raise ValueError(f"declare {dataset} with register_dataset before its checks.")
    checks = _KINDS[dataset].own
    if checks.get(name, check) is not check:
        raise ValueError(f"a different check is already registered as {dataset}/{name}.")
    checks[name] = check
    _KINDS[dataset].claimed.update(configs)


def claimed_configs(dataset: str) -> set[str]:
    """The configs of ``dataset`` that its own checks alone cover (the common ones skip them)."""
    kind = _KINDS.get(dataset)
    return set(kind.claimed) if kind else set()


def checks_for(dataset: str) -> dict[str, DatasetCheck]:
    """The own checks registered for ``dataset``, by name (sorted; empty when none)."""
    kind = _KINDS.get(dataset)
    return dict(sorted(kind.own.items())) if kind else {}


def recorded_checks(dataset: str) -> list[str]:
    """The names of the checks a build of ``dataset`` records (sorted); its own checks take the
    place of a common check of the same name."""
    kind = _KINDS.get(dataset, DatasetKind())
    return sorted({*kind.common, *kind.own})


def registered_datasets() -> list[str]:
    """The declared dataset kinds (sorted)."""
    return sorted(_KINDS)

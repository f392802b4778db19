"""``crepe validate dataset`` as a function: files against the manifest, row invariants, audits
(formatting shortcuts, untrained blind text-only baselines and the trained blind audit), and the
checks registered for the manifest's dataset kind (:mod:`crepe_datasets.validation.registry`), so
that every check the build recorded runs again (:meth:`DatasetValidation.recorded`).

Used by the command and by ``crepe publish``, which refuses to upload a folder that fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.cards.manifest import BuildManifest, read_manifest
from crepe_datasets.generators.balance.blind import BlindReport, blind_audit
from crepe_datasets.generators.balance.shortcuts import ShortcutReport, audit_rows
from crepe_datasets.validation.files import FileReport, check_files
from crepe_datasets.validation.invariants import InvariantReport, check_rows, read_tables
from crepe_datasets.validation.registry import (
    CheckInput,
    CheckReport,
    Tables,
    checks_for,
    claimed_configs,
    recorded_checks,
    registered_datasets,
)
from crepe_datasets.validation.trained_blind import TrainedReport, trained_audit


@dataclass
class DatasetValidation:
    """The five reports and the dataset's own checks (by name); the row checks run only when the
    files match the manifest. ``kind_registered``: whether the manifest's dataset kind is
    registered (:mod:`crepe_datasets.validation.registry`), i.e. its build's checks are known."""

    folder: Path
    files: FileReport
    invariants: InvariantReport | None = None
    shortcuts: ShortcutReport | None = None
    blind: BlindReport | None = None
    trained: TrainedReport | None = None
    dataset_checks: dict[str, CheckReport] = field(default_factory=dict)
    dataset: str = ""
    kind_registered: bool = False

    @property
    def passed(self) -> bool:
        return (
            self.files.passed
            and self.invariants is not None
            and self.invariants.passed
            and self.shortcuts is not None
            and self.shortcuts.passed
            and (self.blind is None or self.blind.passed)
            and (self.trained is None or self.trained.passed)
            and all(report.passed for report in self.dataset_checks.values())
        )

    def failures(self) -> list[str]:
        """One line per failed part (empty when the folder passed)."""
        out = [f"files: {p}" for p in self.files.problems]
        if self.invariants is not None and not self.invariants.passed:
            out += [
                f"invariants: {c}: {k} = {n}"
                for (c, k), n in sorted(self.invariants.violations.items())
            ]
        if self.shortcuts is not None and not self.shortcuts.passed:
            out += [
                f"formatting shortcuts: {c}: {a.best[0]} R@1 {a.best[1]:.3f} vs chance {a.chance:.3f}"
                for c, a in sorted(self.shortcuts.configs.items())
                if not a.passed
            ]
        if self.blind is not None and not self.blind.passed:
            out += [
                f"blind baselines: {c} above chance + margin"
                for c in self.blind.configs
                if not self.blind.passed_config(c)
            ]
        if self.trained is not None and not self.trained.passed:
            out += [
                f"trained blind audit: {c} {r['all']['best_baseline']} R@1 {r['all']['best_r1']} "
                f"vs chance {r['all']['chance']}"
                for c, r in self.trained.configs.items()
                if r.get("target") and not r["passed"]
            ]
        for name, report in self.dataset_checks.items():
            if not report.passed:
                out += [f"{name}: {line}" for line in violation_lines(report.to_dict())]
        return out

    def recorded(self, name: str) -> dict[str, Any] | None:
        """The report of the check a build records as ``name`` in its manifest's ``validation``:
        the dataset's own check of that name, else the common one (``None`` when not run)."""
        if name in self.dataset_checks:
            return self.dataset_checks[name].to_dict()
        common = {
            "invariants": self.invariants,
            "shortcuts": self.shortcuts,
            "blind_baselines": self.blind,
            "trained_blind": self.trained,
        }.get(name)
        return common.to_dict() if common is not None else None

    def recorded_checks(self) -> dict[str, dict[str, Any]]:
        """Every check a build of this dataset kind records that applied to this folder (a
        dataset's own check may not: ``groups_checks`` without a ``groups`` config), with this
        validation's report."""
        reports = {name: self.recorded(name) for name in recorded_checks(self.dataset)}
        return {name: report for name, report in reports.items() if report is not None}

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "files": self.files.to_dict(),
            "invariants": self.invariants.to_dict() if self.invariants else None,
            "shortcuts": self.shortcuts.to_dict() if self.shortcuts else None,
            "blind_baselines": self.blind.to_dict() if self.blind else None,
            "trained_blind": self.trained.to_dict() if self.trained else None,
            "dataset_checks": {n: r.to_dict() for n, r in self.dataset_checks.items()},
        }


def violation_lines(report: dict[str, Any]) -> list[str]:
    """``config: check = n`` (or ``check = n``) per violation of a check's report dict."""
    out = []
    for key, value in sorted((report.get("violations") or {}).items()):
        if isinstance(value, dict):
            out += [f"{key}: {check} = {n}" for check, n in sorted(value.items())]
        else:
            out.append(f"{key} = {value}")
    return out


def _has_negatives(manifest: BuildManifest, config: str, splits: Tables) -> bool:
    """Whether the audits read ``config``: a row has a caption and hard negatives, or the config
    is empty and its task has a hard-negatives column (the build audited it, with 0 rows)."""
    if any(rows for rows in splits.values()):
        return any(
            isinstance(r.get("caption"), str) and r.get("hard_negatives")
            for rows in splits.values()
            for r in rows
        )
    info = manifest.configs.get(config)
    return info is not None and info.task.negatives_column == "hard_negatives"


def validate_dataset(
    folder: str | Path,
    lm_corpus: str | Path | None = None,
    seen: str | Path | None = None,
    vg: str | Path | None = None,
    counter_pool: Sequence[str | Path] = (),
) -> DatasetValidation:
    """Validate a dataset folder written by any builder of the toolkit.

    The checks registered for the manifest's dataset kind run too; the caller imports the
    builders' check modules (:mod:`crepe_datasets.builders.checks`) so that they are registered.

    Args:
        folder: the dataset folder.
        lm_corpus: caption corpus of the blind n-gram LM (default: the shipped counts).
        seen: the training corpus's seen-tables folder, for the checks that re-derive splits.
        vg: the Visual Genome folder of the build (``--vg``), for the checks that read its
            files (the counter-image groups: one more place to find the pool's VG source).
        counter_pool: where the counter-image pool lies now, when it moved since the build
            (default: the paths the manifest records).

    Raises:
        CrepeInputError: when ``folder`` is not a dataset folder (no readable manifest), or an
            input a check needs is missing or not the build's (seen tables, counter pool).
    """
    folder = Path(folder)
    result = DatasetValidation(folder, check_files(folder))
    if not result.files.passed:
        return result
    manifest = read_manifest(folder)
    tables = read_tables(folder)
    for config, counts in manifest.counts.items():  # an empty split has no file, but was built
        for split in counts:
            tables.setdefault(config, {}).setdefault(split, [])
    given = CheckInput(
        folder,
        manifest,
        tables,
        Path(seen) if seen is not None else None,
        Path(vg) if vg is not None else None,
        tuple(Path(p) for p in counter_pool),
    )
    result.dataset = manifest.dataset
    result.kind_registered = manifest.dataset in registered_datasets()
    # the dataset's own checks first: an input they need that is missing or wrong (seen tables,
    # counter pool) is refused before the slower audits run
    for name, check in checks_for(manifest.dataset).items():
        report = check(given)
        if report is not None:
            result.dataset_checks[name] = report
    claimed = claimed_configs(manifest.dataset)  # covered by the dataset's own checks alone
    common = {c: t for c, t in tables.items() if c not in claimed}
    result.invariants = check_rows(common)
    with_negatives = {c: t for c, t in common.items() if _has_negatives(manifest, c, t)}
    result.shortcuts = audit_rows(with_negatives)
    result.blind = blind_audit(with_negatives, lm_corpus)
    result.trained = trained_audit(with_negatives)
    return result

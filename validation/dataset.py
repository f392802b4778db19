"""``crepe validate dataset`` as a function: files against the manifest, row invariants, audits
(formatting shortcuts, untrained blind text-only baselines and the trained blind audit), and the
checks registered for the manifest's dataset kind (:mod:`crepe_datasets.validation.registry`).

Used by the command and by ``crepe publish``, which refuses to upload a folder that fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.cards.manifest import read_manifest
from crepe_datasets.validation.blind import BlindReport, blind_audit
from crepe_datasets.validation.files import FileReport, check_files
from crepe_datasets.validation.invariants import InvariantReport, check_rows, read_tables
from crepe_datasets.validation.registry import CheckInput, checks_for
from crepe_datasets.validation.shortcuts import ShortcutReport, audit_rows
from crepe_datasets.validation.trained_blind import TrainedReport, trained_audit


@dataclass
class DatasetValidation:
    """The five reports and the dataset's own checks (by name); the row checks run only when the
    files match the manifest."""

    folder: Path
    files: FileReport
    invariants: InvariantReport | None = None
    shortcuts: ShortcutReport | None = None
    blind: BlindReport | None = None
    trained: TrainedReport | None = None
    dataset_checks: dict[str, InvariantReport] = field(default_factory=dict)

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
            out += [f"{name}: {c}: {k} = {n}" for (c, k), n in sorted(report.violations.items())]
        return out

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


def validate_dataset(
    folder: str | Path,
    lm_corpus: str | Path | None = None,
    seen: str | Path | None = None,
    counter_pool: Sequence[str | Path] = (),
) -> DatasetValidation:
    """Validate a dataset folder written by any builder of the toolkit.

    The checks registered for the manifest's dataset kind run too; the caller imports the
    builders' check modules (:mod:`crepe_datasets.builders.checks`) so that they are registered.

    Args:
        folder: the dataset folder.
        lm_corpus: caption corpus of the blind n-gram LM (default: the shipped counts).
        seen: the training corpus's seen-tables folder, for the checks that re-derive splits.
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
    tables = read_tables(folder)
    result.invariants = check_rows(tables)
    manifest = read_manifest(folder)
    given = CheckInput(
        folder,
        manifest,
        tables,
        Path(seen) if seen is not None else None,
        tuple(Path(p) for p in counter_pool),
    )
    # the dataset's own checks first: an input they need that is missing or wrong (seen tables,
    # counter pool) is refused before the slower audits run
    for name, check in checks_for(manifest.dataset).items():
        report = check(given)
        if report is not None:
            result.dataset_checks[name] = report
    with_negatives = {
        c: t
        for c, t in tables.items()
        if any(
            isinstance(r.get("caption"), str) and r.get("hard_negatives")
            for rows in t.values()
            for r in rows
        )
    }
    result.shortcuts = audit_rows(with_negatives)
    result.blind = blind_audit(with_negatives, lm_corpus)
    result.trained = trained_audit(with_negatives, dataset=manifest.dataset)
    return result

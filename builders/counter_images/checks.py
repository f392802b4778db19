"""The ``groups`` check of a crepe-systematicity build, registered for ``crepe validate dataset``.

``groups_checks`` is the manifest's ``validation.groups_checks`` of a build with
``--counter-pool``: every counter-image group re-verified from its row
(:func:`crepe_datasets.validation.counter_groups.check_groups`), with the canonical terms of the
Visual Genome folder's alias files as the build read them. Without ``--vg`` the groups are
counted as skipped; a folder without the ``groups`` config has no such check. The common checks
leave the ``groups`` config to this one (the build adds it after them).
"""

from __future__ import annotations

from crepe_datasets.builders.systematicity.checks import DATASET
from crepe_datasets.generators.terms import Terms
from crepe_datasets.validation.counter_groups import CONFIG, check_groups
from crepe_datasets.validation.invariants import InvariantReport
from crepe_datasets.validation.registry import CheckInput, register_check


def groups_checks(given: CheckInput) -> InvariantReport | None:
    """The build's re-verification of the groups; ``None`` when the folder has none."""
    groups = given.tables.get(CONFIG)
    if groups is None:
        return None
    if given.vg is None:
        report = InvariantReport(rows=sum(len(rows) for rows in groups.values()))
        report.skipped["groups_checks (no --vg: the Visual Genome alias files)"] = report.rows
        return report
    return check_groups(groups, Terms.from_vg(given.vg))


register_check(DATASET, "groups_checks", groups_checks, configs=(CONFIG,))

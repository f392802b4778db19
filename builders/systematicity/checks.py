"""The checks a crepe-systematicity build records, registered for ``crepe validate dataset``
(:mod:`crepe_datasets.validation.registry`): the common ones and its own.

``systematicity_checks`` is the build manifest's ``validation.systematicity_checks``: every row's
atom and compound lists re-derived from its scene graph, its split re-derived from them, set sizes
and negatives (:func:`crepe_datasets.validation.systematicity.check_tables`). With the training
corpus's seen tables (``--seen``) the unseen lists are re-derived from them as the build did; the
folder must hold the corpus the dataset was built from (same corpus checksum).
"""

from __future__ import annotations

from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scenegraph.seen import load_seen
from crepe_datasets.validation.invariants import InvariantReport
from crepe_datasets.validation.registry import (
    COMMON_CHECKS,
    CheckInput,
    claimed_configs,
    register_check,
    register_dataset,
)
from crepe_datasets.validation.systematicity import check_tables

DATASET = "crepe-systematicity"


def systematicity_checks(given: CheckInput) -> InvariantReport:
    """The row checks of the build, with the seen tables when ``given.seen`` names them.

    Raises:
        CrepeInputError: when the seen folder was made from another corpus than the dataset's.
    """
    seen = None
    if given.seen is not None:
        corpus: dict[str, Any] = (given.manifest.summary or {}).get("training_corpus") or {}
        seen = load_seen(given.seen, int(corpus.get("min_count") or 1))
        expected = corpus.get("corpus_sha256")
        if expected and seen.manifest.get("corpus_sha256") != expected:
            raise CrepeInputError(
                f"seen folder {given.seen} was parsed from another corpus than {given.folder} "
                f"was built from ({corpus.get('corpus')})."
            )
    # The build checks its rows before it adds the counter-image groups (``groups``,
    # ``groups_comp``): the configs their own checks claim
    # (:mod:`crepe_datasets.builders.counter_images.checks`).
    claimed = claimed_configs(DATASET)
    tables = {c: t for c, t in given.tables.items() if c not in claimed}
    report = check_tables(tables, seen)
    if seen is None:
        report.skipped["unseen_lists_against_seen_tables (no --seen)"] = report.rows
    return report


register_dataset(DATASET, COMMON_CHECKS)
register_check(DATASET, "systematicity_checks", systematicity_checks)

"""The check a crepe-captioning build records, registered for ``crepe validate dataset``.

``invariants`` is the build manifest's ``validation.invariants``: no image in two splits of a
config, held-out pairs kept out of training, balanced pairs, configs over one image set
(:func:`crepe_datasets.validation.captioning.check_captioning`, with the manifest's summary). It
takes the place of the common row invariants in the comparison with the manifest.
"""

from __future__ import annotations

from crepe_datasets.validation.captioning import check_captioning
from crepe_datasets.validation.registry import (
    CheckInput,
    RecordedReport,
    register_check,
    register_dataset,
)

DATASET = "crepe-captioning"


def captioning_invariants(given: CheckInput) -> RecordedReport:
    """The leakage and balance checks of the build, on the rows as written."""
    return RecordedReport(check_captioning(given.tables, given.manifest.summary))


register_dataset(DATASET)
register_check(DATASET, "invariants", captioning_invariants)

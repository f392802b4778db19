"""The checks a crepe-productivity build records, declared for ``crepe validate dataset``.

A build records the common checks only (:data:`~crepe_datasets.validation.registry.COMMON_CHECKS`:
row invariants, formatting shortcuts, the untrained and the trained blind audits), all of which
``validate dataset`` runs on every folder; it has no check of its own.
"""

from __future__ import annotations

from crepe_datasets.validation.registry import COMMON_CHECKS, register_dataset

DATASET = "crepe-productivity"

register_dataset(DATASET, COMMON_CHECKS)

"""The checks crepe-bindsplit builds record, declared for ``crepe validate dataset``: none.

A BindSplit build (and its controlled hold-out) labels and counts every sample in its summary
but records no check in its manifest's ``validation``; ``validate dataset`` runs the common
checks on its folders all the same.
"""

from __future__ import annotations

from crepe_datasets.validation.registry import register_dataset

DATASETS = ("crepe-bindsplit", "crepe-bindsplit-holdout")

for dataset in DATASETS:
    register_dataset(dataset)

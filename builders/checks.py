"""Every builder's per-dataset checks, registered for ``crepe validate dataset``.

Importing this module fills :mod:`crepe_datasets.validation.registry` (each check module
registers its checks when imported); the ``validate dataset`` and ``publish`` commands import it,
so that validating a folder runs every check its build ran.
"""

from __future__ import annotations

from crepe_datasets.builders.counter_images import checks as counter_images
from crepe_datasets.builders.systematicity import checks as systematicity

CHECK_MODULES = (systematicity, counter_images)

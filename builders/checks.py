"""Every builder's checks, registered for ``crepe validate dataset``.

Importing this module fills :mod:`crepe_datasets.validation.registry` (each check module
declares its dataset kind, the common checks its build records and its own checks when
imported); the ``validate dataset`` and ``publish`` commands import it, so that validating a
folder runs every check its build ran.
"""

from __future__ import annotations

from crepe_datasets.builders import vg_regions
from crepe_datasets.builders.bindsplit import checks as bindsplit
from crepe_datasets.builders.captioning import checks as captioning
from crepe_datasets.builders.counter_images import checks as counter_images
from crepe_datasets.builders.productivity import checks as productivity
from crepe_datasets.builders.systematicity import checks as systematicity

CHECK_MODULES = (bindsplit, captioning, counter_images, productivity, systematicity, vg_regions)

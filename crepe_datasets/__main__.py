"""``python -m crepe_datasets``: the ``crepe`` command line."""

import sys

from crepe_datasets.scripts.cli import main

sys.exit(main())

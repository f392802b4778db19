"""Every module imports the toolkit through its one namespace, ``crepe_datasets``."""

from __future__ import annotations

import re

import crepe_datasets
from crepe_datasets.builders import writer
from tests.conftest import REPO_ROOT
from tests.test_import_direction import ORDER as LAYERS

BARE_IMPORT = re.compile(rf"^\s*(from|import) ({'|'.join(LAYERS)})(\.|\s|$)", re.M)


def test_no_module_imports_a_layer_by_its_bare_name():
    offenders = []
    for folder in (*LAYERS, "tests", "crepe_datasets"):
        for path in (REPO_ROOT / folder).rglob("*.py"):
            if BARE_IMPORT.search(path.read_text(encoding="utf-8")):
                offenders.append(str(path.relative_to(REPO_ROOT)))
    assert offenders == []


def test_layers_resolve_to_this_checkout():
    assert crepe_datasets.__version__
    assert writer.__name__ == "crepe_datasets.builders.writer"
    assert (REPO_ROOT / "builders" / "writer.py").samefile(writer.__file__)

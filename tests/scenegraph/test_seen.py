"""Seen tables and their keys (real corpus sample, parsed by parse-corpus's builder)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scenegraph.seen import atom_key, compound_key, load_seen
from crepe_datasets.scenegraph.types import Atom, Compound


def test_keys() -> None:
    assert atom_key(Atom("relationship", "on top of")) == "relationship:on top of"
    assert compound_key(Compound("attribute_object", ("black", "dog"))) == "ao:black|dog"
    assert compound_key(Compound("object_relationship_object", ("man", "hug", "child"))) == (
        "oro:man|hug|child"
    )


def test_min_count_shrinks_seen(seen_folder: Path) -> None:
    one, three = load_seen(seen_folder, 1), load_seen(seen_folder, 3)
    assert three.atoms < one.atoms and three.compounds < one.compounds
    with pytest.raises(CrepeInputError, match="min-count"):
        load_seen(seen_folder, 0)


def test_seen_folder_of_another_version(seen_folder: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(seen_folder, old)
    manifest = json.loads((old / "manifest.json").read_text())
    manifest["parser_version"] = "crepe-rules-0.1"
    (old / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CrepeInputError, match=r"parser version 'crepe-rules-0\.1'"):
        load_seen(old)
    (old / "atoms.parquet").unlink()
    with pytest.raises(CrepeInputError, match=r"no atoms\.parquet"):
        load_seen(old)
    with pytest.raises(CrepeInputError, match=r"no atoms\.parquet"):
        load_seen(tmp_path / "missing")

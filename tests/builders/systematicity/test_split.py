"""Seen tables and the SC / UC / UA split (real corpus sample, parsed by parse-corpus's builder)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from crepe_datasets.builders.systematicity.split import classify
from crepe_datasets.scenegraph.errors import CrepeInputError
from crepe_datasets.scenegraph.seen import atom_key, compound_key, load_seen, split_of
from crepe_datasets.scenegraph.types import Atom, Compound, Relationship, SceneGraph, SGObject


def test_keys() -> None:
    assert atom_key(Atom("relationship", "on top of")) == "relationship:on top of"
    assert compound_key(Compound("attribute_object", ("black", "dog"))) == "ao:black|dog"
    assert compound_key(Compound("object_relationship_object", ("man", "hug", "child"))) == (
        "oro:man|hug|child"
    )


def test_split_definitions(seen_folder: Path) -> None:
    seen = load_seen(seen_folder)
    assert seen.atoms and seen.compounds
    # pick a seen attribute-object compound of the corpus and build graphs around it
    ao = sorted(c for c in seen.compounds if c.startswith("ao:"))[0]
    attr, obj = ao[3:].split("|")
    sc = classify(SceneGraph([SGObject(0, obj, (attr,))]), seen)
    assert sc.split == "seen_compounds" and not sc.unseen_atoms and not sc.unseen_compounds
    other = sorted(
        a[len("attribute:") :]
        for a in seen.atoms
        if a.startswith("attribute:") and f"ao:{a[len('attribute:') :]}|{obj}" not in seen.compounds
    )[0]
    uc = classify(SceneGraph([SGObject(0, obj, (other,))]), seen)
    assert uc.split == "unseen_compounds" and uc.unseen_compounds == [f"ao:{other}|{obj}"]
    ua = classify(SceneGraph([SGObject(0, "zzyzxobject", (attr,))]), seen)
    assert ua.split == "unseen_atoms" and ua.unseen_atoms == ["object:zzyzxobject"]
    rel = classify(
        SceneGraph([SGObject(0, obj), SGObject(1, "zzyzxobject")], [Relationship(0, "on", 1)]),
        seen,
    )
    assert rel.compounds == [f"oro:{obj}|on|zzyzxobject"] and rel.split == "unseen_atoms"
    assert split_of([], []) == "seen_compounds"


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

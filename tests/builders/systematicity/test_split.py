"""The SC / UC / UA split of captions (real corpus sample, parsed by parse-corpus's builder).

The seen tables themselves are tested in ``tests/scenegraph/test_seen.py``.
"""

from __future__ import annotations

from pathlib import Path

from crepe_datasets.builders.systematicity.split import classify
from crepe_datasets.scenegraph.seen import load_seen, split_of
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


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

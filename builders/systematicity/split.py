"""The SC / UC / UA split of a parsed caption, as the systematicity builder applies it (SPEC §2.4).

The seen tables, the key formats and the definition of the three splits are
:mod:`crepe_datasets.scenegraph.seen` (shared with ``validation``); this module classifies a
caption's scene graph against them and says which compounds a caption of a split may be joined to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crepe_datasets.scenegraph.seen import SPLITS, SeenTables, atom_key, compound_key, split_of
from crepe_datasets.scenegraph.types import Atom, Compound, SceneGraph

HN_SPLITS = SPLITS[:2]


@dataclass(frozen=True)
class Classified:
    """A caption's split with the lists that explain it (distinct keys, graph order)."""

    split: str
    atoms: list[str]
    compounds: list[str]
    unseen_atoms: list[str]
    unseen_compounds: list[str]


def _distinct(keys: list[str]) -> list[str]:
    return list(dict.fromkeys(keys))


def admits(seen: SeenTables, split: str) -> Callable[[Compound], bool]:
    """Whether a compound may be joined to a caption of ``split`` without changing its split:
    its atoms are seen, and in ``seen_compounds`` the compound too (HN-COMP-MATCHED's second
    compound)."""

    def admit(c: Compound) -> bool:
        if c.kind == "attribute_object":
            atoms = [Atom("attribute", c.parts[0]), Atom("object", c.parts[1])]
        else:
            atoms = [Atom("object", c.parts[0]), Atom("relationship", c.parts[1])]
            atoms.append(Atom("object", c.parts[2]))
        if any(atom_key(a) not in seen.atoms for a in atoms):
            return False
        return split != SPLITS[0] or compound_key(c) in seen.compounds

    return admit


def classify(graph: SceneGraph, seen: SeenTables) -> Classified:
    """The split of a parsed caption and its atom / compound lists."""
    atoms = _distinct([atom_key(a) for a in graph.atoms()])
    compounds = _distinct([compound_key(c) for c in graph.compounds()])
    unseen_atoms = [a for a in atoms if a not in seen.atoms]
    unseen_compounds = [c for c in compounds if c not in seen.compounds]
    return Classified(
        split_of(unseen_atoms, unseen_compounds), atoms, compounds, unseen_atoms, unseen_compounds
    )

"""The compositional language: atoms, compounds, scene graphs, bindings, and their readers.

Everything above ``infra`` builds on the records defined here; the infrastructure every layer uses
(drop log, checksums, errors, output checks, resources) is the layer below
(:mod:`crepe_datasets.infra`).
"""

from crepe_datasets.scenegraph.types import (
    Atom,
    Binding,
    Box,
    Compound,
    Relationship,
    SceneGraph,
    SGObject,
)

__all__ = [
    "Atom",
    "Binding",
    "Box",
    "Compound",
    "Relationship",
    "SGObject",
    "SceneGraph",
]

"""The compositional language: atoms, compounds, scene graphs, bindings, and their readers.

Everything else in the toolkit builds on the records defined here.
"""

from crepe_datasets.scenegraph.errors import CrepeInputError, MissingResourceError
from crepe_datasets.scenegraph.types import (
    Atom,
    Binding,
    Box,
    Compound,
    Relationship,
    SceneGraph,
    SGObject,
)
from crepe_datasets.scenegraph.version import __version__

__all__ = [
    "Atom",
    "Binding",
    "Box",
    "Compound",
    "CrepeInputError",
    "MissingResourceError",
    "Relationship",
    "SGObject",
    "SceneGraph",
    "__version__",
]

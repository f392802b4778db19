"""Imports point one way: a layer imports only the layers below it (docs/architecture.md).

Every module of the package folders is parsed with :mod:`ast` (nothing is imported or run), and
every ``crepe_datasets.<layer>`` import in it, including imports inside functions, is checked
against :data:`ALLOWED`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMESPACE = "crepe_datasets"

# Each layer and the layers it may import (besides itself), bottom to top. The order is the one
# the code already nearly had, so that it needed the fewest moves:
# * infra: the infrastructure every other layer uses (provenance: drop log, checksums, atomic
#   writes; errors; outputs and leftovers; jsonstream; hygiene; resources; version); it imports
#   nothing of ours.
# * scenegraph: the compositional language, the Visual Genome readers, the caption parser.
# * sources: readers of training corpora and released benchmarks, in one registry
#   (sources/registry.py); they need only infra, and both builders (seen tables, BindSplit's
#   adapters) and the evaluator (released benchmarks) read through them, so they sit below both
#   (and below generators, whose blind scorers read a training corpus: balance/corpus_lm.py).
# * generators: hard negatives, caption writers and filters over scene graphs; balance/: the
#   blind baselines and the balancing of negatives against them, used by builders and validation.
# * cards: the build manifest, task metadata and card rendering; it describes a built dataset,
#   and validation reads it.
# * validation: checks of a built dataset (files vs manifest, invariants, audits, annotation);
#   builders run these checks before they write, so validation sits below builders and must
#   never import them.
# * builders: one module per published dataset; they use everything below.
# * evaluator: reads built datasets and reuses the builders' crop rule and pair matcher.
# * scripts: the `crepe` command line wires everything; nothing imports it.
ORDER = (
    "infra",
    "scenegraph",
    "sources",
    "generators",
    "cards",
    "validation",
    "builders",
    "evaluator",
    "scripts",
)
ALLOWED: dict[str, frozenset[str]] = {layer: frozenset(ORDER[:i]) for i, layer in enumerate(ORDER)}

# Imports against the direction that cannot be removed yet: (module path, imported module) →
# why. Empty: every import follows the order.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {}


def _imported(node: ast.AST) -> list[str]:
    """The absolute module names an import statement names (``from x import y`` gives ``x.y``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        if node.module == NAMESPACE:
            return [f"{NAMESPACE}.{alias.name}" for alias in node.names]
        return [node.module]
    return []


def import_edges() -> list[tuple[str, str, str, int, str]]:
    """Every cross-layer import of the package: (from layer, to layer, path, line, module)."""
    edges = []
    for layer in ORDER:
        for path in sorted((ROOT / layer).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(tree):
                for name in _imported(node):
                    parts = name.split(".")
                    if parts[0] != NAMESPACE or len(parts) < 2 or parts[1] == layer:
                        continue
                    edges.append((layer, parts[1], rel, node.lineno, name))
    return edges


def test_every_layer_is_in_the_order() -> None:
    """The order names every package folder (a new folder must be placed in it)."""
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    tree = ast.parse(setup)
    layers = next(
        ast.literal_eval(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "LAYERS" for t in n.targets)
    )
    assert sorted(layers) == sorted(ORDER)


def test_no_relative_imports() -> None:
    """Relative imports would hide an edge from this test; the package uses absolute ones."""
    relative = []
    for layer in ORDER:
        for path in sorted((ROOT / layer).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            relative += [
                f"{path.relative_to(ROOT)}:{n.lineno}"
                for n in ast.walk(tree)
                if isinstance(n, ast.ImportFrom) and n.level > 0
            ]
    assert relative == []


def test_imports_point_down() -> None:
    """No module imports a layer above its own, nor an unknown layer."""
    edges = import_edges()
    assert len(edges) > 100  # the walk found the package's imports
    against = [
        f"{rel}:{line} imports {name} ({layer} → {target})"
        for layer, target, rel, line, name in edges
        if target not in ALLOWED[layer] and (rel, name) not in KNOWN_EXCEPTIONS
    ]
    assert against == []


def test_known_exceptions_still_exist() -> None:
    """An exception whose import is gone must leave the list."""
    present = {(rel, name) for _, _, rel, _, name in import_edges()}
    assert [key for key in KNOWN_EXCEPTIONS if key not in present] == []

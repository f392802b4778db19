"""crepe-datasets: build, validate, publish and evaluate compositionality benchmarks.

The repository keeps one folder per layer at its root (``infra/``, ``scenegraph/``,
``sources/``, ``generators/``, ``cards/``, ``validation/``, ``builders/``, ``evaluator/``,
``scripts/``); ``setup.py`` maps each of them under this package, so that installed they are ``crepe_datasets.scenegraph``,
``crepe_datasets.builders`` and so on, and nothing else lands on a user's import path.

In a source checkout this package also looks for its layers in the checkout's root, so that a
clone or a git worktree imports its own folders even where another checkout is the one installed
in editable mode.
"""

from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent
if (_CHECKOUT / "setup.py").is_file() and (_CHECKOUT / "infra" / "__init__.py").is_file():
    __path__.insert(0, str(_CHECKOUT))  # type: ignore[name-defined]

from crepe_datasets.infra.version import __version__  # noqa: E402

__all__ = ["__version__"]

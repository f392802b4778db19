"""The engine interface and the in-process engine; :func:`make_engine` picks one by name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError

ENGINES = ("local", "dask")


class Engine:
    """Runs ``fn(*task)`` for every task, yielding results in task order.

    Subclasses set :attr:`name` and implement :meth:`imap`; use as a context manager so that
    worker processes or cluster connections are closed.
    """

    name = "base"
    workers = 1

    def imap(self, fn: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[Any]:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        """Settings for the manifest."""
        return {"engine": self.name, "workers": self.workers}

    def close(self) -> None:
        """Release workers once their tasks are done (nothing to do in-process)."""

    def abort(self) -> None:
        """Release workers at once, dropping tasks in flight (an error or Ctrl-C); default: close."""
        self.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


class InProcessEngine(Engine):
    """Runs every task here, one after the other (``--engine local --workers 1``)."""

    name = "local"

    def imap(self, fn: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[Any]:
        for task in tasks:
            yield fn(*task)


def make_engine(name: str = "local", workers: int = 1, scheduler: str | None = None) -> Engine:
    """An engine by name.

    Args:
        name: ``"local"`` (one process, or a pool of ``workers`` processes) or ``"dask"``.
        workers: worker processes (local pool, or a Dask LocalCluster when no scheduler).
        scheduler: Dask scheduler address (``tcp://host:8786``); ``None`` starts a LocalCluster.

    Raises:
        CrepeInputError: unknown engine name or a worker count below 1.
    """
    if workers < 1:
        raise CrepeInputError(f"--workers must be at least 1, got {workers}.")
    if name == "local":
        if workers == 1:
            return InProcessEngine()
        from crepe_datasets.builders.engines.local import LocalPoolEngine

        return LocalPoolEngine(workers)
    if name == "dask":
        from crepe_datasets.builders.engines.dask_engine import DaskEngine

        return DaskEngine(scheduler=scheduler, workers=workers)
    raise CrepeInputError(f"unknown engine {name!r}; choose one of {', '.join(ENGINES)}.")

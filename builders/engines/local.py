"""Local multi-process engine: a pool of worker processes, each loading the parser once.

Workers are started with the ``spawn`` method (safe beside spaCy's and torch's threads); each
keeps its parser in a process-wide cache (:func:`crepe_datasets.builders.seen_tables.worker_parser`), so the
model is loaded once per worker, not once per task. At most ``2 × workers`` tasks are in
flight, so the parent never holds more than a few shards.
"""

from __future__ import annotations

import multiprocessing as mp
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from crepe_datasets.builders.engines.base import Engine


class LocalPoolEngine(Engine):
    """``workers`` local processes; results in task order."""

    name = "local"

    def __init__(self, workers: int, max_in_flight: int | None = None) -> None:
        self.workers = workers
        self.max_in_flight = max_in_flight or 2 * workers
        self._pool = mp.get_context("spawn").Pool(workers)

    def imap(self, fn: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[Any]:
        pending: deque = deque()
        for task in tasks:
            pending.append(self._pool.apply_async(fn, task))
            if len(pending) >= self.max_in_flight:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()

    def close(self) -> None:
        self._pool.close()
        self._pool.join()

"""Local multi-process engine: a pool of worker processes, each loading the parser once.

Workers are started with the ``spawn`` method (safe beside spaCy's and torch's threads); each
keeps its parser in a process-wide cache (:func:`crepe_datasets.builders.seen_tables.worker_parser`), so the
model is loaded once per worker, not once per task. At most ``2 × workers`` tasks are in
flight, so the parent never holds more than a few shards.

Interrupts: workers ignore SIGINT (Ctrl-C reaches the whole process group), so only the parent
sees ``KeyboardInterrupt``; leaving the engine on any exception terminates the workers at once
instead of waiting for their tasks. Ctrl-C therefore ends the command within a second or two,
without worker tracebacks, and the shards finished so far stay on disk for the next run.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from crepe_datasets.builders.engines.base import Engine


def ignore_sigint() -> None:
    """Pool initializer: leave Ctrl-C to the parent process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalPoolEngine(Engine):
    """``workers`` local processes; results in task order."""

    name = "local"

    def __init__(self, workers: int, max_in_flight: int | None = None) -> None:
        self.workers = workers
        self.max_in_flight = max_in_flight or 2 * workers
        self._pool = mp.get_context("spawn").Pool(workers, initializer=ignore_sigint)

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

    def abort(self) -> None:
        """Stop the workers now, dropping the tasks in flight."""
        self._pool.terminate()
        self._pool.join()

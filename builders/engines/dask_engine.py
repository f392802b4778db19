"""Dask engine: the same shard tasks on a ``distributed`` cluster (or a LocalCluster).

With a scheduler address the engine connects to an existing cluster
(``crepe parse-corpus --engine dask --scheduler tcp://host:8786``); without one it starts a
LocalCluster of ``workers`` single-threaded worker processes. Each worker loads the parser
once and keeps it in a process-wide cache (:func:`crepe_datasets.builders.seen_tables.worker_parser`), so
tasks after the first reuse the model. Futures are submitted with a bounded window and
gathered in task order, so the client holds at most a few shards. On Ctrl-C or an error the
futures in flight are cancelled and the client and cluster closed with short timeouts.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from crepe_datasets.builders.engines.base import Engine
from crepe_datasets.infra.errors import CrepeInputError


class DaskEngine(Engine):
    """Shard tasks as Dask futures; results in task order."""

    name = "dask"

    def __init__(
        self, scheduler: str | None = None, workers: int = 2, max_in_flight: int | None = None
    ) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError as err:  # pragma: no cover - optional dependency
            raise CrepeInputError(
                "the dask engine needs `pip install 'crepe-datasets[distributed]'`."
            ) from err
        self.scheduler = scheduler
        self._cluster = None
        self._pending: deque = deque()
        if scheduler:
            self._client = Client(scheduler)
        else:
            # Worker processes started while SIGINT is ignored keep ignoring it: Ctrl-C then
            # reaches only this process, which closes the cluster (no worker tracebacks).
            main = threading.current_thread() is threading.main_thread()
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
            try:
                self._cluster = LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
                )
            finally:
                if main:
                    signal.signal(signal.SIGINT, previous)
            self._client = Client(self._cluster)
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})) or workers)
        self.max_in_flight = max_in_flight or 2 * self.workers

    def imap(self, fn: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[Any]:
        pending: deque = deque()
        self._pending = pending
        for task in tasks:
            pending.append(self._client.submit(fn, *task, pure=False))
            if len(pending) >= self.max_in_flight:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def describe(self) -> dict[str, Any]:
        return {
            "engine": self.name,
            "workers": self.workers,
            "scheduler": self.scheduler or "LocalCluster",
        }

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def abort(self) -> None:
        """Cancel what is in flight and close quickly (Ctrl-C or an error)."""
        with contextlib.suppress(Exception):
            self._client.cancel(list(self._pending), force=True)
        with contextlib.suppress(Exception):
            self._client.close(timeout=2)
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close(timeout=5)

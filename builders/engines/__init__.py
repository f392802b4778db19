"""Engines that run shard tasks: in this process, on local worker processes, or on Dask.

Every engine has the same small interface (:class:`crepe_datasets.builders.engines.base.Engine`):
``imap(fn, tasks)`` runs the module-level function ``fn(*task)`` for each task and yields the
results **in task order**, keeping at most ``max_in_flight`` tasks submitted at a time, so that
memory stays bounded by a few shards whatever the corpus size.
"""

from __future__ import annotations

from crepe_datasets.builders.engines.base import Engine, InProcessEngine, make_engine

__all__ = ["Engine", "InProcessEngine", "make_engine"]

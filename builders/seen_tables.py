"""Seen tables of a training corpus: which atoms, compounds and bindings it holds, with counts.

Flow (SPEC §2.1, §4.1): the corpus is streamed (:func:`crepe_datasets.sources.corpus.iter_corpus`),
each caption cleaned (:mod:`crepe_datasets.builders.seen_clean`), cut into shards of ``shard_size`` captions in
corpus order, and every shard parsed by an engine (:mod:`crepe_datasets.builders.engines`). Within a shard,
exact duplicate captions are parsed once and counted with their multiplicity. A finished
shard leaves ``shards/shard-NNNNNN.json`` (its counts); a restarted run skips those shards
without parsing them. Memory is bounded by the shard size (plus the merged tables).

Counts: a table row counts the caption *occurrences* whose graph holds the atom / compound
(once per caption). Bindings follow BindSplit: an object with one attribute gives a
``perfect`` binding, an object with k > 1 attributes gives k ``close`` bindings; counts
(numbers) are not bindings.

Output folder: ``atoms.parquet`` (type, text, count), ``compounds_ao.parquet`` (attribute,
object, count), ``compounds_oro.parquet`` (subject, predicate, object, count),
``bindings.parquet`` (attr, obj, perfect_count, close_count) and ``manifest.json``.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from crepe_datasets.scenegraph.types import SceneGraph

TABLES = ("atoms", "compounds_ao", "compounds_oro", "bindings")


@dataclass
class ShardCounts:
    """Counts of one shard (or of several, merged)."""

    atoms: Counter = field(default_factory=Counter)
    compounds_ao: Counter = field(default_factory=Counter)
    compounds_oro: Counter = field(default_factory=Counter)
    perfect: Counter = field(default_factory=Counter)
    close: Counter = field(default_factory=Counter)
    captions: int = 0
    unique: int = 0

    def add_graph(self, graph: SceneGraph, times: int = 1) -> None:
        """Count one parsed caption that occurred ``times`` times."""
        for atom in {(a.type, a.text) for a in graph.atoms()}:
            self.atoms[atom] += times
        by_id = graph.object_by_id()
        ao = {(a, o.name) for o in graph.objects for a in o.attributes}
        oro = {
            (by_id[r.subject].name, r.predicate, by_id[r.object].name)
            for r in graph.relationships
            if r.subject in by_id and r.object in by_id
        }
        for key in ao:
            self.compounds_ao[key] += times
        for key in oro:
            self.compounds_oro[key] += times
        for o in graph.objects:
            attrs = [a for a in o.attributes if not a.isdigit()]
            target = self.perfect if len(attrs) == 1 else self.close
            for a in attrs:
                target[(a, o.name)] += times

    def merge(self, other: ShardCounts) -> None:
        for name in ("atoms", "compounds_ao", "compounds_oro", "perfect", "close"):
            getattr(self, name).update(getattr(other, name))
        self.captions += other.captions
        self.unique += other.unique

    # ------------------------------------------------------------ (de)serialisation
    def to_json(self) -> dict[str, Any]:
        def rows(c: Counter) -> list[list[Any]]:
            return [[*k, n] for k, n in sorted(c.items())]

        return {
            "captions": self.captions,
            "unique": self.unique,
            **{
                n: rows(getattr(self, n))
                for n in ("atoms", "compounds_ao", "compounds_oro", "perfect", "close")
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShardCounts:
        out = cls(captions=int(data["captions"]), unique=int(data["unique"]))
        for name in ("atoms", "compounds_ao", "compounds_oro", "perfect", "close"):
            getattr(out, name).update({tuple(r[:-1]): int(r[-1]) for r in data[name]})
        return out

    def tables(self) -> dict[str, Any]:
        """The four tables as pandas DataFrames, rows sorted (deterministic bytes)."""
        import pandas as pd

        atoms = pd.DataFrame(
            [(t, x, n) for (t, x), n in sorted(self.atoms.items())],
            columns=["type", "text", "count"],
        )
        ao = pd.DataFrame(
            [(a, o, n) for (a, o), n in sorted(self.compounds_ao.items())],
            columns=["attribute", "object", "count"],
        )
        oro = pd.DataFrame(
            [(s, p, o, n) for (s, p, o), n in sorted(self.compounds_oro.items())],
            columns=["subject", "predicate", "object", "count"],
        )
        keys = sorted(set(self.perfect) | set(self.close))
        bindings = pd.DataFrame(
            [(a, o, self.perfect.get((a, o), 0), self.close.get((a, o), 0)) for a, o in keys],
            columns=["attr", "obj", "perfect_count", "close_count"],
        )
        for df in (atoms, ao, oro, bindings):
            for col in df.columns:
                if col.endswith("count"):
                    df[col] = df[col].astype("int64")
        return {"atoms": atoms, "compounds_ao": ao, "compounds_oro": oro, "bindings": bindings}


@functools.lru_cache(maxsize=2)
def worker_parser(model: str | None = None) -> Any:
    """The caption parser of this process, loaded once (multiprocessing and Dask workers)."""
    from crepe_datasets.scenegraph.parser import CaptionParser

    return CaptionParser(model=model)


def parse_shard(texts: list[str], model: str | None = None, batch_size: int = 256) -> ShardCounts:
    """Parse one shard: exact duplicates once, counted with their multiplicity."""
    multiplicity = Counter(texts)
    unique = list(multiplicity)
    counts = ShardCounts(captions=len(texts), unique=len(unique))
    parser = worker_parser(model)
    for text, graph in zip(unique, parser.iter_parse(unique, batch_size=batch_size), strict=True):
        counts.add_graph(graph, multiplicity[text])
    return counts


def _peak_rss_mb() -> float:
    """Peak resident memory of this (worker) process, in MiB (Linux: ru_maxrss is KiB)."""
    import resource
    import sys

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(rss / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def parse_shard_json(texts: list[str], model: str | None = None) -> str:
    """:func:`parse_shard` returning JSON text (small and picklable across processes).

    ``meta`` names the spaCy pipeline and rule-set version that parsed the shard.
    """
    data = parse_shard(texts, model).to_json()
    parser = worker_parser(model)
    data["meta"] = {
        "spacy_model": parser.model_version,
        "parser_version": parser.version,
        "peak_rss_mb": _peak_rss_mb(),
    }
    return json.dumps(data, ensure_ascii=False)


def iter_graph_counts(graphs: Iterable[SceneGraph]) -> ShardCounts:
    """Counts of already parsed graphs (one occurrence each)."""
    counts = ShardCounts()
    for g in graphs:
        counts.add_graph(g)
        counts.captions += 1
        counts.unique += 1
    return counts

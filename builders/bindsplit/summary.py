"""The ``summary`` of a crepe-bindsplit manifest, as typed records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crepe_datasets.builders.bindsplit.labels import BUCKETS

# Published reference figures (SPEC §4), copied into the summary for comparison.
PAPER = {
    "aro_vga": {
        "training": "COCO train 2014 (410,340 captions; table of 131,556 rows)",
        "kept": 26508,
        "excluded": 2240,
        "buckets": dict(zip(BUCKETS, (4329, 2971, 5270, 13186, 5, 433, 314), strict=True)),
        "rates": {
            "strict": {"all_seen": 0.163, "all_unseen": 0.028},
            "loose": {"all_seen": 0.276, "all_unseen": 0.012},
        },
        "asymmetry": {
            "full": {"positive": 0.798, "negative": 0.418},
            "mixed": {"positive": 0.769, "negative": 0.309},
        },
    },
    "bivlc": {
        "samples": 2933,
        "collapsed": {"seen": 925, "mixed": 1361, "unseen": 54},
        "excluded": 593,
    },
    "vismin": {
        "samples": 2084,
        "collapsed": {"seen": 822, "mixed": 774, "unseen": 48},
        "excluded": 440,
    },
}


@dataclass(frozen=True)
class BenchmarkStats:
    """The counts of one benchmark, written under ``summary["benchmarks"][config]``.

    Attributes:
        counts: bucket counts, rates and asymmetry
            (:func:`crepe_datasets.builders.bindsplit.labels.summarize`).
        excluded: samples the benchmark's own stage dropped.
        source_drops: records dropped by other stages (the source readers).
        exclusions: the benchmark's drop log, as a dict.
        paper: the published figures of this benchmark, when there are any.
        empty_splits: splits without rows (left out of the dataset).
    """

    counts: dict[str, Any]
    excluded: int
    source_drops: int
    exclusions: dict[str, Any]
    paper: dict[str, Any] | None
    empty_splits: list[str]

    def to_dict(self) -> dict[str, Any]:
        """The benchmark's summary (``paper`` only when there are published figures)."""
        out: dict[str, Any] = {
            **self.counts,
            "excluded": self.excluded,
            "source_drops": self.source_drops,
            "exclusions": self.exclusions,
        }
        if self.paper is not None:
            out["paper"] = self.paper
        out["empty_splits"] = self.empty_splits
        return out


@dataclass(frozen=True)
class BindSplitSummary:
    """What a build made, written as the manifest's ``summary`` by :meth:`to_dict`.

    Attributes:
        training_table: statistics and provenance of the reference training table.
        benchmarks: the counts of every benchmark, in the order given.
    """

    training_table: dict[str, Any]
    benchmarks: Sequence[tuple[str, BenchmarkStats]]

    def to_dict(self) -> dict[str, Any]:
        """The manifest's ``summary``: ``training_table``, then ``benchmarks`` by config."""
        return {
            "training_table": self.training_table,
            "benchmarks": {config: stats.to_dict() for config, stats in self.benchmarks},
        }

"""The steps of a crepe-bindsplit build (:func:`crepe_datasets.builders.bindsplit.build.build_bindsplit`).

:func:`choose_benchmarks` checks the ``--benchmark`` arguments, :func:`load_training` builds
(or reads from its cache) the reference training table, :func:`label_benchmark` labels one
benchmark's samples and :func:`dataset_tables` gathers the configs the writer receives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crepe_datasets.builders.bindsplit.benchmarks import Benchmark, get_benchmark
from crepe_datasets.builders.bindsplit.labels import SPLITS, label_sample, summarize
from crepe_datasets.builders.bindsplit.rows import features_for, sample_row, table_rows
from crepe_datasets.builders.bindsplit.summary import PAPER, BenchmarkStats
from crepe_datasets.builders.bindsplit.training_table import (
    TrainingTable,
    build_training_table,
    table_summary,
)
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import ConfigInfo, TaskSpec
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog

if TYPE_CHECKING:
    from crepe_datasets.builders.bindsplit.build import BindSplitSettings

Rows = dict[str, list[dict[str, Any]]]
"""Rows of every split of one config."""


@dataclass(frozen=True)
class Training:
    """The reference training corpus of a build.

    Attributes:
        nlp: the spaCy pipeline of the binding extractor.
        table: the binding table of the corpus.
        summary: statistics and provenance of the table (:func:`table_summary`).
    """

    nlp: Any
    table: TrainingTable
    summary: dict[str, Any]


@dataclass(frozen=True)
class LabelledBenchmark:
    """One benchmark's samples, labelled against the training table.

    Attributes:
        bench: the benchmark.
        stats: its counts for the summary.
        drops: the records its readers dropped.
        rows: rows of its non-empty splits (an empty one is left out: a parquet file without
            rows cannot be opened by ``load_dataset``).
    """

    bench: Benchmark
    stats: BenchmarkStats
    drops: DropLog
    rows: Rows


def choose_benchmarks(settings: BindSplitSettings) -> list[tuple[Benchmark, Path]]:
    """The benchmarks of ``settings`` with their paths.

    Args:
        settings: inputs and settings.

    Raises:
        CrepeInputError: no benchmark given, a name given twice, a wrong name or path.
    """
    if not settings.benchmarks:
        raise CrepeInputError("give at least one --benchmark NAME with its --benchmark-path PATH.")
    chosen = [(get_benchmark(name), Path(path)) for name, path in settings.benchmarks]
    configs = [b.config for b, _ in chosen]
    if len(set(configs)) != len(configs):
        raise CrepeInputError(
            f"each benchmark may be given once; got {', '.join(n for n, _ in settings.benchmarks)}."
        )
    for bench, path in chosen:
        if not path.exists():
            raise CrepeInputError(f"--benchmark-path {path} for {bench.name} does not exist.")
    return chosen


def load_training(settings: BindSplitSettings) -> Training:
    """Load the extractor and build (or read from its cache) the training table.

    Args:
        settings: inputs and settings.

    Raises:
        CrepeInputError: an empty or unreadable training corpus.
    """
    from crepe_datasets.builders.bindsplit.extract import load_extractor_nlp

    nlp = load_extractor_nlp(settings.spacy_model)
    table = build_training_table(
        settings.training, cache_dir=settings.cache_dir, nlp=nlp, progress=settings.progress
    )
    return Training(nlp, table, table_summary(table))


def label_benchmark(bench: Benchmark, path: Path, training: Training) -> LabelledBenchmark:
    """Read one benchmark, label its samples and count them.

    Args:
        bench: the benchmark.
        path: its file or folder.
        training: the reference training corpus.
    """
    drops = DropLog()
    labelled = [
        label_sample(s, training.table.lookup) for s in bench.read(path, drops, training.nlp)
    ]
    excluded = drops.total(bench.stage)
    rows = {s: [sample_row(x, bench.task) for x in labelled if x.split == s] for s in SPLITS}
    stats = BenchmarkStats(
        counts=summarize(labelled),
        excluded=excluded,
        source_drops=drops.total() - excluded,
        exclusions=drops.to_dict(),
        paper=PAPER.get(bench.config),
        empty_splits=[s for s in SPLITS if not rows[s]],
    )
    return LabelledBenchmark(bench, stats, drops, {s: r for s, r in rows.items() if r})


def dataset_tables(
    manifest: BuildManifest, results: Sequence[LabelledBenchmark], table: TrainingTable
) -> tuple[dict[str, Rows], dict[str, Any]]:
    """The dataset's configs: every benchmark with rows, then ``training_table``.

    Each benchmark's drops and each config's info are added to ``manifest``.

    Args:
        manifest: the build's manifest.
        results: the labelled benchmarks, in the order given.
        table: the training table (the ``training_table`` config, task ``none``).

    Returns:
        Rows of every config and split, and the features of every config.
    """
    tables: dict[str, Rows] = {}
    features: dict[str, Any] = {}
    for result in results:
        bench = result.bench
        manifest.drops.merge(result.drops)
        if result.rows:
            task = TaskSpec(type=bench.task)
            manifest.configs[bench.config] = ConfigInfo(bench.config, bench.description, task)
            tables[bench.config] = result.rows
            features[bench.config] = features_for(bench.task)
    manifest.configs["training_table"] = ConfigInfo(
        "training_table",
        "the reference training binding table",
        TaskSpec(type="none", negatives_column=None),
    )
    tables["training_table"] = {"train": table_rows(table.counts)}
    features["training_table"] = features_for("none")
    return tables, features

"""Build the BindSplit dataset: one config per benchmark, splits ``seen`` / ``mixed`` / ``unseen``.

Steps: (1) the training table of the reference corpus (cached, :mod:`.training_table`);
(2) each benchmark's samples with their bindings (:mod:`.benchmarks`, :mod:`.adapters`);
(3) labels and buckets (:mod:`.labels`); (4) the dataset folder through
:func:`crepe_datasets.builders.writer.write_dataset`, with a ``training_table`` config (task ``none``) holding the
reference table itself. Every count lands in the manifest's ``summary`` and in the summary JSON.
The build has no random step: the seed is recorded only so that the manifest is complete.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.builders.bindsplit.benchmarks import Benchmark
from crepe_datasets.builders.bindsplit.steps import (
    Training,
    choose_benchmarks,
    dataset_tables,
    label_benchmark,
    load_training,
)
from crepe_datasets.builders.bindsplit.summary import PAPER, BindSplitSummary
from crepe_datasets.cards import citations
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo
from crepe_datasets.infra.version import __version__

__all__ = ["PAPER", "BindSplitSettings", "build_bindsplit"]


@dataclass
class BindSplitSettings:
    """Inputs and settings of one BindSplit build (serialised into the manifest)."""

    benchmarks: Sequence[tuple[str, str]]
    training: str
    out: str
    cache_dir: str | None = None
    seed: int = 0
    version: str = __version__
    spacy_model: str | None = None
    progress: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def _card(training: dict[str, Any], configs: list[str]) -> CardInfo:
    how = (
        f"Reference training corpus: `{training['spec']}` — {training['captions']:,} captions "
        f"({training['distinct_captions']:,} distinct), combined SHA-256 `{training['checksum']}`; "
        f"its binding table has {training['rows']:,} (attribute, object) rows (spaCy "
        f"`{training['spacy_model']}`, extractor v{training['extractor_version']}). Every benchmark "
        "sample's bindings are labelled perfect / close-only / none against that table and the "
        "sample is put in one of seven buckets, collapsed to the splits seen / mixed / unseen. "
        "Rebuild with `crepe build bindsplit --training KIND:PATH` to measure your own model's "
        f"training data. Configs: {', '.join(configs)}."
    )
    return CardInfo(
        pretty_name="CREPE BindSplit",
        summary="Swap-attribute benchmarks split by how familiar each sample's attribute-object "
        "bindings are in a reference training corpus (seen / mixed / unseen).",
        task_categories=("zero-shot-image-classification", "image-to-text"),
        tags=("compositionality", "vision-language", "benchmark", "binding"),
        source_datasets=("ARO", "SugarCrepe", "BiVLC", "VisMin", "COCO"),
        limitations=(
            "Bindings come from spaCy noun chunks: parser errors and compound nouns ('tennis player') "
            "become bindings as they are; attributes are never lemmatised.",
            "'Seen' means seen in the reference corpus named above, not in any model's real training data.",
            "Free-form captions without a swapped attribute pair use all their bindings (binding_form 'all').",
        ),
        citations=(citations.CREPE,),
        how_built=how,
    )


def build_bindsplit(settings: BindSplitSettings) -> tuple[Path, BuildManifest]:
    """Build the dataset folder; return it and its manifest (``manifest.summary`` holds every count).

    The steps: :func:`~crepe_datasets.builders.bindsplit.steps.choose_benchmarks`,
    :func:`~crepe_datasets.builders.bindsplit.steps.load_training`, :func:`_manifest`,
    :func:`~crepe_datasets.builders.bindsplit.steps.label_benchmark` per benchmark,
    :func:`~crepe_datasets.builders.bindsplit.steps.dataset_tables`, the
    :class:`~crepe_datasets.builders.bindsplit.summary.BindSplitSummary` and the writer.

    Args:
        settings: inputs and settings.

    Raises:
        CrepeInputError: no benchmark given, a wrong name or path, or an empty training corpus.
    """
    from crepe_datasets.builders.writer import write_dataset

    chosen = choose_benchmarks(settings)
    training = load_training(settings)
    manifest = _manifest(settings, training, chosen)
    results = [label_benchmark(bench, path, training) for bench, path in chosen]
    tables, features = dataset_tables(manifest, results, training.table)
    summary = BindSplitSummary(training.summary, [(r.bench.config, r.stats) for r in results])
    manifest.summary = summary.to_dict()
    out = write_dataset(settings.out, tables, manifest, features=features)
    return out, manifest


def _manifest(
    settings: BindSplitSettings, training: Training, chosen: Sequence[tuple[Benchmark, Path]]
) -> BuildManifest:
    """The manifest before its configs and summary: card, parameters, inputs, training drops."""
    from crepe_datasets.infra.resources import spacy_model_version
    from crepe_datasets.sources.corpus import corpus_files

    manifest = BuildManifest(
        dataset="crepe-bindsplit",
        version=settings.version,
        builder="crepe_datasets.builders.bindsplit",
        card=_card(training.summary, [b.config for b, _ in chosen]),
        seed=settings.seed,
        parameters={
            "training": settings.training,
            "benchmarks": [[n, str(p)] for n, p in settings.benchmarks],
        },
        models={"spacy": spacy_model_version(training.nlp)},
    )
    manifest.add_inputs(*corpus_files(settings.training), *(p for _, p in chosen))
    manifest.drops.merge(training.table.drops)
    return manifest

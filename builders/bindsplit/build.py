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

from crepe_datasets.builders.bindsplit.benchmarks import get_benchmark
from crepe_datasets.builders.bindsplit.labels import BUCKETS, SPLITS, label_sample, summarize
from crepe_datasets.builders.bindsplit.rows import features_for, sample_row, table_rows
from crepe_datasets.builders.bindsplit.training_table import build_training_table, table_summary
from crepe_datasets.cards import citations
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo, ConfigInfo, TaskSpec
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.infra.version import __version__

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

    Raises:
        CrepeInputError: no benchmark given, a wrong name or path, or an empty training corpus.
    """
    from crepe_datasets.builders.bindsplit.extract import load_extractor_nlp
    from crepe_datasets.builders.writer import write_dataset
    from crepe_datasets.infra.resources import spacy_model_version
    from crepe_datasets.sources.corpus import corpus_files

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
    nlp = load_extractor_nlp(settings.spacy_model)
    table = build_training_table(
        settings.training, cache_dir=settings.cache_dir, nlp=nlp, progress=settings.progress
    )
    training = table_summary(table)
    manifest = BuildManifest(
        dataset="crepe-bindsplit",
        version=settings.version,
        builder="crepe_datasets.builders.bindsplit",
        card=_card(training, configs),
        seed=settings.seed,
        parameters={
            "training": settings.training,
            "benchmarks": [[n, str(p)] for n, p in settings.benchmarks],
        },
        models={"spacy": spacy_model_version(nlp)},
    )
    manifest.add_inputs(*corpus_files(settings.training), *(p for _, p in chosen))
    manifest.drops.merge(table.drops)
    tables: dict[str, dict[str, list]] = {}
    features: dict[str, Any] = {}
    summary: dict[str, Any] = {"training_table": training, "benchmarks": {}}
    for bench, path in chosen:
        drops = DropLog()
        labelled = [label_sample(s, table.lookup) for s in bench.read(path, drops, nlp)]
        stats = summarize(labelled)
        stats["excluded"] = drops.total(bench.stage)
        stats["source_drops"] = drops.total() - stats["excluded"]
        stats["exclusions"] = drops.to_dict()
        if bench.config in PAPER:
            stats["paper"] = PAPER[bench.config]
        summary["benchmarks"][bench.config] = stats
        manifest.drops.merge(drops)
        # An empty split is left out: a parquet file without rows cannot be opened by load_dataset.
        rows = {s: [sample_row(x, bench.task) for x in labelled if x.split == s] for s in SPLITS}
        stats["empty_splits"] = [s for s in SPLITS if not rows[s]]
        if any(rows.values()):
            task = TaskSpec(type=bench.task)
            manifest.configs[bench.config] = ConfigInfo(bench.config, bench.description, task)
            tables[bench.config] = {s: r for s, r in rows.items() if r}
            features[bench.config] = features_for(bench.task)
    manifest.configs["training_table"] = ConfigInfo(
        "training_table",
        "the reference training binding table",
        TaskSpec(type="none", negatives_column=None),
    )
    tables["training_table"] = {"train": table_rows(table.counts)}
    features["training_table"] = features_for("none")
    manifest.summary = summary
    out = write_dataset(settings.out, tables, manifest, features=features)
    return out, manifest

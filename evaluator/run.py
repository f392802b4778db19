"""Orchestration: models × datasets → encoded once → metrics → result records + a summary table."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from crepe_datasets.cards.manifest import library_versions
from crepe_datasets.evaluator.datasets_io import DatasetSource, EvalItems, open_dataset
from crepe_datasets.evaluator.encode import EmbeddingCache, encode_all
from crepe_datasets.evaluator.metrics import DEFAULT_RAW_SET_SIZE, MetricResult
from crepe_datasets.evaluator.models import EncoderModel, load_model
from crepe_datasets.evaluator.records import EvalRecord, write_record
from crepe_datasets.evaluator.scoring import evaluate_split, usable
from crepe_datasets.evaluator.statistics import bootstrap_ci
from crepe_datasets.infra.provenance import DropLog

EVAL_LIBRARIES = (
    "numpy",
    "torch",
    "torchvision",
    "open_clip_torch",
    "transformers",
    "datasets",
    "pillow",
    "scipy",
)


@dataclass
class EvalSettings:
    """Settings of one ``crepe evaluate`` run (recorded in every record's ``parameters``)."""

    out: Path
    images: Path | None = None
    device: str | None = None
    precision: str = "amp"
    batch_size: int = 256
    workers: int = 0
    seed: int = 0
    cache_dir: Path | None = None
    raw_set_size: int = DEFAULT_RAW_SET_SIZE
    n_boot: int = 1000
    progress: bool = True

    def parameters(self) -> dict:
        return {
            "batch_size": self.batch_size, "workers": self.workers, "raw_set_size": self.raw_set_size,
            "n_boot": self.n_boot, "images": str(self.images) if self.images else None,
        }  # fmt: skip


def _ci_values(result: MetricResult) -> np.ndarray:
    ps = result.per_sample
    if "t2i_correct" in ps:
        return (ps["correct"].astype(float) + ps["t2i_correct"].astype(float)) / 2
    return ps["correct"].astype(float)


def _metrics(
    record: EvalRecord, results: dict[str, MetricResult], settings: EvalSettings
) -> dict[str, float]:
    out: dict[str, float] = {}
    for breakdown, result in results.items():
        for name, value in result.metrics.items():
            out[record.key(name, breakdown)] = round(float(value), 6)
        if "correct" in result.per_sample and len(result.per_sample["correct"]):
            lo, hi = bootstrap_ci(_ci_values(result), settings.n_boot, seed=settings.seed)
            out[record.key(f"{result.main}_ci_low", breakdown)] = round(lo, 6)
            out[record.key(f"{result.main}_ci_high", breakdown)] = round(hi, 6)
        if result.main == "group":  # Winoground: the text and image scores get theirs too
            for name in ("text", "image"):
                values = result.per_sample[name].astype(float)
                if len(values):
                    lo, hi = bootstrap_ci(values, settings.n_boot, seed=settings.seed)
                    out[record.key(f"{name}_ci_low", breakdown)] = round(lo, 6)
                    out[record.key(f"{name}_ci_high", breakdown)] = round(hi, 6)
    return out


def evaluate_source(
    model: EncoderModel, source: DatasetSource, splits: Sequence[EvalItems], settings: EvalSettings,
    model_load_s: float = 0.0,
) -> list[EvalRecord]:  # fmt: skip
    """Encode every unique region and text of ``source`` once, then score each split."""
    refs = [r for items in splits for refs in items.images for r in refs if r.available]
    texts = [t for items in splits for ts in items.texts for t in ts]
    cache = EmbeddingCache(
        settings.cache_dir, model.model_id, source.fingerprint, model.precision, settings.images
    )
    start = time.perf_counter()
    emb = encode_all(
        model,
        refs,
        texts,
        settings.images,
        cache,
        settings.batch_size,
        settings.workers,
        settings.progress,
    )
    encode_s = time.perf_counter() - start
    libraries = library_versions(EVAL_LIBRARIES)
    records = []
    for items in splits:
        drops = DropLog()
        drops.merge(source.drops)
        start = time.perf_counter()
        kept = usable(items, emb, drops)
        results = evaluate_split(kept, emb, settings.raw_set_size, settings.seed)
        score_s = time.perf_counter() - start
        main = results[""].main if results else "R@1"
        record = EvalRecord(
            model=model.model_id, model_spec=model.spec, benchmark=source.name, dataset_spec=source.spec,
            dataset_revision=source.revision, dataset_fingerprint=source.fingerprint, config=items.config,
            split=items.split, task=items.task.type, main_metric=main, precision=model.precision,
            device=model.device, seed=settings.seed, n=len(kept), metrics={}, drops=drops.to_dict(),
            timing={
                **emb.timing, "model_load_s": round(model_load_s, 4),
                "encode_dataset_s": round(encode_s, 4), "score_s": round(score_s, 4),
            },
            libraries=libraries, parameters=settings.parameters(),
            score_rule=getattr(model, "score_rule", "cosine"),
        )  # fmt: skip
        record.metrics = _metrics(record, results, settings)
        per_sample = None
        if results:
            per_sample = {"sample_id": np.asarray(kept.ids), **results[""].per_sample}
        write_record(settings.out, record, per_sample)
        records.append(record)
    return records


def summary_table(records: Sequence[EvalRecord]) -> str:
    """A plain-text table: model, subset, n, main metric with its 95% CI."""
    rows = [("model", "benchmark", "config/split", "n", "metric", "value", "95% CI")]
    for r in records:
        lo = r.metrics.get(r.key(f"{r.main_metric}_ci_low"), float("nan"))
        hi = r.metrics.get(r.key(f"{r.main_metric}_ci_high"), float("nan"))
        rows.append(
            (
                r.model,
                r.benchmark,
                r.subset,
                str(r.n),
                r.main_metric,
                f"{100 * r.main_value():.2f}",
                f"[{100 * lo:.1f}, {100 * hi:.1f}]",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows
    )


def run_evaluation(
    model_specs: Sequence[str], dataset_specs: Sequence[str], settings: EvalSettings
) -> list[EvalRecord]:
    """Evaluate every model on every dataset; writes records to ``settings.out``."""
    from tqdm import tqdm

    sources = [open_dataset(spec) for spec in dataset_specs]
    loaded = [
        (s, [items for config in s.configs for items in s.load(config).values()]) for s in sources
    ]
    records: list[EvalRecord] = []
    for spec in tqdm(model_specs, desc="models", disable=not settings.progress):
        start = time.perf_counter()
        model = load_model(spec, settings.device, settings.precision)
        load_s = time.perf_counter() - start
        for source, splits in tqdm(
            loaded, desc="datasets", disable=not settings.progress, leave=False
        ):
            records.extend(evaluate_source(model, source, splits, settings, load_s))
        del model
    return records

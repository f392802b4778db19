"""Result records: one JSON file per model × dataset × config × split, never overwritten.

A record's ``metrics`` are keyed ``benchmark::subset::metric`` where ``subset`` is
``config/split`` or ``config/split/<breakdown>`` (e.g.
``crepe-productivity::hn_swap/complexity_7::R@1``,
``crepe-bindsplit::aro_vga/mixed/bucket=amb_mixed::accuracy``). Bootstrap CIs of the main metric
are ``…::<metric>_ci_low`` / ``…_ci_high``. Per-sample correctness goes beside the record as
``<record name>.samples.parquet``. File names are ``<UTC time>-<model>-<benchmark>-<config>-
<split>-<hash>.json``; the file is created exclusively, so a new run never replaces an old one.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from crepe_datasets.evaluator.models import safe_name
from crepe_datasets.infra.leftovers import owned_temp_file

RECORD_SCHEMA = 1
SAMPLES_SUFFIX = ".samples.parquet"


@dataclass
class EvalRecord:
    """One evaluation of one model on one split of one dataset config.

    ``score_rule`` names the model's own image–text score (CLIP's softmax of scaled cosines,
    SigLIP's sigmoid …); the metrics rank cosines, which every such rule keeps in order.
    """

    model: str
    model_spec: str
    benchmark: str
    dataset_spec: str
    dataset_revision: str
    dataset_fingerprint: str
    config: str
    split: str
    task: str
    main_metric: str
    precision: str
    device: str
    seed: int
    n: int
    metrics: dict[str, float]
    drops: dict[str, dict[str, int]] = field(default_factory=dict)
    timing: dict[str, float] = field(default_factory=dict)
    libraries: dict[str, str] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)
    score_rule: str = "cosine"
    created_at: str = field(
        default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    )
    schema: int = RECORD_SCHEMA
    samples_file: str | None = None
    path: str | None = None

    @property
    def subset(self) -> str:
        return f"{self.config}/{self.split}"

    def key(self, metric: str, breakdown: str = "") -> str:
        """``benchmark::config/split[/breakdown]::metric``."""
        subset = f"{self.subset}/{breakdown}" if breakdown else self.subset
        return f"{self.benchmark}::{subset}::{metric}"

    def main_value(self) -> float:
        return float(self.metrics.get(self.key(self.main_metric), float("nan")))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("path")
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], path: str | None = None) -> EvalRecord:
        known = {f for f in cls.__dataclass_fields__}
        record = cls(**{k: v for k, v in data.items() if k in known})
        record.path = path
        return record


def _unique_path(out_dir: Path, record: EvalRecord) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    ident = json.dumps(
        [record.model, record.dataset_fingerprint, record.subset, time.time_ns(), os.getpid()]
    )
    short = hashlib.sha256(ident.encode()).hexdigest()[:8]
    parts = [
        stamp,
        safe_name(record.model, 40),
        safe_name(record.benchmark, 30),
        safe_name(record.subset, 40),
        short,
    ]
    return out_dir / ("-".join(parts) + ".json")


def write_record(
    out_dir: str | Path, record: EvalRecord, per_sample: Mapping[str, np.ndarray] | None = None
) -> Path:
    """Write ``record`` (and its per-sample table) as new files; returns the record's path.

    Both files are written under temporary names first. The record is then published with
    ``os.link``, which is atomic and fails when the name exists (so a record is never
    half-written and a new run never overwrites an earlier one), and the per-sample table is
    renamed next to it.
    """
    import pandas as pd

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp_samples = None
    if per_sample:
        # owned names get umask modes, and a killed run's leftovers are cleaned by the next one
        tmp_samples = owned_temp_file(out_dir, ".samples.tmp-")
        pd.DataFrame({k: np.asarray(v) for k, v in per_sample.items()}).to_parquet(
            tmp_samples, index=False
        )
    tmp_record = owned_temp_file(out_dir, ".record.tmp-")
    try:
        for _ in range(100):
            path = _unique_path(out_dir, record)
            samples = path.with_name(path.stem + SAMPLES_SUFFIX)
            record.samples_file = samples.name if tmp_samples else record.samples_file
            text = json.dumps(record.to_dict(), indent=2, sort_keys=True) + "\n"
            tmp_record.write_text(text, encoding="utf-8")
            try:
                os.link(tmp_record, path)
                break
            except FileExistsError:
                continue
        else:  # pragma: no cover - 100 collisions of a time-based hash
            raise RuntimeError(f"could not create a unique record file in {out_dir}")
        if tmp_samples is not None:  # its name is derived from the record's, now reserved
            os.replace(tmp_samples, samples)
            tmp_samples = None
    finally:
        tmp_record.unlink(missing_ok=True)
        if tmp_samples is not None:
            tmp_samples.unlink(missing_ok=True)
    record.path = str(path)
    return path


def read_records(results_dir: str | Path) -> list[EvalRecord]:
    """Every record JSON of a results folder (not recursive), oldest first."""
    records = []
    for path in sorted(Path(results_dir).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and data.get("schema") == RECORD_SCHEMA and "metrics" in data:
            records.append(EvalRecord.from_dict(data, str(path)))
    return sorted(records, key=lambda r: (r.created_at, r.path or ""))


def latest(records: list[EvalRecord]) -> list[EvalRecord]:
    """The newest record per (model, benchmark, revision, config, split, precision)."""
    best: dict[tuple, EvalRecord] = {}
    for r in records:
        best[(r.model, r.benchmark, r.dataset_revision, r.config, r.split, r.precision)] = r
    return list(best.values())


def read_samples(record: EvalRecord):
    """The per-sample table of a record (a pandas DataFrame), or ``None``."""
    import pandas as pd

    if not record.samples_file or not record.path:
        return None
    path = Path(record.path).with_name(record.samples_file)
    return pd.read_parquet(path) if path.exists() else None

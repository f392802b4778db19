"""End to end on the CPU: tiny random open_clip and HF CLIP models on a demo dataset with PNGs."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from crepe_datasets.evaluator.records import read_records
from crepe_datasets.scripts.cli import main

pytestmark = pytest.mark.slow


def test_evaluate_and_report_end_to_end(demo, tiny_models, tmp_path) -> None:
    dataset, images, _ = demo
    oc, hf = tiny_models
    out, cache = tmp_path / "results", tmp_path / "cache"
    args = ["evaluate", "--model", f"open_clip:{oc}", "--model", f"hf:{hf}", "--dataset", str(dataset),
            "--images", str(images), "--out", str(out), "--device", "cpu", "--batch-size", "8",
            "--workers", "1", "--cache-dir", str(cache), "--bootstrap", "200"]  # fmt: skip
    assert main(args) == 0
    records = read_records(out)
    # 2 models × (hn_atom 2 + hn_all 2 + syst 2 + bind 3 + raw 1 + pairs 1) splits
    assert len(records) == 2 * 11
    by = {(r.model.split(":")[0], r.config, r.split): r for r in records}
    r = by[("open_clip", "hn_atom", "complexity_4")]
    assert r.task == "retrieval" and r.n == 6 and r.precision == "fp32" and r.seed == 0
    for metric in (
        "R@1",
        "R@3",
        "R@5",
        "avg_R@K",
        "mean_rank",
        "ties",
        "R@1_ci_low",
        "R@1_ci_high",
    ):
        assert f"demo-eval::hn_atom/complexity_4::{metric}" in r.metrics
    assert r.metrics["demo-eval::hn_atom/complexity_4::chance_R@1"] == pytest.approx(
        0.25
    )  # 1 + 3 negatives
    assert {"torch", "open_clip_torch", "transformers"} <= set(r.libraries)
    assert r.dataset_revision == "0.0.1" and r.timing["images_encoded"] > 0
    samples = pd.read_parquet(out / r.samples_file)
    assert (
        list(samples["sample_id"]) == [f"4-{i}" for i in range(6)]
        and samples["rank"].between(1, 5).all()
    )
    mixed = by[("hf", "hn_all", "complexity_5")].metrics
    assert "demo-eval::hn_all/complexity_5/neg=negate::R@1" in mixed
    bind = by[("hf", "bind", "mixed")]
    assert (
        bind.main_metric == "accuracy"
        and "demo-eval::bind/mixed/bucket=amb_mixed::accuracy" in bind.metrics
    )
    group = by[("open_clip", "pairs", "test")].metrics
    assert {"text", "image", "group"} <= {k.rsplit("::", 1)[1] for k in group}
    for name in ("text", "image", "group"):  # each of Winoground's scores with its CI
        low, high = (
            group[f"demo-eval::pairs/test::{name}_ci_low"],
            group[f"demo-eval::pairs/test::{name}_ci_high"],
        )
        assert low <= group[f"demo-eval::pairs/test::{name}"] <= high
    raw = by[("open_clip", "raw", "complexity_4")].metrics
    assert raw["demo-eval::raw/complexity_4::folds"] == 1  # 8 pairs // N=6
    # every unique crop and text encoded once per model; a second run reads the cache only
    assert main(args) == 0
    again = read_records(out)
    assert len(again) == 2 * 22 and len({r.path for r in again}) == 44
    newest = [r for r in again if r.path not in {x.path for x in records}]
    assert all(r.timing["images_encoded"] == 0 and r.timing["texts_encoded"] == 0 for r in newest)
    assert {json.dumps(r.metrics, sort_keys=True) for r in newest} <= {
        json.dumps(r.metrics, sort_keys=True) for r in again
    }
    # report
    report = tmp_path / "report" / "report.md"
    assert main(["report", str(out), "--out", str(report)]) == 0
    text = report.read_text(encoding="utf-8")
    assert "## Pairwise McNemar tests" in text and "hn_atom" in text and "Rank flips" in text
    assert "Winoground scores" in text and "text % [95% CI]" in text
    pngs = sorted(p.name for p in report.parent.glob("*.png"))
    assert pngs == [
        "report-binding.png",
        "report-complexity-demo-eval.png",
        "report-systematicity.png",
    ]
    assert all((report.parent / p).stat().st_size > 1000 for p in pngs)

"""``crepe report``: markdown tables, significance tests, rank flips and PNG plots of a results folder.

Only the newest record per (model, benchmark, revision, config, split, precision) is shown.
Pairwise McNemar tests use per-sample correctness aligned by sample id (samples every model
kept); q-values are Benjamini–Hochberg across the model pairs of one split. Rank flips compare
contrasting splits of one config (SC vs UC, seen vs mixed / unseen, mixed vs unseen, and the
lowest vs the highest complexity).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import numpy as np

from crepe_datasets.evaluator.plots import COMPLEXITY_RE, draw_all
from crepe_datasets.evaluator.records import EvalRecord, latest, read_records, read_samples
from crepe_datasets.evaluator.statistics import PairTest, pairwise_tests, rank_flips
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import write_text_atomic

DETAIL_METRICS = (
    "R@1",
    "R@3",
    "R@5",
    "avg_R@K",
    "mean_rank",
    "accuracy",
    "text",
    "image",
    "group",
    "ties",
    "BLEU-1",
    "BLEU-4",
    "METEOR",
    "ROUGE-L",
    "CIDEr",
    "pair_R@1",
    "pair_R@5",
    "pair_rate@1",
    "pair_rate@5",
    "n",
)
GROUP_SCORES = ("text", "image", "group")
CONTRASTS = {
    ("sc", "uc"),
    ("seen_compounds", "unseen_compounds"),
    ("seen", "unseen"),
    ("seen", "mixed"),
    ("mixed", "unseen"),
}


def _fmt(value: float | None, pct: bool = True) -> str:
    if value is None or value != value:
        return "–"
    return f"{100 * value:.1f}" if pct else f"{value:.2f}".rstrip("0").rstrip(".")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _main_cell(r: EvalRecord, breakdown: str = "", metric: str | None = None) -> str:
    metric = metric or r.main_metric
    value = r.metrics.get(r.key(metric, breakdown))
    lo = r.metrics.get(r.key(f"{metric}_ci_low", breakdown))
    hi = r.metrics.get(r.key(f"{metric}_ci_high", breakdown))
    ci = f" [{_fmt(lo)}, {_fmt(hi)}]" if lo is not None else ""
    return _fmt(value) + ci


def _group_scores(rs: list[EvalRecord], splits: list[str], models: list[str]) -> list[str]:
    """Winoground's three scores with their 95% CIs, per split and model (group tasks)."""
    cell = {(r.split, r.model): r for r in rs}
    rows = [
        [split, model, *(_main_cell(cell[(split, model)], "", m) for m in GROUP_SCORES)]
        for split in splits
        for model in models
        if (split, model) in cell
    ]
    head = ["split", "model", "text % [95% CI]", "image % [95% CI]", "group % [95% CI]"]
    return ["", "Winoground scores (a tie is a failure; chance 25 / 25 / 16.7 %):", "",
            *_table(head, rows)]  # fmt: skip


def _breakdowns(r: EvalRecord | None) -> set[str]:
    """Breakdown subsets of a record that carry its main metric."""
    if r is None:
        return set()
    out = set()
    for key in r.metrics:
        _, subset, metric = key.split("::")
        parts = subset.split("/", 2)
        if metric == r.main_metric and len(parts) == 3:
            out.add(parts[2])
    return out


def _overview(records: list[EvalRecord]) -> list[str]:
    lines: list[str] = []
    groups: dict[tuple, list[EvalRecord]] = defaultdict(list)
    for r in records:
        groups[(r.benchmark, r.dataset_revision, r.config)].append(r)
    for (bench, rev, config), rs in sorted(groups.items()):
        models = sorted({r.model for r in rs})
        splits = sorted({r.split for r in rs}, key=_split_order)
        cell = {(r.split, r.model): r for r in rs}
        lines += [
            "",
            f"### {bench} · {config} ({rs[0].task}, {rs[0].main_metric} %, 95% CI; revision {rev})",
            "",
        ]
        rows = []
        for split in splits:
            some = next(cell[(split, m)] for m in models if (split, m) in cell)
            rows.append(
                [split, str(some.n)]
                + [_main_cell(cell[(split, m)]) if (split, m) in cell else "–" for m in models]
            )
        lines += _table(["split", "n", *models], rows)
        if rs[0].task == "group":
            lines += _group_scores(rs, splits, models)
        breakdowns = sorted({b for r in rs for b in _breakdowns(r)})
        if breakdowns:
            rows = []
            for split in splits:
                for b in breakdowns:
                    cells = [
                        _main_cell(cell[(split, m)], b)
                        if b in _breakdowns(cell.get((split, m)))
                        else "–"
                        for m in models
                    ]
                    if any(c != "–" for c in cells):
                        rows.append([split, b, *cells])
            lines += ["", "Breakdowns:", "", *_table(["split", "subset", *models], rows)]
    return lines


def _details(records: list[EvalRecord]) -> list[str]:
    present = [m for m in DETAIL_METRICS if any(r.key(m) in r.metrics for r in records)]
    rows = []
    for r in sorted(records, key=lambda r: (r.benchmark, r.config, _split_order(r.split), r.model)):
        vals = [r.metrics.get(r.key(m)) for m in present]
        rows.append(
            [r.model, f"{r.benchmark}::{r.subset}"]
            + [
                _fmt(v, pct=m not in ("mean_rank", "ties", "n"))
                for m, v in zip(present, vals, strict=True)
            ]
        )
    return [
        "",
        "## All metrics",
        "",
        "R@K, accuracy and 2×2 scores in %; ties = samples where the positive tied (a tie is not a win).",
        "",
        *_table(["model", "benchmark::subset", *present], rows),
    ]


def _split_order(split: str) -> tuple:
    m = COMPLEXITY_RE.match(split)
    order = [
        "sc",
        "seen_compounds",
        "uc",
        "unseen_compounds",
        "ua",
        "unseen_atoms",
        "seen",
        "mixed",
        "unseen",
    ]
    return (
        (0, int(m[1]), "")
        if m
        else (1, order.index(split.lower()) if split.lower() in order else 99, split)
    )


def _tests(rs: list[EvalRecord]) -> list[PairTest]:
    frames = {}
    for r in rs:
        df = read_samples(r)
        if df is not None and "correct" in df:
            frames[r.model] = df.set_index("sample_id")["correct"]
    if len(frames) < 2:
        return []
    common = sorted(set.intersection(*(set(f.index) for f in frames.values())))
    return pairwise_tests({m: np.asarray(f.loc[common], dtype=bool) for m, f in frames.items()})


def _significance(records: list[EvalRecord]) -> list[str]:
    by_split: dict[tuple, list[EvalRecord]] = defaultdict(list)
    for r in records:
        by_split[(r.benchmark, r.dataset_revision, r.config, r.split)].append(r)
    tests = {k: _tests(v) for k, v in sorted(by_split.items()) if len({r.model for r in v}) > 1}
    rows = [
        [f"{k[0]}::{k[2]}/{k[3]}", t.model_a, t.model_b, _fmt(t.acc_a), _fmt(t.acc_b), str(t.b), str(t.c), f"{t.p:.3g}", f"{t.q:.3g}", "yes" if t.significant() else "no"]
        for k, ts in tests.items() for t in ts
    ]  # fmt: skip
    lines = [
        "",
        "## Pairwise McNemar tests (two-sided mid-p, BH q across model pairs per split)",
        "",
    ]
    if not rows:
        return [*lines, "Fewer than two models per split: nothing to compare."]
    lines += _table(
        ["subset", "A", "B", "A %", "B %", "only A", "only B", "p", "q", "q ≤ 0.05"], rows
    )
    flips = []
    by_config: dict[tuple, dict[str, list[PairTest]]] = defaultdict(dict)
    for (bench, rev, config, split), ts in tests.items():
        by_config[(bench, rev, config)][split] = ts
    for (bench, _, config), splits in sorted(by_config.items()):
        names = sorted(splits, key=_split_order)
        pairs = [(a, b) for a, b in combinations(names, 2) if (a.lower(), b.lower()) in CONTRASTS]
        complexities = [s for s in names if COMPLEXITY_RE.match(s)]
        if len(complexities) > 1:
            pairs.append((complexities[0], complexities[-1]))
        for a, b in pairs:
            for f in rank_flips(splits[a], splits[b]):
                flips.append(
                    [
                        f"{bench}::{config}",
                        f"{a} → {b}",
                        f.model_a,
                        f.model_b,
                        _fmt(f.lead_1),
                        _fmt(f.lead_2),
                        f"{f.p_flip:.3g}",
                    ]
                )
    lines += ["", "## Rank flips (significant on both splits, opposite signs; p_flip = max p)", ""]
    if flips:
        lines += _table(
            ["config", "splits", "A", "B", "lead 1 (pts)", "lead 2 (pts)", "p_flip"], flips
        )
    else:
        lines.append("No significant rank flip.")
    return lines


def build_report(results_dir: str | Path, out: str | Path) -> list[Path]:
    """Write the markdown report and its PNG plots; returns every file written."""
    results_dir, out = Path(results_dir), Path(out)
    records = latest(read_records(results_dir))
    if not records:
        raise CrepeInputError(
            f"{results_dir} holds no result records; run crepe evaluate --out {results_dir} first."
        )
    plots = draw_all(records, out.parent, out.stem)
    models = sorted({r.model for r in records})
    lines = [
        "# Evaluation report",
        "",
        f"{len(records)} records (newest per model × dataset × config × split) from `{results_dir}`; "
        f"models: {', '.join(f'`{m}`' for m in models)}.",
        "",
        "## Main metric per split",
        *_overview(records),
        *_details(records),
        *_significance(records),
    ]
    if plots:
        lines += ["", "## Plots", ""] + [f"![{p.stem}]({p.name})" for p in plots]
    write_text_atomic(out, "\n".join(lines) + "\n")
    return [out, *plots]

"""PNG plots of result records (matplotlib, Agg backend); each plot is drawn when records fit it.

* **complexity**: main metric against n for splits named ``complexity_<n>``, one panel per config
  (negative type), one line per model, chance level dashed.
* **systematicity**: SC / UC / UA bars (splits ``sc``, ``uc``, ``ua`` or ``seen_compounds`` …).
* **binding**: seen / mixed / unseen bars (BindSplit splits).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from crepe_datasets.evaluator.models import safe_name
from crepe_datasets.evaluator.records import EvalRecord

COMPLEXITY_RE = re.compile(r"^complexity_(\d+)$")
BAR_GROUPS = {
    "systematicity": (("sc", "seen_compounds"), ("uc", "unseen_compounds"), ("ua", "unseen_atoms")),
    "binding": (("seen",), ("mixed",), ("unseen",)),
}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _chance(r: EvalRecord) -> float | None:
    value = r.metrics.get(r.key(f"chance_{r.main_metric}")) or r.metrics.get(r.key("chance_R@1"))
    return None if value is None else float(value)


def plot_complexity(records: Sequence[EvalRecord], out_dir: Path, stem: str) -> list[Path]:
    """One figure per benchmark with complexity splits."""
    plt = _pyplot()
    by_bench: dict[str, list[EvalRecord]] = defaultdict(list)
    for r in records:
        if COMPLEXITY_RE.match(r.split) and r.task in ("retrieval", "binary", "raw_retrieval"):
            by_bench[r.benchmark].append(r)
    paths = []
    for bench, rs in sorted(by_bench.items()):
        configs = sorted({r.config for r in rs})
        fig, axes = plt.subplots(
            1, len(configs), figsize=(4 * len(configs), 3.2), squeeze=False, sharey=True
        )
        for ax, config in zip(axes[0], configs, strict=True):
            chance: dict[int, float] = {}
            for model in sorted({r.model for r in rs}):
                pts = sorted(
                    (int(COMPLEXITY_RE.match(r.split)[1]), 100 * r.main_value(), r)
                    for r in rs
                    if r.config == config and r.model == model
                )
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=model)
                for n, _, r in pts:
                    if _chance(r) is not None:
                        chance[n] = 100 * _chance(r)
            if chance:
                xs = sorted(chance)
                ax.plot(xs, [chance[x] for x in xs], "k--", linewidth=1, label="chance")
            ax.set_title(config)
            ax.set_xlabel("complexity n")
            ax.xaxis.get_major_locator().set_params(integer=True)
            ax.grid(alpha=0.3)
        axes[0][0].set_ylabel(f"{rs[0].main_metric} (%)")
        axes[0][-1].legend(fontsize=7)
        fig.suptitle(f"{bench}: {rs[0].main_metric} against complexity")
        fig.tight_layout()
        path = out_dir / f"{stem}-complexity-{safe_name(bench)}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths


def plot_bars(records: Sequence[EvalRecord], out_dir: Path, stem: str, kind: str) -> list[Path]:
    """Grouped bars (one group per config × split, one bar per model) for ``kind`` splits."""
    plt = _pyplot()
    aliases = {a: names[0] for names in BAR_GROUPS[kind] for a in names}
    order = [names[0] for names in BAR_GROUPS[kind]]
    rs = [r for r in records if r.split.lower() in aliases]
    if not rs:
        return []
    models = sorted({r.model for r in rs})
    groups = sorted(
        {(r.benchmark, r.config, aliases[r.split.lower()]) for r in rs},
        key=lambda g: (g[0], g[1], order.index(g[2])),
    )
    value = {
        (r.benchmark, r.config, aliases[r.split.lower()], r.model): 100 * r.main_value() for r in rs
    }
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(groups) * max(1, len(models)) / 2 + 2), 3.4))
    width = 0.8 / len(models)
    for j, model in enumerate(models):
        xs = [i + j * width for i in range(len(groups))]
        ys = [value.get((*g, model), 0.0) for g in groups]
        ax.bar(xs, ys, width=width, label=model)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(groups))])
    ax.set_xticklabels(
        [f"{c}\n{s.upper() if kind == 'systematicity' else s}" for _, c, s in groups], fontsize=7
    )
    ax.set_ylabel(f"{rs[0].main_metric} (%)")
    ax.set_title(f"{kind}: " + " / ".join(order))
    ax.legend(fontsize=7)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = out_dir / f"{stem}-{kind}.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return [path]


def draw_all(records: Sequence[EvalRecord], out_dir: Path, stem: str) -> list[Path]:
    """Every plot the records support; returns the written files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = plot_complexity(records, out_dir, stem)
    for kind in BAR_GROUPS:
        paths += plot_bars(records, out_dir, stem, kind)
    return paths

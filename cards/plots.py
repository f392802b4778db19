"""Plots embedded in the dataset card: rows per split, drops by reason, human verification.

PNG bytes from matplotlib's Agg backend with no timestamp or software metadata, so the same
manifest gives the same bytes. Without matplotlib the card simply has no plots.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

ASSETS_DIR = "assets"
ROWS_PLOT = f"{ASSETS_DIR}/rows_per_split.png"
DROPS_PLOT = f"{ASSETS_DIR}/drops_by_reason.png"
VERIFICATION_PLOT = f"{ASSETS_DIR}/human_verification.png"


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None}, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def _natural(name: str) -> tuple:
    digits = "".join(c for c in name if c.isdigit())
    return (name.rstrip("0123456789"), int(digits) if digits else -1, name)


def rows_per_split(counts: Mapping[str, Mapping[str, int]]) -> bytes | None:
    """Grouped bars: rows of each split (x) for each config (colour)."""
    plt = _pyplot()
    if plt is None or not counts:
        return None
    splits = sorted({s for c in counts.values() for s in c}, key=_natural)
    configs = sorted(counts)
    width = 0.8 / len(configs)
    fig, ax = plt.subplots(figsize=(max(5, 0.6 * len(splits) * max(1, len(configs) / 3)), 3.2))
    for k, config in enumerate(configs):
        xs = [i + (k - (len(configs) - 1) / 2) * width for i in range(len(splits))]
        ax.bar(xs, [counts[config].get(s, 0) for s in splits], width, label=config)
    ax.set_xticks(range(len(splits)), splits, rotation=30, ha="right")
    ax.set_ylabel("rows")
    ax.set_title("Rows per split")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), title="config")
    return _png(fig)


def drops_by_reason(drops: Mapping[str, Mapping[str, int]], top: int = 15) -> bytes | None:
    """Horizontal bars: the ``top`` (stage, reason) pairs by count."""
    plt = _pyplot()
    pairs = sorted(
        (
            (n, f"{stage}: {reason}")
            for stage, reasons in drops.items()
            for reason, n in reasons.items()
        ),
        key=lambda p: (-p[0], p[1]),
    )[:top]
    if plt is None or not pairs:
        return None
    fig, ax = plt.subplots(figsize=(6, 0.3 * len(pairs) + 1))
    ax.barh([p[1] for p in reversed(pairs)], [p[0] for p in reversed(pairs)], color="#b55")
    ax.set_xlabel("records dropped")
    ax.set_title("Drops by reason" + (f" (top {top})" if len(pairs) == top else ""))
    ax.tick_params(axis="y", labelsize=8)
    return _png(fig)


def verification_rates(verification: Mapping[str, Any]) -> bytes | None:
    """Rate with its Wilson interval per stratum, one panel per kind of item.

    With two stratum columns (e.g. config, complexity) the second is the x axis and the first
    gives one series per value; otherwise each stratum is one point.
    """
    plt = _pyplot()
    strata = [s for s in verification.get("strata") or [] if s.get("rate") is not None]
    if plt is None or not strata:
        return None
    kinds = sorted({s["kind"] for s in strata})
    by = list(verification.get("by") or [])
    fig, axes = plt.subplots(len(kinds), 1, figsize=(7, 2.8 * len(kinds)), squeeze=False)
    for ax, kind in zip(axes[:, 0], kinds, strict=True):
        rows = [s for s in strata if s["kind"] == kind]
        x_col = by[-1] if len(by) == 2 else None
        xs = sorted({str(s.get(x_col, "")) for s in rows}, key=_natural) if x_col else None
        series = sorted({str(s.get(by[0], "")) for s in rows}) if x_col else [""]
        for k, name in enumerate(series):
            part = [s for s in rows if not x_col or str(s.get(by[0], "")) == name]
            if x_col:
                pos = [xs.index(str(s.get(x_col, ""))) + 0.08 * (k - len(series) / 2) for s in part]
            else:
                pos = list(range(len(part)))
            err = [
                [100 * (s["rate"] - s["low"]) for s in part],
                [100 * (s["high"] - s["rate"]) for s in part],
            ]
            rates = [100 * s["rate"] for s in part]
            ax.errorbar(
                pos, rates, yerr=err, fmt="o-" if x_col else "o", capsize=3, label=name or None
            )
        if x_col:
            ax.set_xticks(range(len(xs)), xs)
            ax.set_xlabel(x_col)
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), title=by[0])
        else:
            names = ["/".join(str(s.get(c, "")) for c in by) or kind for s in rows]
            ax.set_xticks(range(len(rows)), names, rotation=45, ha="right", fontsize=7)
        ax.set_ylim(0, 105)
        ax.set_ylabel("% yes")
        ax.set_title(f"{kind}: majority 'yes' rate (95% Wilson)", fontsize=9)
    fig.tight_layout()
    return _png(fig)

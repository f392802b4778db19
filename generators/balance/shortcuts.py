"""Text-only formatting shortcuts: can a caption be told from its negatives without the image?

Each baseline scores every candidate text of a retrieval set ([caption] + hard negatives) by one
formatting feature and picks the highest (``max``) or the lowest (``min``) score. Ties are
broken uniformly at random, so the reported R@1 is the *expected* R@1: a row scores
``1 / (number of candidates tied at the best score)`` when the caption is among them, else 0.
A feature that carries no information therefore scores exactly chance.

Features (formatting only, never content): capitalisation (first letter upper case, number of
upper-case letters, all lower case), punctuation (number of punctuation marks, commas, periods),
final punctuation (trailing period, any final mark), spacing (irregular whitespace: doubled
spaces, leading/trailing spaces, a space before punctuation).

A dataset config *passes* when the best baseline's R@1 over all its rows is at most chance + 5
points (``margin = 0.05``).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MARGIN = 0.05
_IRREGULAR = re.compile(r"  +|^\s|\s$|\s[,.;:!?]")

_UPPER = re.compile(r"[A-Z]")
_PUNCT_RE = re.compile("[" + re.escape(string.punctuation) + "]")

FEATURES: dict[str, Callable[[str], float]] = {
    "upper_first": lambda t: float(t[:1].isupper()),
    "n_upper": lambda t: float(len(_UPPER.findall(t))),
    "all_lower": lambda t: float(t == t.lower()),
    "n_punct": lambda t: float(len(_PUNCT_RE.findall(t))),
    "n_commas": lambda t: float(t.count(",")),
    "n_periods": lambda t: float(t.count(".")),
    "trailing_period": lambda t: float(t.endswith(".")),
    "final_punct": lambda t: float(t[-1:] in (".", "!", "?")),
    "irregular_spacing": lambda t: float(len(_IRREGULAR.findall(t))),
}


def _r1(scores: list[float]) -> float:
    best = max(scores)
    return 1.0 / scores.count(best) if scores[0] == best else 0.0


def expected_r1(
    sets: Iterable[Sequence[str]], feature: Callable[[str], float], sign: float
) -> float:
    """Mean expected R@1 of picking the best ``sign * feature`` (caption first in each set)."""
    total, count = 0.0, 0
    for texts in sets:
        total += _r1([sign * feature(t) for t in texts])
        count += 1
    return total / count if count else 0.0


@dataclass
class AuditResult:
    """Shortcut baselines of one set of retrieval sets."""

    rows: int
    chance: float
    baselines: dict[str, float] = field(default_factory=dict)

    @property
    def best(self) -> tuple[str, float]:
        return (
            max(self.baselines.items(), key=lambda kv: (kv[1], kv[0]))
            if self.baselines
            else ("none", 0.0)
        )

    @property
    def passed(self) -> bool:
        return self.best[1] <= self.chance + MARGIN

    def to_dict(self) -> dict[str, Any]:
        name, value = self.best
        return {
            "rows": self.rows,
            "chance": round(self.chance, 4),
            "best_baseline": name,
            "best_r1": round(value, 4),
            "passed": self.passed,
            "baselines": {k: round(v, 4) for k, v in sorted(self.baselines.items())},
        }


class AuditAccumulator:
    """Streaming form of :func:`audit_sets`: add retrieval sets one at a time, in constant memory."""

    def __init__(self) -> None:
        self.rows = 0
        self.chance_sum = 0.0
        self.sums = {f"{d}_{name}": 0.0 for name in FEATURES for d in ("max", "min")}

    def add(self, texts: Sequence[str]) -> None:
        if len(texts) < 2:
            return
        self.rows += 1
        self.chance_sum += 1.0 / len(texts)
        for name, fn in FEATURES.items():
            scores = [fn(t) for t in texts]
            self.sums[f"max_{name}"] += _r1(scores)
            self.sums[f"min_{name}"] += _r1([-x for x in scores])

    def merge(self, other: AuditAccumulator) -> None:
        self.rows += other.rows
        self.chance_sum += other.chance_sum
        for key, value in other.sums.items():
            self.sums[key] += value

    def result(self) -> AuditResult:
        n = self.rows
        out = AuditResult(n, self.chance_sum / n if n else 0.0)
        out.baselines = {k: (v / n if n else 0.0) for k, v in self.sums.items()}
        return out


def audit_sets(sets: Iterable[Sequence[str]]) -> AuditResult:
    """Every baseline (both directions) on retrieval sets ``[caption, *negatives]``."""
    acc = AuditAccumulator()
    for texts in sets:
        acc.add(texts)
    return acc.result()


@dataclass
class ShortcutReport:
    """Per config: the pooled audit and one audit per split."""

    configs: dict[str, AuditResult] = field(default_factory=dict)
    splits: dict[str, dict[str, AuditResult]] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return all(a.passed for a in self.configs.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "margin": MARGIN,
            "configs": {c: a.to_dict() for c, a in sorted(self.configs.items())},
            "splits": {
                c: {
                    s: {
                        "rows": a.rows,
                        "chance": round(a.chance, 4),
                        "best_r1": round(a.best[1], 4),
                    }
                    for s, a in sp.items()
                }
                for c, sp in sorted(self.splits.items())
            },
        }


def audit_rows(tables: Mapping[str, Mapping[str, Iterable[Mapping[str, Any]]]]) -> ShortcutReport:
    """Audit ``{config: {split: rows}}`` (rows with ``caption`` and ``hard_negatives``), streaming."""
    report = ShortcutReport()
    for config, splits in tables.items():
        pooled = AuditAccumulator()
        report.splits[config] = {}
        for split, rows in splits.items():
            acc = AuditAccumulator()
            for row in rows:
                acc.add([row["caption"], *list(row.get("hard_negatives") or [])])
            report.splits[config][split] = acc.result()
            pooled.merge(acc)
        report.configs[config] = pooled.result()
    return report

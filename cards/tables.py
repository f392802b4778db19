"""Readable Markdown tables for the card, built from the manifest's nested values.

A scalar becomes a row of a ``quantity | value`` table; a mapping of scalars a table of its
own; a mapping of mappings a matrix (outer keys as rows, inner keys as columns). Names that end
in numbers sort naturally (``complexity_4`` before ``complexity_10``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_NUMBER = re.compile(r"(\d+)")


def natural_key(text: Any) -> list:
    """Sort key that orders embedded numbers by value."""
    return [int(p) if p.isdigit() else p for p in _NUMBER.split(str(text))]


def cell(value: Any) -> str:
    """One table cell: numbers with thousands separators, lists joined, pipes escaped."""
    if isinstance(value, bool) or value is None:
        text = str(value).lower() if value is not None else "–"
    elif isinstance(value, int):
        text = f"{value:,}"
    elif isinstance(value, float):
        text = f"{value:,.4g}"
    elif isinstance(value, (list, tuple)):
        text = ", ".join(cell(v) for v in value) or "–"
    elif isinstance(value, Mapping):
        text = json.dumps(value, sort_keys=True, default=str)
    else:
        text = str(value)
    return text.replace("|", "\\|").replace("\n", " ")


@dataclass
class Table:
    """A titled Markdown table."""

    title: str
    header: list[str]
    rows: list[list[str]]

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.header) + " |", "|" + "---|" * len(self.header)]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, Mapping) and not (
        isinstance(value, (list, tuple)) and any(isinstance(v, (Mapping, list)) for v in value)
    )


def mapping_tables(data: Mapping[str, Any], first_title: str = "") -> list[Table]:
    """Tables for a mapping: one for its scalars, one per nested mapping (see module doc)."""
    scalars = [[k, cell(v)] for k, v in sorted(data.items()) if _is_scalar(v)]
    tables = [Table(first_title, ["quantity", "value"], scalars)] if scalars else []
    for key, value in sorted(data.items()):
        if _is_scalar(value):
            continue
        if isinstance(value, Mapping) and all(_is_scalar(v) for v in value.values()):
            keys = sorted(value, key=natural_key)
            tables.append(Table(key, ["name", "value"], [[k, cell(value[k])] for k in keys]))
        elif isinstance(value, Mapping) and all(isinstance(v, Mapping) for v in value.values()):
            columns = sorted({c for v in value.values() for c in v}, key=natural_key)
            rows = [
                [r] + [cell(value[r].get(c)) for c in columns]
                for r in sorted(value, key=natural_key)
            ]
            tables.append(Table(key, ["", *columns], rows))
        else:
            tables.append(Table(key, ["value"], [[cell(value)]]))
    return tables


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def _estimate(est: Mapping[str, Any] | None, percent: bool = False) -> str:
    if not est or est.get("value") is None:
        return "–"
    fmt = _pct if percent else (lambda x: "–" if x is None else f"{x:.3f}")
    interval = (
        f" [{fmt(est.get('low'))}, {fmt(est.get('high'))}]" if est.get("low") is not None else ""
    )
    return f"{fmt(est['value'])}{'%' if percent else ''}{interval}"


def _rate(row: Mapping[str, Any]) -> str:
    if row.get("rate") is None:
        return "–"
    return f"{_pct(row['rate'])}% [{_pct(row['low'])}, {_pct(row['high'])}]"


def verification_tables(hv: Mapping[str, Any]) -> list[Table]:
    """The card's human-verification tables: one row per kind, then one per stratum."""
    overall = []
    for kind, k in sorted((hv.get("kinds") or {}).items()):
        a = k.get("agreement") or {}
        overall.append(
            [
                k.get("question", kind),
                cell(k["items"]),
                cell(k["annotators"]),
                f"{k['yes']:,} / {k['yes'] + k['no']:,}",
                _rate(k),
                _estimate(a.get("percent_agreement"), percent=True),
                _estimate(a.get("cohen_kappa")),
                _estimate(a.get("fleiss_kappa")),
                _estimate(a.get("krippendorff_alpha")),
            ]
        )
    tables = [
        Table(
            "overall",
            ["question", "items", "annotators", "yes / decided", "rate % (95% Wilson)",
             "agreement % (95% bootstrap)", "Cohen's κ", "Fleiss' κ", "Krippendorff's α"],
            overall,
        )
    ]  # fmt: skip
    by = list(hv.get("by") or [])
    groups = [(f"by {c}", [c], rows) for c, rows in (hv.get("marginals") or {}).items()]
    for title, columns, strata in [*groups, ("per stratum", by, hv.get("strata") or [])]:
        rows = [
            [s["kind"], *(cell(s.get(c)) for c in columns), cell(s["items"]),
             f"{s['yes']:,} / {s['yes'] + s['no']:,}", _rate(s),
             "–" if s.get("percent_agreement") is None else f"{_pct(s['percent_agreement'])}%"]
            for s in strata
        ]  # fmt: skip
        if rows:
            header = [
                "kind",
                *columns,
                "items",
                "yes / decided",
                "rate % (95% Wilson)",
                "agreement %",
            ]
            tables.append(Table(title, header, rows))
    return tables

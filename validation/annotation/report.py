"""Agreement, rates and majority labels of a sample's judgements, and the card section.

For each kind of item (``caption``: faithful?, ``negative``: genuine?) the report gives the
rate of items whose majority label is "yes" among items with a yes/no majority (ties and
"unsure" majorities are counted apart), with a Wilson interval, per stratum and overall; and
the annotators' agreement (percent, Cohen's κ when there are two annotators, Fleiss' κ,
Krippendorff's α), each with a percentile bootstrap interval over items.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from crepe_datasets.cards.manifest import MANIFEST_NAME, BuildManifest, read_manifest
from crepe_datasets.cards.plots import VERIFICATION_PLOT, verification_rates
from crepe_datasets.cards.render import render_card
from crepe_datasets.cards.tables import natural_key
from crepe_datasets.cards.verification import check_verification
from crepe_datasets.infra.provenance import atomic_path, write_json_atomic, write_text_atomic
from crepe_datasets.infra.version import __version__
from crepe_datasets.validation.annotation.agreement import (
    Estimate,
    bootstrap,
    cohen_kappa,
    fleiss_kappa,
    krippendorff_alpha,
    percent_agreement,
    wilson_interval,
)
from crepe_datasets.validation.annotation.sampling import Item
from crepe_datasets.validation.annotation.store import Judgement

QUESTION = {"caption": "faithful caption", "negative": "genuine negative"}


def majority(labels: Sequence[str]) -> str:
    """The most common label; ``"tie"`` when two labels share the top count."""
    if not labels:
        return "none"
    top = Counter(labels).most_common()
    return "tie" if len(top) > 1 and top[0][1] == top[1][1] else top[0][0]


def _rate(majorities: Sequence[str]) -> dict[str, Any]:
    yes, no = majorities.count("yes"), majorities.count("no")
    low, high = wilson_interval(yes, yes + no)
    decided = yes + no
    return {
        "items": len(majorities),
        "yes": yes,
        "no": no,
        "undecided": len(majorities) - decided,
        "rate": round(yes / decided, 4) if decided else None,
        "low": round(low, 4) if decided else None,
        "high": round(high, 4) if decided else None,
    }


def _agreement(units: list[list[str | None]], n_resamples: int, seed: int) -> dict[str, Any]:
    rated = [u for u in units if sum(v is not None for v in u) >= 2]
    out: dict[str, Any] = {"items_with_two_or_more": len(rated)}
    stats = {
        "percent_agreement": percent_agreement,
        "fleiss_kappa": fleiss_kappa,
        "krippendorff_alpha": krippendorff_alpha,
    }
    if units and len(units[0]) == 2:
        stats["cohen_kappa"] = cohen_kappa
    for name, fn in stats.items():
        est = bootstrap(fn, rated, n_resamples=n_resamples, seed=seed) if rated else None
        out[name] = (est or Estimate(float("nan"), float("nan"), float("nan"))).to_dict()
    return out


def _strata_rows(
    kind: str, judged: list[Item], columns: Sequence[str], labels: Mapping[str, dict[str, str]]
) -> list[dict[str, Any]]:
    """One row per stratum of ``columns``: rate with its Wilson interval, percent agreement."""
    groups: dict[tuple[str, ...], list[Item]] = defaultdict(list)
    for i in judged:
        groups[i.stratum(columns)].append(i)
    rows = []
    for key in sorted(groups, key=lambda k: [natural_key(x) for x in k]):
        votes = [list(labels[i.item_id].values()) for i in groups[key]]
        rated = [v for v in votes if len(v) >= 2]
        rows.append(
            {
                "kind": kind,
                **dict(zip(columns, key, strict=True)),
                **_rate([majority(v) for v in votes]),
                "percent_agreement": round(percent_agreement(rated), 4) if rated else None,
            }
        )
    return rows


def build_report(
    items: Mapping[str, Item],
    judgements: Mapping[tuple[str, str], Judgement],
    by: Sequence[str],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """The ``human_verification`` section of a build manifest (see the module docstring)."""
    labels: dict[str, dict[str, str]] = defaultdict(dict)
    for (item_id, annotator), j in judgements.items():
        if item_id in items:
            labels[item_id][annotator] = j.label
    annotators = sorted({a for per in labels.values() for a in per})
    kinds: dict[str, Any] = {}
    strata: list[dict[str, Any]] = []
    marginals: dict[str, list[dict[str, Any]]] = defaultdict(list)
    columns = [c for c in by if c != "kind"]
    for kind in sorted({i.kind for i in items.values()}):
        judged = [i for i in items.values() if i.kind == kind and labels.get(i.item_id)]
        if not judged:
            continue
        who = sorted({a for i in judged for a in labels[i.item_id]})
        units = [[labels[i.item_id].get(a) for a in who] for i in judged]
        kinds[kind] = {
            "question": QUESTION.get(kind, kind),
            "annotators": len(who),
            "judgements": sum(len(labels[i.item_id]) for i in judged),
            **_rate([majority(list(labels[i.item_id].values())) for i in judged]),
            "agreement": _agreement(units, n_resamples, seed),
        }
        strata += _strata_rows(kind, judged, columns, labels)
        for column in columns if len(columns) > 1 else []:
            marginals[column] += _strata_rows(kind, judged, [column], labels)
    return {
        "tool_version": __version__,
        "reported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "by": columns,
        "items": len(items),
        "judged_items": len(labels),
        "annotators": len(annotators),
        "judgements": sum(len(v) for v in labels.values()),
        "kinds": kinds,
        "strata": strata,
        "marginals": dict(marginals),
        "majority_labels": {i: majority(list(v.values())) for i, v in sorted(labels.items())},
        "rows": {
            f"{i.config}/{i.split}/{i.row}": i.row_hash
            for i in sorted(items.values(), key=lambda x: x.item_id)
            if i.item_id in labels
        },
        "status": "current",
    }


def write_to_dataset(folder: str | Path, report: Mapping[str, Any]) -> dict[str, Any]:
    """Put ``report`` into the dataset's build manifest and re-render its card (with a plot).

    The rows the annotators saw are checked against the folder first: the section is marked
    ``stale`` when any of them changed since sampling. Returns the section as written.
    """
    folder = Path(folder)
    read_manifest(folder)  # a clear error when the folder is not a dataset
    data = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
    section = check_verification(report, folder)
    assets = [a for a in data.get("assets") or [] if a != VERIFICATION_PLOT]
    png = verification_rates(section)
    if png is not None:
        with atomic_path(folder / VERIFICATION_PLOT) as tmp:
            tmp.write_bytes(png)
        assets.append(VERIFICATION_PLOT)
    data["human_verification"] = section
    data["assets"] = sorted(assets)
    write_json_atomic(folder / MANIFEST_NAME, data)
    write_text_atomic(folder / "README.md", render_card(BuildManifest.from_dict(data)))
    return section

"""Invariants of a crepe-captioning folder: no leakage between splits, pairs kept out of train.

Checked on the rows as written (``{config: {split: rows}}``) and the manifest's summary:

* ``image_in_several_splits``: an image id appears in more than one split of a config (or twice
  in one split);
* ``heldout_pair_in_train``: a ``systematicity`` row outside ``test_comb`` lists a held-out pair;
* ``test_comb_without_pair``: a ``test_comb`` row lists none;
* ``unbalanced_pair``: a pair's ``test_no_comb`` images differ in number from its ``test_comb``
  images (only when enough pair-free images existed, as the summary records);
* ``configs_cover_different_images``: two configs other than the density config hold
  different sets of images.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

Tables = Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]


def check_captioning(tables: Tables, summary: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The invariant report: ``passed``, ``rows_checked``, ``violations`` and a few examples."""
    violations: Counter[str] = Counter()
    examples: list[str] = []

    def fail(check: str, example: str) -> None:
        violations[check] += 1
        if len(examples) < 5:
            examples.append(f"{check}: {example}")

    covered: dict[str, frozenset[str]] = {}
    rows_checked = 0
    for config, splits in tables.items():
        ids = Counter(str(r["image_id"]) for rows in splits.values() for r in rows)
        rows_checked += sum(ids.values())
        for iid, n in ids.items():
            if n > 1:
                fail("image_in_several_splits", f"{config} image {iid}")
        if config != "productivity_density":
            covered[config] = frozenset(ids)
    if len(set(covered.values())) > 1:
        fail("configs_cover_different_images", ", ".join(sorted(covered)))
    sys_rows = tables.get("systematicity", {})
    for split, rows in sys_rows.items():
        for r in rows:
            if split != "test_comb" and r.get("heldout_pairs"):
                fail("heldout_pair_in_train", f"{split} image {r['image_id']}")
            if split == "test_comb" and not r.get("heldout_pairs"):
                fail("test_comb_without_pair", f"image {r['image_id']}")
    comb = Counter(p for r in sys_rows.get("test_comb", []) for p in r.get("heldout_pairs") or [])
    no_comb = Counter(r.get("no_comb_pair") for r in sys_rows.get("test_no_comb", []))
    pairs = (summary or {}).get("pairs") or {}
    for pid, stats in pairs.items():
        short = stats.get("test_no_comb", 0) < stats.get("test_comb", 0)  # too few free images
        if no_comb.get(pid, 0) != comb.get(pid, 0) and not short:
            fail(
                "unbalanced_pair",
                f"{pid}: test_comb {comb.get(pid, 0)}, test_no_comb {no_comb.get(pid, 0)}",
            )
    return {
        "passed": not violations,
        "rows_checked": rows_checked,
        "violations": dict(sorted(violations.items())),
        "examples": examples,
    }

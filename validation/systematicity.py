"""Checks of a built crepe-systematicity dataset: every row against its split and its negatives.

Checks (counted by (config, check) like :mod:`crepe_datasets.validation.invariants`):

* ``lists_not_from_graph`` — ``atoms`` / ``compounds`` are those of the row's ``scene_graph``;
* ``split_not_rederived`` — with seen tables: ``unseen_atoms`` / ``unseen_compounds`` are exactly
  the listed atoms / compounds missing from the tables, and the split (table split name and
  ``split`` column) follows from them (SPEC §2.4). Without tables, only the second part;
* ``wrong_set_size`` — ``hn_atom`` rows have 4 negatives, ``hn_comp`` and ``hn_comp_matched``
  rows 6;
* ``hn_not_one_compound`` — hard-negative rows have exactly one compound (for
  ``hn_comp_matched``: the region's graph, ``region_graph``);
* ``atom_not_one_change`` — an HN-ATOM graph differs from the caption's in exactly one atom of
  the same type;
* ``comp_not_two_foils`` — an HN-COMP graph holds every atom of the caption's compound, and
  besides the caption's atoms exactly its two foils (``hn_comp_matched``: the region's caption);
* ``matched_positive_not_joined`` — an ``hn_comp_matched`` positive is the region's caption and
  one more conjunct joined by " and " (either first);
* ``matched_positive_not_two_compounds`` — its ``scene_graph`` holds every atom of
  ``region_graph``, and its compounds are the region's compound and ``second_compound``;
* ``matched_and_count`` — the positive and every negative hold " and " equally often (the
  length-and-"and" cue of the paper's HN-COMP must not come back).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from crepe_datasets.generators.negatives import from_compact
from crepe_datasets.generators.negatives.comp_matched import NEGATIVES as MATCHED_NEGATIVES
from crepe_datasets.scenegraph.seen import SeenTables, atom_key, compound_key, split_of
from crepe_datasets.validation.invariants import InvariantReport

SET_SIZES = {"hn_atom": 4, "hn_comp": 6, "hn_comp_matched": MATCHED_NEGATIVES}
MATCHED = "hn_comp_matched"


def _check_negative(kind: str, caption_graph, graph, foils: Sequence[str]) -> str | None:
    before, after = Counter(caption_graph.atoms()), Counter(graph.atoms())
    if kind == "atom":
        removed, added = before - after, after - before
        ok = (
            sum(removed.values()) == 1
            and sum(added.values()) == 1
            and next(iter(removed)).type == next(iter(added)).type
        )
        return None if ok else "atom_not_one_change"
    if kind == "comp":
        compound_atoms = {a for c in caption_graph.compounds() for a in c.parts}
        texts = {a.text for a in after}
        extra = {(a.type, a.text) for a in after} - {(a.type, a.text) for a in before}
        ok = (
            compound_atoms <= texts
            and len(foils) == 2
            and len(extra) == 2
            and {t for _, t in extra} == set(foils)
        )
        return None if ok else "comp_not_two_foils"
    return None


def check_row(
    config: str,
    split: str,
    row: Mapping[str, Any],
    seen: SeenTables | None,
    report: InvariantReport,
) -> None:
    """Check one row (see the module docstring); violations go into ``report``."""
    report.rows += 1
    caption = row["caption"]
    graph = from_compact(row["scene_graph"])
    atoms = list(dict.fromkeys(atom_key(a) for a in graph.atoms()))
    compounds = list(dict.fromkeys(compound_key(c) for c in graph.compounds()))
    if list(row["atoms"]) != atoms or list(row["compounds"]) != compounds:
        report.fail(config, "lists_not_from_graph", caption)
    unseen_a, unseen_c = list(row["unseen_atoms"]), list(row["unseen_compounds"])
    if seen is not None:
        expect_a = [a for a in row["atoms"] if a not in seen.atoms]
        expect_c = [c for c in row["compounds"] if c not in seen.compounds]
        if expect_a != unseen_a or expect_c != unseen_c:
            report.fail(config, "split_not_rederived", caption)
    if split_of(unseen_a, unseen_c) != split or row.get("split", split) != split:
        report.fail(config, "split_not_rederived", caption)
    if config not in SET_SIZES:
        return
    negatives = list(row.get("hard_negatives") or [])
    if len(negatives) != SET_SIZES[config]:
        report.fail(config, "wrong_set_size", caption)
    if config == MATCHED:
        region = from_compact(row["region_graph"])
        _check_matched(row, graph, region, negatives, report)
        graph = region
    if len(graph.compounds()) != 1:
        report.fail(config, "hn_not_one_compound", caption)
    for kind, g, foils, text in zip(
        row["negative_types"], row["negative_graphs"], row["negative_foils"], negatives, strict=True
    ):
        problem = _check_negative(kind, graph, from_compact(g), foils)
        if problem:
            report.fail(config, problem, f"{caption} -> {text}")


def _check_matched(
    row: Mapping[str, Any], graph, region, negatives: Sequence[str], report: InvariantReport
) -> None:
    """The ``matched_*`` checks of one ``hn_comp_matched`` row (module docstring)."""
    caption, own = row["caption"], row["region_caption"]
    if not (caption.startswith(f"{own} and ") or caption.endswith(f" and {own}")):
        report.fail(MATCHED, "matched_positive_not_joined", caption)
    region_keys = [compound_key(c) for c in region.compounds()]
    keys = sorted(compound_key(c) for c in graph.compounds())
    if Counter(region.atoms()) - Counter(graph.atoms()) or keys != sorted(
        [*region_keys, row["second_compound"]]
    ):
        report.fail(MATCHED, "matched_positive_not_two_compounds", caption)
    if any(text.count(" and ") != caption.count(" and ") for text in negatives):
        report.fail(MATCHED, "matched_and_count", caption)


def check_tables(
    tables: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]],
    seen: SeenTables | None = None,
) -> InvariantReport:
    """Check every row of ``{config: {split: rows}}``."""
    report = InvariantReport()
    for config, splits in tables.items():
        for split, rows in splits.items():
            for row in rows:
                check_row(config, split, row, seen, report)
    return report

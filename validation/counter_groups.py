"""Independent re-verification of the ``groups`` rows (counter-images).

The builder's match (:mod:`crepe_datasets.builders.counter_images.match`) maps graphs object by
object; this check works on **compound sets** instead, from the row alone: for each group,

* ``different_images``: the two images differ;
* ``negative_compounds_in_counter``: every compound and object of the negative's graph
  (``negative_graph``) is a compound / object of the counter-region's graph (``image_1_graph``),
  names compared through first-sense synonyms and Visual Genome aliases (a prepositional
  predicate also through the counter-region's predicates ending with it: "sit on" is "on");
* ``positive_true_in_counter``: violated when every compound and object of the caption's graph
  (``scene_graph``) is found in the counter-region's graph through broad synonyms;
* ``replaced_object_in_counter``: for an object exchange, the replaced object (or a broad
  synonym) is an object of the counter-region's graph;
* ``exchange_matches_graphs``: the ``exchange`` column is the one-atom difference of the two graphs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from crepe_datasets.generators.negatives import from_compact
from crepe_datasets.generators.terms import Terms
from crepe_datasets.scenegraph.types import SceneGraph
from crepe_datasets.validation.invariants import InvariantReport

CONFIG = "groups"


def _compounds(g: SceneGraph, canon: Callable[[str, str], str]) -> set[tuple]:
    by_id = g.object_by_id()
    out: set[tuple] = {("o", canon("object", o.name)) for o in g.objects}
    out |= {
        ("ao", canon("attribute", a), canon("object", o.name))
        for o in g.objects
        for a in o.attributes
    }
    out |= {
        ("oro", canon("object", by_id[r.subject].name), canon("relationship", r.predicate),
         canon("object", by_id[r.object].name))
        for r in g.relationships if r.subject in by_id and r.object in by_id
    }  # fmt: skip
    return out


def _present(
    query: SceneGraph, target: set[tuple], alts: Callable[[str, str], frozenset[str]]
) -> bool:
    """Every compound and object of ``query`` is in ``target`` (names through ``alts``)."""
    kinds = {"o": ("object",), "ao": ("attribute", "object"),
             "oro": ("object", "relationship", "object")}  # fmt: skip
    for c in _compounds(query, lambda k, x: x):
        options = [alts(k, x) for k, x in zip(kinds[c[0]], c[1:], strict=True)]
        if not any(t[0] == c[0] and all(v in o for v, o in zip(t[1:], options, strict=True))
                   for t in target):  # fmt: skip
            return False
    return True


def check_group(row: Mapping[str, Any], terms: Terms, report: InvariantReport) -> None:
    """Check one ``groups`` row (see the module docstring)."""
    where = f"{row['caption_0']} / {row['caption_1']} / image {row['image_1_id']}"
    if str(row["image_0_id"]) == str(row["image_1_id"]):
        report.fail(CONFIG, "different_images", where)
    counter = SceneGraph.from_json(row["image_1_graph"])
    terms.add_predicates({r.predicate for r in counter.relationships})
    target = _compounds(counter, lambda k, x: x)  # stored canonical already
    positive, negative = from_compact(row["scene_graph"]), from_compact(row["negative_graph"])
    if not _present(negative, target, terms.tight):
        report.fail(CONFIG, "negative_compounds_in_counter", where)
    if _present(positive, target, terms.loose):
        report.fail(CONFIG, "positive_true_in_counter", where)
    pa, na = Counter(positive.atoms()), Counter(negative.atoms())
    removed, added = list((pa - na).elements()), list((na - pa).elements())
    kind, _, pair = str(row["exchange"]).partition(":")
    old, _, new = pair.partition("->")
    if [(a.type, a.text) for a in removed] != [(kind, old)] or [
        (a.type, a.text) for a in added
    ] != [(kind, new)]:
        report.fail(CONFIG, "exchange_matches_graphs", where)
    if kind == "object":
        olds = terms.loose("object", old)
        if any(o.name in olds for o in counter.objects):
            report.fail(CONFIG, "replaced_object_in_counter", where)


def check_groups(
    tables: Mapping[str, Sequence[Mapping[str, Any]]], terms: Terms
) -> InvariantReport:
    """Check every row of the ``groups`` splits ``{split: rows}``."""
    report = InvariantReport()
    for rows in tables.values():
        for row in rows:
            report.rows += 1
            check_group(row, terms, report)
    return report

"""Invariant checks on every row of a built productivity dataset.

Checks (names as counted in the report):

* ``subgraph_not_n_atoms`` — the row's subgraph has exactly ``n`` atoms, and ``n_objects``,
  ``n_attributes``, ``n_relationships`` match it;
* ``caption_misses_atom`` — the caption mentions every atom of the subgraph;
* ``negative_equals_caption`` — no negative equals its caption;
* ``negative_equals_image_caption`` — no negative equals any caption of the same image (any
  row of any config and split);
* ``duplicate_negatives`` — the negatives of a row are distinct;
* ``types_length_mismatch`` — one type (and rule and graph, when present) per negative;
* ``swap_changes_atoms`` — a swap negative's graph has the same atoms (multiset) as the subgraph;
* ``atom_not_one_change`` — an atom negative's graph differs from the subgraph in exactly one atom
  (one removed, one added, same type);
* ``negate_not_one_negation`` — a negation is either caption-level ("there is no …", "there are no …") or its graph
  differs in exactly one atom, replaced by the same atom with "not " in front;
* ``text_control_chars``, ``text_invisible_chars``, ``text_invalid_utf8`` — no text column (nor
  a string inside a list column) holds a character that input hygiene removes
  (:mod:`crepe_datasets.validation.text_columns`).

Graph checks need the ``subgraph`` and ``negative_subgraphs`` columns (compact JSON); rows
without them are counted under ``subgraph_checks_skipped`` / ``graph_checks_skipped``, so the
command also runs (text checks only) on datasets of other builders.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.generators.captions import CAPTION_NEGATIONS, NEGATION_PREFIX
from crepe_datasets.generators.captions.coverage import missing_atoms
from crepe_datasets.generators.negatives import from_compact
from crepe_datasets.scenegraph.types import Atom, SceneGraph
from crepe_datasets.validation.text_columns import check_text_columns

MAX_EXAMPLES = 5


@dataclass
class InvariantReport:
    """Rows checked and violations by (config, check), with a few examples."""

    rows: int = 0
    violations: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def fail(self, config: str, check: str, example: str) -> None:
        self.violations[(config, check)] += 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(f"{config}/{check}: {example[:200]}")

    @property
    def passed(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, dict[str, int]] = defaultdict(dict)
        for (config, check), n in sorted(self.violations.items()):
            out[config][check] = n
        return {
            "rows_checked": self.rows,
            "passed": self.passed,
            "violations": dict(out),
            "skipped": dict(sorted(self.skipped.items())),
            "examples": list(self.examples),
        }


def _diff(a: Sequence[Atom], b: Sequence[Atom]) -> tuple[Counter, Counter]:
    ca, cb = Counter(a), Counter(b)
    return ca - cb, cb - ca


def _check_negative(
    kind: str, text: str, graph: SceneGraph | None, sub_atoms: list[Atom]
) -> str | None:
    if kind == "negate" and text.lower().startswith(CAPTION_NEGATIONS):
        return None
    if graph is None:
        return None
    removed, added = _diff(sub_atoms, graph.atoms())
    if kind == "swap":
        return None if not removed and not added else "swap_changes_atoms"
    one = sum(removed.values()) == 1 and sum(added.values()) == 1
    old = next(iter(removed), None)
    new = next(iter(added), None)
    if kind == "atom":
        return None if one and old.type == new.type else "atom_not_one_change"  # type: ignore[union-attr]
    if kind == "negate":
        ok = one and new.type == old.type and new.text == NEGATION_PREFIX + old.text  # type: ignore[union-attr]
        return None if ok else "negate_not_one_negation"
    return None


def check_row(
    config: str, row: Mapping[str, Any], image_captions: set[str], report: InvariantReport
) -> None:
    """Check one row; violations go into ``report``."""
    report.rows += 1
    caption = row["caption"]
    atoms: list[Atom] | None = None
    if row.get("subgraph"):
        sub = SceneGraph.from_json(row["subgraph"])
        atoms = sub.atoms()
        counts = (
            len(sub.objects),
            sum(len(o.attributes) for o in sub.objects),
            len(sub.relationships),
        )
        expected = (row.get("n_objects"), row.get("n_attributes"), row.get("n_relationships"))
        if len(atoms) != row.get("n") or counts != expected:
            report.fail(config, "subgraph_not_n_atoms", caption)
        if missing_atoms(caption, sub):
            report.fail(config, "caption_misses_atom", caption)
    else:
        report.skipped[f"{config}:subgraph_checks_skipped"] += 1
    negatives = list(row.get("hard_negatives") or [])
    if not negatives:
        return
    # Datasets without a negative_types column (BindSplit, hold-out) have one untyped negative.
    types = (
        list(row.get("negative_types") or []) if "negative_types" in row else [""] * len(negatives)
    )
    graphs = row.get("negative_subgraphs")
    if len(types) != len(negatives) or (graphs is not None and len(graphs) != len(negatives)):
        report.fail(config, "types_length_mismatch", caption)
        return
    if len(set(negatives)) != len(negatives):
        report.fail(config, "duplicate_negatives", caption)
    if graphs is None or atoms is None:
        report.skipped[f"{config}:graph_checks_skipped"] += 1
    for i, (text, kind) in enumerate(zip(negatives, types, strict=True)):
        if text == caption:
            report.fail(config, "negative_equals_caption", text)
        elif text in image_captions:
            report.fail(config, "negative_equals_image_caption", text)
        if graphs is None or atoms is None:
            continue
        problem = _check_negative(kind, text, from_compact(graphs[i]), atoms)
        if problem:
            report.fail(config, problem, f"{caption} -> {text}")


def check_rows(tables: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]) -> InvariantReport:
    """Check every row of ``{config: {split: rows}}``.

    Rows without an ``image_id`` are checked on their own (no image-level caption check); rows
    without a ``caption`` are counted as skipped, so every dataset of the toolkit can be checked.
    """
    captions: dict[str, set[str]] = defaultdict(set)
    for splits in tables.values():
        for rows in splits.values():
            for row in rows:
                if row.get("image_id") is not None and "caption" in row:
                    captions[str(row["image_id"])].add(row["caption"])
    report = InvariantReport()
    for config, splits in tables.items():
        for rows in splits.values():
            for row in rows:
                check_text_columns(config, row, report)
                if not isinstance(row.get("caption"), str):
                    # tables without a caption (a training table, 2x2 groups) have no row checks
                    report.skipped[f"{config}:no_caption_column"] += 1
                    continue
                image = row.get("image_id")
                check_row(config, row, captions[str(image)] if image is not None else set(), report)
    return report


def read_tables(
    folder: str | Path, columns_skip: tuple[str, ...] = ("image",)
) -> dict[str, dict[str, list[dict]]]:
    """``{config: {split: rows}}`` of a dataset folder (parquet under ``data/``), images left out."""
    import pyarrow.parquet as pq

    from crepe_datasets.infra.errors import CrepeInputError

    data = Path(folder) / "data"
    if not data.is_dir():
        raise CrepeInputError(
            f"{folder} has no data/ folder; give a dataset folder built by `crepe build`."
        )
    tables: dict[str, dict[str, list[dict]]] = {}
    for config_dir in sorted(p for p in data.iterdir() if p.is_dir()):
        splits: dict[str, list[dict]] = defaultdict(list)
        for shard in sorted(config_dir.glob("*.parquet")):
            split = shard.name.rsplit("-", 3)[0]
            schema = pq.read_schema(shard)
            cols = [c for c in schema.names if c not in columns_skip]
            splits[split] += pq.read_table(shard, columns=cols).to_pylist()
        tables[config_dir.name] = dict(splits)
    return tables

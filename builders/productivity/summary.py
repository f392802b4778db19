"""The ``summary`` of a crepe-productivity manifest, as a typed record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crepe_datasets.builders.productivity.steps import ChunkResults

if TYPE_CHECKING:
    from crepe_datasets.builders.productivity.build import ProductivitySettings

NEGATIVE_CONFIGS = ("hn_atom", "hn_swap", "hn_negate")


@dataclass(frozen=True)
class ProductivitySummary:
    """What a build made, written as the manifest's ``summary`` by :meth:`to_dict`.

    Attributes:
        captions: who wrote the captions.
        nli_filter: the NLI model that removed entailed negatives, or why none did.
        images_read: images read.
        ground_truths_per_n: rows of ``raw`` per split.
        negatives_generated_per_type_per_n: negatives the items hold per split and type after
            the checks, rendering and refinement, before the configs take their first ``k``
            (none of a type for an item that cannot fill a set of it); splits by complexity,
            types sorted.
        negatives_per_type_per_n: negatives kept per negative config and split.
        rows_per_config: rows of every config.
        drops_total: records dropped.
        adversarial_refinement: statistics of the refinement, or why it was off.
        foil_balance: the foil balance of the configs with negatives.
        llm_usage: requests, cache hits and tokens of the LLM writer; ``None`` without one.
    """

    captions: str
    nli_filter: str
    images_read: int
    ground_truths_per_n: dict[str, int]
    negatives_generated_per_type_per_n: dict[str, dict[str, int]]
    negatives_per_type_per_n: dict[str, dict[str, int]]
    rows_per_config: dict[str, int]
    drops_total: int
    adversarial_refinement: dict[str, dict[str, int]] | str
    foil_balance: dict[str, Any]
    llm_usage: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The manifest's ``summary`` (``llm_usage`` only with an LLM, before ``foil_balance``)."""
        out: dict[str, Any] = {
            "captions": self.captions,
            "nli_filter": self.nli_filter,
            "images_read": self.images_read,
            "ground_truths_per_n": self.ground_truths_per_n,
            "negatives_generated_per_type_per_n": self.negatives_generated_per_type_per_n,
            "negatives_per_type_per_n": self.negatives_per_type_per_n,
            "rows_per_config": self.rows_per_config,
            "drops_total": self.drops_total,
            "adversarial_refinement": self.adversarial_refinement,
        }
        if self.llm_usage is not None:
            out["llm_usage"] = self.llm_usage
        out["foil_balance"] = self.foil_balance
        return out


def summarize(
    s: ProductivitySettings, results: ChunkResults, writers: dict[str, Any]
) -> ProductivitySummary:
    """Summarise the merged chunk results.

    Args:
        s: inputs and settings.
        results: the merged results of every chunk.
        writers: the caption writers (an ``llm`` one when ``--llm`` was given).

    Returns:
        The summary.
    """
    from crepe_datasets.validation.foil_imbalance import foil_balance_summary

    tables = results.tables
    llm = "llm" in writers
    return ProductivitySummary(
        captions="llm + template" if llm else "template captions (no LLM)",
        nli_filter=s.nli or "none (--no-nli)",
        images_read=results.images,
        ground_truths_per_n={sp: len(rows) for sp, rows in tables["raw"].items()},
        negatives_generated_per_type_per_n={
            sp: dict(sorted(c.items()))
            for sp, c in sorted(results.generated.items(), key=lambda x: int(x[0].split("_")[1]))
        },
        negatives_per_type_per_n={
            c: {sp: sum(len(r["hard_negatives"]) for r in rows) for sp, rows in tables[c].items()}
            for c in NEGATIVE_CONFIGS
        },
        rows_per_config={c: sum(len(r) for r in splits.values()) for c, splits in tables.items()},
        drops_total=results.drops.total(),
        adversarial_refinement=results.refine.to_dict() if s.refine else "off (--no-refine)",
        foil_balance=foil_balance_summary({c: t for c, t in tables.items() if c != "raw"}),
        llm_usage=writers["llm"].usage if llm else None,
    )

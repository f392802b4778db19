"""The ``summary`` of a crepe-systematicity manifest, as a typed record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crepe_datasets.builders.systematicity import card as card_text
from crepe_datasets.builders.systematicity.steps import ProcessedTables


@dataclass(frozen=True)
class SystematicitySummary:
    """What a build made, written as the manifest's ``summary`` by :meth:`to_dict`.

    Attributes:
        training_corpus: the seen tables' description (corpus, hash, counts).
        seen_tables_source: where the seen tables came from.
        images_read: images read.
        regions_parsed: region texts parsed.
        rows_per_config: rows per config and split.
        raw_split_share: share of each split in ``raw``.
        one_compound_captions: one-compound captions of SC and UC.
        plausibility_ranker: the ranker's description.
        paper_cc12m: the paper's CC-12M build, for comparison.
        foil_balance: the foil balance of the configs with negatives.
        adversarial_refinement: statistics of the adversarial refinement.
    """

    training_corpus: dict[str, Any]
    seen_tables_source: dict[str, Any]
    images_read: int
    regions_parsed: int
    rows_per_config: dict[str, dict[str, int]]
    raw_split_share: dict[str, float]
    one_compound_captions: dict[str, int]
    plausibility_ranker: dict[str, Any]
    paper_cc12m: dict[str, dict[str, Any]]
    foil_balance: dict[str, Any]
    adversarial_refinement: dict[str, dict[str, int]]

    def to_dict(self) -> dict[str, Any]:
        """The manifest's ``summary``, keys in the order of the attributes."""
        return {
            "training_corpus": self.training_corpus,
            "seen_tables_source": self.seen_tables_source,
            "images_read": self.images_read,
            "regions_parsed": self.regions_parsed,
            "rows_per_config": self.rows_per_config,
            "raw_split_share": self.raw_split_share,
            "one_compound_captions": self.one_compound_captions,
            "plausibility_ranker": self.plausibility_ranker,
            "paper_cc12m": self.paper_cc12m,
            "foil_balance": self.foil_balance,
            "adversarial_refinement": self.adversarial_refinement,
        }


def summarize(processed: ProcessedTables, ranker: Any) -> SystematicitySummary:
    """Summarise the processed tables (the card's figures: :func:`card.summary`).

    Args:
        processed: the tables, counts, seen tables and refiner of the build.
        ranker: the plausibility ranker.

    Returns:
        The summary.
    """
    seen = processed.seen.describe()
    figures = card_text.summary(
        processed.tables, processed.stats, seen, processed.seen_info, ranker
    )
    return SystematicitySummary(**figures, adversarial_refinement=processed.refiner.stats.to_dict())

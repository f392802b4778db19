"""The ``summary`` of a crepe-captioning manifest, as a typed record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crepe_datasets.builders.captioning import splits as S

PAPER_SIZES = {
    "productivity_length": {
        "train": S.PAPER_TRAIN_IMAGES,
        "validation": S.PAPER_TEST_SIZE,
        "test_rich": S.PAPER_TEST_SIZE,
        "test_base": S.PAPER_TEST_SIZE,
    },
    "systematicity": "test_no_comb has as many images as test_comb, per pair",
}


@dataclass(frozen=True)
class CaptioningSummary:
    """What a build made, written as the manifest's ``summary`` by :meth:`to_dict`.

    Attributes:
        images: images read.
        captions: captions parsed.
        split_size: images per held-out split.
        size_rule: where the split size came from.
        paper_sizes: the paper's split sizes, for comparison.
        pairs: statistics of the held-out pairs (``systematicity``).
        substitutivity: statistics of the synonym groups.
        density: statistics of ``productivity_density``, or why it was not built.
        parse: the caption parser's versions, engine and cache use (without the cache path).
    """

    images: int
    captions: int
    split_size: int
    size_rule: str
    paper_sizes: dict[str, Any]
    pairs: dict[str, Any]
    substitutivity: dict[str, Any]
    density: dict[str, Any] | str
    parse: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The manifest's ``summary``."""
        return {
            "images": self.images,
            "captions": self.captions,
            "split_size": self.split_size,
            "size_rule": self.size_rule,
            "paper_sizes": self.paper_sizes,
            "pairs": self.pairs,
            "substitutivity": self.substitutivity,
            "density": self.density,
            "parse": self.parse,
        }

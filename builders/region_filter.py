"""The region filter of CREPE (SPEC §2.3), shared by every builder that crops Visual Genome.

A region is kept when its area is at least 40,000 px, it covers at least 10% of the image and
its aspect ratio (width / height) lies in [0.5, 2.0].
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from crepe_datasets.scenegraph.types import Box


@dataclass(frozen=True)
class RegionFilter:
    """Thresholds of the region filter; :meth:`reason` says why a region fails (or ``None``)."""

    min_area: float = 40_000
    min_image_fraction: float = 0.10
    min_aspect: float = 0.5
    max_aspect: float = 2.0

    def reason(self, box: Box, image_width: float, image_height: float) -> str | None:
        """``None`` when the region passes, else a snake_case drop reason."""
        if box.w <= 0 or box.h <= 0:
            return "empty_region"
        if box.area < self.min_area:
            return "region_too_small"
        image_area = max(image_width, 0) * max(image_height, 0)
        if image_area > 0 and box.area < self.min_image_fraction * image_area:
            return "region_below_image_fraction"
        if not self.min_aspect <= box.aspect <= self.max_aspect:
            return "region_aspect_out_of_range"
        return None

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

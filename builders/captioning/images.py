"""Whole COCO images for the ``image`` column (``crepe build captioning --images ROOT``).

A captioning row describes a whole image, so nothing is cropped: the image file's own bytes
(JPEG for COCO) are embedded as they are, which keeps them identical to the source and the
parquet bytes deterministic. A missing or unreadable file drops the row from the written split,
counted in the manifest (stage ``images``).
"""

from __future__ import annotations

from collections.abc import Sequence

from crepe_datasets.builders.images import ImageCropper


class WholeImages(ImageCropper):
    """Embeds ``ROOT/<image_file>`` unchanged; a region (``bbox``) is still cropped as PNG."""

    def crop_png(self, image_file: str, bbox: Sequence[float] | None) -> bytes | None:
        if bbox is not None:
            return super().crop_png(image_file, bbox)
        path = self.image_dir / image_file
        if not path.is_file():
            self.drops.drop("images", "missing_image", example=image_file)
            return None
        data = path.read_bytes()
        if self._open(image_file) is None:  # unreadable: counted by the PIL check
            return None
        return data

"""Whole COCO images for the ``image`` column (``crepe build captioning --images ROOT``).

A captioning row describes a whole image, so nothing is cropped: the image file's own bytes
(JPEG for COCO) are embedded as they are, which keeps them identical to the source and the
parquet bytes deterministic. A missing or unreadable file drops the row from the written split,
counted in the manifest (stage ``images``).
"""

from __future__ import annotations

from collections.abc import Sequence

from crepe_datasets.scenegraph.crops import CropError, ImageCropper, open_rgb


class WholeImages(ImageCropper):
    """Embeds ``ROOT/<image_file>`` unchanged; a region (``bbox``) is still cropped as PNG.

    COCO's images carry per-image Flickr licences, so no single licence column is written.
    """

    drop_missing_rows = True
    license = None

    def crop_png(self, image_file: str, bbox: Sequence[float] | None) -> bytes | None:
        if bbox is not None:
            return super().crop_png(image_file, bbox)
        try:
            found = self.source.read(image_file)
            data = found if isinstance(found, bytes) else found.read_bytes()
            open_rgb(data)  # the file must decode
        except CropError as err:
            self._count(err.reason, image_file)
            return None
        return data

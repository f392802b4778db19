"""Cropping image regions for embedding into a dataset (the ``datasets`` Image feature)."""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from crepe_datasets.scenegraph.errors import CrepeInputError
from crepe_datasets.scenegraph.provenance import DropLog
from crepe_datasets.scenegraph.types import Box

_OPEN_IMAGES = 8


class ImageCropper:
    """Crops ``bbox`` regions out of images in a folder and encodes them as PNG bytes.

    The crop box is clipped to the image; a crop that ends up empty, or an image that is missing
    or unreadable, is counted in ``drops`` (stage ``images``) and gives ``None``.
    PNG encoding with fixed settings makes identical inputs give identical bytes.

    Args:
        image_dir: folder holding the images named by the datasets' ``image_file`` column.
        drops: where to count crops that could not be made.
    """

    def __init__(self, image_dir: str | Path, drops: DropLog | None = None) -> None:
        self.image_dir = Path(image_dir)
        if not self.image_dir.is_dir():
            raise CrepeInputError(
                f"image folder {self.image_dir} does not exist; pass --images DIR"
            )
        self.drops = drops if drops is not None else DropLog()
        self._cache: OrderedDict[str, object] = OrderedDict()

    def _open(self, image_file: str):
        from PIL import Image

        if image_file in self._cache:
            self._cache.move_to_end(image_file)
            return self._cache[image_file]
        path = self.image_dir / image_file
        if not path.exists():
            self._cache[image_file] = None
        else:
            try:
                with Image.open(path) as img:
                    self._cache[image_file] = img.convert("RGB")
            except OSError:
                self.drops.drop("images", "unreadable_image", example=str(path))
                self._cache[image_file] = None
        if len(self._cache) > _OPEN_IMAGES:
            self._cache.popitem(last=False)
        return self._cache[image_file]

    def crop(self, image_file: str, bbox: Sequence[float] | None):
        """The region as a PIL image, or ``None`` (counted) when it cannot be made."""
        img = self._open(image_file)
        if img is None:
            self.drops.drop("images", "missing_image", example=image_file)
            return None
        if bbox is None:
            return img
        box = Box.from_list(bbox).clip(img.width, img.height)
        if box.w < 1 or box.h < 1:
            self.drops.drop("images", "empty_crop", example=f"{image_file} {list(bbox)}")
            return None
        return img.crop((round(box.x), round(box.y), round(box.x + box.w), round(box.y + box.h)))

    def crop_png(self, image_file: str, bbox: Sequence[float] | None) -> bytes | None:
        """The region encoded as PNG bytes, or ``None`` (counted)."""
        region = self.crop(image_file, bbox)
        if region is None:
            return None
        buffer = io.BytesIO()
        region.save(buffer, format="PNG", optimize=False, compress_level=6)
        return buffer.getvalue()

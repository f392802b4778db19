"""Image regions for the ``image`` column and for the evaluator: one crop rule, one cropper.

The crop rule (:data:`CROP_RULE`), shared by the builders, ``crepe add-images`` and
``crepe evaluate`` (:func:`crop_region`, :func:`open_rgb`): the image's stored pixels (its EXIF
orientation tag is not applied: Visual Genome's boxes and its ``image_data.json`` sizes are in
stored-pixel coordinates, as COCO's are), converted to RGB (grayscale, palette and CMYK JPEGs
alike), the box ``[x, y, w, h]`` clipped to the image and its corners rounded to whole pixels.
Crops are stored as lossless PNG with fixed settings, so a crop read back from the column has the
same pixels as one cut from the file, and identical inputs give identical bytes.

A crop that cannot be made is counted by reason (stage ``images``): ``missing_image`` (no such
file in the folder or zip), ``truncated_image`` (the file ends early), ``unreadable_image`` (not
an image PIL can decode) and ``empty_crop`` (the clipped box has no area).

Images come from a folder (``image_file`` relative to it) or a zip of them (a member whose path
is ``image_file``, or whose name is ``image_file``'s name: Visual Genome's ``images.zip`` holds
``VG_100K/1.jpg``).
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections import Counter, OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box

_OPEN_IMAGES = 8

CROP_RULE = (
    "stored pixels (EXIF orientation not applied, as Visual Genome's boxes and image sizes are), "
    "converted to RGB; box [x, y, w, h] clipped to the image, corners rounded to whole pixels; "
    "lossless PNG (compress level 6)"
)
VG_IMAGE_LICENSE = "CC BY 4.0 (Visual Genome images)"
IMAGE_COLUMN = "image"
LICENSE_COLUMN = "image_license"
# Parquet key-value metadata of a shard whose crops are in: the crop rule and its missing crops.
SHARD_METADATA_KEY = b"crepe_images"
FAILURE_REASONS = ("missing_image", "truncated_image", "unreadable_image", "empty_crop")


class CropError(Exception):
    """A crop that cannot be made; ``reason`` is one of :data:`FAILURE_REASONS`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def open_rgb(data: bytes | Path):
    """Decode an image file (path or bytes) to a fully loaded RGB PIL image.

    Raises:
        CropError: ``missing_image``, ``truncated_image`` or ``unreadable_image``.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        source = io.BytesIO(data) if isinstance(data, bytes) else open(data, "rb")  # noqa: SIM115
    except FileNotFoundError as err:
        raise CropError("missing_image") from err
    try:
        with source, Image.open(source) as img:
            img.load()
            return img.convert("RGB")
    except UnidentifiedImageError as err:
        raise CropError("unreadable_image") from err
    except OSError as err:
        text = str(err).lower()
        truncated = "truncated" in text or "broken data stream" in text or "premature" in text
        raise CropError("truncated_image" if truncated else "unreadable_image") from err
    except (ValueError, SyntaxError) as err:
        raise CropError("unreadable_image") from err


def crop_region(img, bbox: Sequence[float] | None):
    """The crop rule: ``bbox`` ``[x, y, w, h]`` clipped to ``img``, corners rounded.

    ``None`` gives the whole image.

    Raises:
        CropError: ``empty_crop`` when the clipped box has no area.
    """
    if bbox is None:
        return img
    box = Box.from_list(list(bbox)).clip(img.width, img.height)
    if box.w < 1 or box.h < 1:
        raise CropError("empty_crop")
    return img.crop((round(box.x), round(box.y), round(box.x + box.w), round(box.y + box.h)))


def png_bytes(region) -> bytes:
    """A PIL image as PNG bytes with fixed settings (same pixels, same bytes)."""
    buffer = io.BytesIO()
    region.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


class ImageSource:
    """Image files by ``image_file`` name, from a folder or a zip of them."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self._zip: zipfile.ZipFile | None = None
        self._members: dict[str, str] = {}
        if self.root.is_file() and zipfile.is_zipfile(self.root):
            self._zip = zipfile.ZipFile(self.root)
            names = [n for n in self._zip.namelist() if not n.endswith("/")]
            self._members = {n: n for n in names}
            for name in sorted(names, reverse=True):  # the shortest path wins a name clash
                self._members.setdefault(name.rsplit("/", 1)[-1], name)
        elif not self.root.is_dir():
            raise CrepeInputError(
                f"image folder {self.root} does not exist (or is not a zip); pass --images DIR or ZIP"
            )

    def read(self, image_file: str) -> bytes | Path:
        """The file's bytes (zip) or path (folder).

        Raises:
            CropError: ``missing_image``.
        """
        if self._zip is None:
            path = self.root / image_file
            if not path.is_file():
                raise CropError("missing_image")
            return path
        member = self._members.get(image_file) or self._members.get(image_file.rsplit("/", 1)[-1])
        if member is None:
            raise CropError("missing_image")
        return self._zip.read(member)

    def __getstate__(self) -> dict[str, Any]:
        return {"root": self.root}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["root"])  # type: ignore[misc]


class ImageCropper:
    """Crops ``bbox`` regions out of images in a folder or zip and encodes them as PNG bytes.

    A crop that cannot be made is counted in ``drops`` (stage ``images``, by reason) and gives
    ``None``. Rows keep their place in the dataset with an empty ``image`` unless
    ``drop_missing_rows`` (the writer then leaves them out, still counted).

    Args:
        image_dir: folder (or zip) holding the images named by the datasets' ``image_file`` column.
        drops: where to count crops that could not be made.
        license: the images' licence, written beside every crop (``image_license`` column);
            ``None`` writes no licence column.

    Attributes:
        drop_missing_rows: leave rows without a crop out of the written split.
        reasons: failed crops so far, by reason (also counted in ``drops``).
        last_reason: the reason of the latest failed crop.
    """

    drop_missing_rows = False
    license: str | None = VG_IMAGE_LICENSE

    def __init__(
        self,
        image_dir: str | Path,
        drops: DropLog | None = None,
        license: str | None = VG_IMAGE_LICENSE,
    ) -> None:
        self.source = ImageSource(image_dir)
        self.image_dir = self.source.root
        self.drops = drops if drops is not None else DropLog()
        if type(self).license == ImageCropper.license:
            self.license = license
        self.reasons: Counter[str] = Counter()
        self.last_reason = ""
        self._cache: OrderedDict[str, object] = OrderedDict()

    def _count(self, reason: str, example: str) -> None:
        self.reasons[reason] += 1
        self.last_reason = reason
        self.drops.drop("images", reason, example=example)

    def _open(self, image_file: str):
        """The decoded image, or the :class:`CropError` that opening it raised (cached)."""
        if image_file in self._cache:
            self._cache.move_to_end(image_file)
            return self._cache[image_file]
        try:
            value: object = open_rgb(self.source.read(image_file))
        except CropError as err:
            value = err
        self._cache[image_file] = value
        if len(self._cache) > _OPEN_IMAGES:
            self._cache.popitem(last=False)
        return value

    def crop(self, image_file: str, bbox: Sequence[float] | None):
        """The region as a PIL image, or ``None`` (counted by reason) when it cannot be made."""
        img = self._open(image_file)
        try:
            if isinstance(img, CropError):
                raise img
            return crop_region(img, bbox)
        except CropError as err:
            where = image_file if bbox is None else f"{image_file} {list(bbox)}"
            self._count(err.reason, where)
            return None

    def crop_png(self, image_file: str, bbox: Sequence[float] | None) -> bytes | None:
        """The region encoded as PNG bytes, or ``None`` (counted)."""
        region = self.crop(image_file, bbox)
        return None if region is None else png_bytes(region)


def image_features(features: Any, license: str | None) -> Any:
    """``features`` with ``image`` (and ``image_license``) as their last columns."""
    from datasets import Features, Image, Value

    out = Features({k: v for k, v in features.items() if k not in (IMAGE_COLUMN, LICENSE_COLUMN)})
    out[IMAGE_COLUMN] = Image()
    if license is not None:
        out[LICENSE_COLUMN] = Value("string")
    return out


def embed_rows(
    rows: list[dict], cropper: ImageCropper, file_column: str, bbox_column: str
) -> tuple[list[dict], dict[str, int]]:
    """Rows with their crop (``image``) and licence; also the failed crops by reason.

    Rows whose crop fails keep an empty ``image`` (or are left out when
    ``cropper.drop_missing_rows``); every failure is counted.
    """
    out, failed = [], Counter()
    for row in rows:
        png = cropper.crop_png(row[file_column], row.get(bbox_column))
        if png is None:
            failed[cropper.last_reason] += 1
            if cropper.drop_missing_rows:
                continue
        row = {k: v for k, v in row.items() if k not in (IMAGE_COLUMN, LICENSE_COLUMN)}
        row[IMAGE_COLUMN] = None if png is None else {"bytes": png, "path": None}
        if cropper.license is not None:
            row[LICENSE_COLUMN] = cropper.license
        out.append(row)
    return out, dict(sorted(failed.items()))


def crop_digest(data: bytes | None) -> str:
    """SHA-256 of one crop's bytes (``-`` for a row without a crop)."""
    return "-" if data is None else hashlib.sha256(data).hexdigest()

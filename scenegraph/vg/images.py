"""Visual Genome ``image_data.json``: image sizes, URLs and COCO/Flickr ids.

The image file name is the last part of the URL (``.../VG_100K_2/1.jpg`` → ``1.jpg``), which is
how the VG image archives name their files.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.hygiene import clean_text
from crepe_datasets.infra.jsonstream import iter_json_items
from crepe_datasets.infra.provenance import DropLog

STAGE = "vg_image_data"


@dataclass(frozen=True)
class ImageInfo:
    """One image of Visual Genome."""

    image_id: str
    width: int
    height: int
    url: str | None = None
    coco_id: int | None = None
    flickr_id: int | None = None

    @property
    def file_name(self) -> str:
        """The image's file name: the last part of its URL, else ``<image_id>.jpg``."""
        if self.url:
            return self.url.rstrip("/").rsplit("/", 1)[-1]
        return f"{self.image_id}.jpg"

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


def _opt_int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def read_image_data(path: str | os.PathLike, drops: DropLog | None = None) -> dict[str, ImageInfo]:
    """Every image of an ``image_data.json`` (v1.0 ``id`` or v1.2+ ``image_id``), by string id.

    Args:
        path: The ``image_data.json`` file (streamed; ~108k small records for full VG).
        drops: Receives counted skips of malformed records. Without it, the first malformed
            record raises instead, so nothing is lost silently.

    Raises:
        CrepeInputError: the file is missing or broken, or (without ``drops``) a record is
            malformed.
    """
    out: dict[str, ImageInfo] = {}
    for index, rec in enumerate(iter_json_items(path, "item")):
        where = f"{Path(path).name} record #{index}"
        reason = None
        if not isinstance(rec, dict):
            reason = "not_an_object"
        else:
            image_id = rec.get("image_id", rec.get("id"))
            w, h = _opt_int(rec.get("width")), _opt_int(rec.get("height"))
            if image_id is None:
                reason = "missing_image_id"
            elif w is None or h is None or w <= 0 or h <= 0:
                reason = "bad_size"
        if reason is not None:
            if drops is None:
                raise CrepeInputError(f"{where} is malformed ({reason}); fix or remove it.")
            drops.drop(STAGE, reason, where)
            continue
        if str(image_id) in out:
            if drops is None:
                raise CrepeInputError(
                    f"{where} repeats image id {image_id}; remove the repeated record."
                )
            drops.drop(STAGE, "duplicate_image_id", where)
            continue
        url = rec.get("url")
        if isinstance(url, str) and not (url.isprintable() and "\ufffd" not in url):
            url = clean_text(url, drops if drops is not None else DropLog(), STAGE, where) or None
        info = ImageInfo(
            str(image_id), w, h, url if isinstance(url, str) else None,
            _opt_int(rec.get("coco_id")), _opt_int(rec.get("flickr_id")),
        )  # fmt: skip
        out[info.image_id] = info
    return out


ImageDataArg = Mapping[str, ImageInfo] | str | os.PathLike | None


def resolve_image_data(image_data: ImageDataArg) -> Mapping[str, ImageInfo] | None:
    """Accept a mapping from :func:`read_image_data`, a path to read, or ``None``."""
    if image_data is None or isinstance(image_data, Mapping):
        return image_data
    return read_image_data(image_data)

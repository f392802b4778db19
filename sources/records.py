"""Typed records that the source readers yield.

* :class:`CaptionRecord`: one caption of a training corpus (COCO, CC, LAION, JSONL, text).
* :class:`PairSample`: one image (or image region) with a positive caption and its hard negatives
  (ARO, SugarCrepe, CREPE's release, NegCLIP).
* :class:`GroupSample`: a Winoground-style 2 images × 2 captions group (BiVLC).

``meta`` holds format-specific extras (subset name, negative type, complexity …); it is left out
of equality so that two readings of the same sample compare equal whatever extras they carry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CaptionRecord:
    """One caption of a corpus.

    Attributes:
        text: The caption, stripped of surrounding whitespace, never empty.
        id: Identifier unique within the corpus (annotation id, row number …).
        image_id: The image the caption belongs to, when the corpus says so.
        source: Where it came from, ``"<kind>:<file name>"``.
    """

    text: str
    id: str
    image_id: str | None = None
    source: str = ""


@dataclass(frozen=True)
class PairSample:
    """An image (region) with one positive caption and its hard negatives.

    Attributes:
        id: Identifier unique within the benchmark (e.g. ``"swap_att:12"``).
        caption: The true caption.
        negatives: The hard-negative captions, in the order the source gives them.
        image_id: The source's image id, as a string.
        image_file: Image file name relative to the benchmark's image folder.
        bbox: ``(x, y, w, h)`` in pixels when the sample is a region, else ``None``.
        meta: Format-specific extras (not compared).
    """

    id: str
    caption: str
    negatives: tuple[str, ...]
    image_id: str | None = None
    image_file: str | None = None
    bbox: tuple[float, float, float, float] | None = None
    meta: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class GroupSample:
    """Two images and two captions: caption_0 matches image_0, caption_1 matches image_1.

    Attributes:
        id: Identifier unique within the benchmark.
        caption_0: The caption of the first (original) image.
        caption_1: The caption of the second (negative) image.
        image_0_file: File name of the first image, when known.
        image_1_file: File name of the second image, when known.
        meta: Format-specific extras (not compared).
    """

    id: str
    caption_0: str
    caption_1: str
    image_0_file: str | None = None
    image_1_file: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

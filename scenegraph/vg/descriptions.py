"""The texts people wrote of each Visual Genome image, read in step with its scene graphs.

Two files of a Visual Genome folder hold them, and a build reads those present:

* ``region_descriptions.json``: a phrase with its box ("the wall is green"), read by
  :func:`~crepe_datasets.scenegraph.vg.regions.iter_regions` (its drops are counted there);
* ``question_answers.json``: ``{"id": image_id, "qas": [{"question", "answer"}, ...]}``, each
  kept as the text "question answer", about the whole image (no box). Skips are counted under
  stage ``vg_qas``: ``image_not_an_object``, ``image_bad_qas``, ``qa_not_an_object``,
  ``qa_missing_text``.

:class:`ImageDescriptions` hands out each image's texts in the order of the scene graphs. Both
files list an image's records together and in the scene graphs' image order, so it holds little
more than one image's texts; a file in another order is still read right, with the images read
ahead held until asked for.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Description
from crepe_datasets.scenegraph.vg.images import ImageDataArg
from crepe_datasets.scenegraph.vg.regions import iter_image_lists, iter_regions

QA_STAGE = "vg_qas"
#: The files read, in this order, when a Visual Genome folder holds them.
FILES = ("region_descriptions.json", "question_answers.json")


def iter_qa_texts(path: str | os.PathLike, drops: DropLog) -> Iterator[tuple[str, Description]]:
    """``(image id, "question answer")`` of every question of a ``question_answers.json``."""
    for where, rec, qas in iter_image_lists(path, "qas", QA_STAGE, drops):
        for qa in qas:
            if not isinstance(qa, dict):
                drops.drop(QA_STAGE, "qa_not_an_object", where)
                continue
            question, answer = qa.get("question"), qa.get("answer")
            image_id = qa.get("image_id", rec.get("id"))
            if not (isinstance(question, str) and isinstance(answer, str)) or image_id is None:
                drops.drop(QA_STAGE, "qa_missing_text", where)
                continue
            yield str(image_id), Description(f"{question.strip()} {answer.strip()}")


def _iter_region_texts(
    path: Path, drops: DropLog, image_data: ImageDataArg
) -> Iterator[tuple[str, Description]]:
    for region in iter_regions(path, drops, image_data):
        yield region.image_id, Description(region.phrase, region.box)


class _Aligned:
    """The records of one stream of ``(image id, record)`` grouped by image, taken in order."""

    def __init__(self, items: Iterator[tuple[str, Description]]) -> None:
        self._items = items
        self._held: dict[str, list[Description]] = defaultdict(list)
        self._last: str | None = None
        self._done = False

    def take(self, image_id: str) -> list[Description]:
        # read until the image's group is complete (another image follows it) or the file ends
        while not self._done and (image_id not in self._held or self._last == image_id):
            nxt = next(self._items, None)
            if nxt is None:
                self._done = True
                break
            self._last = nxt[0]
            self._held[nxt[0]].append(nxt[1])
        return self._held.pop(image_id, [])


class ImageDescriptions:
    """Each image's :class:`~crepe_datasets.scenegraph.types.Description` texts from the files
    of a Visual Genome folder (module docstring), asked for in the scene graphs' order."""

    def __init__(
        self, folder: str | os.PathLike, drops: DropLog, image_data: ImageDataArg = None
    ) -> None:
        root = Path(folder).expanduser()
        self.files = [root / f for f in FILES if (root / f).is_file()]
        streams: list[Iterator[tuple[str, Description]]] = []
        for f in self.files:
            if f.name == FILES[0]:
                streams.append(_iter_region_texts(f, drops, image_data))
            else:
                streams.append(iter_qa_texts(f, drops))
        self._streams = [_Aligned(s) for s in streams]

    def take(self, image_id: Any) -> list[Description]:
        """The image's texts: its regions' first, then its questions'."""
        return [d for s in self._streams for d in s.take(str(image_id))]

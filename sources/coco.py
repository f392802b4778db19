"""COCO captions JSON (``captions_train2014.json`` …): one record per annotation, streamed.

The annotations are read with ijson one at a time, so memory does not grow with the file.
Each annotation gives ``CaptionRecord(text=caption, id=str(id), image_id=str(image_id))``.
Annotations that are not objects, lack a caption, or whose caption is not a string or is empty
are dropped with a counted reason (stage ``coco``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.jsonstream import first_json_char, iter_json_items
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption
from crepe_datasets.sources.records import CaptionRecord
from crepe_datasets.sources.registry import register_corpus, single_file

STAGE = "coco"


def _has_annotations_key(path: Path) -> bool:
    import ijson

    with open(path, "rb") as handle:
        for prefix, event, value in ijson.parse(handle):
            if prefix == "" and event == "map_key" and value == "annotations":
                return True
    return False


def read_coco_captions(path: str | Path, drops: DropLog) -> Iterator[CaptionRecord]:
    """Stream the caption annotations of one COCO captions file.

    Args:
        path: A COCO captions JSON file (``{"images": [...], "annotations": [...]}``).
        drops: Receives one count per skipped annotation.

    Raises:
        CrepeInputError: the file is missing, truncated, not JSON, or has no ``annotations``.
    """
    p = Path(path)
    if p.is_file() and first_json_char(p) != "{":
        raise CrepeInputError(
            f"{p} is not a COCO captions file: its top level is not a JSON object."
        )
    source = f"coco:{p.name}"
    seen = 0
    for index, ann in enumerate(iter_json_items(p, "annotations.item")):
        seen += 1
        where = f"{p.name} annotation #{index}"
        if not isinstance(ann, dict):
            drops.drop(STAGE, "not_an_object", where)
            continue
        text = clean_caption(ann.get("caption"), drops, STAGE, where)
        if text is None:
            continue
        ann_id = ann.get("id", index)
        image_id = ann.get("image_id")
        yield CaptionRecord(text, str(ann_id), None if image_id is None else str(image_id), source)
    if seen == 0 and not _has_annotations_key(p):
        raise CrepeInputError(
            f"{p} has no 'annotations' list; give a COCO captions file such as captions_train2014.json."
        )


@register_corpus("coco", single_file, "COCO captions JSON, coco:PATH")
def _read(files: list[Path], drops: DropLog, option: str | None) -> Iterator[CaptionRecord]:
    for f in files:
        yield from read_coco_captions(f, drops)

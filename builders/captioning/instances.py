"""Visual density of COCO images: the number of instance boxes per image (``instances_*.json``).

Annotations are streamed with ijson (COCO instance files are hundreds of MB). Every annotation
with an ``image_id`` and a ``bbox`` counts as one box, crowd regions included (``iscrowd`` = 1 is
one box in the file too). An image listed in the file's ``images`` with no annotation has
density 0; an image of the captions that no instances file lists gets no density and is
dropped from the density config with a counted reason.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.jsonstream import first_json_char, iter_json_items
from crepe_datasets.infra.provenance import DropLog

STAGE = "captioning_instances"


def read_box_counts(paths: list[Path], drops: DropLog) -> dict[str, int]:
    """``{image_id: number of boxes}`` for every image the instances files list.

    Raises:
        CrepeInputError: a file is missing, is not a JSON object, or lists no image.
    """
    counts: Counter[str] = Counter()
    listed: set[str] = set()
    for path in paths:
        if not path.is_file():
            raise CrepeInputError(f"instances file {path} does not exist; fix --instances.")
        if first_json_char(path) != "{":
            raise CrepeInputError(
                f"{path} is not a COCO instances file: its top level is not a JSON object."
            )
        for entry in iter_json_items(path, "images.item"):
            if isinstance(entry, dict) and entry.get("id") is not None:
                listed.add(str(entry["id"]))
        for k, ann in enumerate(iter_json_items(path, "annotations.item")):
            if not isinstance(ann, dict) or ann.get("image_id") is None or not ann.get("bbox"):
                drops.drop(STAGE, "annotation_without_box", f"{path.name} annotation #{k}")
                continue
            counts[str(ann["image_id"])] += 1
    if not listed:
        names = ", ".join(p.name for p in paths)
        raise CrepeInputError(
            f"no image listed in {names}; give COCO instances files such as instances_val2014.json."
        )
    for iid in set(counts) - listed:
        drops.drop(STAGE, "boxes_of_unlisted_image", f"image_id {iid}", n=counts.pop(iid))
    return {iid: counts.get(iid, 0) for iid in listed}

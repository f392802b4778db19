"""ARO VG-Attribution and VG-Relation in their two published forms.

1. **Official JSON** (``visual_genome_attribution.json`` / ``visual_genome_relation.json``): a
   list of records with ``image_id``, ``true_caption``, ``false_caption``, ``bbox_x/y/w/h``,
   ``image_path`` and ``attributes`` (VG-A) or ``relation_name`` (VG-R).
2. **Caption lists** (``att-original-true.json`` + ``att-original-false.json``, ``rel-…``): two
   index-aligned JSON lists of strings, in dataset order, without images.

Sample ids are the 0-based dataset positions in both forms, so the same sample has the same id
whichever form it was read from. ``path`` may be a folder (the official file is preferred when
both are there), the official file, or either file of a caption-list pair.
Dropped samples (stage ``aro_attribution`` / ``aro_relation``): ``not_an_object``,
``missing_caption``, ``not_a_string``, ``empty_caption``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.jsonstream import first_json_char, load_json
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption
from crepe_datasets.sources.records import PairSample

_BBOX_KEYS = ("bbox_x", "bbox_y", "bbox_w", "bbox_h")
_FORMS = {
    "attribution": ("visual_genome_attribution.json", "att-original"),
    "relation": ("visual_genome_relation.json", "rel-original"),
}


def _locate(path: Path, task: str) -> tuple[str, Path, Path | None]:
    """``("official", file, None)`` or ``("lists", true_file, false_file)``."""
    official, stem = _FORMS[task]
    if path.is_dir():
        if (path / official).is_file():
            return "official", path / official, None
        true_f, false_f = path / f"{stem}-true.json", path / f"{stem}-false.json"
        if true_f.is_file() and false_f.is_file():
            return "lists", true_f, false_f
        raise CrepeInputError(
            f"folder {path} has neither {official} nor {stem}-true.json + {stem}-false.json."
        )
    if not path.is_file():
        raise CrepeInputError(f"ARO file {path} does not exist; check the path.")
    for a, b in (("-true.json", "-false.json"), ("-false.json", "-true.json")):
        if path.name.endswith(a):
            other = path.with_name(path.name[: -len(a)] + b)
            if not other.is_file():
                raise CrepeInputError(
                    f"{path} is a caption list but its partner {other} is missing."
                )
            pair = (path, other) if a == "-true.json" else (other, path)
            return "lists", pair[0], pair[1]
    if first_json_char(path) != "[":
        raise CrepeInputError(f"{path} is not an ARO file: it must hold a JSON list.")
    return "official", path, None


def _bbox(rec: dict[str, Any]) -> tuple[float, float, float, float] | None:
    try:
        return tuple(float(rec[k]) for k in _BBOX_KEYS)  # type: ignore[return-value]
    except (KeyError, TypeError, ValueError):
        return None


def _read_official(path: Path, task: str, drops: DropLog, stage: str) -> Iterator[PairSample]:
    data = load_json(path)
    if not isinstance(data, list):
        raise CrepeInputError(f"{path} must hold a JSON list of ARO records.")
    for index, rec in enumerate(data):
        where = f"{path.name} record #{index}"
        if not isinstance(rec, dict):
            drops.drop(stage, "not_an_object", where)
            continue
        true = clean_caption(rec.get("true_caption"), drops, stage, where)
        false = true and clean_caption(rec.get("false_caption"), drops, stage, where)
        if not true or not false:
            continue
        meta: dict[str, Any] = {}
        if task == "relation" and "relation_name" in rec:
            meta["relation_name"] = rec["relation_name"]
        if task == "attribution" and "attributes" in rec:
            meta["attributes"] = list(rec["attributes"] or ())
        image_id = rec.get("image_id")
        yield PairSample(
            str(index),
            true,
            (false,),
            None if image_id is None else str(image_id),
            rec.get("image_path"),
            _bbox(rec),
            meta,
        )


def _read_lists(true_f: Path, false_f: Path, drops: DropLog, stage: str) -> Iterator[PairSample]:
    trues, falses = load_json(true_f), load_json(false_f)
    if not isinstance(trues, list) or not isinstance(falses, list):
        raise CrepeInputError(f"{true_f} and {false_f} must both hold JSON lists of captions.")
    if len(trues) != len(falses):
        raise CrepeInputError(
            f"{true_f} has {len(trues):,} captions but {false_f} has {len(falses):,}; "
            "the two lists must be index-aligned."
        )
    for index, (t, f) in enumerate(zip(trues, falses, strict=True)):
        where = f"{true_f.name} #{index}"
        true = clean_caption(t, drops, stage, where)
        false = true and clean_caption(f, drops, stage, f"{false_f.name} #{index}")
        if true and false:
            yield PairSample(str(index), true, (false,))


def _read(path: str | Path, task: str, drops: DropLog) -> Iterator[PairSample]:
    """Locate the files now (errors at the call), read them lazily."""
    stage = f"aro_{task}"
    form, first, second = _locate(Path(path), task)
    if form == "official" or second is None:
        return _read_official(first, task, drops, stage)
    return _read_lists(first, second, drops, stage)


def read_aro_attribution(path: str | Path, drops: DropLog) -> Iterator[PairSample]:
    """VG-Attribution samples (``meta["attributes"]`` in the official form)."""
    return _read(path, "attribution", drops)


def read_aro_relation(path: str | Path, drops: DropLog) -> Iterator[PairSample]:
    """VG-Relation samples (``meta["relation_name"]`` in the official form)."""
    return _read(path, "relation", drops)

"""Reader of FACTUAL-format gold scene graphs (Li et al., ACL 2023).

A FACTUAL CSV has columns ``image_id, region_id, caption, scene_graph``; ``scene_graph`` is a
comma-separated list of tuples written ``( subject , predicate , object )``, where the predicate
``is`` marks an attribute (``( shirt , is , red )``) and a one-element tuple ``( pole )`` is a
lone object. Names are kept as written here; :mod:`crepe_datasets.validation.parser_scores` normalises them.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from crepe_datasets.scenegraph.errors import CrepeInputError
from crepe_datasets.scenegraph.hygiene import clean_text
from crepe_datasets.scenegraph.provenance import DropLog

TUPLE = re.compile(r"\(\s*(.*?)\s*\)(?=\s*,\s*\(|\s*$)")
ATTRIBUTE_PREDICATE = "is"
REQUIRED_COLUMNS = ("caption", "scene_graph")


@dataclass(frozen=True)
class GoldGraph:
    """One annotated caption: objects, (object, attribute) pairs and (s, p, o) triples."""

    caption: str
    objects: tuple[str, ...]
    attributes: tuple[tuple[str, str], ...]
    relations: tuple[tuple[str, str, str], ...]
    image_id: str = ""
    region_id: str = ""


def parse_scene_graph(
    text: str,
) -> tuple[list[str], list[tuple[str, str]], list[tuple[str, str, str]]]:
    """Split a FACTUAL ``scene_graph`` string into objects, attributes and relations.

    Raises:
        ValueError: when a tuple has neither one nor three parts.
    """
    objects: list[str] = []
    attributes: list[tuple[str, str]] = []
    relations: list[tuple[str, str, str]] = []

    def add(name: str) -> None:
        if name not in objects:
            objects.append(name)

    for body in TUPLE.findall(text.strip()):
        parts = [p.strip() for p in body.split(" , ")]
        if len(parts) == 1 and parts[0]:
            add(parts[0])
        elif len(parts) == 3:
            s, p, o = parts
            add(s)
            if p == ATTRIBUTE_PREDICATE:
                attributes.append((s, o))
            else:
                add(o)
                relations.append((s, p, o))
        else:
            raise ValueError(f"tuple {body!r} has {len(parts)} parts")
    return objects, attributes, relations


def read_factual(path: str | Path, drops: DropLog | None = None) -> list[GoldGraph]:
    """Read a FACTUAL CSV; rows without a caption or with a malformed graph are dropped and counted.

    Raises:
        CrepeInputError: when the file is missing or lacks the ``caption``/``scene_graph`` columns.
    """
    drops = drops if drops is not None else DropLog()
    p = Path(path)
    if not p.is_file():
        what = "is a folder" if p.is_dir() else "does not exist"
        raise CrepeInputError(f"FACTUAL gold file {p} {what}; pass the path to a FACTUAL CSV.")
    try:
        return _read_rows(p, drops)
    except csv.Error as err:
        raise CrepeInputError(f"{p} is not a readable CSV file ({err}).") from None


def _read_rows(p: Path, drops: DropLog) -> list[GoldGraph]:
    out: list[GoldGraph] = []
    csv.field_size_limit(1 << 30)
    with p.open(newline="", encoding="utf-8-sig", errors="surrogateescape") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise CrepeInputError(
                f"{p} lacks column(s) {', '.join(missing)}; a FACTUAL CSV has "
                "image_id,region_id,caption,scene_graph."
            )
        for n, row in enumerate(reader):
            caption = (row.get("caption") or "").strip()
            if not caption:
                drops.drop("factual", "empty_caption", f"row {n}")
                continue
            caption = clean_text(caption, drops, "factual", f"row {n}")
            if caption is None:
                continue
            try:
                objects, attributes, relations = parse_scene_graph(row.get("scene_graph") or "")
            except ValueError as err:
                drops.drop("factual", "malformed_scene_graph", f"row {n}: {err}")
                continue
            out.append(
                GoldGraph(
                    caption,
                    tuple(objects),
                    tuple(attributes),
                    tuple(relations),
                    str(row.get("image_id") or ""),
                    str(row.get("region_id") or ""),
                )
            )
    return out

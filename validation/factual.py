"""Reader of FACTUAL-format gold scene graphs (Li et al., ACL 2023).

A FACTUAL CSV has columns ``image_id, region_id, caption, scene_graph``; ``scene_graph`` is a
comma-separated list of tuples written ``( subject , predicate , object )``, where the predicate
``is`` marks an attribute (``( shirt , is , red )``) and a one-element tuple ``( pole )`` is a
lone object. Names are kept as written here; :mod:`crepe_datasets.validation.parser_scores` normalises them.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.hygiene import clean_text
from crepe_datasets.infra.provenance import DropLog

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


# --- Fixed slices of factual_sg.csv: dev, the rows tuned on, and an untouched held-out slice ---

#: Salt of the held-out hash; changing it would change the slice (never do, once reported).
HELDOUT_SALT = "crepe-factual-heldout-v1"
#: Share of the (non-dev) captions of factual_sg.csv in the held-out slice, in percent.
HELDOUT_PERCENT = 20
SLICES = ("dev", "rest", "heldout")


def caption_key(caption: str) -> str:
    """The caption as the slices compare it: lower case, whitespace collapsed."""
    return " ".join(caption.lower().split())


def in_heldout_bucket(caption: str) -> bool:
    """Whether the caption's salted SHA-256 falls in the held-out ``HELDOUT_PERCENT`` buckets.

    Deterministic, independent of row order and of every other caption; equal captions land
    in the same bucket, so a caption never sits on both sides.
    """
    digest = hashlib.sha256(f"{HELDOUT_SALT}\n{caption_key(caption)}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 100 < HELDOUT_PERCENT


def factual_slices(
    path: str | Path, exclude: Sequence[str | Path] = (), drops: DropLog | None = None
) -> dict[str, list[GoldGraph]]:
    """Split FACTUAL rows into ``dev``, ``rest`` and ``heldout`` (see :data:`SLICES`).

    ``dev`` holds the rows whose caption occurs in the first ``exclude`` file that exists
    (FACTUAL's ``random/dev.csv``); a caption of any ``exclude`` file (also ``random/test.csv``
    where present) is never held out. ``heldout`` holds the other rows whose caption hashes
    into the held-out buckets (:func:`in_heldout_bucket`): the parser is never tuned on them
    and their errors are never printed. ``rest`` is everything else.

    Raises:
        CrepeInputError: as :func:`read_factual`.
    """
    rows = read_factual(path, drops)
    keys: list[set[str]] = [
        {caption_key(g.caption) for g in read_factual(p)} for p in exclude if Path(p).exists()
    ]
    dev = keys[0] if keys else set()
    excluded = set().union(*keys) if keys else set()
    out: dict[str, list[GoldGraph]] = {name: [] for name in SLICES}
    for g in rows:
        key = caption_key(g.caption)
        if key in dev:
            out["dev"].append(g)
        elif key not in excluded and in_heldout_bucket(key):
            out["heldout"].append(g)
        else:
            out["rest"].append(g)
    return out

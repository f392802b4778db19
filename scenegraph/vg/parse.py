"""Turning Visual Genome JSON dicts into typed objects and relationships, counting every skip.

Accepts the key spellings of VG v1.0, v1.2 and v1.4: object ids as ``object_id`` or ``id``;
names as ``names`` (first one kept), ``name`` or ``object_names``; sizes as ``w``/``h`` or
``width``/``height``; relationship ends as ``subject_id``/``object_id`` or embedded
``subject``/``object`` dicts. Names, attributes and predicates go through
:func:`crepe_datasets.scenegraph.types.normalize_name` (object lemmatisation is left to the builders).

Box policy (needs the image size): a box partly outside its image is **clipped** to the image
and kept (counted as the repair ``object_box_clipped``, not a drop); a box with no area inside the image is dropped
with its object (``object_outside_image``); a box without positive width and height is dropped
with its object (``object_degenerate_box``) even when the image size is unknown. Coordinates that
are not finite numbers (NaN, infinity, strings) are ``object_bad_box``.

Input hygiene (:mod:`crepe_datasets.infra.hygiene`): names, attributes, predicates and
synsets lose their control and invisible characters (counted as the repairs ``control_chars``
and ``invisible_chars``); a name holding bytes that were not UTF-8 (U+FFFD) or nothing once
cleaned is dropped (``invalid_utf8``, ``empty_after_cleaning``, or the ``*_empty_*`` reason
of its kind).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from crepe_datasets.infra.hygiene import clean_text
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, Relationship, SGObject, normalize_name

_NUMBER_TYPES = (int, float)
# VG repeats a small vocabulary millions of times: cache the normalisation.
_norm = functools.lru_cache(maxsize=1 << 17)(normalize_name)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def clean_norm(raw: str, drops: DropLog, stage: str, where: str) -> str | None:
    """``raw`` through input hygiene and :func:`normalize_name`; ``None`` after counting a drop.

    Clean strings (the common case) take the cached fast path. An empty result is returned as
    ``""`` for the caller to count under its own reason.
    """
    if raw.isprintable() and "\ufffd" not in raw:
        return _norm(raw)
    cleaned = clean_text(raw, drops, stage, where, max_chars=None)
    return None if cleaned is None else _norm(cleaned)


def _clean_str(value: Any) -> bool:
    return type(value) is str and value.isprintable() and "\ufffd" not in value


def _first_str(values: Any) -> str | None:
    if isinstance(values, str):
        return values
    if isinstance(values, list) and values and isinstance(values[0], str):
        return values[0]
    return None


def _aliases(values: Any, name: str, drops: DropLog, stage: str, where: str) -> tuple[str, ...]:
    """The other names of a ``names`` list (after the first) through input hygiene and
    :func:`normalize_name`, without repeats or ``name`` itself; a name that is no string or
    empty is left out (the object keeps its first name)."""
    if not isinstance(values, list):
        return ()
    out: dict[str, None] = {}
    for v in values[1:]:
        alias = clean_norm(v, drops, stage, where) if isinstance(v, str) else None
        if alias and alias != name:
            out[alias] = None
    return tuple(out)


def object_id(d: Mapping[str, Any]) -> int | None:
    """The object id of a VG object dict (``object_id`` or ``id``), or ``None``."""
    oid = d.get("object_id", d.get("id"))
    return oid if isinstance(oid, int) and not isinstance(oid, bool) else None


def fit_box(
    box: Box,
    size: tuple[int, int] | None,
    drops: DropLog,
    stage: str,
    where: str,
    what: str = "object",
) -> Box | None:
    """Apply the box policy of the module docstring; ``None`` means drop the record."""
    if not (box.w > 0 and box.h > 0):
        drops.drop(stage, f"{what}_degenerate_box", where)
        return None
    if size is None or box.inside(*size):
        return box
    clipped = box.clip(*size)
    if not (clipped.w > 0 and clipped.h > 0):
        drops.drop(stage, f"{what}_outside_image", where)
        return None
    drops.repair(stage, f"{what}_box_clipped")
    return clipped


def read_box(d: Mapping[str, Any]) -> Box | None:
    """``Box`` from ``x, y, w, h`` (or ``width``/``height``) when all four are numbers."""
    x, y = d.get("x"), d.get("y")
    w, h = d.get("w", d.get("width")), d.get("h", d.get("height"))
    if not (_is_number(x) and _is_number(y) and _is_number(w) and _is_number(h)):
        return None
    return Box(float(x), float(y), float(w), float(h))


def normalize_attributes(values: Any, drops: DropLog, stage: str, where: str) -> tuple[str, ...]:
    """Normalised, de-duplicated attribute strings; non-strings and empties are counted."""
    if values is None:
        return ()
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list):
        drops.drop(stage, "attribute_bad_list", where)
        return ()
    out: list[str] = []
    for value in values:
        if not isinstance(value, str):
            drops.drop(stage, "attribute_not_a_string", where)
            continue
        norm = clean_norm(value, drops, stage, where)
        if norm is None:
            continue
        if not norm:
            drops.drop(stage, "attribute_empty", where)
        elif norm not in out:
            out.append(norm)
    return tuple(out)


def _fast_object(d: Any, size: tuple[int, int] | None) -> SGObject | None:
    """The common, well-formed v1.2/v1.4 object without any check failing; else ``None``.

    Anything unusual (other key spellings, wrong types, boxes to fit, odd attributes) falls
    through to the full path of :func:`parse_object`, which counts the reason.
    """
    if type(d) is not dict:
        return None
    oid, names = d.get("object_id"), d.get("names")
    x, y, w, h = d.get("x"), d.get("y"), d.get("w"), d.get("h")
    if not (
        type(oid) is int
        and type(names) is list
        and names
        and all(_clean_str(n) for n in names)
        and type(x) in _NUMBER_TYPES
        and type(y) in _NUMBER_TYPES
        and type(w) in _NUMBER_TYPES
        and type(h) in _NUMBER_TYPES
        and w > 0
        and h > 0
        and math.isfinite(x + y + w + h)
        and (size is None or (x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1]))
    ):
        return None
    name = _norm(names[0])
    raw_attrs = d.get("attributes")
    if raw_attrs is None:
        attrs: tuple[str, ...] = ()
    elif type(raw_attrs) is list and all(_clean_str(a) for a in raw_attrs):
        norm = [_norm(a) for a in raw_attrs]
        if not all(norm):
            return None
        attrs = tuple(dict.fromkeys(norm))
    else:
        return None
    if not name:
        return None
    syn = d.get("synsets")
    synset = syn[0] if type(syn) is list and syn and _clean_str(syn[0]) else None
    aliases = tuple(a for a in dict.fromkeys(_norm(n) for n in names[1:]) if a and a != name)
    return SGObject(oid, name, attrs, Box(float(x), float(y), float(w), float(h)), synset, aliases)


def parse_object(
    d: Any, size: tuple[int, int] | None, drops: DropLog, stage: str, where: str
) -> SGObject | None:
    """One VG object dict as an :class:`SGObject` (box fitted), or ``None`` after counting why."""
    fast = _fast_object(d, size)
    if fast is not None:
        return fast
    if not isinstance(d, dict):
        drops.drop(stage, "object_not_an_object", where)
        return None
    oid = object_id(d)
    if oid is None:
        drops.drop(stage, "object_bad_id", where)
        return None
    where = f"{where} object {oid}"
    raw = (
        _first_str(d["names"]) if "names" in d else _first_str(d.get("name", d.get("object_names")))
    )
    if raw is None:
        drops.drop(stage, "object_missing_name", where)
        return None
    name = clean_norm(raw, drops, stage, where)
    if name is None:
        return None
    if not name:
        drops.drop(stage, "object_empty_name", where)
        return None
    box = read_box(d)
    if box is None:
        drops.drop(stage, "object_bad_box", where)
        return None
    box = fit_box(box, size, drops, stage, where)
    if box is None:
        return None
    attrs = normalize_attributes(d.get("attributes"), drops, stage, where)
    synset = _synset(d.get("synsets"), drops, stage, where)
    aliases = _aliases(d.get("names"), name, drops, stage, where)
    return SGObject(oid, name, attrs, box, synset, aliases)


def _synset(values: Any, drops: DropLog, stage: str, where: str) -> str | None:
    raw = _first_str(values)
    if raw is None or _clean_str(raw):
        return raw
    return clean_text(raw, drops, stage, where, max_chars=None) or None


def parse_relationship(d: Any, drops: DropLog, stage: str, where: str) -> Relationship | None:
    """One VG relationship dict (ids or embedded ends) as a :class:`Relationship`, or ``None``."""
    if type(d) is dict:  # fast path: the v1.2/v1.4 scene-graph form
        subj, obj, predicate = d.get("subject_id"), d.get("object_id"), d.get("predicate")
        if type(subj) is int and type(obj) is int and _clean_str(predicate):
            norm = _norm(predicate)
            if norm:
                syn = d.get("synsets")
                synset = syn[0] if type(syn) is list and syn and _clean_str(syn[0]) else None
                return Relationship(subj, norm, obj, synset)
    if not isinstance(d, dict):
        drops.drop(stage, "relationship_not_an_object", where)
        return None
    subj = d.get("subject_id", d.get("subject"))
    obj = d.get("object_id", d.get("object"))
    subj = object_id(subj) if isinstance(subj, dict) else subj
    obj = object_id(obj) if isinstance(obj, dict) else obj
    if (
        not (isinstance(subj, int) and isinstance(obj, int))
        or isinstance(subj, bool)
        or isinstance(obj, bool)
    ):
        drops.drop(stage, "relationship_bad_ids", where)
        return None
    predicate = d.get("predicate")
    if not isinstance(predicate, str):
        drops.drop(stage, "relationship_missing_predicate", where)
        return None
    predicate = clean_norm(predicate, drops, stage, where)
    if predicate is None:
        return None
    if not predicate:
        drops.drop(stage, "relationship_empty_predicate", where)
        return None
    return Relationship(subj, predicate, obj, _synset(d.get("synsets"), drops, stage, where))

"""Visual Genome's name lists: alias files and synset maps.

* ``object_alias.txt`` / ``relationship_alias.txt``: one group of synonyms per line,
  comma-separated, the **first** being the canonical name (``near,next to``). The same canonical
  name may head several lines. An alias claimed by two different canonical names keeps the
  first and is counted as ``alias_conflict``.
* ``object_synsets.json`` / ``relationship_synsets.json`` / ``attribute_synsets.json``:
  ``{name: synset}`` dicts; ``synsets.json``: a list of ``{synset_name, synset_definition}``.
"""

from __future__ import annotations

import os
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.jsonstream import load_json, require_file
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import normalize_name

STAGE = "vg_aliases"


def read_aliases(path: str | os.PathLike, drops: DropLog | None = None) -> dict[str, str]:
    """``{alias: canonical}`` of an alias file, names normalised; canonical names map to themselves.

    Lines that are not UTF-8 or hold fewer than one name are counted (``invalid_utf8``,
    ``empty_line``) when ``drops`` is given.
    """
    p = require_file(path, "alias file")
    drops = drops if drops is not None else DropLog()
    out: dict[str, str] = {}
    with open(p, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                drops.drop(STAGE, "invalid_utf8", f"{p.name}:{number}")
                continue
            names = [n for n in (normalize_name(x) for x in line.split(",")) if n]
            if not names:
                if line.strip():
                    drops.drop(STAGE, "empty_line", f"{p.name}:{number}")
                continue
            canonical = names[0]
            for name in names:
                previous = out.setdefault(name, canonical)
                if previous != canonical and name != previous:
                    drops.drop(STAGE, "alias_conflict", f"{p.name}:{number} {name}")
    return out


def read_synsets(path: str | os.PathLike) -> dict[str, str]:
    """``{name: synset}`` from a VG synset map, or ``{synset: definition}`` from ``synsets.json``.

    Raises:
        CrepeInputError: the file is broken or is neither form.
    """
    data = load_json(path)
    if isinstance(data, dict):
        return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}
    if isinstance(data, list):
        return {
            str(d["synset_name"]): str(d.get("synset_definition", ""))
            for d in data
            if isinstance(d, dict) and "synset_name" in d
        }
    raise CrepeInputError(f"{Path(path)} is not a VG synset file (a JSON dict or list).")

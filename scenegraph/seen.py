"""Seen tables of a training corpus and the SC / UC / UA split they define (SPEC §2.4).

* ``seen_compounds`` (SC): every compound of the caption is seen (so is every atom);
* ``unseen_compounds`` (UC): every atom is seen, at least one compound is not;
* ``unseen_atoms`` (UA): at least one atom is not seen.

"Seen" means: the atom or compound occurs in at least ``min_count`` captions of the corpus
(the counts of ``crepe parse-corpus``; ``--min-count``, default 1). Atoms and compounds are
compared exactly as the parser writes them (objects and predicates lemmatised, attributes as
written), which is why the seen tables must come from the same parser version.

Row lists use these strings (documented in the card):

* atoms: ``object:<name>``, ``attribute:<attribute>``, ``relationship:<predicate>``;
* compounds: ``ao:<attribute>|<object>`` and ``oro:<subject>|<predicate>|<object>``.

The definition sits in ``scenegraph`` because both the systematicity builder
(:mod:`crepe_datasets.builders.systematicity.split` classifies captions with it) and
``validation`` (which re-derives every row's split) use it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scenegraph.types import Atom, Compound

SPLITS = ("seen_compounds", "unseen_compounds", "unseen_atoms")
SEEN_FILES = ("atoms.parquet", "compounds_ao.parquet", "compounds_oro.parquet", "manifest.json")


def atom_key(atom: Atom) -> str:
    """``object:dog``, ``attribute:black``, ``relationship:on top of``."""
    return f"{atom.type}:{atom.text}"


def compound_key(compound: Compound) -> str:
    """``ao:black|dog`` or ``oro:man|hug|child``."""
    prefix = "ao" if compound.kind == "attribute_object" else "oro"
    return f"{prefix}:" + "|".join(compound.parts)


@dataclass
class SeenTables:
    """The seen atoms and compounds (count ≥ ``min_count``) of one parsed corpus."""

    atoms: frozenset[str]
    compounds: frozenset[str]
    min_count: int
    manifest: dict[str, Any] = field(default_factory=dict)
    folder: str = ""

    def describe(self) -> dict[str, Any]:
        """Corpus, checksum and table sizes for the build manifest and the card."""
        m = self.manifest
        inputs = m.get("inputs") or []
        return {
            "corpus": m.get("corpus"),
            "seen_folder": self.folder,
            "corpus_files": [{k: f.get(k) for k in ("path", "bytes", "sha256")} for f in inputs],
            "corpus_sha256": m.get("corpus_sha256"),
            "captions_parsed": (m.get("counts") or {}).get("captions_parsed"),
            "parser_version": m.get("parser_version"),
            "spacy_model": m.get("spacy_model"),
            "table_rows": m.get("tables"),
            "min_count": self.min_count,
            "seen_atoms": len(self.atoms),
            "seen_compounds": len(self.compounds),
        }


def _keys(path: Path, columns: list[str], prefix: str, min_count: int) -> set[str]:
    import pyarrow.parquet as pq

    data = pq.read_table(path, columns=[*columns, "count"]).to_pydict()
    parts = [data[c] for c in columns]
    out = set()
    for i, n in enumerate(data["count"]):
        if n >= min_count:
            values = [str(p[i]) for p in parts]
            out.add(
                f"{values[0]}:{values[1]}" if prefix == "atom" else f"{prefix}:" + "|".join(values)
            )
    return out


def load_seen(folder: str | Path, min_count: int = 1) -> SeenTables:
    """Read a ``crepe parse-corpus`` folder.

    Raises:
        CrepeInputError: a file is missing, the folder was made by another parser version,
            or the corpus parsed to no caption.
    """
    from crepe_datasets.infra.provenance import InputFile, combined_checksum
    from crepe_datasets.scenegraph.parser.rules import PARSER_VERSION

    folder = Path(folder)
    if min_count < 1:
        raise CrepeInputError(f"--min-count must be at least 1, got {min_count}.")
    for name in SEEN_FILES:
        if not (folder / name).is_file():
            raise CrepeInputError(
                f"seen folder {folder} has no {name}; make it with `crepe parse-corpus --out {folder}`."
            )
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise CrepeInputError(f"{folder}/manifest.json is not valid JSON ({err}).") from err
    if not isinstance(manifest, dict) or manifest.get("kind") != "seen_tables":
        raise CrepeInputError(f"{folder} is not a seen-tables folder of `crepe parse-corpus`.")
    if manifest.get("parser_version") != PARSER_VERSION:
        raise CrepeInputError(
            f"seen folder {folder} was parsed by parser version {manifest.get('parser_version')!r}, "
            f"this toolkit's parser is {PARSER_VERSION!r}; run `crepe parse-corpus` again."
        )
    if not (manifest.get("counts") or {}).get("captions_parsed"):
        raise CrepeInputError(
            f"corpus {manifest.get('corpus')!r} of {folder} parsed to no caption; "
            "check the corpus file and its KIND: prefix."
        )
    try:
        files = [InputFile(**f) for f in manifest.get("inputs") or []]
        manifest["corpus_sha256"] = combined_checksum(files)
    except TypeError:
        manifest["corpus_sha256"] = None
    atoms = _keys(folder / "atoms.parquet", ["type", "text"], "atom", min_count)
    compounds = _keys(folder / "compounds_ao.parquet", ["attribute", "object"], "ao", min_count)
    compounds |= _keys(
        folder / "compounds_oro.parquet", ["subject", "predicate", "object"], "oro", min_count
    )
    return SeenTables(frozenset(atoms), frozenset(compounds), min_count, manifest, str(folder))


def split_of(unseen_atoms: list[str], unseen_compounds: list[str]) -> str:
    """The split given what is unseen (the definition of SPEC §2.4)."""
    if unseen_atoms:
        return "unseen_atoms"
    return "unseen_compounds" if unseen_compounds else "seen_compounds"

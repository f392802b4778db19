"""Canonical terms of the counter-image pool, and the synonyms a match may use.

Every name of a pool graph and of a query graph goes through the same steps as the project
already normalises names: lower case and trimmed (:func:`~crepe_datasets.scenegraph.types.normalize_name`),
objects singularised (:func:`~crepe_datasets.scenegraph.lexicon.normalize_object`), predicates
lemmatised word by word (``riding on`` → ``ride on``,
:func:`~crepe_datasets.scenegraph.lexicon.lemmatize_verb`), British and American spellings joined
(:func:`~crepe_datasets.scenegraph.lexicon.canonical_spelling`), and then mapped to the canonical
name of Visual Genome's alias lists (``object_alias.txt``, ``relationship_alias.txt`` of the
``--vg`` folder, when present).

Synonyms come in two strengths:

* :meth:`Terms.tight` — the term and the lemmas of its **first** WordNet sense of the atom's part
  of speech (noun for objects, adjective for attributes, verb for predicates): used to decide
  that the *negative* is true in a counter-region ("couch" finds "sofa"). The first sense only,
  so "man" does not find "piece".
A one-word prepositional predicate ("on") also takes every known predicate that ends with it
("sit on", "hang on", "on top of"): :meth:`Terms.add_predicates` gives the known ones (the
index's, or a graph's).

* :meth:`Terms.head` — the head noun of a compound object name when the name is a kind of it:
  an object named "desk chair", "tv remote" or "water bottle" is also a chair, a remote, a
  bottle (so the index and the match find it under both names), but a "hot dog" is no dog and a
  "teddy bear" no bear: when WordNet knows the compound ("hot_dog", or written solid,
  "sunglasses"), some noun sense of the head must be among the hypernyms of its first sense.

* :meth:`Terms.loose` — the term and the lemmas of its first three senses of every part of
  speech (:func:`crepe_datasets.generators.negatives.foils.synonyms`): used to decide that the
  *positive* is false there, so the wider the set the more conservative the check.
"""

from __future__ import annotations

import functools
from pathlib import Path

from crepe_datasets.scenegraph.types import normalize_name

# A predicate that is one of these prepositions is entailed by a predicate ending with it
# ("sit on", "park near") or by "on top of" for "on": "cup sitting on the table" is on the table.
PREPOSITIONS = frozenset("on in under behind near at above below beside by inside".split())
ALIAS_FILES = {"object": "object_alias.txt", "relationship": "relationship_alias.txt"}
POS = {"object": "n", "attribute": "a", "relationship": "v"}


@functools.lru_cache(maxsize=200_000)
def _predicate_lemma(text: str) -> str:
    from crepe_datasets.scenegraph.lexicon import lemmatize_verb

    return " ".join(lemmatize_verb(w) for w in text.split())


@functools.lru_cache(maxsize=200_000)
def surface(kind: str, text: str) -> str:
    """The alias-free canonical form of ``text`` as an atom of ``kind``."""
    from crepe_datasets.scenegraph.lexicon import canonical_spelling, normalize_object

    name = normalize_name(text)
    if kind == "object":
        name = normalize_object(name)
    elif kind == "relationship":
        name = _predicate_lemma(name)
    return " ".join(canonical_spelling(w) for w in name.split())


@functools.lru_cache(maxsize=50_000)
def _first_sense(word: str, pos: str) -> tuple[str, ...]:
    from crepe_datasets.infra.resources import wordnet

    poses = ("a", "s") if pos == "a" else (pos,)
    for p in poses:
        synsets = wordnet().synsets(word.replace(" ", "_"), pos=p)
        if synsets:
            return tuple(sorted({x.name().replace("_", " ").lower() for x in synsets[0].lemmas()}))
    return ()


@functools.lru_cache(maxsize=50_000)
def is_kind_of_head(name: str) -> bool:
    """Whether the multi-word noun ``name`` is a kind of its last word (see :meth:`Terms.head`):
    true when WordNet knows neither the compound nor its solid spelling, else when a noun sense
    of the head is the compound's first sense or one of its hypernyms."""
    from crepe_datasets.infra.resources import wordnet

    wn = wordnet()
    words = name.split()
    head = words[-1]
    heads = set(wn.synsets(head, pos="n"))
    if len(words) < 2 or not heads:
        return False
    for form in ("_".join(words), "".join(words)):
        found = wn.synsets(form, pos="n")
        if found:
            first = found[0]
            return first in heads or bool(heads & set(first.closure(lambda x: x.hypernyms())))
    return True


class Terms:
    """Canonical names (with Visual Genome's aliases) and their synonym sets."""

    def __init__(self, aliases: dict[str, dict[str, str]] | None = None) -> None:
        self.aliases = aliases or {}
        self._tight: dict[tuple[str, str], frozenset[str]] = {}
        self._loose: dict[tuple[str, str], frozenset[str]] = {}
        self.predicates: set[str] = set()

    def add_predicates(self, predicates: set[str] | frozenset[str] | list[str]) -> None:
        """Known canonical predicates, for the prepositions they entail."""
        new = set(predicates) - self.predicates
        if new:
            self.predicates |= new
            for cache in (self._tight, self._loose):
                for key in [k for k in cache if k[0] == "relationship"]:
                    del cache[key]

    def _entailing(self, kind: str, forms: frozenset[str]) -> frozenset[str]:
        preps = {f for f in forms if f in PREPOSITIONS} if kind == "relationship" else set()
        if not preps:
            return forms
        more = {q for q in self.predicates if q.rsplit(" ", 1)[-1] in preps}
        if "on" in preps:
            more |= {q for q in self.predicates if q.startswith("on top")}
        return forms | more

    @classmethod
    def from_vg(cls, folder: str | Path | None) -> Terms:
        """Terms with the alias lists of a Visual Genome folder (none when absent)."""
        from crepe_datasets.scenegraph.visual_genome import read_aliases

        aliases: dict[str, dict[str, str]] = {}
        for kind, name in ALIAS_FILES.items():
            path = Path(folder) / name if folder else None
            if path is not None and path.is_file():
                raw = read_aliases(path)
                aliases[kind] = {surface(kind, a): surface(kind, c) for a, c in raw.items()}
        return cls(aliases)

    def files(self, folder: str | Path | None) -> list[Path]:
        """The alias files of ``folder`` these terms read (for cache keys and manifests)."""
        if not folder:
            return []
        return [Path(folder) / n for n in ALIAS_FILES.values() if (Path(folder) / n).is_file()]

    def canon(self, kind: str, text: str) -> str:
        """The canonical form of ``text`` as an atom of ``kind``."""
        name = surface(kind, text)
        return self.aliases.get(kind, {}).get(name, name)

    def head(self, name: str) -> str | None:
        """The canonical head noun of the canonical object name ``name`` when ``name`` is a
        compound that is a kind of it ("desk chair" → "chair"); ``None`` otherwise."""
        if " " not in name or not is_kind_of_head(name):
            return None
        head = self.canon("object", name.rsplit(" ", 1)[-1])
        return head if head != name else None

    def tight(self, kind: str, text: str) -> frozenset[str]:
        """Canonical forms a *true* atom may take: itself and its first-sense synonyms."""
        key = (kind, text)
        if key not in self._tight:
            words = {text, *_first_sense(text, POS[kind])}
            forms = frozenset(self.canon(kind, w) for w in words)
            self._tight[key] = self._entailing(kind, forms)
        return self._tight[key]

    def loose(self, kind: str, text: str) -> frozenset[str]:
        """Canonical forms a *false* atom must not take: itself and its broad synonyms."""
        key = (kind, text)
        if key not in self._loose:
            from crepe_datasets.generators.negatives.foils import synonyms

            forms = frozenset(self.canon(kind, w) for w in synonyms(text)) | {
                self.canon(kind, text)
            }
            self._loose[key] = self._entailing(kind, forms)
        return self._loose[key]

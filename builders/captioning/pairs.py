"""Held-out concept pairs and synonym groups: read from data files, matched against caption facts.

The defaults ship as package data (``data/heldout_pairs.json``, ``data/synonyms.json``); a
user's own file in the same format replaces them (``--pairs``, ``--synonyms``). A pair is
matched on the parsed, lemmatised bindings of :mod:`.concepts`, never on substrings.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.builders.captioning.concepts import CaptionFacts
from crepe_datasets.infra.errors import CrepeInputError

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_PAIRS = DATA / "heldout_pairs.json"
DEFAULT_SYNONYMS = DATA / "synonyms.json"
PAIR_TYPES = ("adjective_noun", "verb_noun")


@dataclass(frozen=True)
class ConceptPair:
    """One held-out pair: ``modifier`` (adjective or verb) bound to ``noun``."""

    id: str
    type: str
    modifier: str
    noun: str
    modifier_forms: frozenset[str]
    noun_forms: frozenset[str]

    def _noun(self, name: str) -> bool:
        return name in self.noun_forms or name.rsplit(" ", 1)[-1] in self.noun_forms

    def in_facts(self, facts: CaptionFacts) -> bool:
        """Whether the caption binds the pair (attribute of, or verb of, the noun)."""
        if self.type == "verb_noun":
            return any(m in self.modifier_forms and self._noun(n) for m, n in facts.verb_subject)
        if any(m in self.modifier_forms and self._noun(n) for m, n in facts.attribute_object):
            return True
        # the parser keeps some adjectives inside a compound object name ("little dog")
        return any(
            self._noun(n) and not self.modifier_forms.isdisjoint(n.split()[:-1])
            for n in facts.objects
        )

    def co_occur(self, facts: CaptionFacts) -> bool:
        """Whether the caption has both constituents, bound or not ("a black dog and a cat")."""
        pairs = facts.verb_subject if self.type == "verb_noun" else facts.attribute_object
        modifiers = {m for m, _ in pairs}
        if self.type == "adjective_noun":
            modifiers |= {w for n in facts.objects for w in n.split()[:-1]}
        return not self.modifier_forms.isdisjoint(modifiers) and self.noun_in(facts)

    def noun_in(self, facts: CaptionFacts) -> bool:
        """Whether the caption names the pair's noun at all."""
        return any(self._noun(name) for name in facts.objects)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "type": self.type, "modifier": self.modifier, "noun": self.noun}


def _read_json(path: Path, what: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise CrepeInputError(f"{what} file {path} does not exist.") from err
    except json.JSONDecodeError as err:
        raise CrepeInputError(f"{what} file {path} is not valid JSON (line {err.lineno}).") from err
    if not isinstance(data, dict):
        raise CrepeInputError(f"{what} file {path} must hold a JSON object.")
    return data


def load_pairs(path: str | Path | None = None) -> list[ConceptPair]:
    """The held-out pairs of ``path`` (the shipped list when ``None``).

    Raises:
        CrepeInputError: the file is missing or malformed, or a pair is incomplete or repeated.
    """
    path = Path(path) if path else DEFAULT_PAIRS
    data = _read_json(path, "pairs")
    mod_forms, noun_forms = data.get("modifier_forms", {}), data.get("noun_forms", {})
    pairs: list[ConceptPair] = []
    for k, entry in enumerate(data.get("pairs") or []):
        try:
            kind, modifier, noun = entry["type"], entry["modifier"].lower(), entry["noun"].lower()
        except (KeyError, TypeError, AttributeError) as err:
            raise CrepeInputError(
                f"pair #{k} of {path} needs 'type', 'modifier' and 'noun' strings."
            ) from err
        if kind not in PAIR_TYPES:
            raise CrepeInputError(
                f"pair #{k} of {path} has type {kind!r}; use {' or '.join(PAIR_TYPES)}."
            )
        pid = str(entry.get("id") or f"{modifier}_{noun}")
        forms_m = frozenset([modifier, *mod_forms.get(modifier, [])])
        forms_n = frozenset([noun, *noun_forms.get(noun, [])])
        pairs.append(ConceptPair(pid, kind, modifier, noun, forms_m, forms_n))
    if not pairs:
        raise CrepeInputError(f"pairs file {path} lists no pair under 'pairs'.")
    ids = [p.id for p in pairs]
    if len(set(ids)) != len(ids):
        raise CrepeInputError(f"pairs file {path} repeats a pair id; each id must be unique.")
    return pairs


@dataclass(frozen=True)
class SynonymGroup:
    """A canonical word and the words used in its place (each with its accepted forms)."""

    canonical: str
    synonyms: tuple[str, ...]
    forms: dict[str, frozenset[str]]

    def words_in(self, facts: CaptionFacts) -> set[str]:
        """Which of the group's words (canonical or synonyms) a caption uses as an object."""
        present = facts.object_words()
        return {w for w in (self.canonical, *self.synonyms) if self.forms[w] & present}


def load_synonyms(path: str | Path | None = None) -> list[SynonymGroup]:
    """The synonym groups of ``path`` (the shipped list when ``None``).

    Raises:
        CrepeInputError: the file is missing or malformed.
    """
    path = Path(path) if path else DEFAULT_SYNONYMS
    data = _read_json(path, "synonyms")
    extra = data.get("forms", {})
    groups = []
    for k, entry in enumerate(data.get("groups") or []):
        if not isinstance(entry, dict) or not entry.get("canonical") or not entry.get("synonyms"):
            raise CrepeInputError(f"group #{k} of {path} needs 'canonical' and 'synonyms'.")
        words = [entry["canonical"].lower(), *(s.lower() for s in entry["synonyms"])]
        forms = {w: frozenset([w, *extra.get(w, [])]) for w in words}
        groups.append(SynonymGroup(words[0], tuple(words[1:]), forms))
    if not groups:
        raise CrepeInputError(f"synonyms file {path} lists no group under 'groups'.")
    return groups


def pairs_in(pairs: Iterable[ConceptPair], facts: Iterable[CaptionFacts]) -> list[str]:
    """Ids of the pairs that at least one of the captions binds, in the pairs' order."""
    facts = list(facts)
    return [p.id for p in pairs if any(p.in_facts(f) for f in facts)]

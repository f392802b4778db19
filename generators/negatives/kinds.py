"""What counts as the same thing, the same attribute and the same relation when a foil is
checked against the full image graph (HN-ATOM, issue 20: "true negatives only").

A caption speaks of *a* pole, not of the annotated object 1058: "a black pole on top of the
ground" is true when any pole of the image is black. So the checks of
:mod:`crepe_datasets.generators.negatives.atom` look at every object of the image graph that a
reader could take for the replaced one, and at every attribute and predicate that says what the
foil says. The rules, each a property of WordNet or of the graph, not of particular words:

* **Same kind of object** (:func:`same_kind`): two names are one kind when they are equal, when
  their Visual Genome synsets are equal, when their head words (last words, as nouns: "water
  bottle", "drinking bottle") are equal, or when the names or their head words share one of
  their :data:`SYNONYM_SENSES` most frequent noun senses ("carpet rug" / "carpet": *rug* and
  *carpet* are one synset).
* **Same attribute** (:func:`attribute_says`): an attribute says ``foil`` when it is ``foil``,
  a lemma of ``foil``'s most frequent adjective sense, or a phrase one of whose words is
  ("light brown" says brown).
* **Same relation** (:func:`predicate_variants`): the predicate, its WordNet synonyms and the
  predicates of the same meaning of the relation table (``data/relation_foils.json``,
  ``same_meaning``: "on" / "on top of"). A relation also holds when the *converse* links the two
  objects the other way ("A behind B" when "B in front of A"; ``converse`` of the table) or, for a
  symmetric predicate ("next to"), when the predicate itself does.
"""

from __future__ import annotations

import functools
import json

from crepe_datasets.infra.resources import wordnet
from crepe_datasets.scenegraph.lexicon import canonical_spelling

#: How many of a name's most frequent noun senses count for synonymy (as in
#: :func:`crepe_datasets.generators.negatives.foils.synonyms`).
SYNONYM_SENSES = 3


def head(name: str) -> str:
    """The head word of a name (its last word) as a noun lemma ("curtains" -> curtain)."""
    last = name.split()[-1] if name.split() else name
    return wordnet().morphy(last, "n") or last


@functools.lru_cache(maxsize=100_000)
def _senses(word: str) -> frozenset:
    return frozenset(wordnet().synsets(word.replace(" ", "_"), pos="n")[:SYNONYM_SENSES])


@functools.lru_cache(maxsize=200_000)
def _same_name_kind(a: str, b: str) -> bool:
    if a == b:
        return True
    ha, hb = head(a), head(b)
    if ha == hb:
        return True
    return bool(
        (_senses(a) | _senses(ha)) & (_senses(b) | _senses(hb))
        if (_senses(a) or _senses(ha)) and (_senses(b) or _senses(hb))
        else False
    )


def same_kind(a: str, b: str, a_synset: str | None = None, b_synset: str | None = None) -> bool:
    """Whether a thing called ``a`` and one called ``b`` are of one kind (module docstring)."""
    if a_synset and b_synset and a_synset == b_synset:
        return True
    return _same_name_kind(*sorted((a, b)))


@functools.lru_cache(maxsize=100_000)
def attribute_variants(attribute: str) -> frozenset[str]:
    """``attribute``, its canonical spelling and the lemmas of its most frequent adjective
    sense ("grey": gray, grey)."""
    out = {attribute, canonical_spelling(attribute) or attribute}
    senses = wordnet().synsets(attribute.replace(" ", "_"), pos="a")[:1]
    for sense in senses:
        for lemma in sense.lemma_names():
            word = lemma.replace("_", " ").lower()
            out.update({word, canonical_spelling(word) or word})
    return frozenset(out)


@functools.lru_cache(maxsize=200_000)
def attribute_says(attribute: str, foil: str) -> bool:
    """Whether an annotated ``attribute`` says what ``foil`` says (module docstring)."""
    variants = attribute_variants(foil)
    if attribute in variants or (canonical_spelling(attribute) or attribute) in variants:
        return True
    words = attribute.replace("-", " ").split()
    return len(words) > 1 and any(
        w in variants or (canonical_spelling(w) or w) in variants for w in words
    )


@functools.lru_cache(maxsize=1)
def _relation_groups() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]], frozenset]:
    from crepe_datasets.generators.negatives.foils import RELATION_TABLE

    data = json.loads(RELATION_TABLE.read_text(encoding="utf-8"))
    same = {w: frozenset(group) for group in data.get("same_meaning", []) for w in group}
    converse: dict[str, frozenset[str]] = {}
    for left, right in data.get("converse", []):
        for w in left:
            converse[w] = converse.get(w, frozenset()) | frozenset(right)
        for w in right:
            converse[w] = converse.get(w, frozenset()) | frozenset(left)
    symmetric = frozenset(w for group in data.get("symmetric", []) for w in group)
    return same, converse, symmetric


@functools.lru_cache(maxsize=100_000)
def predicate_variants(predicate: str) -> frozenset[str]:
    """The predicates that say ``predicate`` between the same subject and object: itself, its
    WordNet synonyms and the table's predicates of the same meaning."""
    from crepe_datasets.generators.negatives.foils import synonyms

    same, _, _ = _relation_groups()
    out = {predicate} | same.get(predicate, frozenset())
    if " " not in predicate:  # a one-word predicate's WordNet synonyms ("wears" / "has on")
        out |= synonyms(predicate)
    return frozenset(out)


@functools.lru_cache(maxsize=100_000)
def reverse_variants(predicate: str) -> frozenset[str]:
    """The predicates that say ``predicate`` with subject and object exchanged: its converses
    ("behind" for "in front of") and, when it is symmetric ("next to"), its own variants."""
    same, converse, symmetric = _relation_groups()
    out: set[str] = set()
    for p in predicate_variants(predicate):
        for c in converse.get(p, frozenset()):
            out |= same.get(c, frozenset({c}))
        if p in symmetric:
            out |= predicate_variants(predicate)
    return frozenset(out)

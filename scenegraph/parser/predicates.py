"""Attributes said by a clause rather than by a modifier: copulas, bare verbs, adverbs, "with".

Rules (each gives (object, attribute) pairs; subjects are found by
:func:`crepe_datasets.scenegraph.parser.relations.subjects`):

* **Copula attributes**: "the shirt is red" -> (shirt, is, red).
* **Intransitive gerunds**: a caption whose root is an "-ing" verb with a subject (its first
  noun) and nothing else (no object, preposition, particle, adverb or clause) describes the
  subject: "man in jeans smiling", "the zebra is standing" -> (man, is, smiling),
  (zebra, is, standing); not "the hat the man is wearing".
* **Adverbs of state** ("outside", "alone"; :data:`rules.STATE_ADVERBS`) without an object
  describe the noun or the subject of the verb they modify: "people standing outside" ->
  (people, is, outside).
* **Absolute "with"**: a state right after the object of "with" is its attribute: "man with
  arms extended", "a refrigerator with doors open", "seagull with head down".
* An adjective that heads a preposition ("close to", "next to", "about to") is part of a
  relation, not an attribute.
"""

from __future__ import annotations

from crepe_datasets.scenegraph.parser import rules, words
from crepe_datasets.scenegraph.parser.attributes import attribute_texts
from crepe_datasets.scenegraph.parser.nouns import Nouns, _conjuncts
from crepe_datasets.scenegraph.parser.relations import VERB_POS, resolve, subjects
from crepe_datasets.scenegraph.parser.tokens import TokenView


def heads_preposition(tv: TokenView, a: int) -> bool:
    """ "close to", "about to": an adjective of :data:`rules.PREP_HEADS` with a complement."""
    return tv.lower[a] in rules.PREP_HEADS and bool(tv.kids(a, "prep", "xcomp", "aux"))


def copula_attributes(tv: TokenView, nouns: Nouns) -> list[tuple[int, str]]:
    """(object, attribute) for "the shirt is red" and "the shirt looks red"."""
    out: list[tuple[int, str]] = []
    for a in tv.with_dep("acomp"):
        if tv.pos[a] not in ("ADJ", "VERB"):
            continue
        v = tv.head[a]
        if words.verb_lemma(tv.lower[v]) not in rules.COPULAS:
            continue
        for s in subjects(tv, nouns, v):
            for adj in [a, *_conjuncts(tv, a)]:
                if tv.lower[adj] not in rules.NON_ATTRIBUTES and not heads_preposition(tv, adj):
                    out += [(s, text) for text in attribute_texts(tv, adj)]
    return out


#: Children an intransitive gerund root may have (anything else is a complement).
BARE_VERB_DEPS = frozenset({"nsubj", "aux", "punct"})


def gerund_attributes(tv: TokenView, nouns: Nouns) -> list[tuple[int, str]]:
    """(subject, verb as written) for a bare "-ing" root: "the zebra is standing"."""
    out: list[tuple[int, str]] = []
    for v in tv.with_dep("ROOT"):
        if tv.pos[v] != "VERB" or tv.tag[v] != "VBG" or not tv.kids(v, "nsubj"):
            continue
        if any(tv.dep[c] not in BARE_VERB_DEPS for c in tv.children[v]):
            continue
        first = next((i for i, p in enumerate(tv.pos) if p in ("NOUN", "PROPN")), v)
        if first not in tv.kids(v, "nsubj"):
            continue  # "the hat the man is wearing": the object comes first
        out += [(s, tv.lower[v]) for s in subjects(tv, nouns, v)]
    return out


def adverb_attributes(tv: TokenView, nouns: Nouns) -> list[tuple[int, str]]:
    """(subject, adverb) for an adverb of state or place (:data:`rules.STATE_ADVERBS`) said of
    a noun or of the subject of its verb: "people standing outside" -> (people, is, outside)."""
    out: list[tuple[int, str]] = []
    if rules.STATE_ADVERBS.isdisjoint(tv.lower):
        return out
    for a, low in enumerate(tv.lower):
        if low not in rules.STATE_ADVERBS or tv.children[a]:
            continue
        if tv.dep[a] not in ("advmod", "npadvmod", "acomp"):
            continue
        h = tv.head[a]
        owners = resolve(tv, nouns, h, False) if h in nouns.nodes else []
        if not owners and tv.pos[h] in VERB_POS:
            owners = subjects(tv, nouns, h)
        out += [(s, low) for s in owners]
    return out


def absolute_attributes(tv: TokenView, nouns: Nouns) -> list[tuple[int, str]]:
    """(noun, state) for "with <noun> <state>": "man with arms extended" -> (arm, is, extended)."""
    out: list[tuple[int, str]] = []
    for n in tv.with_dep("pobj"):
        a = n + 1
        if a >= len(tv) or tv.lower[tv.head[n]] != "with" or n not in nouns.nodes:
            continue
        if tv.kids(a, "pobj", "dobj", "prep"):
            continue
        low = tv.lower[a]
        if tv.tag[a] == "VBG" or low in rules.NON_ATTRIBUTES:
            continue
        if tv.tag[a] in ("JJ", "VBN", "VBD") or low == "down" or words.is_adjective(low):
            particles = [c for c in tv.kids(a, "prt", "advmod") if c == a + 1]
            out.append((n, f"{low} {tv.lower[a + 1]}" if particles else low))  # "held up"
    return out

"""Objects and their attributes: which tokens are scene objects, their names and modifiers.

Rules, in order:

1. **Candidates** are nouns (``NOUN``/``PROPN``), minus pronouns and placeholder nouns
   (:data:`rules.NON_OBJECTS`). A caption-initial root that spaCy tags as a verb but that is
   more often a noun ("building at the corner", "gravel in between tracks") counts as a noun.
2. **Quantity phrases** ("a bunch of birds", "group of people"): the quantity noun
   (:data:`rules.QUANTITY_NOUNS`) is not an object; it stands for the noun after "of"
   (recorded in ``alias`` so relations attached to it reach the real object).
3. **Relational nouns** in "on top of", "at the side of" are part of a preposition, not objects.
4. **Compound nouns**: a run of ``compound`` modifiers merges with its head when WordNet knows
   the result as one noun ("tennis racket", "bed spread"); an adjective merges only when the
   WordNet compound is not a kind of its head ("hot dog", "wet suit"; not "black cat").
   Other noun modifiers are attributes when WordNet knows them as adjectives or materials
   ("stone blocks" -> (block, is, stone)), owners for body parts ("cat face" ->
   (cat, have, face)), and are dropped otherwise ("city street" -> street).
5. **Attributes**: adjectival modifiers and counts, by the rules of
   :mod:`crepe_datasets.scenegraph.parser.attributes` (stacked and coordinated adjectives,
   shades, counts); parts named by "-ed" adjectives ("dark haired") by
   :mod:`crepe_datasets.scenegraph.parser.parts`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from crepe_datasets.scenegraph.parser import rules, words
from crepe_datasets.scenegraph.parser.attributes import (
    SHADES,
    conjoined_adjectives,
    conjuncts,
    count,
    modifier_attributes,
    shade_attributes,
    suffix_of,
)
from crepe_datasets.scenegraph.parser.compounds import compound_mods, name_and_modifiers
from crepe_datasets.scenegraph.parser.modifier_lexicon import learned_role
from crepe_datasets.scenegraph.parser.parts import Part, find_parts
from crepe_datasets.scenegraph.parser.tokens import TokenView

NOUN_POS = frozenset({"NOUN", "PROPN"})
CANDIDATE_POS = frozenset({"NOUN", "PROPN", "VERB"})
NOMINAL_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj"})
#: Dependency labels of a noun's children that can carry a count or an attribute (rule 5).
MODIFIER_DEPS = frozenset({"det", "predet", "nummod", "amod"})


@dataclass(slots=True)
class Node:
    """An object being built: its head token, name and attributes in caption order."""

    token: int
    name: str
    attributes: list[str] = field(default_factory=list)

    def add(self, attribute: str) -> None:
        if attribute and attribute not in self.attributes:
            self.attributes.append(attribute)


@dataclass
class Nouns:
    """The objects of one caption, indexed by head token, and quantity aliases."""

    nodes: dict[int, Node]
    alias: dict[int, int]
    relational: set[int]
    triples: list[tuple[int, str, int]] = field(default_factory=list)


@functools.lru_cache(maxsize=50_000)
def _prefers_noun(word: str) -> bool:
    """A verb-tagged caption opener that WordNet knows better as a noun ("building", "gravel")."""
    wn = words._wordnet()
    if wn is None:
        return False
    noun = sum(
        lem.count() for s in wn.synsets(word, pos="n") for lem in s.lemmas() if lem.name() == word
    )
    lemma = words.verb_lemma(word)
    verb = sum(
        lem.count() for s in wn.synsets(lemma, pos="v") for lem in s.lemmas() if lem.name() == lemma
    )
    return bool(wn.synsets(word, pos="n")) and noun >= verb


def is_candidate(tv: TokenView, i: int) -> bool:
    """Whether token ``i`` can name an object (rule 1)."""
    low = tv.lower[i]
    if low in rules.NON_OBJECTS or not low[:1].isalpha():
        return False
    if tv.pos[i] in NOUN_POS:
        if tv.dep[i] == "amod" and suffix_of(tv, i) is not None:
            return False  # "multi colored kite"
        # a modifier of another noun ("tennis racket", "pine/amod table") is not an object
        return tv.dep[i] not in ("compound", "amod") or tv.pos[tv.head[i]] not in NOUN_POS
    if tv.pos[i] == "VERB" and tv.dep[i] in NOMINAL_DEPS:  # "leaves on the tree are green"
        return words.is_noun(low)
    if tv.dep[i] == "ROOT" and i == 0 and tv.pos[i] == "VERB":
        if tv.kids(i, "nsubj", "nsubjpass", "aux", "auxpass", "dobj"):
            return False
        return _prefers_noun(low)
    return False


def _of_object(tv: TokenView, i: int) -> int | None:
    """The noun after "<i> of", if any."""
    for p in tv.kids(i, "prep"):
        if tv.lower[p] == "of":
            for o in tv.kids(p, "pobj"):
                return o
    return None


def _modifier_words(tv: TokenView, tokens: list[int], name: str) -> list[tuple[int, str]]:
    """Each leftover compound modifier with its word; two adjacent words that the learned lexicon
    keeps together as one attribute ("chain link fence", "double decker bus") come as one."""
    out: list[tuple[int, str]] = []
    skip = False
    for k, m in enumerate(tokens):
        if skip:
            skip = False
            continue
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        if nxt == m + 1 or (nxt == m + 2 and tv.lower[m + 1] == "-"):
            pair = f"{tv.lower[m]} {tv.lower[nxt]}"
            if learned_role(pair, name.split()[-1]) == "attribute":
                out.append((m, pair))
                skip = True
                continue
        out.append((m, tv.lower[m]))
    return out


def find_nouns(tv: TokenView) -> Nouns:
    """Objects, attributes and quantity aliases of one caption (rules 1-5)."""
    nodes: dict[int, Node] = {}
    alias: dict[int, int] = {}
    relational: set[int] = set()
    owners: list[tuple[int, int]] = []
    quantities: list[tuple[int, str]] = []
    parts: list[Part] = []
    lower, children = tv.lower, tv.children
    has_of = "of" in lower
    may_compound = "compound" in tv.by_dep or "-" in lower
    has_shade = not SHADES.isdisjoint(lower)
    for i, pos in enumerate(tv.pos):
        if pos not in CANDIDATE_POS or not is_candidate(tv, i):
            continue
        low = lower[i]
        kids = children[i]
        after_of = _of_object(tv, i) if has_of and kids else None
        if after_of is not None:
            if low in rules.QUANTITY_NOUNS:
                alias[i] = after_of
                if low in rules.QUANTITY_ATTRIBUTES:
                    quantities.append((after_of, rules.QUANTITY_ATTRIBUTES[low]))
                for c in tv.kids(i, "nummod"):  # "two slices of pie" -> (pie, is, 2)
                    quantities.append((after_of, count(lower[c]) or ""))
                continue
            if (
                low in rules.RELATIONAL_NOUNS
                and tv.dep[i] == "pobj"
                and tv.pos[tv.head[i]] == "ADP"
            ):
                relational.add(i)
                continue
        mods = compound_mods(tv, i) if may_compound and kids else []
        name, compound_attrs = name_and_modifiers(tv, i, mods)
        if not name:
            continue
        node = Node(i, name)
        found = find_parts(tv, i) if kids else []
        used = {p.token for p in found}.union(*(p.used for p in found))
        parts += found
        for c in kids:
            if (
                tv.dep[c] in MODIFIER_DEPS
                and c not in used
                and not (
                    c == i - 1 and name.startswith(lower[c] + " ")  # merged "hot dog"
                )
            ):
                for attribute in modifier_attributes(tv, c, i):
                    node.add(attribute)
        if tv.dep[i] == "conj":
            for attribute in conjoined_adjectives(tv, i):
                node.add(attribute)
        if has_shade:
            for colour, joined in shade_attributes(tv, i, used):
                if colour in node.attributes:
                    node.attributes[node.attributes.index(colour)] = joined
                else:
                    node.add(joined)
        for m, attr in _modifier_words(tv, compound_attrs, name):
            role = words.compound_role(attr, name)
            if count(attr):
                node.add(count(attr) or "")
            elif (
                attr in rules.NON_ATTRIBUTES
                or attr in rules.POSITION_WORDS
                or attr in rules.COLOR_SUFFIXES
                or len(attr) == 1
            ):
                continue
            elif role == "attribute":
                node.add(rules.ATTRIBUTE_SPELLING.get(attr, attr))
            elif role == "owner":
                owners.append((m, i))
        for m in mods:  # "green park bench": modifiers of the modifiers
            for c in tv.kids(m, "amod", "nummod"):
                for attribute in modifier_attributes(tv, c, i):
                    node.add(attribute)
        nodes[i] = node
    for owner, _part in owners:
        nodes[owner] = Node(owner, words.object_lemma(tv.lower[owner]))
    for target, attr in quantities:
        if target in nodes:
            nodes[target].add(attr)
    triples = [(o, rules.HAVE_PREDICATE, p) for o, p in owners]
    for part in parts:
        if part.owner in nodes and part.token not in nodes:
            nodes[part.token] = Node(part.token, part.name, list(part.attributes))
            triples.append((part.owner, rules.HAVE_PREDICATE, part.token))
    return Nouns(nodes, alias, relational, triples)


_conjuncts = conjuncts  # the name the relation rules import

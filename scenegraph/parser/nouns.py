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
5. **Attributes**: adjectival modifiers (``amod``, with their conjuncts: "orange and black sign"),
   joined with a preceding shade word or non-intensifying adverb ("dark green", "partly cloudy");
   numbers (``nummod``) as digits ("two" -> "2", "one" is not a count).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from crepe_datasets.scenegraph.parser import rules, words
from crepe_datasets.scenegraph.parser.compounds import compound_mods, name_and_modifiers
from crepe_datasets.scenegraph.parser.tokens import TokenView

NOUN_POS = frozenset({"NOUN", "PROPN"})
ATTR_POS = frozenset({"ADJ", "VERB", "NOUN", "PROPN", "NUM", "ADV"})
CANDIDATE_POS = frozenset({"NOUN", "PROPN", "VERB"})
NOMINAL_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj"})
SHADES = frozenset({"dark", "light", "pale", "deep", "navy", "royal", "neon"})
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
        return tv.dep[i] != "compound" or tv.pos[tv.head[i]] not in NOUN_POS
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


def attribute_text(tv: TokenView, a: int) -> str:
    """An adjective with its non-intensifying modifiers and hyphen parts ("partly cloudy")."""
    start = a
    for c in tv.children[a]:
        if c < a and tv.dep[c] in ("advmod", "npadvmod", "amod", "compound", "punct"):
            if tv.lower[c] in rules.INTENSIFIERS or tv.pos[c] in ("DET", "PRON"):
                continue
            if tv.dep[c] == "punct" and tv.lower[c] != "-":
                continue
            start = min(start, c)
    text = tv.span_text(start, a)
    text = text.replace(" - ", "-").replace("- ", "-").replace(" -", "-")
    head, _, last = text.rpartition(" ")
    if head and last in rules.COLOR_SUFFIXES:  # "red colored" -> "red"
        text = head
    return rules.ATTRIBUTE_SPELLING.get(text, text)


def _count(word: str) -> str | None:
    if word in rules.NOT_COUNTS:
        return None
    if word.isdigit():
        return word
    return rules.NUMBER_WORDS.get(word)


def find_nouns(tv: TokenView) -> Nouns:
    """Objects, attributes and quantity aliases of one caption (rules 1-5)."""
    nodes: dict[int, Node] = {}
    alias: dict[int, int] = {}
    relational: set[int] = set()
    owners: list[tuple[int, int]] = []
    quantities: list[tuple[int, str]] = []
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
        for c in kids:
            if tv.dep[c] in MODIFIER_DEPS and not (
                c == i - 1 and name.startswith(lower[c] + " ")  # merged "hot dog"
            ):
                _add_modifier(tv, c, i, node)
        if has_shade:
            _join_shades(tv, i, node)
        for m in compound_attrs:
            attr = lower[m]
            role = words.compound_role(attr, name)
            if _count(attr):
                node.add(_count(attr) or "")
            elif attr in rules.NON_ATTRIBUTES or attr in rules.POSITION_WORDS:
                continue
            elif role == "attribute":
                node.add(rules.ATTRIBUTE_SPELLING.get(attr, attr))
            elif role == "owner":
                owners.append((m, i))
        for m in mods:  # "green park bench": modifiers of the modifiers
            for c in tv.kids(m, "amod", "nummod"):
                _add_modifier(tv, c, i, node)
        nodes[i] = node
    for owner, _part in owners:
        nodes[owner] = Node(owner, words.object_lemma(tv.lower[owner]))
    for target, attr in quantities:
        if target in nodes:
            nodes[target].add(attr)
    return Nouns(nodes, alias, relational, [(o, rules.HAVE_PREDICATE, p) for o, p in owners])


def _add_modifier(tv: TokenView, c: int, i: int, node: Node) -> None:
    """Rule 5 for one child ``c`` of noun ``i``: a count or adjectival attribute."""
    dep = tv.dep[c]
    if dep in ("det", "predet") and tv.lower[c] == "both":
        node.add("2")
    elif dep == "nummod" or (dep == "amod" and tv.pos[c] == "NUM"):
        count = _count(tv.lower[c])
        if count:
            node.add(count)
    elif dep == "amod" and tv.pos[c] in ATTR_POS:
        for a in [c, *_conjuncts(tv, c)]:
            low = tv.lower[a]
            if low in SHADES and a + 1 < i and tv.head[a + 1] == i:
                continue  # joined with the next modifier by _join_shades
            if (
                low in rules.COLOR_SUFFIXES
                and a > 0
                and i in (tv.head[a - 1], a - 1)
                and a - 1 != i
            ):
                continue  # "cream colored door": the colour word before carries it
            if low not in rules.NON_ATTRIBUTES and low not in rules.POSITION_WORDS:
                node.add(attribute_text(tv, a))


def _conjuncts(tv: TokenView, i: int) -> list[int]:
    if "conj" not in tv.by_dep or not tv.children[i]:
        return []
    out: list[int] = []
    stack = tv.kids(i, "conj")
    while stack:
        c = stack.pop(0)
        out.append(c)
        stack.extend(tv.kids(c, "conj"))
    return out


def _join_shades(tv: TokenView, i: int, node: Node) -> None:
    """ "dark green leaves": a shade word right before another modifier of the same noun joins it."""
    for c in tv.children[i]:
        if tv.lower[c] in SHADES and tv.dep[c] in ("amod", "compound", "advmod", "npadvmod"):
            nxt = c + 1
            if nxt < i and tv.head[nxt] == i and tv.dep[nxt] in ("amod", "compound"):
                joined = f"{tv.lower[c]} {tv.lower[nxt]}"
                if tv.lower[nxt] in node.attributes:
                    node.attributes[node.attributes.index(tv.lower[nxt])] = joined
                else:
                    node.add(joined)

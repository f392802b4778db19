"""Attributes of an object: which modifiers of a noun describe it, and how each is written.

Rules (rule 5 of :mod:`crepe_datasets.scenegraph.parser.nouns`), over spaCy's labels:

1. **Adjectival modifiers** (``amod``) are attributes, with their conjuncts ("orange and black
   sign"), written with their non-intensifying adverbs and hyphen parts ("partly cloudy",
   "heart-shaped"); "very" and other intensifiers are dropped. Numbers (``nummod``) are counts,
   written as digits ("two" -> "2"; "one" is not a count).
2. **Stacked adjectives**: an adjective (or a colour word, whatever its tag) that modifies
   another adjective or participle of the noun is an attribute of its own: "white striped
   shirt" -> white, striped; "yellow painted hydrant" -> yellow, painted; "green grassy field"
   -> green, grassy. Kept joined: a shade word before a colour ("dark green", "bright red"),
   a colour before "colored" (which is then dropped: "white colored" -> white; "light
   colored" and "multi colored" stay, a shade or prefix alone being no colour), position
   words ("middle aged"),
   hyphenated words ("yellow-green"), and modifiers that are not adjectives ("partly cloudy",
   "snow covered", "non busy").
3. **Shades** (:data:`SHADES`) join the colour (or "colored") right after them ("dark green
   leaves" -> "dark green", "light colored shirt" -> "light colored"); before anything else
   they are attributes of their own ("dark wooden floor" -> dark, wooden).
5. **Distributive counts**: a count of a subject carries over to a bare plural it relates to,
   "two men in suits" -> (suit, is, 2), "three people holding rackets" -> (racket, is, 3)
   (:func:`distributive_counts`; not to a plural with its own article or count).
4. **Coordinated adjectives read as a coordination with the noun** ("green, blue and yellow
   blanket", where spaCy makes "blanket" a conjunct of "blue"): the adjectives the noun is
   conjoined with are its attributes (:func:`conjoined_adjectives`).
"""

from __future__ import annotations

from collections.abc import Collection

from crepe_datasets.scenegraph.parser import rules, words
from crepe_datasets.scenegraph.parser.tokens import TokenView

NOUN_POS = frozenset({"NOUN", "PROPN"})
ATTR_POS = frozenset({"ADJ", "VERB", "NOUN", "PROPN", "NUM", "ADV"})
#: Words that grade the colour after them: "dark green" is one attribute.
SHADES = frozenset({"dark", "light", "pale", "deep", "navy", "royal", "neon", "bright"})
#: Dependency labels of the words written before an adjective, inside its attribute.
JOIN_DEPS = frozenset({"advmod", "npadvmod", "amod", "compound", "punct"})


def conjuncts(tv: TokenView, i: int) -> list[int]:
    """Tokens conjoined with ``i`` ("red, white and blue": white and blue for red)."""
    if "conj" not in tv.by_dep or not tv.children[i]:
        return []
    out: list[int] = []
    stack = tv.kids(i, "conj")
    while stack:
        c = stack.pop(0)
        out.append(c)
        stack.extend(tv.kids(c, "conj"))
    return out


def is_adjectival(tv: TokenView, c: int) -> bool:
    """An adjective WordNet knows, or a colour word whatever spaCy tagged it ("white/NNP")."""
    low = tv.lower[c]
    return (tv.pos[c] == "ADJ" and words.is_adjective(low)) or words.is_color(low)


def stacks(tv: TokenView, c: int, a: int) -> bool:
    """Whether modifier ``c`` of adjective ``a`` is an attribute of its own (rule 2)."""
    low, head = tv.lower[c], tv.lower[a]
    if low in rules.INTENSIFIERS or low in rules.NON_ATTRIBUTES or low in rules.POSITION_WORDS:
        return False  # "middle aged"
    if head in rules.COLOR_SUFFIXES or (low in SHADES and words.is_color(head)):
        return False  # "white colored", "dark green"
    return "-" not in tv.lower[c + 1 : a] and is_adjectival(tv, c)


def attribute_text(tv: TokenView, a: int) -> str:
    """An adjective with its joined modifiers and hyphen parts ("partly cloudy", "dark green")."""
    start = a
    for c in tv.children[a]:
        if c < a and tv.dep[c] in JOIN_DEPS:
            if tv.lower[c] in rules.INTENSIFIERS or tv.pos[c] in ("DET", "PRON"):
                continue
            if tv.dep[c] == "punct" and tv.lower[c] != "-":
                continue
            if tv.dep[c] != "punct" and stacks(tv, c, a):
                continue
            start = min(start, c)
    text = tv.span_text(start, a)
    text = text.replace(" - ", "-").replace("- ", "-").replace(" -", "-")
    head, _, last = text.rpartition(" ")
    if head and last in rules.COLOR_SUFFIXES and head not in SHADES:  # "red colored" -> "red"
        text = head  # but "light colored" stays: a shade alone is no colour
    return rules.ATTRIBUTE_SPELLING.get(text, text)


def attribute_texts(tv: TokenView, a: int, depth: int = 0) -> list[str]:
    """Every attribute adjective ``a`` gives: its stacked modifiers (rule 2), then its own."""
    out: list[str] = []
    if depth < 4:
        for c in tv.children[a]:
            if c < a and tv.dep[c] in JOIN_DEPS and tv.dep[c] != "punct" and stacks(tv, c, a):
                for s in [c, *conjuncts(tv, c)]:
                    if s < a:
                        out += attribute_texts(tv, s, depth + 1)
    out.append(attribute_text(tv, a))
    return out


def count(word: str) -> str | None:
    """A number word as a count in digits, or None ("one" and "a" are not counts)."""
    if word in rules.NOT_COUNTS:
        return None
    if word.isdigit():
        return word
    return rules.NUMBER_WORDS.get(word)


def _joins_next_colour(tv: TokenView, a: int, i: int) -> bool:
    """A shade word ``a`` right before another modifier of noun ``i`` that is a colour."""
    nxt = a + 1
    return (
        tv.lower[a] in SHADES
        and nxt < i
        and tv.head[nxt] == i
        and tv.dep[nxt] in ("amod", "compound")
        and (words.is_color(tv.lower[nxt]) or tv.lower[nxt] in rules.COLOR_SUFFIXES)
    )


def modifier_attributes(tv: TokenView, c: int, i: int) -> list[str]:
    """Rule 1 for one child ``c`` of noun ``i``: its count or adjectival attributes."""
    dep = tv.dep[c]
    if dep in ("det", "predet") and tv.lower[c] == "both":
        return ["2"]
    if dep == "nummod" or (dep == "amod" and tv.pos[c] == "NUM"):
        n = count(tv.lower[c])
        return [n] if n else []
    if dep != "amod" or tv.pos[c] not in ATTR_POS:
        return []
    out: list[str] = []
    for a in [c, *conjuncts(tv, c)]:
        low = tv.lower[a]
        if _joins_next_colour(tv, a, i) or not low[:1].isalnum():
            continue  # joined with the next modifier by shade_attributes; punctuation
        if low in rules.COLOR_SUFFIXES and a > 0 and i in (tv.head[a - 1], a - 1) and a - 1 != i:
            prefix = colour_prefix(tv, a)
            if prefix is not None:  # "multi colored", "rust-colored": one attribute
                out.append(f"{tv.lower[prefix]}{'-' if prefix < a - 1 else ' '}{low}")
            continue  # "cream colored door": the colour word before carries it
        if suffix_of(tv, a) is not None:
            continue  # "multi" in "multi colored": written with the suffix
        if low in rules.PREP_HEADS and tv.kids(a, "prep"):
            continue  # "a tree close to the bus": part of the relation "close to"
        if low not in rules.NON_ATTRIBUTES and low not in rules.POSITION_WORDS:
            out += attribute_texts(tv, a)
    return out


def colour_prefix(tv: TokenView, a: int) -> int | None:
    """The word before "colored" (``a``) that is no colour or shade ("multi", "rust"), if any."""
    p = a - 2 if a > 1 and tv.lower[a - 1] == "-" else a - 1
    if p < 0 or tv.head[p] not in (tv.head[a], a) or not tv.lower[p][:1].isalnum():
        return None
    low = tv.lower[p]
    if low in SHADES or words.is_color(low) or low in rules.NON_ATTRIBUTES:
        return None
    return p


def suffix_of(tv: TokenView, p: int) -> int | None:
    """The "colored" that word ``p`` is the prefix of ("multi" in "multi colored"), if any."""
    n = p + 2 if p + 2 < len(tv) and tv.lower[p + 1] == "-" else p + 1
    if n < len(tv) and tv.lower[n] in rules.COLOR_SUFFIXES and colour_prefix(tv, n) == p:
        return n
    return None


def shade_attributes(tv: TokenView, i: int, skip: Collection[int] = ()) -> list[tuple[str, str]]:
    """Rule 3: (colour, "shade colour") for each shade word before a colour modifier of ``i``."""
    out: list[tuple[str, str]] = []
    for c in tv.children[i]:
        if c in skip:
            continue
        if tv.dep[c] in ("amod", "compound", "advmod", "npadvmod") and _joins_next_colour(tv, c, i):
            out.append((tv.lower[c + 1], f"{tv.lower[c]} {tv.lower[c + 1]}"))
    return out


def conjoined_adjectives(tv: TokenView, i: int) -> list[str]:
    """Rule 4: attributes of noun ``i`` that spaCy parsed as adjectives it is conjoined with."""
    chain: list[int] = []
    t = i
    while tv.dep[t] == "conj" and tv.head[t] < t and tv.pos[tv.head[t]] == "ADJ":
        t = tv.head[t]
        chain.append(t)
        if len(chain) > 8:
            break
    if not chain:
        return []
    top = chain[-1]
    if tv.dep[top] in ("acomp", "attr") or (
        tv.dep[top] == "amod" and tv.pos[tv.head[top]] in NOUN_POS
    ):
        return []  # the adjectives describe another noun, or the subject of a copula
    out: list[str] = []
    for a in sorted(chain):
        if tv.lower[a] not in rules.NON_ATTRIBUTES and tv.lower[a] not in rules.POSITION_WORDS:
            out += attribute_texts(tv, a)
    return out


def distributive_counts(
    tv: TokenView, attributes: dict[int, list[str]], triples: list[tuple[int, str, int]]
) -> list[tuple[int, str]]:
    """Rule 5: (object token, count) for the bare plurals that counted subjects relate to."""
    out: list[tuple[int, str]] = []
    for s, _, o in triples:
        if o < s or tv.tag[o] != "NNS" or tv.kids(o, "det", "nummod", "predet"):
            continue
        counts = [a for a in attributes.get(s, ()) if a.isdigit()]
        if len(counts) == 1 and not any(a.isdigit() for a in attributes.get(o, ())):
            out.append((o, counts[0]))
    return out

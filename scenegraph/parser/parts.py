"""Adjectives of having a part: "dark haired woman" -> (woman, have, hair), (hair, is, dark).

English forms an adjective from a part noun and "-ed" ("haired", "sleeved", "wheeled",
"framed") that is only ever said with a modifier of the part: "a dark haired woman" is a woman
whose hair is dark, "a two wheeled cart" a cart with two wheels, "a long sleeved shirt" a
shirt whose sleeves are long. The part is an object of the scene, owned by the noun, and the
modifier is the part's attribute, not the noun's (FACTUAL annotates them so).

The part nouns are a closed list (:data:`rules.PART_NOUNS`): an "-ed" adjective of another noun
("striped", "tiled", "painted") describes the noun itself. Without a modifier ("a framed
picture") the adjective stays an attribute of the noun.
"""

from __future__ import annotations

from dataclasses import dataclass

from crepe_datasets.scenegraph.parser import rules, words
from crepe_datasets.scenegraph.parser.attributes import SHADES, attribute_texts, count
from crepe_datasets.scenegraph.parser.tokens import TokenView

#: Dependency labels of a part adjective's own modifiers ("long/advmod sleeved").
OWN_DEPS = frozenset({"advmod", "npadvmod", "amod", "nummod", "compound"})


@dataclass(frozen=True)
class Part:
    """A part named by adjective token ``token`` of noun ``owner``, with its attributes."""

    token: int
    owner: int
    name: str
    attributes: tuple[str, ...]
    used: frozenset[int]  # the modifier tokens that went to the part, not the owner


def part_noun(word: str) -> str | None:
    """The part noun of a "having-part" adjective ("haired" -> hair, "legged" -> leg)."""
    if not word.endswith("ed") or len(word) < 5:
        return None
    stems = [word[:-1], word[:-2]]
    if word[-3] == word[-4]:  # "legged", "skinned"
        stems.append(word[:-3])
    for stem in stems:
        if stem in rules.PART_NOUNS:
            return rules.PART_NOUNS[stem]
    return None


def _modifiers(tv: TokenView, a: int, i: int) -> list[int]:
    """The part's modifiers: those of the adjective itself, else the run of the noun's before it."""
    own = [c for c in tv.children[a] if c < a and tv.dep[c] in OWN_DEPS]
    if own:
        return own
    run: list[int] = []
    j = a - 1
    while j >= 0 and tv.head[j] == i and tv.dep[j] in ("amod", "nummod") and j not in run:
        run.insert(0, j)
        j -= 1
    return run


def _texts(tv: TokenView, mods: list[int]) -> list[str]:
    """Attributes of the part: counts in digits, a shade joined with the colour after it."""
    out: list[str] = []
    k = 0
    while k < len(mods):
        m = mods[k]
        low = tv.lower[m]
        nxt = mods[k + 1] if k + 1 < len(mods) else None
        if count(low):
            out.append(count(low) or "")
        elif low in SHADES and nxt == m + 1 and words.is_color(tv.lower[nxt]):
            out.append(f"{low} {tv.lower[nxt]}")
            k += 1
        elif low not in rules.NON_ATTRIBUTES and low not in rules.INTENSIFIERS:
            out += attribute_texts(tv, m)
        k += 1
    return [t for t in out if t]


def find_parts(tv: TokenView, i: int) -> list[Part]:
    """The parts that adjectival modifiers of noun ``i`` name, with their modifiers."""
    out: list[Part] = []
    for a in tv.children[i]:
        if a > i or tv.dep[a] != "amod":
            continue
        name = part_noun(tv.lower[a])
        if name is None:
            continue
        mods = _modifiers(tv, a, i)
        texts = _texts(tv, mods)
        if texts:
            out.append(Part(a, i, name, tuple(dict.fromkeys(texts)), frozenset(mods)))
    return out

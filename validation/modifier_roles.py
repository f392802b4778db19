"""Learn how FACTUAL annotates noun modifiers: part of the name, an attribute, or nothing.

"stone wall" is a wall whose attribute is stone, "train tracks" is one object (``train track``),
and in "city street" the modifier is dropped. WordNet cannot tell these apart ("stone wall" and
"tennis racket" are both WordNet nouns), so the parser's rules (:mod:`crepe_datasets.scenegraph.
parser.compounds`) consult a lexicon learned here from annotated captions.

The learner reads gold graphs only, never a parser's output: for every caption token that names
a gold object (its head), the one or two words before it are a modifier, and the gold graph says
what became of it:

* ``compound``: the gold graph has an object named modifier + head ("train track");
* ``attribute``: the gold graph has (head, is, modifier) ("wall" is "stone");
* ``drop``: the gold graph has the head alone and no such attribute ("city street" -> street).

A modifier (or a modifier + head pair) enters the lexicon when it was seen at least
``min_support`` times and one role has at least ``min_share`` of them. Learn it from training rows
only: :func:`crepe_datasets.validation.factual.factual_slices`' ``rest`` slice, never dev or the
held-out slice (``scripts/learn_modifier_roles.py`` does this and records what it read).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from crepe_datasets.scenegraph.parser import words
from crepe_datasets.scenegraph.parser.rules import NON_ATTRIBUTES, NUMBER_WORDS
from crepe_datasets.validation.factual import GoldGraph
from crepe_datasets.validation.parser_scores import CaptionTuples, norm_attribute, norm_object

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
#: Words that are never a noun modifier: articles, determiners, numbers, function words.
NOT_MODIFIERS = frozenset(NON_ATTRIBUTES) | frozenset(NUMBER_WORDS) | {
    "a", "an", "the", "of", "and", "or", "with", "on", "in", "is", "are", "his", "her",
    "their", "its", "this", "that", "one", "to", "at", "by", "for", "from",
}  # fmt: skip


def _tokens(caption: str) -> list[str]:
    return WORD.findall(caption.lower().replace("-", " "))


def modifier_outcomes(gold: GoldGraph) -> Iterable[tuple[str, str, str]]:
    """``(modifier, head, role)`` for each one- or two-word modifier of a gold object's head."""
    tuples = CaptionTuples.from_gold(gold)
    tokens = _tokens(gold.caption)
    for i, token in enumerate(tokens):
        head = norm_object(token)
        if not head or (head not in tuples.objects and not _any_compound(tokens, i, tuples)):
            continue
        for width in (1, 2):
            if i < width:
                break
            run = tokens[i - width : i]
            if any(w in NOT_MODIFIERS or w.isdigit() or not _may_modify(w) for w in run):
                break
            modifier = " ".join(run)
            if norm_object(f"{modifier} {token}") in tuples.objects:
                yield modifier, head, "compound"
            elif (head, norm_attribute(modifier)) in tuples.attributes:
                yield modifier, head, "attribute"
            elif width == 1 and head in tuples.objects:
                yield modifier, head, "drop"


def _may_modify(word: str) -> bool:
    """A noun by WordNet, or a word WordNet does not know ("wii", "bmw"): not "near", "snowy"."""
    return words.is_noun(word) or not words.known(word)


def _any_compound(tokens: list[str], i: int, tuples: CaptionTuples) -> bool:
    return any(
        i >= w and norm_object(" ".join(tokens[i - w : i + 1])) in tuples.objects for w in (1, 2)
    )


def _decide(counts: Counter, min_support: int, min_share: float) -> str | None:
    total = sum(counts.values())
    if total < min_support:
        return None
    role, n = counts.most_common(1)[0]
    return role if n / total >= min_share else None


def learn_modifier_roles(
    golds: Iterable[GoldGraph], min_support: int = 5, min_share: float = 0.6
) -> dict[str, Any]:
    """The lexicon: ``{"modifiers": {modifier: role}, "pairs": {"modifier|head": role}}``.

    Two-word modifiers are decided on their own ("chain link" -> attribute); a pair entry is kept
    only where it decides differently from its modifier's entry (or the modifier has none).
    """
    by_modifier: dict[str, Counter] = defaultdict(Counter)
    by_pair: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for gold in golds:
        for modifier, head, role in set(modifier_outcomes(gold)):
            by_modifier[modifier][role] += 1
            by_pair[(modifier, head)][role] += 1
    modifiers = {
        m: role
        for m, counts in sorted(by_modifier.items())
        if (role := _decide(counts, min_support, min_share)) is not None
    }
    pairs = {
        f"{m}|{h}": role
        for (m, h), counts in sorted(by_pair.items())
        if (role := _decide(counts, min_support, min_share)) is not None
        and role != modifiers.get(m)
    }
    return {"modifiers": modifiers, "pairs": pairs}

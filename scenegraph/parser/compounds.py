"""Compound nouns: which noun modifiers join the object's name (nouns rule 4).

"tennis racket", "bed spread" and "t-shirt" are one object; "stone blocks" are blocks whose
material is an attribute. A run of ``compound`` modifiers (nested ones included, "metal wire
screen") merges with its head when the learned modifier lexicon says so
(:mod:`.modifier_lexicon`: "train tracks" is one object, "stone wall" a wall that is stone, and
the lexicon's word wins over WordNet's), else when WordNet lists the phrase as one noun (longest phrase wins),
or when it is hyphenated or starts with a single letter ("t shirt"). An adjective merges only
when the WordNet compound is not a kind of its head ("hot dog", "wet suit"; not "black cat",
and never a colour), or when it is a position word that WordNet lists with the noun ("right
hand", "front door": a position is never an attribute, :data:`rules.POSITION_WORDS`). Modifiers left over are returned for :mod:`crepe_datasets.scenegraph.parser.nouns` to
turn into attributes, owners or nothing (:func:`crepe_datasets.scenegraph.parser.words.compound_role`).
"""

from __future__ import annotations

from crepe_datasets.scenegraph.parser import rules, words
from crepe_datasets.scenegraph.parser.modifier_lexicon import learned_role
from crepe_datasets.scenegraph.parser.tokens import TokenView


def compound_mods(tv: TokenView, i: int) -> list[int]:
    """Compound modifiers of ``i``, nested ones included ("metal wire screen"), and hyphens."""
    out: list[int] = []
    stack = [i]
    while stack:
        h = stack.pop()
        for c in tv.children[h]:
            if c < h and (
                tv.dep[c] == "compound"
                or (
                    tv.dep[c] == "punct"
                    and tv.lower[c] == "-"
                    and not tv.space[c]
                    and not tv.space[c - 1]
                )
            ):
                out.append(c)
                stack.append(c)
    return sorted(out)


def name_and_modifiers(tv: TokenView, i: int, modifiers: list[int]) -> tuple[str, list[int]]:
    """Rule 4: merge compound modifiers that WordNet knows with the head; others are attributes.

    Returns the object name and the modifier tokens left over as attributes.
    """
    lower = tv.lower
    run: list[int] = []
    others: list[int] = []
    if modifiers:
        mods = set(modifiers)
        j = i - 1
        while j in mods:
            run.insert(0, j)
            j -= 1
        while run and lower[run[0]] == "-":
            run.pop(0)
        others = sorted(m for m in mods.difference(run) if lower[m][:1].isalnum())
    head = words.object_lemma(lower[i])
    for k in range(len(run)):  # longest learned, WordNet-known or hyphenated phrase wins
        if lower[run[k]] == "-":
            continue
        phrase = tv.span_text(run[k], i)
        lemma = words.object_lemma(phrase)
        learned = learned_role(modifier_text(tv, run[k:]), head)
        if learned is not None:
            if learned == "compound":
                return lemma, others + [m for m in run[:k] if lower[m] != "-"]
            continue  # "stone wall": an attribute; "city street": a street
        hyphenated = "-" in tv.span_text(run[-1], i) or len(lower[run[-1]]) == 1  # "t shirt"
        if hyphenated or words.is_compound_noun(lemma) or words.is_compound_noun(phrase):
            return lemma, others + [m for m in run[:k] if lower[m] != "-"]
    prev = i - 1
    if not run and prev >= 0 and tv.head[prev] == i and tv.dep[prev] == "amod":
        phrase = tv.span_text(prev, i)  # "hot dog", "wet suit": not a kind of dog or suit
        if words.is_opaque_compound(phrase, lower[i]):
            return words.object_lemma(phrase), others
        if lower[prev] in rules.POSITION_WORDS and words.is_compound_noun(phrase):
            return words.object_lemma(phrase), others  # "right hand", "front door"
    if run:
        others += [m for m in run if lower[m] != "-"]
    return head, others


def modifier_text(tv: TokenView, tokens: list[int]) -> str:
    """The modifier words of ``tokens`` as the lexicon keys them ("chain-link" -> "chain link")."""
    return " ".join(tv.lower[t] for t in tokens if tv.lower[t] != "-")

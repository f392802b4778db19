"""Repairs of frequent spaCy misparses of caption fragments, applied before the rules.

Captions are mostly verbless noun phrases, where small English models often go wrong in a few
regular ways. Each repair rewrites the :class:`TokenView` in place:

1. **Noun + gerund read as a compound** ("zebra grazing on grass", "woman holding kite"):
   a root ending in "-ing" with a noun before it attached as ``compound``/``npadvmod``/``nmod``,
   where WordNet prefers the verb reading, becomes the verb and the noun its subject.
2. **"X has Y" read as an auxiliary** ("the bird has beak"): a noun root with an auxiliary
   "have" child becomes the direct object of "have".
3. **"X with Y in it"**: the pronoun stands for X, so the preposition hangs from Y
   ("glass with liquid in it" -> (liquid, in, glass)); recorded in ``TokenView.pronoun``.
4. **Adjectives tagged as nouns** ("white/NNP building", "silver/NN car", "brown and tan/NNP
   dog"): a noun-tagged adjectival modifier (``amod``, or a conjunct of one) that WordNet knows
   as an adjective is an adjective, so it never becomes an object (applied first).
5. **A caption-initial past participle read as a verb** ("folded sheet on the bed", "parked
   cars on the street"): a subjectless root in ``VBN``/``VBD`` whose direct object is the
   noun phrase right after it modifies that noun, which becomes the root.
6. **Noun + gerund + noun read as a modified noun** ("man holding glass", "fence surrounding
   zebras", where spaCy makes the gerund an ``amod`` of the second noun and the first noun a
   modifier): the gerund is the verb, the first noun its subject, the second its object.
7. **The second word of a compound noun read as another part of speech** ("fire hydrant/ADV",
   "trash can/AUX"): when WordNet lists the two words as one noun and the second is tagged as
   an adverb, auxiliary or other function word, it is the head noun and the first its compound.
"""

from __future__ import annotations

from crepe_datasets.scenegraph.parser import words
from crepe_datasets.scenegraph.parser.nouns import _prefers_noun
from crepe_datasets.scenegraph.parser.tokens import TokenView

GERUND_SUBJECT_DEPS = ("compound", "npadvmod", "nmod", "amod")
PRONOUNS = frozenset({"it", "them"})
NOUN_POS = frozenset({"NOUN", "PROPN"})


def gerund_roots(tv: TokenView) -> bool:
    """Repair 1; returns whether anything changed."""
    changed = False
    for v in list(tv.with_dep("ROOT")):
        if not tv.lower[v].endswith("ing") or tv.pos[v] not in ("NOUN", "VERB"):
            continue
        subj = [
            c
            for c in tv.children[v]
            if c < v and tv.dep[c] in GERUND_SUBJECT_DEPS and tv.pos[c] in ("NOUN", "PROPN")
        ]
        if not subj or tv.kids(v, "nsubj", "nsubjpass"):
            continue
        if tv.pos[v] == "NOUN" and (_prefers_noun(tv.lower[v]) or not words.is_verb(tv.lower[v])):
            continue
        s = subj[-1]
        tv.pos[v], tv.tag[v], tv.dep[s] = "VERB", "VBG", "nsubj"
        changed = True
    return changed


def have_auxiliary(tv: TokenView) -> bool:
    """Repair 2."""
    if "aux" not in tv.by_dep:
        return False
    changed = False
    for r in list(tv.with_dep("ROOT")):
        if tv.pos[r] not in ("NOUN", "PROPN"):
            continue
        aux = [a for a in tv.kids(r, "aux") if words.verb_lemma(tv.lower[a]) == "have"]
        if not aux:
            continue
        a = aux[0]
        for c in tv.children[r]:
            if tv.dep[c] in ("nsubj", "nsubjpass") or c == a:
                tv.head[c] = a
        tv.head[a], tv.dep[a], tv.pos[a] = a, "ROOT", "VERB"
        tv.head[r], tv.dep[r] = a, "dobj"
        changed = True
    return changed


def pronoun_objects(tv: TokenView) -> None:
    """Repair 3."""
    if PRONOUNS.isdisjoint(tv.lower):
        return
    for p in list(tv.with_dep("prep")):
        objs = [o for o in tv.kids(p, "pobj") if tv.lower[o] in PRONOUNS]
        gov = tv.head[p]
        if not objs or tv.pos[gov] not in ("NOUN", "PROPN"):
            continue
        withs = [
            y for q in tv.kids(gov, "prep") if tv.lower[q] == "with" for y in tv.kids(q, "pobj")
        ]
        if withs:
            tv.pronoun[objs[0]] = gov
            tv.head[p] = withs[0]
            tv.reindex()


def adjective_nouns(tv: TokenView) -> None:
    """Repair 4."""
    for i in tv.with_dep("amod", "conj"):  # in caption order: a conjunct follows its head
        if tv.pos[i] not in NOUN_POS or not words.is_adjective(tv.lower[i]):
            continue
        h = tv.head[i]
        if tv.dep[i] == "conj" and not (h < i and tv.pos[h] == "ADJ" and tv.dep[h] == "amod"):
            continue
        tv.pos[i], tv.tag[i] = "ADJ", "JJ"


PARTICIPLE_TAGS = frozenset({"VBN", "VBD"})
NOUN_PHRASE_DEPS = frozenset({"amod", "compound", "nummod"})


def initial_participle(tv: TokenView) -> bool:
    """Repair 5; returns whether anything changed."""
    if (
        not tv.lower
        or tv.dep[0] != "ROOT"
        or tv.pos[0] != "VERB"
        or tv.tag[0] not in PARTICIPLE_TAGS
    ):
        return False
    kids = tv.children[0]
    if any(tv.dep[c] in ("nsubj", "nsubjpass", "aux", "auxpass", "expl") for c in kids):
        return False
    objects = [c for c in kids if tv.dep[c] == "dobj" and tv.pos[c] in NOUN_POS]
    if not objects:
        return False
    d = objects[0]
    if any(tv.head[j] != d or tv.dep[j] not in NOUN_PHRASE_DEPS for j in range(1, d)):
        return False
    for c in kids:
        tv.head[c] = d
    tv.head[d], tv.dep[d] = d, "ROOT"
    tv.head[0], tv.dep[0] = d, "amod"
    return True


SUBJECT_AS_MODIFIER_DEPS = frozenset({"npadvmod", "nmod", "compound", "amod", "dep", "nsubj"})


def gerund_modifiers(tv: TokenView) -> bool:
    """Repair 6; returns whether anything changed."""
    changed = False
    for g in tv.with_dep("amod"):
        n, s = tv.head[g], g - 1
        if tv.tag[g] != "VBG" or n <= g or s < 0 or tv.pos[s] not in NOUN_POS:
            continue
        if tv.dep[s] not in SUBJECT_AS_MODIFIER_DEPS or tv.head[s] not in (g, n):
            continue
        root = tv.head[n] == n
        tv.head[g], tv.dep[g], tv.pos[g] = (g if root else tv.head[n]), tv.dep[n], "VERB"
        if root:
            tv.dep[g] = "ROOT"
        for c in tv.children[n]:
            if c < s:  # "a zebra eating grass": the article goes with the subject
                tv.head[c] = s
        tv.head[n], tv.dep[n] = g, "dobj"
        tv.head[s], tv.dep[s] = g, "nsubj"
        changed = True
    return changed


MISREAD_HEAD_POS = frozenset({"ADV", "AUX", "X", "INTJ"})


def compound_heads(tv: TokenView) -> bool:
    """Repair 7; returns whether anything changed."""
    changed = False
    for t in range(1, len(tv)):
        n = t - 1
        if tv.pos[t] not in MISREAD_HEAD_POS or tv.pos[n] != "NOUN" or not tv.lower[t].isalpha():
            continue
        if not words.is_multiword_noun(words.object_lemma(f"{tv.lower[n]} {tv.lower[t]}")):
            continue
        if tv.head[t] == n:  # "fire hydrant/appos": the head noun takes the first one's place
            for c in tv.children[n]:
                if c != t:
                    tv.head[c] = t
            root = tv.head[n] == n
            tv.head[t], tv.dep[t] = (t if root else tv.head[n]), tv.dep[n]
        elif tv.head[n] != t:  # "trash/nsubj can/ROOT" keeps the head's place as it is
            continue
        tv.head[n], tv.dep[n] = t, "compound"
        tv.pos[t], tv.tag[t] = "NOUN", "NN"
        changed = True
    return changed


def repair(tv: TokenView) -> TokenView:
    """Apply every repair in order."""
    adjective_nouns(tv)
    changed = compound_heads(tv)
    if changed:
        tv.reindex()
    if initial_participle(tv) | gerund_modifiers(tv) | gerund_roots(tv) | have_auxiliary(tv):
        tv.reindex()
    pronoun_objects(tv)
    return tv

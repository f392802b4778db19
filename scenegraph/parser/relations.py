"""Relations between objects (attributes said by a clause are in :mod:`.predicates`).

Rules:

* **Who is the subject** (:func:`subjects`): ``nsubj``/``nsubjpass`` of the verb; for a
  participle or relative clause (``acl``/``relcl``) the noun it modifies; for a conjoined,
  ``xcomp`` or ``advcl`` verb the subject of the verb it hangs from; for "there is/are" the noun
  after the copula. Relative pronouns ("that", "which", "who") stand for the noun they modify.
  Conjoined nouns all take part ("trees and bushes growing on a lawn" -> two triples).
* **Prepositions** (:func:`prepositions`): "X <prep> Y" under a noun gives (X, prep, Y); under a
  verb, (subject, verb-lemma + particle + prep, Y) ("standing on" -> "stand on"), or just the
  preposition after a copula or light verb ("is on", "is located on"). Multi-word prepositions
  are assembled from the parse: "next to", "out of" (head adverb), "in between" (preposition
  under preposition), "on top of", "at the side of" (relational noun + "of"), then spelled as
  in :data:`rules.PREPOSITION_ALIASES`. "by" after a passive verb is the agent:
  "bear surrounded by grass" -> (grass, surround, bear). "in <garment>" means wearing it.
  "X of Y" is part-whole (Y, have, X) unless X is a container ("glass of wine" -> (wine, in, glass)).
* **Direct objects**: (subject, verb-lemma + particle, object) ("man holds knife" -> hold).
* **Possessives**: "the player's socks" -> (player, have, sock).
* A preposition stranded in a relative clause takes the modified noun as its object
  ("the table the vases are on" -> (vase, on, table)).
"""

from __future__ import annotations

from crepe_datasets.scenegraph.parser import rules, words
from crepe_datasets.scenegraph.parser.nouns import Nouns, _conjuncts
from crepe_datasets.scenegraph.parser.tokens import TokenView

Triple = tuple[int, str, int]
VERB_POS = frozenset({"VERB", "AUX"})
RELATIVE_PRONOUNS = frozenset({"that", "which", "who", "whom", "where"})
SUBJECT_DEPS = ("nsubj", "nsubjpass", "csubj")


def resolve(tv: TokenView, nouns: Nouns, i: int, conj: bool = True, depth: int = 0) -> list[int]:
    """Object nodes that token ``i`` stands for (aliases, relative pronouns, conjuncts)."""
    if depth > 6:
        return []
    out: list[int] = []
    for t in [i, *_conjuncts(tv, i)] if conj else [i]:
        seen = 0
        t = tv.pronoun.get(t, t)
        while t in nouns.alias and seen < 5:
            t, seen = nouns.alias[t], seen + 1
        if t in nouns.nodes:
            out.append(t)
        elif tv.lower[t] in RELATIVE_PRONOUNS and tv.dep[tv.head[t]] == "relcl":
            out += resolve(tv, nouns, tv.head[tv.head[t]], False, depth + 1)
    return out


def subjects(tv: TokenView, nouns: Nouns, v: int, depth: int = 0) -> list[int]:
    """The object nodes that act as subject of verb ``v``."""
    if depth > 6:
        return []
    out: list[int] = []
    for s in tv.kids(v, *SUBJECT_DEPS):
        out += resolve(tv, nouns, s, True, depth + 1)
    if out:
        return out
    if tv.kids(v, "expl"):
        for a in tv.kids(v, "attr"):
            out += resolve(tv, nouns, a, True, depth + 1)
        return out
    dep = tv.dep[v]
    if dep in ("acl", "relcl"):  # conjuncts before the participle share it
        head = tv.head[v]
        tokens = [head, *(c for c in _conjuncts(tv, head) if c < v)]
        return [o for t in tokens for o in resolve(tv, nouns, t, False, depth + 1)]
    if dep in ("conj", "xcomp", "advcl", "ccomp", "pcomp") and tv.head[v] != v:
        head = tv.head[v]
        if tv.pos[head] in VERB_POS:
            return subjects(tv, nouns, head, depth + 1)
        return resolve(tv, nouns, head, False, depth + 1)
    return out


def verb_predicate(tv: TokenView, v: int) -> str:
    """Verb lemma plus its kept particles ("picking up" -> "pick up")."""
    parts = [words.verb_lemma(tv.lower[v])]
    parts += [tv.lower[p] for p in tv.kids(v, "prt") if tv.lower[p] not in rules.DROPPED_PARTICLES]
    return " ".join(parts)


def _preposition(tv: TokenView, nouns: Nouns, p: int) -> tuple[str, int, list[int]]:
    """(preposition words, governor token, object tokens) of preposition ``p``."""
    pred = tv.lower[p]
    objects = tv.kids(p, "pobj")
    if len(objects) == 1 and objects[0] in nouns.relational:
        r = objects[0]
        inner = [o for q in tv.kids(r, "prep") if tv.lower[q] == "of" for o in tv.kids(q, "pobj")]
        pred, objects = f"{pred} {tv.lower[r]} of", inner
    gov = tv.head[p]
    if gov != p and tv.lower[gov] in rules.PREP_HEADS and tv.pos[gov] in ("ADV", "ADJ", "ADP"):
        pred, gov = f"{tv.lower[gov]} {pred}", tv.head[gov]
    elif gov != p and tv.pos[gov] == "ADP" and tv.dep[gov] in ("prep", "prt"):
        pred = rules.PREPOSITION_ALIASES.get(f"{tv.lower[gov]} {pred}", pred)
        gov = tv.head[gov]
    pred = rules.PREPOSITION_ALIASES.get(pred, pred)
    return pred, gov, objects


def prepositions(tv: TokenView, nouns: Nouns) -> list[Triple]:
    """Triples from every preposition of the caption."""
    out: list[Triple] = []
    for p in tv.with_dep("prep", "agent"):
        if tv.head[p] in nouns.relational:
            continue
        pred, gov, objs = _preposition(tv, nouns, p)
        targets = [o for t in objs for o in resolve(tv, nouns, t)]
        if not objs and tv.pos[gov] in VERB_POS and tv.dep[gov] == "relcl":
            targets = resolve(tv, nouns, tv.head[gov], False)
        if not targets:
            continue
        if gov in nouns.nodes or gov in nouns.alias:
            for s in resolve(tv, nouns, gov, False):
                out += [_noun_relation(nouns, s, pred, o) for o in targets]
        elif tv.pos[gov] in VERB_POS:
            out += _verb_relations(tv, nouns, p, gov, pred, targets)
    return out


def _noun_relation(nouns: Nouns, s: int, pred: str, o: int) -> Triple:
    name = nouns.nodes[s].name
    if pred == "of":
        container = rules.CONTAINER_PREDICATES.get(name)
        return (o, container, s) if container else (o, rules.HAVE_PREDICATE, s)
    if pred in rules.WEAR_PREPOSITIONS and pred == "in" and words.is_wearable(nouns.nodes[o].name):
        return (s, rules.WEAR_PREDICATE, o)
    return (s, pred, o)


def _verb_relations(
    tv: TokenView, nouns: Nouns, p: int, v: int, pred: str, targets: list[int]
) -> list[Triple]:
    lemma = words.verb_lemma(tv.lower[v])
    passive = bool(tv.kids(v, "auxpass")) or (tv.dep[v] == "acl" and tv.tag[v] == "VBN")
    if tv.dep[p] == "agent" or (pred == "by" and passive and tv.dep[v] == "acl"):
        patients = subjects(tv, nouns, v)
        return [(a, verb_predicate(tv, v), s) for a in targets for s in patients]
    if lemma == "be" or lemma in rules.LIGHT_VERBS:
        full = pred
    else:
        full = f"{verb_predicate(tv, v)} {pred}"
    if (
        pred == "in"
        and lemma != "be"
        and all(words.is_wearable(nouns.nodes[o].name) for o in targets)
    ) or (
        pred == "in"
        and lemma == "be"
        and all(words.is_wearable(nouns.nodes[o].name) for o in targets)
    ):
        full = rules.WEAR_PREDICATE
    return [(s, full, o) for s in subjects(tv, nouns, v) for o in targets if s != o]


def direct_objects(tv: TokenView, nouns: Nouns) -> list[Triple]:
    """(subject, verb, object) for every direct object of a verb."""
    out: list[Triple] = []
    for o in tv.with_dep("dobj"):
        v = tv.head[o]
        if tv.pos[v] not in VERB_POS or words.verb_lemma(tv.lower[v]) == "be":
            continue
        targets = resolve(tv, nouns, o)
        if not targets:
            continue
        pred = verb_predicate(tv, v)
        out += [(s, pred, t) for s in subjects(tv, nouns, v) for t in targets if s != t]
    return out


def possessives(tv: TokenView, nouns: Nouns) -> list[Triple]:
    """(owner, have, thing) for "the owner's thing"."""
    out: list[Triple] = []
    for i in nouns.nodes:
        for c in tv.kids(i, "poss"):
            out += [(s, rules.HAVE_PREDICATE, i) for s in resolve(tv, nouns, c, False)]
    return out

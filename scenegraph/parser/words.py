"""Word-level normalisation for the parser: object lemmas, verb lemmas, WordNet tests.

Uses :mod:`crepe_datasets.scenegraph.lexicon` (``normalize_object``, ``lemmatize_verb``) when it is importable
and falls back to ``lemminflect`` otherwise. Every function is cached: captions repeat words,
and the parser must cost little next to the spaCy pipeline itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from crepe_datasets.scenegraph.parser import rules
from crepe_datasets.scenegraph.parser.modifier_lexicon import learned_role


def _fallback_object(name: str) -> str:
    from lemminflect import getLemma

    words = name.lower().split()
    if not words:
        return ""
    lemma = getLemma(words[-1], upos="NOUN")
    if lemma:
        words[-1] = lemma[0]
    return " ".join(words)


def _fallback_verb(word: str) -> str:
    from lemminflect import getLemma

    lemma = getLemma(word.lower(), upos="VERB")
    return lemma[0] if lemma else word.lower()


def _resolve() -> tuple[Callable[[str], str], Callable[[str], str]]:
    try:
        from crepe_datasets.scenegraph import lexicon

        return lexicon.normalize_object, lexicon.lemmatize_verb
    except (ImportError, AttributeError):
        return _fallback_object, _fallback_verb


_OBJECT, _VERB = _resolve()


@functools.lru_cache(maxsize=200_000)
def object_lemma(text: str) -> str:
    """Singular, lower-case object name ("Vases" -> "vase", "glasses" stays)."""
    return _OBJECT(text.lower())


@functools.lru_cache(maxsize=50_000)
def verb_lemma(text: str) -> str:
    """Base form of a verb ("standing" -> "stand", "lying" -> "lie")."""
    return _VERB(text.lower())


@functools.lru_cache(maxsize=1)
def _wordnet():
    try:
        from crepe_datasets.infra.resources import wordnet

        return wordnet()
    except Exception:
        return None


@functools.lru_cache(maxsize=100_000)
def is_compound_noun(words: str) -> bool:
    """True when WordNet lists the words as one noun ("tennis racket", "parking lot")."""
    wn = _wordnet()
    if wn is None:
        return False
    key = words.replace(" ", "_")
    return bool(wn.synsets(key, pos="n")) or bool(wn.synsets(key.replace("_", ""), pos="n"))


@functools.lru_cache(maxsize=100_000)
def is_noun(word: str) -> bool:
    """True when WordNet knows the word as a noun."""
    wn = _wordnet()
    return wn is not None and bool(wn.synsets(word, pos="n"))


@functools.lru_cache(maxsize=100_000)
def known(word: str) -> bool:
    """True when WordNet knows the word in any part of speech."""
    wn = _wordnet()
    return wn is not None and bool(wn.synsets(word))


@functools.lru_cache(maxsize=100_000)
def is_verb(word: str) -> bool:
    """True when WordNet knows the word's verb lemma as a verb."""
    wn = _wordnet()
    return wn is not None and bool(wn.synsets(verb_lemma(word), pos="v"))


@functools.lru_cache(maxsize=100_000)
def is_wearable(noun: str) -> bool:
    """True when the noun's first WordNet sense is a garment, headwear, footwear or glasses."""
    wn = _wordnet()
    if wn is None:
        return False
    for synset in wn.synsets(noun.replace(" ", "_"), pos="n")[:2]:
        names = {s.name() for s in synset.closure(lambda s: s.hypernyms())}
        names.add(synset.name())
        if names & rules.WEAR_HYPERNYMS:
            return True
    return False


@functools.lru_cache(maxsize=100_000)
def _hypernym_names(noun: str, senses: int = 2) -> frozenset[str]:
    wn = _wordnet()
    if wn is None:
        return frozenset()
    names: set[str] = set()
    for synset in wn.synsets(noun.replace(" ", "_"), pos="n")[:senses]:
        names.add(synset.name())
        names.update(s.name() for s in synset.closure(lambda s: s.hypernyms()))
    return frozenset(names)


@functools.lru_cache(maxsize=100_000)
def compound_role(modifier: str, head: str) -> str:
    """What a noun modifier that does not merge with its head means (nouns rule 4).

    ``"attribute"`` when WordNet knows the modifier as an adjective or a material
    ("tan couch", "stone wall"), or when an animal or person modifies another ("baby
    elephant"); ``"owner"`` when an animal or person modifies a body part ("cat face" ->
    (cat, have, face)); otherwise ``"drop"`` ("city street" -> street).
    """
    learned = learned_role(modifier, head.split()[-1] if head else head)
    if learned in ("attribute", "drop"):
        return learned
    wn = _wordnet()
    if wn is None:
        return "attribute"
    if wn.synsets(modifier, pos="a"):
        return "attribute"
    if _hypernym_names(modifier, 2) & rules.MATERIAL_HYPERNYMS and not (
        _hypernym_names(modifier, 1) & rules.NOT_MATERIAL_HYPERNYMS
    ):
        return "attribute"
    if "body_part.n.01" in _hypernym_names(head) and "organism.n.01" in _hypernym_names(
        modifier, 1
    ):
        return "owner"
    if _hypernym_names(modifier, 1) & BEINGS and _hypernym_names(head, 1) & BEINGS:
        return "attribute"  # "baby elephant", "mother bear", "adult zebra"
    return "drop"


@functools.lru_cache(maxsize=100_000)
def is_opaque_compound(phrase: str, head: str) -> bool:
    """True for an adjective + noun that WordNet lists and that is *not* a kind of its head.

    "hot dog" (a sandwich) and "wet suit" (a garment) are one object each; "blue jeans" and
    "young man" are jeans and a man, so their adjective stays an attribute.
    """
    wn = _wordnet()
    if wn is None:
        return False
    synsets = wn.synsets(phrase.replace(" ", "_"), pos="n")[:1]
    if not synsets or _hypernym_names(phrase.split()[0], 4) & rules.COLOR_HYPERNYMS:
        return False
    heads = {s.name() for s in wn.synsets(head, pos="n")}
    for synset in synsets:
        names = {s.name() for s in synset.closure(lambda s: s.hypernyms())} | {synset.name()}
        if names & heads:
            return False
    return True


#: First-sense hypernyms of animals and people (compound_role).
BEINGS = frozenset({"animal.n.01", "person.n.01"})
COLOR_ADJECTIVES = frozenset({"chromatic.a.03", "achromatic.a.01"})


@functools.lru_cache(maxsize=100_000)
def is_color(word: str) -> bool:
    """True for a colour word: a noun sense (first four) is a colour ("white", "tan", "navy"),
    or the first adjective sense is a chromatic or achromatic one ("grey", "brownish")."""
    if _hypernym_names(word, 4) & rules.COLOR_HYPERNYMS:
        return True
    wn = _wordnet()
    senses = wn.synsets(word, pos="a")[:1] if wn is not None else []
    return any(s.name() in COLOR_ADJECTIVES for a in senses for s in a.similar_tos())


@functools.lru_cache(maxsize=100_000)
def is_adjective(word: str) -> bool:
    """True when WordNet knows the word as an adjective ("white", "silver", "square")."""
    wn = _wordnet()
    return wn is not None and bool(wn.synsets(word, pos="a"))


@functools.lru_cache(maxsize=100_000)
def is_multiword_noun(words: str) -> bool:
    """True when WordNet lists the words, as separate words, as one noun ("trash can")."""
    wn = _wordnet()
    return " " in words and wn is not None and bool(wn.synsets(words.replace(" ", "_"), pos="n"))

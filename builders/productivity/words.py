"""Word-level decisions for cleaning Visual Genome text (issue 13, part 1).

Each decision is made from WordNet's sense counts (SemCor frequencies of each part of speech's
most frequent sense, :func:`crepe_datasets.generators.negatives.foils.first_senses`), spaCy's
English stop-word list and lemminflect, never from a hand list of VG words:

* :func:`function_word` — a stop word whose usual role is not a noun or an adjective ("on",
  "off", "up", "behind", "the", "here"): more frequent as an adverb or verb than as a noun or
  adjective, or never seen as a noun or adjective in SemCor. "empty", "full", "top", "front" and "two" are kept.
* :func:`verb_attribute` — a base-form verb that is no adjective ("see", "hold", "look",
  "stand"); participles ("parked", "standing") and verbs with an adjective sense ("open",
  "cut") are kept.
* :func:`same_attribute` — two attributes with one meaning ("gray", "grey"): they share the
  most frequent adjective or noun synset.
* :func:`inflect_predicate` — a predicate starting with a base-form verb is written in the
  third person ("hold" → "holds", "sit on" → "sits on", "have" → "has"); predicates that are
  already inflected ("holding", "parked on") or start with a preposition ("near", "on top of")
  are kept.
* :func:`agree_predicate` — the predicate's leading verb agrees with its subject: names are
  singular after cleaning, so VG's "papers are on desk" (subject "paper") reads "is on"; a
  plural name ("shorts", "scissors", "people") takes "are", "were", "have" and base-form verbs.
  A name is plural when lemminflect gives it another lemma ("shorts" → "short"), when it ends in
  "s" and is its own only plural ("scissors", "jeans", "clothes"), or when it is one of the
  collective nouns lemminflect lists as their own lemma
  (:func:`crepe_datasets.scenegraph.lexicon.is_plural_name`).
* :func:`ascii_text` — accents transliterated (NFKD), other non-ASCII characters removed.

All functions are cached: Visual Genome repeats a small vocabulary millions of times.
"""

from __future__ import annotations

import functools
import unicodedata

from crepe_datasets.generators.negatives.foils import first_senses, sense_counts
from crepe_datasets.scenegraph.lexicon import (  # noqa: F401 (agree_predicate: re-exported)
    NUMBER_VERBS,
    SINGULAR_VERBS,
    agree_predicate,
    lemmatize_verb,
)

ARTICLES = frozenset({"a", "an", "the"})
CACHE = 200_000


@functools.lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """spaCy's English stop words (the closed-class and very common words)."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


@functools.lru_cache(maxsize=CACHE)
def function_word(word: str) -> bool:
    """True for a stop word whose usual role is neither a noun nor an adjective."""
    if word not in stop_words():
        return False
    counts = sense_counts(word)
    content = max(counts.get("n", -1), counts.get("a", -1))
    other = max(counts.get("v", -1), counts.get("r", -1))
    return content <= 0 or content < other


@functools.lru_cache(maxsize=CACHE)
def verb_attribute(word: str) -> bool:
    """True for a base-form verb without an adjective sense, more frequent as a verb."""
    if " " in word or not word.isalpha() or lemmatize_verb(word) != word:
        return False
    counts = sense_counts(word)
    verb = counts.get("v", -1)
    return verb >= 0 and "a" not in counts and verb >= max(counts.get("n", -1), 0)


@functools.lru_cache(maxsize=CACHE)
def _first_synsets(word: str) -> frozenset[int]:
    senses = first_senses()
    return frozenset(
        senses[(word, pos)][0] * 10 + i for i, pos in enumerate("an") if (word, pos) in senses
    )


def same_attribute(a: str, b: str) -> bool:
    """True when two attributes name one property (their most frequent synsets coincide)."""
    return a == b or bool(_first_synsets(a) & _first_synsets(b))


@functools.lru_cache(maxsize=CACHE)
def inflect_predicate(predicate: str) -> str:
    """The predicate with a leading base-form verb in the third person singular."""
    first, _, rest = predicate.partition(" ")
    if not first.isalpha() or lemmatize_verb(first) != first:
        return predicate
    counts = sense_counts(first)
    verb = counts.get("v", -1)
    if verb < 0 or verb < max(counts.get("a", -1), counts.get("r", -1), counts.get("n", -1)):
        return predicate
    from lemminflect import getInflection

    forms = getInflection(first, tag="VBZ")
    if not forms:
        return predicate
    return " ".join(x for x in (forms[0], rest) if x)


@functools.lru_cache(maxsize=CACHE)
def ascii_text(text: str) -> str:
    """``text`` in ASCII: accents transliterated, other characters removed, spaces collapsed."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join(decomposed.encode("ascii", "ignore").decode("ascii").split())


def collapse_repeats(words: list[str]) -> list[str]:
    """Adjacent repeated words written once ("leg leg" → "leg")."""
    out: list[str] = []
    for w in words:
        if not out or out[-1] != w:
            out.append(w)
    return out


#: Noun senses an attribute may name when it has no adjective sense: a material ("wood",
#: "metal"), a colour or other property ("background" is one), a shape, or a tangible thing used
#: as a modifier ("brick wall", "tile floor", "water bottle").
MODIFIER_NOUN_LEXFILES = frozenset(
    {
        "noun.substance",
        "noun.attribute",
        "noun.shape",
        "noun.artifact",
        "noun.object",
        "noun.food",
        "noun.plant",
        "noun.animal",
        "noun.body",
        "noun.person",
        "noun.Tops",
    }
)


@functools.lru_cache(maxsize=CACHE)
def scene_attribute(word: str) -> bool:
    """True for an attribute that places the whole scene rather than describing the object:
    its most frequent sense is an adverb, at least as frequent as any adjective or noun sense
    ("indoors", "outdoors", "inside", "outside"). Such an attribute holds of every object of the
    image alike, so moving it between objects (HN-SWAP) or negating it (HN-NEG) makes no false
    caption, and "indoors table" is no English."""
    counts = sense_counts(word)
    adverb = counts.get("r", -1)
    return adverb >= 0 and adverb >= max(counts.get("a", -1), counts.get("n", -1))


@functools.lru_cache(maxsize=CACHE)
def abstract_noun_attribute(word: str) -> bool:
    """True for a one-word attribute that is only a noun (no adjective sense; no verb or adverb
    sense more frequent), in no tangible, material or property sense (neither of its two most
    frequent noun senses in :data:`MODIFIER_NOUN_LEXFILES`): "source"
    (a place), "daytime" (a time), "alphabet" (a writing). Written before a name it makes no
    readable phrase ("open, source and light window"). Gerunds ("talking") and colours
    ("burgundy") are kept."""
    if " " in word or not word.isalpha() or word.endswith("ing"):
        return False
    from crepe_datasets.generators.negatives.foils import colour_sense

    if colour_sense(word) is not None:
        return False
    counts = sense_counts(word)
    noun = counts.get("n", -1)
    if "a" in counts or noun < 0 or noun < max(counts.get("v", -1), counts.get("r", -1)):
        return False
    from crepe_datasets.infra.resources import wordnet

    senses = wordnet().synsets(word, pos="n")[:2]
    return bool(senses) and all(s.lexname() not in MODIFIER_NOUN_LEXFILES for s in senses)

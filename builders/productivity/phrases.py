"""Visual Genome names and attributes that are phrases (issue 13, validity of captions).

Annotators sometimes typed a whole phrase as an object name ("glasses on table", "man in
shirt", "chair is black", "man has bag") or as an attribute ("in photo", "on the side"). Such
text reaches captions ("the glasses on table on desk") and makes a negative that is no minimal
visual change. spaCy's parser (``en_core_web_sm``) decides, never a list of VG words:

* :func:`head_name` — the name's head noun phrase: the subject of a clause ("chair is black"
  → "chair", "man has bag" → "man"), else a noun root with a prepositional or clausal
  modifier ("glasses on table" → "glasses", "man riding a horse" → "man"), else the words
  before the first preposition when they are nouns ("painting on wall" → "painting"); a head
  keeps its compound nouns ("wall sign is blue" → "wall sign"). A word counts as a noun when
  spaCy tags it one or when WordNet's noun sense of it is at least as frequent as its verb
  sense ("painting"; not "see"). Names the parser cannot resolve are left as they are.
* :func:`head_synset` — the phrase's Visual Genome synset stays with its head only when the
  head names it ("glasses on table", ``spectacles.n.01``); "calm tidal wave on ocean" with
  ``ocean.n.01`` becomes "wave" without a synset (its foils then come from the head's own
  sense, not from the ocean's).
* :func:`prepositional_attribute` — an attribute of two or more words that starts with a
  preposition and holds a noun, determiner or pronoun ("in photo", "on the side", "for
  listening"): a place or purpose, not a property of the object. "off white" stays.

A name is a phrase only when a word after its first is a preposition, a verb or an auxiliary
other than a modal or a particle ("trash can", "back up cd" stay). Only text of two or more
words with a spaCy stop word in it is parsed; results are cached.
"""

from __future__ import annotations

import functools

from crepe_datasets.builders.productivity.words import stop_words
from crepe_datasets.generators.negatives.foils import sense_counts

CACHE = 200_000
CLAUSE = frozenset({"AUX", "VERB", "ADP"})
NOUNS = frozenset({"NOUN", "PROPN"})
PARTICLES = frozenset({"MD", "RP"})  # "trash can" (modal), "back up" (particle): no clause


@functools.lru_cache(maxsize=1)
def _nlp():
    from crepe_datasets.infra.resources import load_spacy

    return load_spacy(exclude=("ner", "lemmatizer"))


def _candidate(text: str) -> bool:
    words = text.split()
    return len(words) > 1 and any(w in stop_words() for w in words)


def _is_noun(token) -> bool:
    if token.pos_ in NOUNS:
        return True
    counts = sense_counts(token.text.lower())
    noun = counts.get("n", -1)
    return noun >= 0 and noun >= counts.get("v", -1)


def _with_compounds(token) -> str | None:
    words = [c for c in token.children if c.dep_ == "compound" and c.i < token.i] + [token]
    if not all(_is_noun(w) for w in words):
        return None
    return " ".join(w.text for w in sorted(words, key=lambda w: w.i))


@functools.lru_cache(maxsize=CACHE)
def head_name(name: str) -> str:
    """The head noun phrase of a phrase-like object name, or ``name`` itself."""
    if not _candidate(name):
        return name
    doc = _nlp()(name)
    if not any(t.pos_ in CLAUSE and t.tag_ not in PARTICLES for t in doc[1:]):
        return name
    root = next(t for t in doc if t.dep_ == "ROOT")
    subjects = [t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.pos_ in NOUNS]
    if subjects:
        return _with_compounds(subjects[0]) or name
    if root.pos_ in NOUNS and any(c.dep_ in ("prep", "acl", "relcl") for c in root.children):
        return _with_compounds(root) or name
    first = next((t.i for t in doc[1:] if t.pos_ == "ADP"), None)
    if first is not None and all(_is_noun(t) for t in doc[:first]):
        return doc[:first].text
    return name


@functools.lru_cache(maxsize=CACHE)
def prepositional_attribute(attribute: str) -> bool:
    """True for an attribute that is a prepositional phrase ("in photo", "on the side")."""
    if not _candidate(attribute):
        return False
    doc = _nlp()(attribute)
    return doc[0].pos_ == "ADP" and any(t.pos_ in NOUNS | {"DET", "PRON", "VERB"} for t in doc[1:])


def head_synset(head: str, synset: str | None) -> str | None:
    """``synset`` when ``head`` is one of its lemmas (through WordNet's morphology), else None."""
    from crepe_datasets.infra.resources import synset_or_none, wordnet

    sense = synset_or_none(synset) if synset else None
    if sense is None or sense not in wordnet().synsets(head.replace(" ", "_"), "n"):
        return None
    return synset

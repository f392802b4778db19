"""Attribute–object bindings of one parsed caption (SPEC §4.1), shared by both sides.

Rules, applied to every spaCy noun chunk of a caption:

* the chunk's syntactic root is the **object** when it is a noun (``NOUN``/``PROPN``);
  pronoun chunks ("it", "they") give nothing;
* every token *before* the root inside the chunk is a candidate **attribute**; a possessive
  prefix ("a man's red hat") is cut at its ``'s`` so "man" is not an attribute of "hat";
* tokens are not attributes when their part of speech is in :data:`NON_ATTRIBUTE_POS`
  (determiners, numbers, pronouns, punctuation …), when they look like numbers, when they are
  quantifiers (:data:`QUANTIFIER_WORDS`: "several", "many" …) or degree adverbs
  (:data:`DEGREE_ADVERBS`: "very", "really" …), or when they hold no letter;
* one attribute gives one ``perfect`` binding, k > 1 attributes give k ``close`` bindings,
  a bare noun gives none;
* the object is singularised with :func:`crepe_datasets.scenegraph.lexicon.normalize_object` (irregular
  plurals, keep-as-is list); attributes are only lower-cased and trimmed
  (:func:`crepe_datasets.scenegraph.lexicon.normalize_attribute`: "smiling" stays "smiling").

Compound nouns are treated like the paper treats them: "tennis player" gives (tennis, player).
Bump :data:`EXTRACTOR_VERSION` whenever a rule changes: it is part of the training-table cache key.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from crepe_datasets.scenegraph.lexicon import normalize_attribute, normalize_object

EXTRACTOR_VERSION = "1"
HEAD_POS = frozenset({"NOUN", "PROPN"})
NON_ATTRIBUTE_POS = frozenset(
    {
        "DET",
        "NUM",
        "PRON",
        "PUNCT",
        "CCONJ",
        "SCONJ",
        "PART",
        "ADP",
        "AUX",
        "SYM",
        "SPACE",
        "INTJ",
        "X",
    }
)
QUANTIFIER_WORDS = frozenset(
    (
        "several",
        "many",
        "few",
        "some",
        "other",
        "another",
        "more",
        "most",
        "each",
        "every",
        "both",
        "various",
        "numerous",
        "multiple",
        "lots",
        "lot",
        "couple",
        "bunch",
        "pair",
        "group",
        "much",
        "all",
        "any",
        "no",
        "half",
    )
)
DEGREE_ADVERBS = frozenset(
    (
        "very",
        "really",
        "extremely",
        "quite",
        "rather",
        "too",
        "so",
        "pretty",
        "fairly",
        "somewhat",
        "slightly",
        "highly",
        "incredibly",
        "super",
        "less",
    )
)
# Pipes the extractor does not need (faster parsing); the parser and tagger stay.
EXCLUDED_PIPES = ("ner", "lemmatizer")

Kind = Literal["perfect", "close"]


@dataclass(frozen=True)
class ExtractedBinding:
    """One (attribute, object) binding found in a caption.

    Attributes:
        attr: The attribute, lower-cased and trimmed.
        obj: The object lemma (singular).
        kind: ``"perfect"`` when it was the noun phrase's only attribute, else ``"close"``.
    """

    attr: str
    obj: str
    kind: Kind


def _is_attribute(token: Any) -> bool:
    lower = token.lower_
    return (
        token.pos_ not in NON_ATTRIBUTE_POS
        and not token.like_num
        and lower not in QUANTIFIER_WORDS
        and lower not in DEGREE_ADVERBS
        and any(ch.isalpha() for ch in lower)
    )


def chunk_bindings(chunk: Any) -> list[ExtractedBinding]:
    """Bindings of one noun chunk (a spaCy ``Span``), following the module rules."""
    root = chunk.root
    if root.pos_ not in HEAD_POS or not any(ch.isalpha() for ch in root.text):
        return []
    before = [t for t in chunk if t.i < root.i]
    for pos in range(len(before) - 1, -1, -1):  # cut a possessive prefix ("a man's")
        if before[pos].dep_ == "case" or before[pos].tag_ == "POS":
            before = before[pos + 1 :]
            break
    attrs = [normalize_attribute(t.text) for t in before if _is_attribute(t)]
    attrs = [a for a in attrs if a]
    if not attrs:
        return []
    obj = normalize_object(root.text)
    kind: Kind = "perfect" if len(attrs) == 1 else "close"
    return [ExtractedBinding(a, obj, kind) for a in attrs]


def doc_bindings(doc: Any) -> list[ExtractedBinding]:
    """Bindings of every noun chunk of a parsed caption, in caption order."""
    out: list[ExtractedBinding] = []
    for chunk in doc.noun_chunks:
        out += chunk_bindings(chunk)
    return out


def extract_many(
    nlp: Any, texts: Iterable[str], batch_size: int = 512
) -> Iterable[list[ExtractedBinding]]:
    """Bindings of each text, parsed in batches with ``nlp.pipe`` (one list per text, in order)."""
    for doc in nlp.pipe(texts, batch_size=batch_size):
        yield doc_bindings(doc)


def load_extractor_nlp(model: str | None = None) -> Any:
    """The spaCy pipeline the extractor needs (tagger + parser), unneeded pipes excluded."""
    from crepe_datasets.infra.resources import load_spacy

    return load_spacy(model, exclude=EXCLUDED_PIPES)

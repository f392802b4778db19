"""Caption writers for scene-graph subgraphs: templates and LLMs (SPEC §3.3).

Every writer has the same interface, ``write(graphs) -> list[result]`` where each result has
``caption`` (``str`` or ``None`` when rejected) and ``reason`` (a snake_case drop reason or
``None``): :class:`crepe_datasets.generators.captions.template.TemplateCaptionWriter` and
:class:`crepe_datasets.generators.captions.llm.LLMCaptionWriter`.

Hard negatives are written by the *same* writer as their positive, from a modified graph.
Atom-level negation is carried inside the graph: an atom whose text starts with
:data:`NEGATION_PREFIX` ("not ") is negated (attribute "not yellow", relationship "not on",
object "not vase"). Caption-level negation ("there is no …") is a text operation on the
writer's own caption (:func:`negate_caption_text`). :func:`match_format` gives any text the
case, spacing and final punctuation of a reference caption, so that no formatting feature tells
a positive from its negatives.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from crepe_datasets.scenegraph.types import SceneGraph

NEGATION_PREFIX = "not "
CAPTION_NEGATION = "there is no "
CAPTION_NEGATION_PLURAL = "there are no "
#: A caption that names its first thing again is negated as a whole statement
#: (:func:`negation_refers_back`).
CAPTION_NEGATION_STATEMENT = "it is not true that "
#: Every opening of a caption-level negation (singular and plural first noun phrase, statement).
CAPTION_NEGATIONS = (CAPTION_NEGATION, CAPTION_NEGATION_PLURAL, CAPTION_NEGATION_STATEMENT)
_ARTICLE = re.compile(r"^(a|an|the)\s+", re.IGNORECASE)
_FINAL_PUNCT = ".!?"


@dataclass(frozen=True)
class WrittenCaption:
    """A writer's result for one graph: the caption, or ``None`` with a drop reason."""

    caption: str | None
    reason: str | None = None


class CaptionWriter(Protocol):
    """What the builders need from a caption writer."""

    def write(self, graphs: list[SceneGraph]) -> list[Any]:
        """One result (with ``caption`` and ``reason``) per graph, in order."""
        ...


def is_negated(text: str) -> bool:
    """True for an atom text carrying the negation prefix ("not yellow")."""
    return text.startswith(NEGATION_PREFIX)


def write_texts(
    writer: CaptionWriter, graphs: Sequence[SceneGraph]
) -> list[tuple[str | None, str | None]]:
    """``(caption, reason)`` per graph from any writer (template or LLM)."""
    if not graphs:
        return []
    results = writer.write(list(graphs))
    return [(getattr(r, "caption", None), getattr(r, "reason", None)) for r in results]


def match_format(text: str, reference: str) -> str:
    """``text`` with the formatting of ``reference``.

    Copies: single spacing and no surrounding whitespace; the case of the first letter; the
    final punctuation mark (or its absence).

    Example:
        >>> match_format("there is no dog  on grass", "A dog on grass.")
        'There is no dog on grass.'
    """
    body = " ".join(text.split()).rstrip(_FINAL_PUNCT).rstrip()
    ref = reference.strip()
    if body and ref:
        if ref[0].isupper():
            body = body[0].upper() + body[1:]
        elif ref[0].islower():
            body = body[0].lower() + body[1:]
    if ref and ref[-1] in _FINAL_PUNCT:
        body += ref[-1]
    return body


_FINITE = frozenset({"is", "are", "was", "were", "has", "have", "does", "do", "can"})


def finite_verb(word: str) -> bool:
    """Whether ``word`` is a finite verb of a clause: a form of "be", "have", "do", "can", or a
    third-person form ("wears", "holds") of a word more often a verb than a noun (WordNet's
    sense counts; "glasses" is a noun)."""
    if word in _FINITE:
        return True
    if not word.isalpha() or not word.endswith("s") or word.endswith("ss"):
        return False
    from lemminflect import getInflection

    from crepe_datasets.generators.negatives.foils import sense_counts
    from crepe_datasets.scenegraph.lexicon import lemmatize_verb

    lemma = lemmatize_verb(word)
    if lemma == word or word not in getInflection(lemma, tag="VBZ"):
        return False
    counts = sense_counts(lemma)
    return counts.get("v", -1) >= 0 and counts.get("v", -1) >= counts.get("n", -1)


#: Stop words that stand inside a noun phrase, before its name ("clean and empty gallon jug",
#: "two front doors"): they do not end it.
NOUN_PHRASE_STOP_WORDS = frozenset(
    {"and", "another", "other", "same", "own", "empty", "full", "whole", "front", "back"}
    | {"top", "bottom", "side", "first", "third", "last", "few", "several", "various", "many"}
    | {"serious", "former", "latter", "two", "three", "four", "five", "six", "eight", "nine"}
    | {"ten", "eleven", "twelve", "fifteen", "twenty", "forty", "fifty", "sixty", "hundred"}
)


def _ends_noun_phrase(word: str) -> bool:
    """Whether ``word`` ends the noun phrase before it: a stop word (spaCy's list: articles,
    prepositions, pronouns, auxiliaries) that cannot stand inside one
    (:data:`NOUN_PHRASE_STOP_WORDS`)."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return word in STOP_WORDS and word not in NOUN_PHRASE_STOP_WORDS


def _first_head(body: str) -> tuple[str, int]:
    """The last word of the first noun phrase of ``body`` and the index of the word after it:
    the word before its first stop word that ends one (:func:`_ends_noun_phrase`), finite verb
    or participle ("youn man wearing glasses": "man"), or a word that ends with a comma; the
    last word when none does."""
    words = body.lower().split(" ")
    for i, word in enumerate(words):
        if i == 0:
            continue
        bare = word.rstrip(",")
        if _ends_noun_phrase(bare) or finite_verb(bare) or bare.endswith("ing"):
            return words[i - 1].rstrip(","), i
        if word.endswith(","):
            return bare, i + 1
    return (words[-1] if words else ""), len(words)


def _plural_head(body: str) -> bool:
    """Whether the first noun phrase of ``body`` ends in a plural name ("people on grass",
    "glasses that are on table"; :func:`_first_head`)."""
    from crepe_datasets.scenegraph.lexicon import is_plural_name

    head, _ = _first_head(body)
    return head.isalpha() and is_plural_name(head)


def negation_refers_back(caption: str) -> bool:
    """Whether the caption names the head of its first noun phrase again after it ("tan chair
    has five legs, the chair at desk"): its caption negation would deny the thing a later
    clause speaks of ("there is no tan chair that has five legs, the chair at desk"), a text
    that contradicts itself, so that no image is needed to reject it."""
    from crepe_datasets.scenegraph.lexicon import singularize

    body = _ARTICLE.sub("", caption.strip(), count=1)
    head, end = _first_head(body)
    if not head.isalpha():
        return False
    head = singularize(head)
    rest = body.lower().split(" ")[end:]
    return any(singularize(w.strip(",.;:!?")) == head for w in rest)


def _relative_clause(body: str) -> str:
    """``body`` with "that" before the finite verb that ends its first noun phrase, so that
    "there is no" takes a noun phrase: "man has bag, …" → "man that has bag, …" (not "there is
    no man has bag"). The noun phrase ends at its first finite verb or stop word that ends one
    (:func:`_ends_noun_phrase`; commas of an attribute list do not end it: "brown, green and
    iron pot has flower"); its first word is never the verb."""
    words = body.split(" ")
    for i, word in enumerate(words):
        token = word.rstrip(",.!?").lower()
        if i == 0:
            continue
        if finite_verb(token):
            return " ".join([*words[:i], "that", *words[i:]])
        if _ends_noun_phrase(token):
            break
    return body


def negate_caption_text(caption: str) -> str:
    """Caption-level negation: "there is no …" before the caption (its leading article removed;
    "there are no" before a plural name, :func:`_plural_head`; "that" before the finite verb of
    its first clause, :func:`_relative_clause`), or "it is not true that …" when the caption
    names its first thing again (:func:`negation_refers_back`: "there is no chair …, the chair
    …" would contradict itself).

    Example:
        >>> negate_caption_text("a tall boy on green grass")
        'there is no tall boy on green grass'
        >>> negate_caption_text("man has bag, the bag on table")
        'there is no man that has bag, the bag on table'
        >>> negate_caption_text("chair at table, another chair at the table")
        'it is not true that chair at table, another chair at the table'
    """
    body = _ARTICLE.sub("", caption.strip(), count=1)
    first = body.split(" ", 1)[0] if body else ""
    if body and not (first.isupper() and len(first) > 1):
        body = body[0].lower() + body[1:]
    if body and negation_refers_back(body):
        return match_format(CAPTION_NEGATION_STATEMENT + body, caption)
    lead = CAPTION_NEGATION_PLURAL if body and _plural_head(body) else CAPTION_NEGATION
    return match_format(lead + _relative_clause(body), caption)

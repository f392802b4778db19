"""Editing a natural caption at the words of one atom (for negatives of free-text captions).

Productivity negatives are written from graphs; systematicity captions are Visual Genome
region descriptions, so their negatives are the description with the words of one atom
replaced ("a grill on top of the porch" → "a grill underneath the porch"). This module finds
an atom's words in a caption and replaces them.

Matching follows :mod:`crepe_datasets.generators.captions.coverage`: lower-case words; a
caption word matches through its singular form and its verb lemma; articles inside a
multi-word atom may be skipped ("on the top of" covers "on top of"). An atom whose words occur
more than once is *ambiguous* and not edited (``None``), so that the edit is the atom the graph
says it is.

Replacement keeps the surface form: a plural object gets a plural foil, a predicate's verb is
inflected like the original ("sitting on" → "standing on"), and an indefinite article just
before the edit is fixed ("a" / "an"). A verb right after a replaced object agrees with the
foil's number (:func:`crepe_datasets.scenegraph.lexicon.agree_predicate`, the rule of the
productivity cleaning step): "the curtains are green" → "the furniture is green", since
"furniture" has no plural.
"""

from __future__ import annotations

import re

from crepe_datasets.scenegraph.lexicon import (
    agree_predicate,
    lemmatize_verb,
    pluralize,
    singularize,
)

_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
ARTICLES = frozenset({"a", "an", "the"})


def _forms(word: str) -> frozenset[str]:
    return frozenset({word, singularize(word), lemmatize_verb(word)})


def find_atom(caption: str, atom_text: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of every occurrence of the atom's words in ``caption``."""
    tokens = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(caption.lower())]
    wanted = [w for w in _WORD.findall(atom_text.lower()) if w not in ARTICLES]
    if not wanted:
        return []
    spans = []
    for i, (start, _, word) in enumerate(tokens):
        if wanted[0] not in _forms(word):
            continue
        k, j = 1, i + 1
        while k < len(wanted) and j < len(tokens):
            if wanted[k] in _forms(tokens[j][2]):
                k, j = k + 1, j + 1
            elif tokens[j][2] in ARTICLES:
                j += 1
            else:
                break
        if k == len(wanted):
            spans.append((start, tokens[j - 1][1]))
    return spans


def _inflect_verb(lemma: str, surface: str) -> str:
    from lemminflect import getInflection

    first, _, rest = lemma.partition(" ")
    word = surface.split(" ", 1)[0]
    tag = "VBG" if word.endswith("ing") else "VBZ" if word.endswith("s") else None
    tag = tag or ("VBD" if word.endswith("ed") else None)
    if tag is None or word == lemmatize_verb(word) or first != lemmatize_verb(first):
        return lemma
    forms = getInflection(first, tag=tag)
    return " ".join(x for x in (forms[0] if forms else first, rest) if x)


def _fix_article(text: str, start: int) -> str:
    """Make an "a"/"an" that ends just before ``start`` agree with the word at ``start``."""
    head = text[:start]
    m = re.search(r"(?:^|\s)(an?)\s+$", head)
    if not m:
        return text
    first = text[start : start + 1]
    article = "an" if first and first in "aeiou" else "a"
    return head[: m.start(1)] + article + head[m.end(1) :] + text[start:]


def _agree_after(text: str, end: int, subject: str, was: str | None = None) -> str:
    """``text`` with the word right after ``end`` (a verb of the subject ``subject``, if it is
    one) in the subject's number; ``was``: the replaced subject's words: a verb that did not
    agree with them ("the tables has books") is left as the caption wrote it, so that the
    negative is not the only grammatical text of its set."""
    m = re.match(r"(\s+)([a-z]+)\b(?!['-])", text[end:])
    if not m:
        return text
    if was is not None and agree_predicate(m.group(2), was) != m.group(2):
        return text
    agreed = agree_predicate(m.group(2), subject)
    if agreed == m.group(2):
        return text
    return text[:end] + m.group(1) + agreed + text[end + m.end() :]


def replace_atom(caption: str, kind: str, old: str, new: str) -> str | None:
    """``caption`` with the words of atom ``old`` (of type ``kind``) replaced by ``new``.

    ``None`` when the atom's words are not found, or found more than once.
    """
    spans = find_atom(caption, old)
    if len(spans) != 1:
        return None
    start, end = spans[0]
    surface = caption[start:end]
    if kind == "object":
        last = surface.split()[-1]
        if singularize(last) != last and singularize(new.split()[-1]) == new.split()[-1]:
            head, _, tail = new.rpartition(" ")
            new = f"{head} {pluralize(tail)}".strip()
    elif kind == "relationship":
        new = _inflect_verb(new, surface)
    text = caption[:start] + new + caption[end:]
    if kind == "object":
        text = _agree_after(text, start + len(new), new, surface)
    return _fix_article(text, start)


def word_before(caption: str, atom_text: str) -> str | None:
    """The word just before the atom's only occurrence in ``caption`` (``None``: none, or the
    atom is not found once)."""
    spans = find_atom(caption, atom_text)
    if len(spans) != 1:
        return None
    words = _WORD.findall(caption[: spans[0][0]].lower())
    return words[-1] if words else None


def word_after(caption: str, atom_text: str) -> str | None:
    """The word just after the atom's only occurrence in ``caption`` (``None``: none, or the
    atom is not found once)."""
    spans = find_atom(caption, atom_text)
    if len(spans) != 1:
        return None
    words = _WORD.findall(caption[spans[0][1] :].lower())
    return words[0] if words else None

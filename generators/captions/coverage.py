"""Does a caption mention every atom of its graph? (SPEC §3.3: "reject generations that omit
any atom"). Shared by the template and the LLM writers and by the dataset validators.

Matching rules (chosen here; the paper does not define "mention"):

* Captions and atoms are compared as lower-case word sequences; an atom is covered when its
  words occur in order and adjacent among the caption's words.
* A caption word also matches through its singular form ("trees" covers "tree") and its verb
  lemma ("wears" covers "wearing").
* Articles ("a", "an", "the") in the caption are skipped while matching, so "not a boy" covers
  the negated object "not boy" and "on the top of" covers "on top of".
* A negated atom ("not yellow") needs its words, negation included, in that order; a negated
  predicate may also put "not" after its first word ("not are on" → "are not on").
* Repeated names need only one mention ("two windows" covers window1 and window2): counting
  duplicates would reject fluent captions that use numbers or plurals.
"""

from __future__ import annotations

import functools
import re

from crepe_datasets.scenegraph.lexicon import lemmatize_verb, singularize
from crepe_datasets.scenegraph.types import Atom, SceneGraph

_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
ARTICLES = frozenset({"a", "an", "the"})


@functools.lru_cache(maxsize=100_000)
def _forms(word: str) -> frozenset[str]:
    return frozenset({word, singularize(word), lemmatize_verb(word)})


def words(text: str) -> list[str]:
    """Lower-case words of a text (hyphenated and apostrophe words kept whole)."""
    return _WORD.findall(text.lower())


@functools.lru_cache(maxsize=100_000)
def _atom_words(text: str) -> tuple[str, ...]:
    return tuple(words(text))


def _covered(
    atom_words: list[str], positions: dict[str, list[int]], caption_forms: list[frozenset[str]]
) -> bool:
    wanted = [_forms(w) for w in atom_words if w not in ARTICLES] or [_forms(atom_words[0])]
    if len(wanted) == 1:
        return not wanted[0].isdisjoint(positions)
    starts = sorted({i for form in wanted[0] for i in positions.get(form, ())})
    span = len(wanted)
    for start in starts:
        if start + span <= len(caption_forms) and all(
            wanted[k] & caption_forms[start + k] for k in range(1, span)
        ):
            return True
    return False


def _orders(atom_words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The atom's words, and for a negated predicate "not are on" also "are not on"."""
    if len(atom_words) > 2 and atom_words[0] == "not":
        return [atom_words, (atom_words[1], "not", *atom_words[2:])]
    return [atom_words]


def _atom_texts(graph: SceneGraph) -> list[tuple[str, str]]:
    """``(type, text)`` of :meth:`SceneGraph.atoms`, in its order, without making atoms."""
    ids = {o.id for o in graph.objects}
    out = [("object", o.name) for o in graph.objects]
    out += [("attribute", a) for o in graph.objects for a in o.attributes]
    out += [
        ("relationship", r.predicate)
        for r in graph.relationships
        if r.subject in ids and r.object in ids
    ]
    return out


@functools.lru_cache(maxsize=100_000)
def _verbatim(text: str) -> str:
    """The atom's words framed by spaces, as searched for in a caption (a NUL character when
    the atom is only articles: never found, so it goes through the word-form match)."""
    atom_words = _atom_words(text)
    if ARTICLES.issuperset(atom_words):
        return "\0"
    return f" {' '.join(atom_words)} "


def missing_atoms(caption: str, graph: SceneGraph) -> list[Atom]:
    """The atoms of ``graph`` that ``caption`` does not mention, in graph order (no repeats).

    Example:
        >>> from crepe_datasets.scenegraph.types import SceneGraph, SGObject, Relationship
        >>> g = SceneGraph([SGObject(0, "boy", ("tall",)), SGObject(1, "grass")],
        ...                [Relationship(0, "on", 1)])
        >>> missing_atoms("tall boy on grass", g), missing_atoms("boy on grass", g)
        ([], [Atom(type='attribute', text='tall')])
    """
    caption_words = words(caption)
    padded = " " + " ".join(caption_words) + " "
    caption_forms: list[frozenset[str]] | None = None
    positions: dict[str, list[int]] = {}
    out: list[Atom] = []
    for kind, text in _atom_texts(graph):
        atom_words = _atom_words(text)
        if not atom_words:
            continue
        if _verbatim(text) in padded:
            continue  # written verbatim: covered (the common case, no forms needed)
        atom = Atom(kind, text)  # type: ignore[arg-type]
        if atom in out:
            continue
        if caption_forms is None:
            caption_forms = [_forms(w) for w in caption_words if w not in ARTICLES]
            for i, forms in enumerate(caption_forms):
                for form in forms:
                    positions.setdefault(form, []).append(i)
        if not any(_covered(list(w), positions, caption_forms) for w in _orders(atom_words)):
            out.append(atom)
    return out

"""Stand-in atom-coverage check, used only until ``generators/captions/coverage.py`` exists.

An atom is covered when its words occur, in order and adjacent, among the caption's words,
where a caption word also matches through its singular form ("trees" covers "tree") and its
verb lemma ("wears" covers "wearing"). Repeated names need only one mention ("two windows"
covers window1 and window2).
"""

from __future__ import annotations

import re

from scenegraph.lexicon import lemmatize_verb, singularize
from scenegraph.types import Atom, SceneGraph

_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")


def _forms(word: str) -> set[str]:
    return {word, singularize(word), lemmatize_verb(word)}


def _covered(atom_words: list[str], caption_forms: list[set[str]]) -> bool:
    wanted = [_forms(w) for w in atom_words]
    span = len(wanted)
    for start in range(len(caption_forms) - span + 1):
        if all(wanted[k] & caption_forms[start + k] for k in range(span)):
            return True
    return False


def missing_atoms(caption: str, graph: SceneGraph) -> list[Atom]:
    """The atoms of ``graph`` whose words do not all occur in ``caption``, in graph order."""
    caption_forms = [_forms(w) for w in _WORD.findall(caption.lower())]
    out: list[Atom] = []
    for atom in graph.atoms():
        words = _WORD.findall(atom.text.lower())
        if words and not _covered(words, caption_forms):
            out.append(atom)
    return out

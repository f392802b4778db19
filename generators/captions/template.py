"""The template caption writer of CREPE productivity (SPEC §3.3), for n = 4 and as the fallback.

Rules (the paper gives one example; the rest is written down here):

* **Noun phrase**: the object's attributes before its name, in graph order, joined with "and"
  ("tall and blue boy"; three or more: "small, white and fluffy dog").
* **Clauses**: each relationship is "subject relation object" ("tall and blue boy on green
  grass"). Within one connected part the relationships are written in graph order, except that
  each next clause is the first one touching an object already mentioned (so the part reads as
  a chain). An object is written in full at its first mention and as "the NAME" later.
  Clauses of one part are joined with ", ".
* **Disconnected parts** are appended with "and a …" / "and an …" (an object without
  relationships is its own part): "tall boy on green grass and a red car".
* **Negated atoms** (text starting with "not "): an attribute becomes "NAME that is not A"
  ("vase that is not yellow"); a relationship is written as is ("boy not on grass"); an object
  becomes "thing that is not a NAME" (later mentions: "that thing").
* Output is lower case (names as given), single-spaced, with no final period — the same house
  style as the LLM writer's cleaned captions.

Example:
    >>> from crepe_datasets.scenegraph.types import SceneGraph, SGObject, Relationship
    >>> g = SceneGraph([SGObject(1, "boy", ("tall", "blue")), SGObject(2, "grass", ("green",))],
    ...                [Relationship(1, "on", 2)])
    >>> template_caption(g)
    'tall and blue boy on green grass'
"""

from __future__ import annotations

from crepe_datasets.generators.captions import NEGATION_PREFIX, WrittenCaption, is_negated
from crepe_datasets.generators.captions.coverage import missing_atoms
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def join_and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def article(word: str) -> str:
    """ "a" or "an" by the first letter (a spelling rule, not a pronunciation one)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def noun_phrase(obj: SGObject) -> str:
    """First mention of an object: attributes, name, negations."""
    positive = [a for a in obj.attributes if not is_negated(a)]
    negative = [a for a in obj.attributes if is_negated(a)]
    adjectives = join_and(positive)
    if is_negated(obj.name):
        core = obj.name[len(NEGATION_PREFIX) :]
        head = f"thing that is not {article(core)} {core}"
    else:
        head = obj.name
    phrase = f"{adjectives} {head}" if adjectives else head
    if negative:
        phrase += " that is " + join_and(negative)
    return phrase


def later_mention(obj: SGObject) -> str:
    """Second and later mentions of an object."""
    return "that thing" if is_negated(obj.name) else f"the {obj.name}"


def _order_clauses(rels: list[Relationship]) -> list[Relationship]:
    """Graph order, but each next clause touches an already mentioned object when one can."""
    pending, ordered, mentioned = list(rels), [], set()
    while pending:
        pick = next(
            (r for r in pending if r.subject in mentioned or r.object in mentioned), pending[0]
        )
        pending.remove(pick)
        ordered.append(pick)
        mentioned.update((pick.subject, pick.object))
    return ordered


def _part_text(ids: list[int], graph: SceneGraph, by_id: dict[int, SGObject]) -> str:
    members = set(ids)
    rels = [r for r in graph.relationships if r.subject in members and r.object in members]
    if not rels:
        return noun_phrase(by_id[ids[0]])
    mentioned: set[int] = set()
    clauses = []
    for rel in _order_clauses(rels):
        words = []
        for oid in (rel.subject, rel.object):
            obj = by_id[oid]
            words.append(later_mention(obj) if oid in mentioned else noun_phrase(obj))
            mentioned.add(oid)
        clauses.append(f"{words[0]} {rel.predicate} {words[1]}")
    return ", ".join(clauses)


def template_caption(graph: SceneGraph) -> str:
    """The template caption of a graph (see the module docstring)."""
    by_id = graph.object_by_id()
    order = {o.id: i for i, o in enumerate(graph.objects)}
    parts = sorted(graph.components(), key=lambda comp: min(order[i] for i in comp))
    texts = []
    for ids in parts:
        ids = sorted(ids, key=order.__getitem__)
        text = _part_text(ids, graph, by_id)
        texts.append(text if not texts else f"{article(text)} {text}")
    return " and ".join(texts)


class TemplateCaptionWriter:
    """Writes template captions; rejects (reason ``missing_atom``) any that omit an atom.

    With the template a rejection can only come from an atom whose words the coverage check
    cannot find (e.g. a name made only of punctuation), so it is rare but counted.
    """

    name = "template"

    def caption(self, graph: SceneGraph) -> str:
        return template_caption(graph)

    def write(self, graphs: list[SceneGraph]) -> list[WrittenCaption]:
        out = []
        for graph in graphs:
            text = template_caption(graph)
            if not text:
                out.append(WrittenCaption(None, "empty_caption"))
            elif missing_atoms(text, graph):
                out.append(WrittenCaption(None, "missing_atom"))
            else:
                out.append(WrittenCaption(text))
        return out

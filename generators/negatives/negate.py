"""HN-NEG (SPEC §3.4): negate the whole caption, or one atom, checked against ``G``.

The image of a set is its crop (the union of the subgraph's boxes), and a negation is read as
"there is such a thing": "chair that is not tan" is true when *any* chair the crop shows is not
tan. So every rule below looks at every thing of the negated object's kind the crop shows
(:meth:`GraphIndex.kin_things`), besides the objects of the same name in the whole image.

* ``negate:caption`` — "there is no …" + the positive caption. The subgraph is in the image, so
  this is always false; it is offered first, once per positive. A caption that names its first
  thing again ("tan chair has five legs, the chair at desk") is negated as a statement, "it is
  not true that …" (:func:`~crepe_datasets.generators.captions.negate_caption_text`), so that the
  text does not deny a thing it then speaks of.
* ``negate:attribute`` — attribute ``a`` of object ``o`` becomes "not a" ("vase that is not
  yellow"). Invalid when ``G`` has another object with ``o``'s name, or the crop another thing
  of its kind, not annotated with ``a``: that object may make the negative true. Never one of
  three or more attributes (its text would lose a comma of the list, a formatting cue), a count
  ("chair that is not four"), a noun of several words or a plural one ("not tiles"), or an
  attribute another of ``o``'s implies or is implied by ("navy blue chair that is not blue",
  "wood table that is not wooden"): :func:`attribute_negation_reason`.
* ``negate:relationship`` — predicate ``p`` of ``s → o`` becomes "not p" ("boy not on grass").
  Invalid when another relationship of the subgraph says ``p`` of ``s`` and a thing named as
  ``o``, or its converse of ``o`` and ``s`` (the text would say and deny it), when ``G`` has another relationship from the same
  subject to the same object, when the crop shows another thing of ``s``'s kind that ``G``
  does not link so to a thing of ``o``'s kind ("another picture not on the wall"), or when
  the rest of the subgraph is found in ``G`` on other objects between which ``p`` is not
  annotated (with two boys on grass, "boy not on grass" may be about the other one):
  :meth:`GraphIndex.holds` with the negated triple ``absent``.

No object is negated ("thing that is not a boy"): the text is true when *any* other thing of
the image fits what the caption says of it, and Visual Genome leaves most things and facts
unannotated, so no check against ``G`` can make it certainly false (read by eye, 22 of 54 such
negatives were certainly false).

The negated atom is carried in the graph with the prefix "not " (see
:mod:`crepe_datasets.generators.captions`), so the atom count stays ``n``. Atom negations are shuffled with
``rng``; the caption negation comes first.
"""

from __future__ import annotations

import random

from crepe_datasets.generators.captions import NEGATION_PREFIX
from crepe_datasets.generators.negatives import (
    CHECK_STAGE,
    NegativeCandidate,
    out_of_reach,
    replace_object,
    replace_relationship,
)
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, Relationship, SceneGraph, SGObject


def attribute_negation_valid(
    sub: SceneGraph, g: GraphIndex, obj: SGObject, attribute: str, region: Box | None = None
) -> bool:
    """False when another object of ``G`` with the same name is not annotated with it: "a seat
    that is not white" is true of a black seat, and, Visual Genome leaving most attributes
    unannotated, maybe of a seat with no colour, whatever its other attributes; the same for
    another thing of its kind that ``region`` (the crop) shows (:meth:`GraphIndex.kin_things`)."""
    for gid in g.by_name.get(obj.name, ()):
        if gid != obj.id and attribute not in g.attrs[gid]:
            return False
    for ids in g.kin_things(obj.name, obj.synset, region):
        if obj.id not in ids and not any(attribute in g.attrs[i] for i in ids):
            return False
    return True


# an object with this many attributes is written with a comma list ("tall, dark and yellow
# light"); negating one moves it out ("tall and yellow light that is not dark"), one comma fewer
# than the caption: a formatting cue (the caption has the most punctuation)
LIST_ATTRIBUTES = 3
# endings that make an adjective of a noun or another adjective ("wooden", "metallic", "reddish")
_ADJECTIVE_ENDINGS = ("en", "ic", "lic", "y", "ish", "ed")


def _same_stem(a: str, b: str) -> bool:
    """Whether one word is the other with an adjective ending ("wood" / "wooden", "red" /
    "reddish": the stem's last consonant may double)."""
    short, long = sorted((a, b), key=len)
    if len(short) < 3 or not long.startswith(short):
        return False
    rest = long[len(short) :]
    if rest[:1] == short[-1]:  # "red" + "d" + "ish"
        rest = rest[1:] if rest[1:] in _ADJECTIVE_ENDINGS else rest
    return rest in _ADJECTIVE_ENDINGS


def attribute_negation_reason(obj: SGObject, attribute: str) -> str | None:
    """Why negating ``attribute`` of ``obj`` makes no false text, whatever the image (``None``
    when it may): one of a list of attributes (:data:`LIST_ATTRIBUTES`), a count ("chair that
    is not four"), words with a noun WordNet knows only as one, or a plural noun ("monitor that
    is not central processing unit", "advertisement that is not pharmacy sign", "floor that is
    not tiles"; one noun is a material: "table that is not wood"; "navy blue" is a colour), or
    an attribute another of the object's implies or is implied by
    ("navy blue chair that is not blue", "dark green awning that is not green")."""
    from crepe_datasets.generators.negatives.foils import colour_family, colour_sense, noun_only
    from crepe_datasets.scenegraph.lexicon import singularize
    from crepe_datasets.scenegraph.parser.rules import NUMBER_WORDS

    words = attribute.split()
    if any(w.isdigit() or w in NUMBER_WORDS for w in words):
        return "negate_attribute_count"
    if len(obj.attributes) >= LIST_ATTRIBUTES:
        return "negate_attribute_in_list"
    if colour_sense(attribute) is None:  # "navy blue", "brick red" are colours
        singular = [singularize(w) for w in words]
        plural = len(words) == 1 and singular[0] != words[0]
        if (len(words) > 1 or plural) and any(noun_only(w) for w in singular):
            return "negate_attribute_noun"  # one word: a material ("table that is not wood")
    family = colour_family(attribute)
    for other in obj.attributes:
        if other == attribute:
            continue
        if set(words) <= set(other.split()) or set(other.split()) <= set(words):
            return "negate_attribute_implied_by_another"
        if any(_same_stem(a, b) for a in words for b in other.split()):  # wood / wooden
            return "negate_attribute_implied_by_another"
        if family and colour_sense(other) in family:
            return "negate_attribute_implied_by_another"
    return None


def relationship_negation_valid(
    g: GraphIndex, rel: Relationship, sub: SceneGraph | None = None, region: Box | None = None
) -> bool:
    """False when ``G`` links the same subject to the same object by another predicate, or
    (given the subgraph ``sub``) when the subgraph without ``rel`` is found in ``G`` on objects
    between which ``rel``'s predicate is not annotated, or when ``region`` (the crop) shows
    another thing of the subject's kind that ``G`` does not link so to a thing of the object's
    kind ("another picture not on the wall" where a picture stands on the floor)."""
    if g.pair_predicates.get((rel.subject, rel.object), set()) - {rel.predicate}:
        return False
    if sub is None:
        return True
    by_id = sub.object_by_id()
    subject, obj = by_id.get(rel.subject), by_id.get(rel.object)
    if region is not None and subject is not None and obj is not None:
        edge = (rel.predicate, obj.name, obj.synset)
        for ids in g.kin_things(subject.name, subject.synset, region):
            if rel.subject not in ids and not any(g.linked(i, edge) for i in ids):
                return False
    rest = [r for r in sub.relationships if r != rel]
    without = SceneGraph(list(sub.objects), rest, sub.image_id, sub.width, sub.height)
    return not g.holds(without, absent=((rel.subject, rel.predicate, rel.object),))


def _restated(sub: SceneGraph, rel: Relationship) -> bool:
    """Whether another relationship of the subgraph says ``rel`` of the same subject and a
    thing of the same name ("building has glass window, the building has another glass
    window"), or says it the other way round between the same two things ("shelf with the book,
    the book on the shelf"): negating one would leave the text saying and denying it."""
    from crepe_datasets.generators.negatives.kinds import predicate_meaning, reverse_variants

    by_id = sub.object_by_id()
    name = by_id[rel.object].name if rel.object in by_id else None
    meaning = predicate_meaning(rel.predicate)
    converse = reverse_variants(rel.predicate)
    for r in sub.relationships:
        if r is rel:
            continue
        if (
            r.subject == rel.subject
            and predicate_meaning(r.predicate) == meaning
            and r.object in by_id
            and by_id[r.object].name == name
        ):
            return True
        if (r.subject, r.object) == (rel.object, rel.subject) and r.predicate in converse:
            return True
    return False


def negate_negatives(
    sub: SceneGraph,
    g: GraphIndex,
    rng: random.Random,
    limit: int,
    drops: DropLog | None = None,
    need: int = 0,
) -> list[NegativeCandidate]:
    """Up to ``limit`` HN-NEG candidates: the caption negation, then shuffled atom negations.

    Invalid atom negations are counted in ``drops`` (stage ``productivity_negative_checks``).
    ``need`` (the fewest negatives a set takes): as soon as the candidates found and the atoms
    left to check cannot reach it, none is returned and the rest are not checked (counted:
    ``negate_set_out_of_reach``).
    """

    def count(reason: str) -> None:
        if drops is not None:
            drops.drop(CHECK_STAGE, reason)

    if limit <= 0:
        return []
    out = [NegativeCandidate("negate", "negate:caption", sub, caption_level=True)]
    atoms: list[NegativeCandidate] = []
    region = sub.region()  # the crop: the union of the subgraph's boxes
    left = sum(len(o.attributes) for o in sub.objects) + len(sub.relationships)

    def reachable() -> int:  # the candidates found, plus this atom and those after it
        nonlocal left
        left -= 1
        return len(out) + len(atoms) + 1 + left

    for obj in sub.objects:
        for i, attribute in enumerate(obj.attributes):
            if (most := reachable()) < need:
                return out_of_reach(drops, "negate", most)
            if (reason := attribute_negation_reason(obj, attribute)) is not None:
                count(reason)
            elif not attribute_negation_valid(sub, g, obj, attribute, region):
                count("negate_attribute_same_name_object_lacks_it")
            else:
                attrs = list(obj.attributes)
                attrs[i] = NEGATION_PREFIX + attribute
                neg = SGObject(obj.id, obj.name, tuple(attrs), obj.box, obj.synset)
                atoms.append(
                    NegativeCandidate("negate", "negate:attribute", replace_object(sub, neg))
                )
    for i, rel in enumerate(sub.relationships):
        if (most := reachable()) < need:
            return out_of_reach(drops, "negate", most)
        if _restated(sub, rel):
            count("negate_relationship_restated_in_caption")
        elif not relationship_negation_valid(g, rel):
            count("negate_relationship_pair_has_other_predicate")
        elif not relationship_negation_valid(g, rel, sub, region):
            count("negate_relationship_true_of_other_objects")
        else:
            neg_rel = Relationship(rel.subject, NEGATION_PREFIX + rel.predicate, rel.object)
            atoms.append(
                NegativeCandidate(
                    "negate", "negate:relationship", replace_relationship(sub, i, neg_rel)
                )
            )
    if len(out) + len(atoms) < need:
        return out_of_reach(drops, "negate", len(out) + len(atoms))
    rng.shuffle(atoms)
    return (out + atoms)[:limit]

"""HN-ATOM (SPEC §3.4, as in systematicity §2.5): replace one atom with an incorrect one.

Procedure (deterministic given ``rng``):

1. The atom occurrences of the subgraph (objects, attributes, relationships) are shuffled.
2. Each atom in turn offers its foils (:mod:`crepe_datasets.generators.negatives.foils`): antonyms in their
   order, then a shuffled copy of the top co-hyponyms; with a plausibility ranker, all of them
   reordered closest in plausibility (in context) to the original first. The first *valid* foil of each atom
   becomes a candidate; when every atom has been visited and fewer than ``limit`` candidates
   exist, further passes take each atom's next valid foil (so negatives spread over atoms).
   With a foil ledger, each atom's foils are ordered best balancing the words' foil and truth
   uses first, the atom whose next foil balances best is tried first
   (:mod:`crepe_datasets.generators.negatives.foil_balance`), and a foil that would unbalance
   them is skipped before it is checked.
3. A foil is invalid when the full image graph ``G`` could make it true:

   * the modified subgraph holds in ``G`` (:meth:`GraphIndex.holds`);
   * attribute foil: the same object already has it in ``G``, or in the subgraph; the
     object's box carries two unrelated names ("lid" / "drawer": its attributes may be the
     other thing's, :meth:`GraphIndex.one_thing`); it is a neighbouring shade of a colour the
     object has (grey for white or black:
     :func:`~crepe_datasets.generators.negatives.foils.neighbouring_shades`); it is a colour
     and the object is "multi colored" or "colorful"
     (:func:`~crepe_datasets.generators.negatives.foils.many_coloured`); another
     object of its kind has it; a description of the image says it of a thing of the
     object's kind (a region over the object's box, or a question and its answer: "the wall
     is green", :meth:`GraphIndex.described_attribute`); for a subgraph of ``G``, the crop
     (the whole image where it is unknown) shows another thing of the kind whose annotation
     does not exclude the foil ("small mug" beside a mug of no stated size, a colour beside
     an uncoloured one: :meth:`GraphIndex.open_kin`), or another thing of the kind of an
     object the subgraph relates to this one with no such thing annotated for it that
     excludes the foil ("man wearing blue shirt" beside a second man whose shirt is not
     annotated: :meth:`GraphIndex.open_holder`). Not for a parsed caption graph, whose thing
     in ``G`` is unknown: there, refusing a colour wherever the region shows two things of
     the kind, one uncoloured, took 10–25% of the systematicity sets and raised the held-out
     VG LM (pooled 0.13 → 0.25);
   * object foil: the crop shows a thing of the foil's kind (the whole image where the crop is
     unknown): "car in the photo" may be true of it whatever its relations, and the replaced
     object's own box annotated under the foil's name (or with it as another name,
     :attr:`~crepe_datasets.scenegraph.types.SGObject.aliases`) is one of them; the crop shows
     a thing of a more general kind that the foil may be ("man" where it shows a "person",
     :meth:`GraphIndex.kind_of_shown`), or a whole the foil is part of in any of its senses
     ("palm" where it shows a hand or a person, "key" where it shows a keyboard,
     :meth:`GraphIndex.whole_shown`); a body part replaced by another ("leg" by "arm": the body
     the leg belongs to may show one); a region description within the crop names a thing of
     the foil's kind ("a table is next to the couch", :meth:`GraphIndex.described_in`); the foil may
     name the same thing in some WordNet sense, a kind of it or a part or whole of it
     (:func:`~crepe_datasets.generators.negatives.foils.names_may_corefer`); or the object
     shares its name with another object of the subgraph, or the foil names one
     (:func:`~crepe_datasets.generators.negatives.foils.keeps_references`: the negative would
     lose or gain the positive's "another … the other");
   * relationship foil: ``G`` has the foil between the same subject and object; or the
     subgraph relates the two objects twice ("magazine under newspaper, the newspaper on the
     magazine"), so a foil of one would leave the other saying the opposite, a contradiction
     the text shows without the image.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from crepe_datasets.generators.negatives import (
    CHECK_STAGE,
    NegativeCandidate,
    replace_object,
    replace_relationship,
)
from crepe_datasets.generators.negatives.foil_balance import FoilLedger, Tentative, positive_atoms
from crepe_datasets.generators.negatives.foils import (
    attribute_antonyms,
    attribute_foils,
    body_part_names,
    cohyponym_pool,
    colour_family,
    colour_pool,
    coreference_reason,
    keeps_references,
    many_coloured,
    neighbouring_shades,
    object_foils,
    relation_foils,
)
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.plausible import (
    closest_first,
    object_context_maker,
    plain_noun_phrase,
    relation_context,
)
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, Relationship, SceneGraph, SGObject

# Whether a human annotation of some image states every one of the compounds given, each as
# ``("ao", attribute, object)`` or ``("oro", subject, predicate, object)`` (the counter-image
# pool, :meth:`crepe_datasets.builders.counter_images.index.CounterIndex.states`)
Stated = Callable[[list[tuple[str, ...]]], bool]


def graph_compounds(graph: SceneGraph) -> list[tuple[str, ...]]:
    """The compounds of a graph in :data:`Stated`'s form: ``("ao", attribute, object)`` and
    ``("oro", subject, predicate, object)``."""
    by_id = graph.object_by_id()
    out: list[tuple[str, ...]] = [("ao", a, o.name) for o in graph.objects for a in o.attributes]
    out += [
        ("oro", by_id[r.subject].name, r.predicate, by_id[r.object].name)
        for r in graph.relationships
        if r.subject in by_id and r.object in by_id
    ]
    return out


# With ``same_atom``: how many atoms offer a group of candidates (the refinement tries them in turn)
MAX_ATOM_GROUPS = 3
TRUE_IN_G = "atom_true_in_image_graph"


def _ordered(foils: tuple[str, ...], n_first: int, rng: random.Random) -> list[str]:
    head, tail = list(foils[:n_first]), list(foils[n_first:])
    rng.shuffle(tail)
    return head + tail


def _by_plausibility(
    foils: list[str], original: str, make: Callable[[str], str], ranker: Any
) -> list[str]:
    if ranker is None or len(foils) < 2:
        return foils
    order = closest_first(make(original), [make(f) for f in foils], ranker)
    return [foils[i] for i in order]


@dataclass
class _Slot:
    """One atom of the subgraph: its kind and word, its foils in order, and a check that turns a
    foil into a candidate or a drop reason."""

    kind: str
    truth: str
    foils: list[str]
    check: Callable[[str], NegativeCandidate | str]
    pairs: Callable[[str], list[tuple[str, str]]]
    compounds: Callable[[str], list[tuple[str, ...]]]  # the compounds a foil makes


def _object_pair_shape(sub: SceneGraph, obj: SGObject) -> list[tuple[str, str, str]]:
    """The adjacent pairs (:func:`~crepe_datasets.generators.negatives.joint_balance.graph_features`)
    that ``obj`` forms, as ``(kind, text before the name, text after it)``: the same for every
    name (worked out once per object, then filled in for each foil)."""
    by_id = sub.object_by_id()
    out = [("attribute_object", f"{a} ", "") for a in obj.attributes]
    for r in sub.relationships:
        if r.subject == obj.id and r.object in by_id:
            out.append(("subject_relation", "", f" {r.predicate}"))
        if r.object == obj.id and r.subject in by_id:
            out.append(("relation_object", f"{r.predicate} ", ""))
    return out


def _object_slot(
    sub: SceneGraph,
    g: GraphIndex,
    obj: SGObject,
    rng: random.Random,
    ranker: Any = None,
    vocab: Counter | None = None,
    stated: Stated | None = None,
    region: Box | None = None,
) -> _Slot:
    by_id = sub.object_by_id()
    outgoing = [
        (r.predicate, by_id[r.object].name, by_id[r.object].synset)
        for r in sub.relationships
        if r.subject == obj.id and r.object in by_id
    ]
    incoming = [
        (r.predicate, by_id[r.subject].name, by_id[r.subject].synset)
        for r in sub.relationships
        if r.object == obj.id and r.subject in by_id
    ]

    def compounds(f: str) -> list[tuple[str, ...]]:
        return [
            *(("ao", a, f) for a in obj.attributes),
            *(("oro", f, p, o) for p, o, _ in outgoing),
            *(("oro", o, p, f) for p, o, _ in incoming),
        ]

    foils = _ordered(object_foils(obj.name, obj.synset), 0, rng)
    if vocab or stated:  # the graphs' own names (balance), names people use so (attested)
        known = set(foils)
        foils += [
            f
            for f in cohyponym_pool(obj.name, obj.synset)
            if f not in known
            and f != obj.name
            and ((vocab and vocab[("object", f)]) or (stated and _states(stated, compounds(f))))
        ]
    context = object_context_maker(sub, obj) if ranker is not None and len(foils) > 1 else str

    names = [o.name for o in sub.objects]
    position = next(i for i, o in enumerate(sub.objects) if o.id == obj.id)
    body_parts = body_part_names() if obj.name in body_part_names() else frozenset()

    def check(foil: str) -> NegativeCandidate | str:
        # with a pool: only names people pair so, or names of the graphs (truths the ledger
        # balances); "bicycle on the microwave" is no plausible negative
        if (
            stated
            and not (vocab and vocab[("object", foil)])
            and not _states(stated, compounds(foil))
        ):
            return "atom_object_foil_never_stated"
        if not keeps_references(names, position, foil):  # "another … the other" would change
            return "atom_object_foil_changes_references"
        reason = coreference_reason(obj.name, foil)  # "woman" -> "lady", "wall" -> "room"
        if reason is not None:
            return reason
        if g.kin_things(foil, None, region):  # "car in photo" where the crop shows a car
            return "atom_object_foil_shown_in_crop"
        if g.kind_of_shown(foil, region):  # "a man" where the crop shows a "person"
            return "atom_object_foil_may_name_crop_thing"
        if g.whole_shown(foil, region):  # "a palm" where the crop shows a hand
            return "atom_object_foil_part_of_crop_thing"
        if foil in body_parts:  # "leg" -> "arm": the body the leg belongs to may show one
            return "atom_object_foil_another_body_part"
        if g.described_in(foil, region):  # "a table is next to the couch", in the crop
            return "atom_object_foil_described_in_crop"
        new = SGObject(obj.id, foil, obj.attributes, obj.box, None)
        graph = replace_object(sub, new)
        if g.holds(graph):
            return TRUE_IN_G
        if g.kind_stands(foil, obj.attributes, outgoing, incoming):  # another object says it
            return "atom_object_foil_holds_for_same_kind"
        return NegativeCandidate("atom", "atom:object", graph)

    foils = _by_plausibility(foils, obj.name, context, ranker)
    shape = _object_pair_shape(sub, obj)  # the pairs a foil forms, worked out once
    return _Slot(
        "object",
        obj.name,
        foils,
        check,
        lambda f: [(k, f"{a}{f}{b}") for k, a, b in shape],
        compounds,
    )


def _attribute_slot(
    sub: SceneGraph,
    g: GraphIndex,
    obj: SGObject,
    index: int,
    rng: random.Random,
    ranker: Any = None,
    vocab: Counter | None = None,
    stated: Stated | None = None,
    region: Box | None = None,
    parsed: bool = False,
) -> _Slot:
    original = obj.attributes[index]

    def compounds(f: str) -> list[tuple[str, ...]]:
        return [("ao", f, obj.name)]

    foils = attribute_foils(original)
    if vocab or stated:  # the graphs' own colours (balance), colours people give it (attested)
        known = set(foils)
        foils += tuple(
            f
            for f in colour_pool(original)
            if f not in known
            and ((vocab and vocab[("attribute", f)]) or (stated and _states(stated, compounds(f))))
        )
    antonyms = attribute_antonyms(original)
    names = g.names(obj) if not parsed else (obj.name,)
    own = set(obj.attributes) | (g.attrs.get(obj.id, set()) if not parsed else set())
    n_antonyms = sum(1 for f in foils if f in antonyms)

    before, after = obj.attributes[:index], obj.attributes[index + 1 :]

    def context(attribute: str) -> str:  # attribute_context of the object given the attribute
        return plain_noun_phrase(obj.name, (*before, attribute, *after))

    def check(foil: str) -> NegativeCandidate | str:
        if foil in obj.attributes or g.has_attribute(obj.id, foil):
            return "atom_attribute_foil_already_holds"
        if not parsed and not g.one_thing(obj.id):  # "lid" / "drawer"
            return "atom_attribute_foil_on_box_of_two_things"
        if any(neighbouring_shades(foil, a) for a in own):  # "grey monitor" of a white one
            return "atom_colour_foil_neighbouring_shade"
        if colour_family(foil) and any(many_coloured(a) for a in own):  # "multi colored"
            return "atom_colour_foil_many_coloured"
        if g.kind_has_attribute(obj.name, obj.synset, foil):  # another pole is black
            return "atom_attribute_foil_held_by_same_kind"
        if g.described_attribute(names, obj.box, foil):  # "the wall is green" in a region
            return "atom_attribute_foil_described"
        if not parsed and g.open_kin(obj, foil, region):  # a second mug of no stated size
            return "atom_attribute_foil_open_for_kin"
        if not parsed and g.open_holder(sub, obj, foil, region):  # a second man's shirt
            return "atom_attribute_foil_open_for_holder_kin"
        attrs = list(obj.attributes)
        attrs[index] = foil
        graph = replace_object(sub, SGObject(obj.id, obj.name, tuple(attrs), obj.box, obj.synset))
        if g.holds(graph):
            return TRUE_IN_G
        rule = "atom:attribute_antonym" if foil in antonyms else "atom:attribute_cohyponym"
        return NegativeCandidate("atom", rule, graph)

    ordered = _by_plausibility(_ordered(foils, n_antonyms, rng), original, context, ranker)
    return _Slot(
        "attribute",
        original,
        ordered,
        check,
        lambda f: [("attribute_object", f"{f} {obj.name}")],
        compounds,
    )


def _relation_slot(
    sub: SceneGraph,
    g: GraphIndex,
    index: int,
    rng: random.Random,
    ranker: Any = None,
    vocab: Counter | None = None,
    stated: Stated | None = None,
) -> _Slot:
    rel = sub.relationships[index]
    by_id = sub.object_by_id()

    def compounds(f: str) -> list[tuple[str, ...]]:
        return [("oro", by_id[rel.subject].name, f, by_id[rel.object].name)]

    def context(predicate: str) -> str:
        return relation_context(sub, rel.subject, predicate, rel.object)

    twice = any(
        k != index and {r.subject, r.object} == {rel.subject, rel.object}
        for k, r in enumerate(sub.relationships)
    )

    def check(foil: str) -> NegativeCandidate | str:
        if twice:  # "magazine on newspaper, the newspaper on the magazine" contradicts itself
            return "atom_relationship_foil_pair_related_twice"
        if foil in g.pair_predicates.get((rel.subject, rel.object), ()):
            return "atom_relationship_foil_already_holds"
        if g.kind_linked(by_id[rel.subject], foil, by_id[rel.object]):  # another lamp is near
            return "atom_relationship_foil_holds_for_same_kinds"
        graph = replace_relationship(sub, index, Relationship(rel.subject, foil, rel.object))
        return (
            TRUE_IN_G if g.holds(graph) else NegativeCandidate("atom", "atom:relationship", graph)
        )

    foils = list(relation_foils(rel.predicate))
    if vocab:  # a predicate no graph holds ("lacks") could only ever be a foil: never balanced
        foils = [f for f in foils if vocab[("relationship", f)]]
    foils = _by_plausibility(foils, rel.predicate, context, ranker)
    names = sub.object_by_id()

    def pairs(foil: str) -> list[tuple[str, str]]:
        return [
            ("subject_relation", f"{names[rel.subject].name} {foil}"),
            ("relation_object", f"{foil} {names[rel.object].name}"),
        ]

    return _Slot("relationship", rel.predicate, foils, check, pairs, compounds)


def _states(stated: Stated, compounds: list[tuple[str, ...]]) -> bool:
    return bool(compounds) and stated(compounds)


def atom_negatives(
    sub: SceneGraph,
    g: GraphIndex,
    rng: random.Random,
    limit: int,
    drops: DropLog | None = None,
    ranker: Any = None,
    ledger: FoilLedger | None = None,
    vocab: Counter | None = None,
    same_atom: int = 0,
    stated: Stated | None = None,
    region: Box | None = None,
) -> list[NegativeCandidate]:
    """Up to ``limit`` HN-ATOM candidates with distinct graphs (see the module docstring).

    With ``same_atom`` (the number of negatives a set needs), the candidates come in groups that
    each replace one atom (:func:`_one_atom`), and a set takes all its negatives from one group
    (:func:`atom_groups`): the set's texts then differ from each other only at that atom, so
    no text is the one all others were made from (the positive of a set whose negatives change
    different atoms is the only text with no word of its own, which an untrained set-level
    judge finds; :mod:`crepe_datasets.generators.balance.set_structure`).

    With a ``ranker`` (``rank(sentences) -> scores``), each atom's foils are tried closest in
    plausibility to the original first (:mod:`crepe_datasets.generators.negatives.plausible`).
    With a foil ``ledger`` (:mod:`crepe_datasets.generators.negatives.foil_balance`), foils that
    would push a word's foil or truth uses out of the ledger's bounds are skipped before they
    are checked, and among the atoms' next foils the one that best balances the ledger is tried
    first (ties in the order above). ``vocab`` (``(kind, word)`` counts of the image graphs
    being built) puts foils that are also words of those graphs first, adds to an object's
    foils its other co-hyponyms that are, and to a colour the other colours that are (they can
    be balanced by being replaced in turn), and
    keeps only relation foils that are predicates of those graphs; when ``vocab`` also holds
    their adjacent pairs (:func:`~crepe_datasets.generators.negatives.joint_balance.graph_features`),
    among those words the foils that form more pairs of the graphs come first ("brown desk" →
    "brown table" where another graph has a brown table, rather than "brown freezer").
    With ``stated`` (systematicity with ``--counter-pool``: whether a human graph of another
    image states compounds, :data:`Stated`), an atom's foils that form compounds it states go
    first (then the words of the graphs, as above), and the colours and co-hyponyms it states with the
    object join the foils: a compound that people write is a plausible one.
    Rejected foils are counted in ``drops`` (stage ``productivity_negative_checks``;
    ``atom_foil_unbalanced`` for the ledger's skips).
    """
    # the crop: a subgraph of G shows the union of its boxes; a parsed caption graph (no boxes,
    # ids of its own, so which thing of G it names is unknown) the caption's region, when given
    parsed = region is not None or sub.region() is None
    region = region if region is not None else sub.region()
    slots: list[tuple] = [("object", o) for o in sub.objects]
    slots += [("attribute", o, i) for o in sub.objects for i in range(len(o.attributes))]
    slots += [("relationship", i) for i in range(len(sub.relationships))]
    rng.shuffle(slots)
    made: list[_Slot] = []
    for slot in slots:
        if slot[0] == "object":
            made.append(_object_slot(sub, g, slot[1], rng, ranker, vocab, stated, region))
        elif slot[0] == "attribute":
            made.append(
                _attribute_slot(
                    sub, g, slot[1], slot[2], rng, ranker, vocab, stated, region, parsed
                )
            )
        else:
            made.append(_relation_slot(sub, g, slot[1], rng, ranker, vocab, stated))
    if vocab or stated:  # stable: stated compounds first, then words of the graphs, then
        for slot in made:  # those forming more pairs of the graphs

            def order(f: str, s: _Slot = slot) -> tuple[bool, bool, int]:
                # .get: a Counter's [] of a missing key is slower
                unknown = bool(vocab) and not vocab.get((s.kind, f))  # type: ignore[union-attr]
                return (
                    bool(stated) and not _states(stated, s.compounds(f)),  # type: ignore[arg-type]
                    unknown,
                    # a word no graph has forms no pair of theirs: its pairs are not looked up
                    0 if unknown else -sum(1 for p in s.pairs(f) if vocab and vocab.get(p)),
                )

            slot.foils.sort(key=order)
    positive = positive_atoms(sub) if ledger is not None else None
    tentative = Tentative(ledger, positive) if ledger is not None else None
    gains: list[list[int]] = []  # each slot's foils' ledger gains, in the slot's order
    if ledger is not None:  # stable: each atom's best-balancing foils first, ties as above
        for slot in made:
            by_foil = {f: ledger.gain((slot.kind, slot.truth, f)) for f in slot.foils}
            slot.foils.sort(key=lambda f, g=by_foil: -g[f])
            gains.append([by_foil[f] for f in slot.foils])

    if same_atom:
        return _one_atom(made, sub, ledger, positive, limit, same_atom, drops)

    def key(slot_index: int, position: int, passes: int) -> tuple:
        return (-gains[slot_index][position] if gains else 0, passes, slot_index, position)

    # one entry per atom: its next foil; an atom moves to the next pass when it gives a candidate
    heap = [key(i, 0, 0) for i, slot in enumerate(made) if slot.foils]
    heapq.heapify(heap)
    out: list[NegativeCandidate] = []
    seen = {sub.signature()}
    while heap and len(out) < limit:
        _, passes, i, position = heapq.heappop(heap)
        slot = made[i]
        result = _try(slot, slot.foils[position], tentative, seen, drops)
        if result is not None:
            out.append(result)
            passes += 1
        if position + 1 < len(slot.foils):
            heapq.heappush(heap, key(i, position + 1, passes))
    return out


def atom_groups(candidates: Sequence[Any]) -> list[list[Any]]:
    """Candidates (anything with an ``exchange``) grouped by the atom they replace (kind and
    word), in order of first appearance: the groups :func:`atom_negatives` makes with
    ``same_atom``."""
    groups: dict[tuple[str, str] | None, list[Any]] = {}
    for c in candidates:
        key = tuple(c.exchange[:2]) if c.exchange else None
        groups.setdefault(key, []).append(c)  # type: ignore[arg-type]
    return list(groups.values())


def _try(
    slot: _Slot,
    foil: str,
    tentative: Tentative | None,
    seen: set,
    drops: DropLog | None,
) -> NegativeCandidate | None:
    """The candidate of ``foil`` in ``slot``, or ``None`` with the reason counted in ``drops``."""
    ex = (slot.kind, slot.truth, foil)
    result = "atom_foil_unbalanced" if tentative and not tentative.admits(ex) else None
    result = result or slot.check(foil)
    if isinstance(result, str):
        if drops is not None:
            drops.drop(CHECK_STAGE, result)
        return None
    signature = result.graph.signature()
    if signature in seen:
        if drops is not None:
            drops.drop(CHECK_STAGE, "atom_duplicate_graph")
        return None
    seen.add(signature)
    if tentative is not None:
        tentative.add(ex)
    return NegativeCandidate(result.type, result.rule, result.graph, exchange=ex)


def _one_atom(
    made: list[_Slot],
    sub: SceneGraph,
    ledger: FoilLedger | None,
    positive: Counter | None,
    limit: int,
    needed: int,
    drops: DropLog | None,
) -> list[NegativeCandidate]:
    """Candidates of :func:`atom_negatives` with ``same_atom``: groups of up to ``limit``
    candidates, each group replacing one atom. Atoms are tried best-balancing first foil
    first; the first :data:`MAX_ATOM_GROUPS` whose foils give ``needed`` valid candidates are
    returned in that order (the refinement takes the first group it can balance), or, when none
    does, the one that gave the most. Atoms of the same kind and word as a group's are skipped,
    so ``exchange[:2]`` names a group. Valid candidates left out are counted
    (``atom_other_atom_replaced``)."""

    def first_gain(i: int) -> tuple:
        slot = made[i]
        return (-(ledger.gain((slot.kind, slot.truth, slot.foils[0])) if ledger else 0), i)

    groups: list[list[NegativeCandidate]] = []
    best: list[NegativeCandidate] = []
    left_out = 0
    used: set[tuple[str, str]] = set()
    for i in sorted((i for i, slot in enumerate(made) if slot.foils), key=first_gain):
        slot = made[i]
        if (slot.kind, slot.truth) in used:
            continue
        tentative = Tentative(ledger, positive) if ledger is not None else None
        seen = {sub.signature()}
        got: list[NegativeCandidate] = []
        for foil in slot.foils:
            if len(got) >= limit:
                break
            if (result := _try(slot, foil, tentative, seen, drops)) is not None:
                got.append(result)
        if len(got) >= needed:
            groups.append(got)
            used.add((slot.kind, slot.truth))
            if len(groups) == MAX_ATOM_GROUPS:
                break
        elif len(got) > len(best):
            left_out += len(best)
            best = got
        else:
            left_out += len(got)
    if not groups:
        groups = [best]
    else:
        left_out += len(best)
    if drops is not None and left_out:
        drops.drop(CHECK_STAGE, "atom_other_atom_replaced", n=left_out)
    return [c for group in groups for c in group]

"""Checking candidate negatives against the full image graph ``G`` (SPEC §3.4).

A negative must be false for the image. The general test is :meth:`GraphIndex.holds`: the
modified subgraph ``H'`` is *made true by G* when ``G`` contains it, i.e. there is an injective
map from the objects of ``H'`` to objects of ``G`` with the same name, whose attributes include
the object's attributes, and that carries every relationship of ``H'`` onto a relationship of
``G`` with the same predicate. Rule-specific checks (e.g. "neither attribute already holds for
the other object") are added by each generator.

An object is matched under its name and under its aliases (the other names an annotation
gives its box, :attr:`~crepe_datasets.scenegraph.types.SGObject.aliases`). The index may also
hold the image's :class:`~crepe_datasets.scenegraph.types.Description` texts (Visual Genome
region descriptions, questions and answers): what people wrote of the image is evidence too
(:meth:`GraphIndex.described_attribute`, :meth:`GraphIndex.described_in`).

The search is a small backtracking match (subgraphs have at most 12 atoms). When it would
take more than ``max_steps`` steps the answer is "holds" — the conservative choice, which drops
the candidate rather than risk keeping a true "negative".
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from crepe_datasets.generators.negatives.kinds import (
    ancestors,
    attribute_forms,
    attribute_says,
    general_senses,
    is_person,
    kind_keys,
    may_be,
    predicate_says,
    predicate_variants,
    reverse_variants,
    same_kind,
    says_in,
    vacuous,
)
from crepe_datasets.scenegraph.lexicon import singularize
from crepe_datasets.scenegraph.types import Box, Description, SceneGraph, SGObject

#: A relation of an object to a neighbour: ``(predicate, neighbour name, neighbour synset)``.
Edge = tuple[str, str, "str | None"]

MAX_STEPS = 50_000
# A thing a region shows: at least this share of its box inside (:meth:`GraphIndex.kin_things`)
VISIBLE_SHARE = 0.5
# Two boxes overlapping this much are one thing annotated twice (:meth:`GraphIndex.kin_things`;
# HN-SWAP's two names of one thing; HN-COMP-MATCHED's own boxes)
SAME_THING_IOU = 0.5
# A region description speaks of an object when the smaller of their two boxes lies at least
# this much inside the other (:meth:`GraphIndex.described_attribute`)
DESCRIBED_OVERLAP = 0.5
# A region describes one object in so many words only where the object's box is at least this
# share of the region's (:meth:`GraphIndex.stated_attributes`)
STATED_SHARE = 0.25
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)?")


class GraphIndex:
    """Look-ups over the full image graph ``G`` (names, attributes, relations by pair)."""

    def __init__(self, graph: SceneGraph, descriptions: Sequence[Description] = ()) -> None:
        self.graph = graph
        self.memo: dict[tuple, Any] = {}  # checks that depend only on G and their key
        self.by_id: dict[int, SGObject] = graph.object_by_id()
        self.attrs: dict[int, frozenset[str]] = {
            o.id: frozenset(o.attributes) for o in graph.objects
        }
        self.by_name: dict[str, list[int]] = defaultdict(list)
        for o in graph.objects:
            for name in dict.fromkeys((o.name, *o.aliases)):
                self.by_name[name].append(o.id)
        # each description's box and words, and the descriptions by the kind keys of their
        # words (:meth:`_mentions`), once
        self.descriptions: list[tuple[Box | None, frozenset[str]]] = [
            (d.box, frozenset(_WORD.findall(d.text.lower()))) for d in descriptions
        ]
        self._texts = list(descriptions)  # read word by word only by stated_attributes
        self._by_word: dict[str, list[int]] = defaultdict(list)
        for i, (_, words) in enumerate(self.descriptions):
            for w in words:
                self._by_word[w].append(i)
        self.triples: set[tuple[int, str, int]] = set()
        self.pair_predicates: dict[tuple[int, int], set[str]] = defaultdict(set)
        self.out_edges: dict[int, list[tuple[str, int]]] = defaultdict(list)
        self.in_edges: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for r in graph.relationships:
            if r.subject in self.by_id and r.object in self.by_id:
                self.triples.add((r.subject, r.predicate, r.object))
                self.pair_predicates[(r.subject, r.object)].add(r.predicate)
                self.out_edges[r.subject].append((r.predicate, r.object))
                self.in_edges[r.object].append((r.subject, r.predicate))

    def name(self, oid: int) -> str:
        return self.by_id[oid].name

    def named_edges(self, oid: int) -> tuple[frozenset, frozenset]:
        """``{(predicate, object name)}`` of the object's outgoing relationships and
        ``{(subject name, predicate)}`` of its incoming ones (computed once per object)."""
        key = ("named_edges", oid)
        edges = self.memo.get(key)
        if edges is None:
            out = frozenset((p, self.name(t)) for p, t in self.out_edges.get(oid, ()))
            inc = frozenset((self.name(s), p) for s, p in self.in_edges.get(oid, ()))
            edges = self.memo[key] = (out, inc)
        return edges

    def has_attribute(self, oid: int, attribute: str) -> bool:
        return attribute in self.attrs.get(oid, frozenset())

    def kin(self, name: str, synset: str | None = None) -> tuple[int, ...]:
        """Ids of the objects of ``G`` of the same kind as a thing called ``name``
        (:func:`~crepe_datasets.generators.negatives.kinds.same_kind`: its name, a synonym, the
        same head word or the same Visual Genome synset) or of a kind of it
        (:func:`~crepe_datasets.generators.negatives.kinds.is_kind_of`), computed once per name."""
        key = ("kin", name, synset)
        found = self.memo.get(key)
        if found is None:
            if vacuous(name):  # "a black thing": anything
                found = self.memo[key] = tuple(o.id for o in self.graph.objects)
                return found
            from crepe_datasets.generators.negatives.foils import tangible_senses

            same = self._name_index("kind", kind_keys)  # same kind by name, aliases too
            below = self._name_index("ancestors", ancestors)  # a kind of it
            ids = {oid for k in kind_keys(name) for oid, _ in same.get(k, ())}
            ids |= {oid for s in tangible_senses(name) for oid, _ in below.get(s.name(), ())}
            if synset:
                ids |= {o.id for o in self.graph.objects if o.synset == synset}
            found = self.memo[key] = tuple(o.id for o in self.graph.objects if o.id in ids)
        return found

    def names(self, obj: SGObject) -> tuple[str, ...]:
        """The names ``G`` gives the object's box (its name and aliases), or the object's own
        name when it is not in ``G`` (a parsed caption's, a swapped one's)."""
        o = self.by_id.get(obj.id)
        return (o.name, *o.aliases) if o is not None else (obj.name,)

    def one_thing(self, oid: int) -> bool:
        """Whether every name Visual Genome gives the object names one kind of thing: each alias
        is of its name's kind or one may be the other (:func:`same_kind`, :func:`may_be`:
        "cup" / "mug", "person" / "man"). A box merged from unrelated annotations ("lid" /
        "drawer", "desk" / "folder") may carry the other thing's attributes: the "red" of the
        "lid" may be the drawer's, so neither a foil of it nor a contradiction by it is sure.
        An object not in ``G`` (a parsed caption's) has one name."""
        key = ("one_thing", oid)
        found = self.memo.get(key)
        if found is None:
            o = self.by_id.get(oid)
            found = self.memo[key] = o is None or all(
                same_kind(a, o.name) or may_be(a, o.name) or may_be(o.name, a) for a in o.aliases
            )
        return found

    def kind_of_shown(self, name: str, region: Box | None = None) -> bool:
        """Whether ``region`` (the whole image without one) shows an object whose name or alias
        names a more general kind than ``name``, which a thing called ``name`` may be
        (:func:`~crepe_datasets.generators.negatives.kinds.may_be`): "a man" where the crop
        shows a "person" of no stated gender."""
        key = ("kind_of", name)
        if key not in self.memo:
            index = self._name_index("general", general_senses)
            self.memo[key] = sorted(
                {
                    oid
                    for sense in ancestors(name) & index.keys()
                    for oid, n in index[sense]
                    if n != name and not same_kind(n, name)
                }
            )
        return self._any_shown(key, region)

    def whole_shown(self, name: str, region: Box | None = None) -> bool:
        """Whether ``region`` (the whole image without one) shows a thing that a thing called
        ``name`` is part of (:func:`~crepe_datasets.generators.negatives.foils.part_of`): "a
        palm" where the crop shows a hand, "a wheel" where it shows a car, "a tongue" where it
        shows a person."""
        from crepe_datasets.generators.negatives.foils import body_part_names, part_names

        key = ("wholes_of", name)
        if key not in self.memo:
            index = self._name_index("parts", part_names)
            found = {oid for oid, _ in index.get(name, ())}
            if name in body_part_names():  # every person has it
                found |= {oid for oid, _ in self._name_index("person", _person_key).get(True, ())}
            self.memo[key] = sorted(found)
        return self._any_shown(key, region)

    def _name_index(self, kind: str, keys: Any) -> dict[Any, list[tuple[int, str]]]:
        """``(object id, name)`` of every name and alias of ``G`` by each of ``keys(name)``,
        built once per ``kind``: one look-up per key finds the objects a word may name."""
        index = self.memo.get(("index", kind))
        if index is None:
            index = self.memo[("index", kind)] = defaultdict(list)
            for o in self.graph.objects:
                for n in (o.name, *o.aliases):
                    for k in keys(n):
                        index[k].append((o.id, n))
        return index

    def _any_shown(self, key: tuple, region: Box | None) -> bool:
        """Whether ``region`` shows one of the objects whose ids :attr:`memo` keeps at ``key``."""
        ids = self.memo[key]
        if not ids:
            return False
        found = self.memo.get((*key, region))
        if found is None:
            found = self.memo[(*key, region)] = any(_shows(region, self.by_id[i].box) for i in ids)
        return found

    def _mentions(self, name: str) -> tuple[int, ...]:
        """The descriptions that have a word for a thing of ``name``'s kind (:func:`same_kind`,
        through the index of :func:`~crepe_datasets.generators.negatives.kinds.kind_keys`)."""
        key = ("mentions", name)
        found = self.memo.get(key)
        if found is None:
            by_key = self.memo.get(("index", "words"))
            if by_key is None:  # the descriptions' words by their kind keys, once
                by_key = self.memo[("index", "words")] = defaultdict(list)
                for w in self._by_word:
                    for k in kind_keys(w):
                        by_key[k].append(w)
            found = self.memo[key] = tuple(
                sorted(
                    {
                        i
                        for k in kind_keys(name)
                        for w in by_key.get(k, ())
                        for i in self._by_word[w]
                    }
                )
            )
        return found

    def described_attribute(self, names: Sequence[str], box: Box | None, attribute: str) -> bool:
        """Whether a description says ``attribute`` of a thing called one of ``names``: it has
        a word for the thing's kind and a word that says the attribute
        (:func:`attribute_says`), and it is a question and answer (about the whole image) or a
        region whose box and ``box`` mostly overlap (:data:`DESCRIBED_OVERLAP`). "The wall is
        green" and "what colour is the wall? green" make "a green wall" possibly true whatever
        colour the wall object is annotated with."""
        done = self.memo.get(("described", tuple(names), box, attribute))
        if done is not None:
            return done
        key = ("described", tuple(names), box)
        said = self.memo.get(key)
        if said is None:  # the words of the descriptions that speak of the thing, once
            near = [
                words
                for where, words in map(
                    self.descriptions.__getitem__, {i for n in names for i in self._mentions(n)}
                )
                if where is None
                or box is None
                or where.intersection_area(box) >= DESCRIBED_OVERLAP * min(where.area, box.area)
            ]
            words = set().union(*near)
            forms = [attribute_forms(w) for w in words]  # as attribute_says reads each word
            said = self.memo[key] = (
                frozenset().union(*(f for f, _ in forms)),
                frozenset().union(*(c for _, c in forms)),
            )
        done = self.memo[(*key, attribute)] = says_in(*said, attribute)
        return done

    def described_together(self, a: str, b: str) -> bool:
        """Whether one description (a region's phrase, a question and its answer) has a word for
        a thing of ``a``'s kind and one for a thing of ``b``'s (:func:`same_kind`): "what is on
        top of the cpu? a book" speaks of a book and a cpu together."""
        return not set(self._mentions(a)).isdisjoint(self._mentions(b))

    def described_in(self, name: str, region: Box | None = None) -> bool:
        """Whether a region description within ``region`` (at least :data:`VISIBLE_SHARE` of
        its box inside; every region description without one) has a word for a thing of
        ``name``'s kind: "a table is next to the couch" shows a couch whatever the objects are
        called. Questions and answers, about the whole image, are not counted."""
        return any(
            (where := self.descriptions[i][0]) is not None and _shows(region, where)
            for i in self._mentions(name)
        )

    def kind_has_attribute(self, name: str, synset: str | None, attribute: str) -> bool:
        """Whether an object of ``G`` of the kind of ``name`` has an attribute that says
        ``attribute`` (:func:`~crepe_datasets.generators.negatives.kinds.attribute_says`):
        "a black pole" is true when any pole of the image is black."""
        return any(
            attribute_says(a, attribute) for i in self.kin(name, synset) for a in self.attrs[i]
        )

    def kin_things(
        self, name: str, synset: str | None, region: Box | None = None
    ) -> list[frozenset[int]]:
        """The things of ``G`` of the kind of ``name`` (:meth:`kin`) that ``region`` shows (at
        least :data:`VISIBLE_SHARE` of the box inside; all of them without a region or a box),
        each as the ids of its boxes (boxes of one kind with IoU ≥ :data:`SAME_THING_IOU` are
        one thing annotated twice)."""
        key = ("kin_things", name, synset, region)
        found = self.memo.get(key)
        if found is not None:
            return found

        things: list[list[SGObject]] = []
        for o in (self.by_id[i] for i in self.kin(name, synset)):
            if not _shows(region, o.box):
                continue
            same = next(
                (
                    members
                    for members in things
                    if o.box is not None
                    and any(
                        m.box is not None and m.box.iou(o.box) >= SAME_THING_IOU for m in members
                    )
                ),
                None,
            )
            if same is None:
                things.append([o])
            else:
                same.append(o)

        found = self.memo[key] = [frozenset(m.id for m in ms) for ms in things]
        return found

    def stated_attributes(self, oid: int) -> frozenset[str]:
        """The attributes a region description gives object ``oid`` in so many words: "<a>
        <name>" ("a gray car", "white and red car") or "<name> is <a>" ("the car is gray"), with
        ``<a>`` a word that has attribute foils, in a region that is mostly this object (the
        object's box covers a quarter of the region's and the two overlap as in
        :meth:`described_attribute`) and shows no other thing of its kind (:meth:`kin_things`).
        Only the words next to the name count, so "man in green shirt" gives the man nothing;
        the name must end its noun phrase ("black car tire" gives the car nothing)."""
        from crepe_datasets.generators.negatives.foils import noun_only

        key = ("stated", oid)
        found = self.memo.get(key)
        if found is not None:
            return found
        o = self.by_id.get(oid)
        out: set[str] = set()
        if o is not None and o.box is not None and self.one_thing(oid):
            own_names = self.names(o)
            names = {tuple(singularize(w) for w in n.lower().split()) for n in own_names}
            for i in sorted({i for n in own_names for i in self._mentions(n)}):
                d = self._texts[i]
                where = d.box
                if (
                    where is None
                    or o.box.area < STATED_SHARE * where.area
                    or where.intersection_area(o.box)
                    < DESCRIBED_OVERLAP * min(where.area, o.box.area)
                ):
                    continue
                words, heads = self._words(i)
                spans = [
                    (j, j + len(n))
                    for n in names
                    for j in range(len(words) - len(n) + 1)
                    if tuple(heads[j : j + len(n)]) == n
                ]
                said: set[str] = set()
                for start, end in spans:
                    if (
                        end < len(words)
                        and words[end] not in ("is", "are")
                        and noun_only(words[end])
                    ):
                        continue  # "black car tire": the name does not end its noun phrase
                    said.update(_attribute_run(words, start - 1, -1))
                    if end < len(words) and words[end] in ("is", "are"):
                        said.update(_attribute_run(words, end + 1, 1))
                if said - out:  # the words state something new: is the region this thing's?
                    things = self.kin_things(o.name, o.synset, where)
                    if len(things) == 1 and oid in things[0]:
                        out |= said
        found = self.memo[key] = frozenset(out)
        return found

    def _words(self, i: int) -> tuple[list[str], list[str]]:
        """Description ``i``'s words in order and their singulars (once per description)."""
        key = ("words", i)
        found = self.memo.get(key)
        if found is None:
            words = _WORD.findall(self._texts[i].text.lower())
            found = self.memo[key] = (words, [singularize(w) for w in words])
        return found

    def contradicts(self, oid: int, attribute: str, stated: bool = False) -> bool:
        """Whether ``G`` gives object ``oid`` an attribute that excludes ``attribute``: one of
        its foils (an antonym, or another basic colour for a colour:
        :func:`~crepe_datasets.generators.negatives.foils.attribute_foils`), or one of whose
        foils it is. Visual Genome leaves most attributes unannotated: "white outlet" said of
        an outlet with no colour in ``G`` may well be true; said of a brown one it is false.

        With ``stated`` (HN-SWAP, where a contradiction is the only evidence that the swapped
        text is false), the attributes region descriptions give the object in so many words
        count too (:meth:`stated_attributes`: "the car is gray"), and a thing of two colours
        excludes no colour (:func:`~crepe_datasets.generators.negatives.foils.several_colours`:
        "black" moved onto a "red and white" sign may be its letters)."""
        from crepe_datasets.generators.negatives.foils import (
            colour_family,
            excludes,
            many_coloured,
            several_colours,
        )

        key = ("contradicts", oid, attribute, stated)
        found = self.memo.get(key)
        if found is not None:
            return found
        own = self.attrs.get(oid, frozenset())
        if stated:
            own |= self.stated_attributes(oid)
        if attribute in own or not self.one_thing(oid):
            found = False
        elif colour_family(attribute) and (
            any(many_coloured(b) for b in own) or (stated and several_colours(own))
        ):
            found = False  # a "multi colored" thing may have this colour too
        else:
            found = excludes(own, attribute)
        self.memo[key] = found
        return found

    def open_kin(self, obj: SGObject, attribute: str, region: Box | None = None) -> bool:
        """Whether ``region`` (the whole image without one) shows another thing of ``obj``'s
        kind (:meth:`kin_things`) that ``attribute`` may fit, no box of it having an attribute
        that excludes it (:meth:`contradicts`): "small coffee mug" where a second mug has no
        size annotated, "silver chair" beside a chair with no colour."""
        return any(
            obj.id not in ids and not any(self.contradicts(i, attribute) for i in ids)
            for ids in self.kin_things(obj.name, obj.synset, region)
        )

    def open_holder(
        self, sub: SceneGraph, obj: SGObject, attribute: str, region: Box | None = None
    ) -> bool:
        """Whether ``region`` shows another person of the kind of one that ``sub`` relates to
        ``obj`` ("man" in "man wearing shirt") with no thing of ``obj``'s kind that ``G`` relates
        to them so and that excludes ``attribute``: the second man's shirt, not annotated, may be
        the foil's colour. Only people (:func:`~crepe_datasets.generators.negatives.kinds.is_person`):
        what one person wears or has, another has too, and Visual Genome annotates it for few."""
        by_id = sub.object_by_id()
        for r in sub.relationships:
            holder = by_id.get(r.subject)
            if r.object != obj.id or holder is None or holder.id == obj.id:
                continue
            if not is_person(holder.name):
                continue
            edge = (r.predicate, obj.name, obj.synset)
            for ids in self.kin_things(holder.name, holder.synset, region):
                if holder.id in ids:
                    continue
                held = [t for i in ids for t in self._neighbours(i, edge, True)]
                if not held or not all(self.contradicts(t, attribute) for t in held):
                    return True
        return False

    def _neighbours(self, oid: int, edge: Edge, outgoing: bool) -> list[int]:
        """The objects of the edge's kind that ``oid`` has the relation ``edge`` to (``oid``
        its subject when ``outgoing``), by a predicate of the same meaning or, the other way
        round, by a converse one."""
        predicate, name, synset = edge
        others = set(self.kin(name, synset))
        forward, backward = predicate_variants(predicate), reverse_variants(predicate)
        if not outgoing:
            forward, backward = backward, forward
        out = [
            t for p, t in self.out_edges.get(oid, ()) if t in others and predicate_says(p, forward)
        ]
        out += [
            s for s, p in self.in_edges.get(oid, ()) if s in others and predicate_says(p, backward)
        ]
        return out

    def _linked(self, oid: int, edge: Edge, outgoing: bool) -> bool:
        """Whether ``oid`` has the relation ``edge`` to an object of the neighbour's kind
        (:meth:`_neighbours`)."""
        return bool(self._neighbours(oid, edge, outgoing))

    def linked(self, oid: int, edge: Edge) -> bool:
        """Whether ``G`` links object ``oid`` to an object of the edge's kind by its predicate,
        one of the same meaning, or (from that object) the converse."""
        return self._linked(oid, edge, True)

    def kind_linked(self, subject: SGObject, predicate: str, obj: SGObject) -> bool:
        """Whether ``G`` links an object of the kind of ``subject`` to one of the kind of ``obj``
        by ``predicate`` or a predicate of the same meaning (or the converse, the other way)."""
        edge = (predicate, obj.name, obj.synset)
        return any(self._linked(i, edge, True) for i in self.kin(subject.name, subject.synset))

    def kind_stands(
        self,
        name: str,
        attributes: tuple[str, ...],
        outgoing: list[Edge],
        incoming: list[Edge],
    ) -> bool:
        """Whether ``G`` has an object of the kind of ``name`` with every attribute of
        ``attributes`` and every relation of ``outgoing`` (it the subject) and ``incoming`` (it
        the object) to objects of the neighbours' kinds: what a caption says of one object,
        checked on any object of the image that it could be said of."""
        for i in self.kin(name):
            if not all(any(attribute_says(a, need) for a in self.attrs[i]) for need in attributes):
                continue
            if all(self._linked(i, e, True) for e in outgoing) and all(
                self._linked(i, e, False) for e in incoming
            ):
                return True
        return False

    def holds(
        self,
        sub: SceneGraph,
        max_steps: int = MAX_STEPS,
        absent: tuple[tuple[int, str, int], ...] = (),
    ) -> bool:
        """True when ``G`` contains ``sub`` (see the module docstring).

        ``absent``: triples ``(subject, predicate, object)`` over ``sub``'s objects that the
        map must *not* carry onto a relationship of ``G`` (a map that finds ``sub`` in ``G``
        where such a triple is not annotated makes its negation true).
        """
        candidates: dict[int, list[int]] = {}
        for o in sub.objects:
            need = set(o.attributes)
            found = [g for g in self.by_name.get(o.name, ()) if need <= self.attrs[g]]
            if not found:
                return False
            candidates[o.id] = found
        rels = [(r.subject, r.predicate, r.object) for r in sub.relationships]
        if not self._arc_consistent(candidates, rels):
            return False
        order = sorted(candidates, key=lambda i: len(candidates[i]))
        by_hid: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
        for rel in rels:
            by_hid[rel[0]].append(rel)
            by_hid[rel[2]].append(rel)
        assign: dict[int, int] = {}
        used: set[int] = set()
        steps = 0

        def consistent(hid: int) -> bool:
            for s, p, o in by_hid[hid]:
                if s in assign and o in assign and (assign[s], p, assign[o]) not in self.triples:
                    return False
            return True

        if absent:
            avoid: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
            for rel in absent:
                avoid[rel[0]].append(rel)
                avoid[rel[2]].append(rel)
            present = consistent

            def consistent(hid: int) -> bool:  # the check with absent triples
                if not present(hid):
                    return False
                for s, p, o in avoid.get(hid, ()):
                    if s in assign and o in assign and (assign[s], p, assign[o]) in self.triples:
                        return False
                return True

        def search(k: int) -> bool:
            nonlocal steps
            if k == len(order):
                return True
            hid = order[k]
            for gid in candidates[hid]:
                steps += 1
                if steps > max_steps:
                    raise _TooManySteps
                if gid in used:
                    continue
                assign[hid] = gid
                used.add(gid)
                if consistent(hid) and search(k + 1):
                    return True
                del assign[hid]
                used.discard(gid)
            return False

        try:
            return search(0)
        except _TooManySteps:
            return True
        finally:
            # ``search`` refers to itself: without this, every call left a reference cycle
            # (closures, this index and its image graph) for the cyclic collector to find
            search = present = consistent = None  # type: ignore[assignment]

    def _arc_consistent(
        self, candidates: dict[int, list[int]], rels: list[tuple[int, str, int]]
    ) -> bool:
        """Prune candidates that cannot carry a relationship; False when one runs out."""
        changed = True
        while changed:
            changed = False
            for s, p, o in rels:
                objs = set(candidates[o])
                keep_s = [
                    g
                    for g in candidates[s]
                    if any(q == p and t in objs for q, t in self.out_edges.get(g, ()))
                ]
                subs = set(keep_s)
                keep_o = [
                    g
                    for g in candidates[o]
                    if any(q == p and x in subs for x, q in self.in_edges.get(g, ()))
                ]
                if len(keep_s) != len(candidates[s]) or len(keep_o) != len(candidates[o]):
                    candidates[s], candidates[o] = keep_s, keep_o
                    changed = True
                if not keep_s or not keep_o:
                    return False
        return True


@functools.lru_cache(maxsize=100_000)
def _person_key(name: str) -> tuple[bool, ...]:
    """``(True,)`` for a person's name (:func:`~crepe_datasets.generators.negatives.kinds.is_person`),
    an index key of :meth:`GraphIndex.whole_shown`."""
    return (True,) if is_person(name) else ()


def _stated_word(word: str) -> bool:
    """Whether ``word`` next to a name says an attribute of it that may exclude another: a
    word with attribute foils and an adjective sense (WordNet), not a stop word nor a
    predicate, that is a colour or mostly an adjective ("gray", "silver", "small", "empty";
    not "on", "near", "top", "many", "metal", nor "coffee" of "coffee press")."""
    from spacy.lang.en.stop_words import STOP_WORDS

    from crepe_datasets.generators.negatives.foils import (
        attribute_foils,
        colour_family,
        relation_table,
        sense_counts,
    )
    from crepe_datasets.generators.negatives.kinds import predicate_meaning

    counts = sense_counts(word)
    adjective = counts.get("a", -1)
    predicate = word in relation_table() or predicate_meaning(word) != word
    if adjective < 0 or word in STOP_WORDS or predicate or not attribute_foils(word):
        return False
    return bool(colour_family(word)) or adjective >= max(counts.get(p, -1) for p in "nvr")


def _attribute_run(words: list[str], start: int, step: int) -> list[str]:
    """The words that say attributes (:func:`_stated_word`) read from ``start`` in direction
    ``step`` (``-1``: back from a name, ``1``: on from "is"), over "and" between them, up to
    the first other word: "white and red" of "a white and red car"."""
    out: list[str] = []
    j = start
    while 0 <= j < len(words):
        w = words[j]
        if w == "and" and out:
            j += step
            continue
        if not _stated_word(w):
            break
        out.append(w)
        j += step
    return out


def _shows(region: Box | None, box: Box | None) -> bool:
    """Whether ``region`` shows a thing in ``box``: at least :data:`VISIBLE_SHARE` of the box
    inside (always without a region or a box)."""
    if region is None or box is None or box.area <= 0:
        return True
    return box.intersection_area(region) >= VISIBLE_SHARE * box.area


class _TooManySteps(Exception):
    pass

"""The match rule: a counter-region where a negative caption is true and its positive is false.

For a positive caption ``P`` of region ``r`` of image ``i`` and one of its negatives ``N``
(``N`` is ``P`` with one atom replaced: the exchange ``(kind, old, new)``, read from the two
graphs by an independent diff), a pool region ``c`` (:mod:`.pool`) is a **counter-region** when

1. **``N`` is true in ``c``**: ``c``'s canonical graph contains ``N``'s graph — an injective map
   of ``N``'s objects onto objects of ``c`` whose name is the object's name or a first-sense
   WordNet synonym (:meth:`.terms.Terms.tight`), whose attributes include each of the object's
   attributes (or a first-sense synonym), and that carries every relationship of ``N`` onto a
   relationship of ``c`` with the same predicate lemma (or a synonym). Every atom and compound
   of ``N`` is therefore stated by ``c``'s human annotation. Names on both sides are
   canonicalised the same way (:mod:`.terms`: singular, verb lemmas, Visual Genome aliases).
   An HN-ATOM object that no relationship of ``N`` links ("woman blue shirt") maps onto one
   that ``c`` links to another mapped object (:func:`together`).
2. **``P`` is false in ``c``**: ``c`` does not contain ``P``'s graph even with broad synonyms
   (:meth:`.terms.Terms.loose`: three senses of every part of speech) and with ``P``'s colours
   given to every thing of ``c`` that may have them (:func:`_may_be`), nor, with ``described``,
   do the graphs of ``c``'s image (its descriptions') state ``P`` (:func:`true_in_image`); and
   the replaced atom is absent or contradicted there:

   * object exchange (``horse`` → ``mule``): no object of ``c`` is named ``old`` or a broad
     synonym of it (no such object in the region), and none of the whole image ``c`` is on
     either: a region graph names what its description mentions ("woman wearing a hat" leaves a
     scarf unsaid), so a region of an image whose whole graph the pool lacks (a FACTUAL region
     of an image beyond ``--vg``) cannot show the absence (``object_absence_unverifiable``),
     unless the region's silence is evidence enough (:func:`_region_shows_absence`: ``old`` is
     in no relationship, or only the place of a kept subject: "a computer on the desk" → "on
     the table");
   * attribute exchange (``blue`` → ``red``): the object that carries ``new`` does not also carry
     ``old`` (or a broad synonym): it is another colour / the antonym; nor a pattern of several
     colours (:data:`MANY_COLOURS`: "a blue striped carpet" may be grey too), nor has ``old``
     among the words of an attribute ("blue grey carpet"), nor has a part of it ``old``
     (:func:`part_of`: "green leaves on a brown tree" leaves "the tree is green" true);
   * relationship exchange: the matched pair is not also linked by ``old``.
3. ``c`` is not on image ``i`` (never the positive's own image).
4. **``N``'s words beyond its graph are in ``c`` too**: a word of ``N``'s caption that names
   nothing of ``N``'s graph (function words aside, :data:`FUNCTION_WORDS`: articles, copulas,
   "there", "in colour", "in the picture", vague quantifiers; number words count as their
   digits) must be a word of ``c``'s description or of a name in ``c``'s graph: the parser may
   have left it out ("the carpet rug is white" parsed as a white rug; "blue window curtains" as
   blue curtains), and a region matching the graph alone need not match the caption. (``P``'s
   extra words only make ``P`` more specific, so they cannot make it true in ``c``.)
5. **No part–whole foils**: for an object exchange, ``old`` is not a WordNet part of ``new`` nor
   ``new`` a part of ``old`` (first senses, parts inherited through hypernyms: a wall is a part
   of a building, so of a house): "the room is white" makes "the wall is white" true.
6. **``N`` is false of image ``i`` as a whole** (:func:`true_in_image`): not every compound of
   ``N`` (counts left out) is stated, through broad synonyms and head nouns, in ``i``'s whole
   scene graph (the pool's ``vg_image`` record) or in one of ``captions`` (the build gives the
   image's other pool regions and the parsed graphs of its region descriptions,
   :func:`crepe_datasets.builders.counter_images.config.own_graphs`): another instance there
   may make it true ("the carpet rug is grey" of an image with a black and a dark grey carpet).
   The keys of these graphs (:func:`image_keys`) are worked out once per image by the caller
   (:class:`OwnImageKeys`), not once per negative.
7. **A scene-level caption needs a whole image**: when ``P`` is a claim about the whole picture
   (``scope``, :func:`crepe_datasets.scenegraph.scope.scene_level`: "there is a black chair in
   the picture", "one chair is brown"), ``c`` must be a whole-image graph, where condition 2
   holds for the whole image; a region's graph leaves the rest of its image unannotated.

Names: an object of ``c`` also answers to its head noun — for ``N`` (condition 1) when WordNet
agrees that the compound is a kind of it (:meth:`.terms.Terms.head`: a "desk chair" is a chair,
a "hot dog" no dog), for ``P`` and ``old`` (condition 2) unchecked (:func:`last_word`), so that
more regions count as possibly making ``P`` true. ``P``'s counts are left out of condition 2
(:func:`counted_out`).

Whole-image graphs of Visual Genome are localised: the counter-region's box is the union of the
boxes of the objects ``N`` maps onto, and condition 2 is checked on the whole image (stricter),
condition 4 on the matched objects (:func:`matched_part`).

**HN-COMP** negatives ("a pink car" → "a blue car and a pink toy"; ``foils`` given) take the
same rule with the exchange replaced by the negative's shape: it keeps every atom of the caption
and adds exactly its two foils (else ``not_a_comp_negative``); condition 2 is then the caption's
graph not holding in ``c`` even with broad synonyms (its compound is split over two objects
there), and condition 5 applies to each foil that is an object, against every object of the
caption. The exchange is ``("compound", caption's compound, "foil+foil")``.

**Choice**: the pool regions holding every compound of ``N`` (one posting-list intersection per
compound, over the synonyms) are visited in a seeded order (``random.Random(key)``), at most
:data:`MAX_VISIT` of them; of the first :data:`MAX_MATCHES` counter-regions, one is chosen by the
same seed, preferring a similar size: regions whose box covers between half and twice the
positive's share of its image first, then regions of unknown size (FACTUAL rows without a VG
box), then the closest in size.

**Drops** (stage ``counter_images``, one count per negative without a counter-region, the
furthest condition any visited region reached): ``no_single_exchange`` (the graphs differ by more
than one atom), ``not_in_pool`` (no region holds all of ``N``'s compounds), ``only_own_image``,
``negative_not_true`` (regions hold the compounds but not ``N`` as a whole),
``positive_also_true`` (``P`` holds there too), ``replaced_atom_present`` (``old`` is there);
``caption_beyond_region`` (condition 4), ``caption_scene_level`` (condition 7: only regions that
are not whole images held ``N``), ``object_absence_unverifiable`` (condition 2 on a region
whose image has no whole graph in the pool), and before any look-up ``part_whole_foil`` (condition 5) and
``negative_true_in_own_image`` (condition 6).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any

import numpy as np

from crepe_datasets.builders.counter_images.index import CounterIndex, graph_keys
from crepe_datasets.builders.counter_images.pool import PoolRegion
from crepe_datasets.generators.negatives.foils import colour_sense
from crepe_datasets.scenegraph.types import Box, SceneGraph, SGObject

STAGE = "counter_images"
MAX_VISIT = 400
MAX_MATCHES = 16
SIZE_FACTOR = 2.0
# order of the drop reasons: a later one means a region came closer to matching
REASONS = (
    "not_in_pool",
    "only_own_image",
    "negative_not_true",
    "caption_beyond_region",
    "caption_scene_level",
    "positive_also_true",
    "replaced_atom_present",
    "object_absence_unverifiable",
)
WHOLE_IMAGE = "vg_image"
# the last words of predicates that place their subject in one place at a time ("sitting on")
PLACES = frozenset("on in inside under underneath beneath atop".split())
# attributes of a thing of several colours: "a blue striped carpet" may be grey too, so it
# contradicts no colour (condition 2)
MANY_COLOURS = frozenset(
    """striped stripe stripes plaid checkered checked patterned pattern floral flowered printed
    spotted dotted polka multicolored multicoloured colorful colourful rainbow camouflage
    tie-dye tiedye two-tone two-toned""".split()
)

Alternatives = Callable[[str, str], frozenset[str]]
FUNCTION_WORDS = frozenset(
    """a an the is are was were be been has have there there's this that these those it its in
    of color colour colored coloured picture photo image and one some several many""".split()
)
NUMBERS = {
    w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten".split())
}


@dataclass
class CounterMatch:
    """A chosen counter-region and why it matches."""

    region: PoolRegion
    box: list[float] | None
    mapping: dict[int, int]  # negative object id -> counter-region object id
    exchange: tuple[str, str, str]
    contradiction: str
    candidates: int
    matches: int

    @property
    def description(self) -> str:
        """The region's text: its FACTUAL caption, or the matched objects' annotation."""
        if self.region.text:
            return self.region.text
        g = self.region.graph
        by_id = g.object_by_id()
        used = set(self.mapping.values())
        parts = [" ".join([*by_id[i].attributes, by_id[i].name]) for i in sorted(used)]
        parts += [
            f"{by_id[r.subject].name} {r.predicate} {by_id[r.object].name}"
            for r in g.relationships
            if r.subject in used and r.object in used
        ]
        return "; ".join(parts)


def exchange_of(positive: SceneGraph, negative: SceneGraph) -> tuple[str, str, str] | None:
    """``(kind, old, new)`` when the graphs differ by exactly one replaced atom."""
    pa, na = Counter(positive.atoms()), Counter(negative.atoms())
    removed, added = list((pa - na).elements()), list((na - pa).elements())
    if len(removed) != 1 or len(added) != 1 or removed[0].type != added[0].type:
        return None
    return removed[0].type, removed[0].text, added[0].text


def uncovered_words(text: str, graph: SceneGraph) -> list[str]:
    """Content words of ``text`` that name nothing of ``graph`` (condition 4)."""
    from crepe_datasets.scenegraph.lexicon import singularize
    from crepe_datasets.scenegraph.scope import frame_positions

    names: set[str] = set()
    for o in graph.objects:
        names.update(o.name.split())
        for a in o.attributes:
            names.update(a.split())
    for r in graph.relationships:
        names.update(r.predicate.split())
    names |= {singularize(w) for w in names}
    words = [w.strip(".,;:!?'\"") for w in text.lower().split()]
    frame = frame_positions(words)  # "on the photo": where in the picture, not what
    words = [w for i, w in enumerate(words) if i not in frame]
    return [
        w
        for w in words
        if w and w not in FUNCTION_WORDS and w not in names and singularize(w) not in names
        and _verb_base(w) not in names and NUMBERS.get(w) not in names
    ]  # fmt: skip


def _verb_base(word: str) -> str:
    from crepe_datasets.scenegraph.lexicon import lemmatize_verb

    return lemmatize_verb(word)


def _first_noun(word: str) -> Any:
    from crepe_datasets.infra.resources import wordnet

    found = wordnet().synsets(word.replace(" ", "_"), pos="n")
    return found[0] if found else None


def part_whole(a: str, b: str) -> bool:
    """Whether the first noun sense of ``a`` is a part of ``b``'s or the reverse (condition 5).

    A part of a kind is a part of its every kind: a wall is a part of a building, so of a house
    ("a white house" makes "the wall is white" true).
    """

    def within(part, whole) -> bool:
        wholes = {whole, *whole.closure(lambda x: x.hypernyms())}
        holonyms = set(part.part_holonyms())
        return bool(holonyms & wholes) or part in set(whole.part_meronyms())

    sa, sb = _first_noun(a), _first_noun(b)
    if sa is None or sb is None:
        return False
    return within(sa, sb) or within(sb, sa)


@functools.lru_cache(maxsize=50_000)
def part_of(part: str, whole: str) -> bool:
    """Whether the first noun sense of ``part``, or a kind it is of, is a WordNet part of
    ``whole``'s first sense or of a kind ``whole`` is of: leaves are plant organs, parts of a
    plant, and a tree is a plant; a trunk is part of a tree, a wheel of a car, a petal of a
    flower."""
    sp, sw = _first_noun(part), _first_noun(whole)
    if sp is None or sw is None or sp == sw:
        return False
    wholes = {sw, *sw.closure(lambda x: x.hypernyms())}
    return any(set(p.part_holonyms()) & wholes for p in (sp, *sp.closure(lambda x: x.hypernyms())))


Head = Callable[[str], "str | None"]


def last_word(name: str) -> str | None:
    """The last word of a compound name, unchecked: the broad head of :func:`named` for a
    caption that must be *false* ("hot dog" is taken as a possible dog there)."""
    return name.rsplit(" ", 1)[-1] if " " in name else None


def named(name: str, names: frozenset[str] | set[str], head: Head | None = None) -> bool:
    """Whether object name ``name`` is one of ``names``, or (``head``) the head noun that
    ``head`` gives it is: a "desk chair" is a chair (:meth:`.terms.Terms.head`)."""
    if name in names:
        return True
    h = head(name) if head is not None else None
    return h is not None and h in names


def find_map(
    query: SceneGraph, target: SceneGraph, alts: Alternatives, heads: Head | None = None
) -> dict[int, int] | None:
    """An injective map of ``query``'s objects into ``target`` carrying its names, attributes
    and relationships (names compared through ``alts``; ``heads``: a target object also
    answers to the head noun this gives it), or ``None``."""
    t_attrs = {o.id: set(o.attributes) for o in target.objects}
    triples: dict[tuple[int, int], set[str]] = {}
    for r in target.relationships:
        triples.setdefault((r.subject, r.object), set()).add(r.predicate)
    cands: dict[int, list[int]] = {}
    for o in query.objects:
        names = alts("object", o.name)
        need = [alts("attribute", a) for a in o.attributes]
        found = [
            t.id
            for t in target.objects
            if named(t.name, names, heads) and all(t_attrs[t.id] & a for a in need)
        ]
        if not found:
            return None
        cands[o.id] = found
    rels = [(r.subject, alts("relationship", r.predicate), r.object) for r in query.relationships]
    order = sorted(cands, key=lambda i: len(cands[i]))
    assign: dict[int, int] = {}

    def ok() -> bool:
        for s, preds, o in rels:
            if (
                s in assign
                and o in assign
                and not (triples.get((assign[s], assign[o]), set()) & preds)
            ):
                return False
        return True

    def search(k: int) -> bool:
        if k == len(order):
            return True
        q = order[k]
        for t in cands[q]:
            if t in assign.values():
                continue
            assign[q] = t
            if ok() and search(k + 1):
                return True
            del assign[q]
        return False

    return dict(assign) if search(0) else None


def image_keys(graph: SceneGraph) -> frozenset[str]:
    """What condition 6 looks up in a graph of the caption's own image (:func:`true_in_image`):
    its index keys, each object also under the last word of its name, and an attribute of
    several words also word by word ("blue grey carpet": a grey carpet too)."""
    keys = graph_keys(graph, last_word)
    for o in graph.objects:
        names = {o.name, last_word(o.name) or o.name}
        for a in o.attributes:
            words = a.replace("-", " ").split()
            if len(words) > 1:
                keys.update(f"ao:{w}|{n}" for w in words for n in names)
    return frozenset(keys)


class OwnImageKeys:
    """The keys (:func:`image_keys`) of the graphs of a caption's own image that condition 6
    reads: its whole-image graph in the pool, then its graphs in ``captions`` (by image id).

    A build keeps one and passes ``own(image_id)`` to :func:`find_counter` for every negative,
    so that each image's keys are worked out once (the latest ``size`` images are kept)."""

    def __init__(
        self, index: CounterIndex, captions: Mapping[str, Sequence[SceneGraph]] | None = None,
        size: int = 4096,
    ) -> None:  # fmt: skip
        self.index = index
        self.captions = captions or {}
        self._keys = functools.lru_cache(maxsize=size)(self._compute)

    def _compute(self, image_id: str) -> tuple[frozenset[str], ...]:
        own = self.index.image_graph(image_id)
        graphs = ([own] if own else []) + list(self.captions.get(image_id, ()))
        return tuple(image_keys(g) for g in graphs)

    def __call__(self, image_id: str) -> tuple[frozenset[str], ...]:
        return self._keys(str(image_id))


def true_in_image(negative: SceneGraph, keys: Set[str], loose: Alternatives) -> bool:
    """Whether a graph of the caption's image, given by its keys (:func:`image_keys`), may make
    ``negative`` true (condition 6): every compound of ``negative`` — each attribute with its
    object, each relationship with both objects, each bare object — is stated somewhere in it,
    names through broad synonyms (``loose``) and head nouns. Counts (numeric attributes) are
    left out: an annotation's instances are no reliable count, so "two chairs" is taken as
    possibly true wherever chairs are."""
    by_id = negative.object_by_id()
    for o in negative.objects:
        names = loose("object", o.name)
        attrs = [a for a in o.attributes if not a.isdigit()]
        wanted = (
            [{f"ao:{x}|{n}" for x in loose("attribute", a) for n in names} for a in attrs]
            if attrs
            else [{f"o:{n}" for n in names}]
        )
        if any(not (w & keys) for w in wanted):
            return False
    for r in negative.relationships:
        if r.subject not in by_id or r.object not in by_id:
            continue
        wanted_r = {
            f"oro:{x}|{p}|{y}"
            for x in loose("object", by_id[r.subject].name)
            for p in loose("relationship", r.predicate)
            for y in loose("object", by_id[r.object].name)
        }
        if not (wanted_r & keys):
            return False
    return True


def counted_out(graph: SceneGraph) -> SceneGraph:
    """``graph`` without its numeric attributes (counts): "two desks" is checked as "desks", so
    a caption with a count is taken as true wherever its objects are (condition 2)."""
    if not any(a.isdigit() for o in graph.objects for a in o.attributes):
        return graph
    objects = [
        SGObject(o.id, o.name, tuple(a for a in o.attributes if not a.isdigit()), o.box, o.synset)
        for o in graph.objects
    ]
    return SceneGraph(objects, list(graph.relationships), graph.image_id, graph.width, graph.height)


def _postings(index: CounterIndex, keys: list[str]) -> np.ndarray:
    arrays = [index.posting(k) for k in keys]
    arrays = [a for a in arrays if len(a)]
    return np.unique(np.concatenate(arrays)) if arrays else np.zeros(0, np.uint32)


def candidate_regions(index: CounterIndex, negative: SceneGraph) -> np.ndarray:
    """Regions holding every compound of ``negative`` (every object, when it has none),
    each compound matched through first-sense synonyms."""
    t = index.terms.tight
    by_id = negative.object_by_id()
    groups: list[list[str]] = []
    for o in negative.objects:
        names = sorted(t("object", o.name))
        for a in o.attributes:
            groups.append([f"ao:{x}|{n}" for x in sorted(t("attribute", a)) for n in names])
        if not o.attributes:
            groups.append([f"o:{n}" for n in names])
    for r in negative.relationships:
        s, o = by_id[r.subject], by_id[r.object]
        groups.append([
            f"oro:{x}|{p}|{y}"
            for x, p, y in itertools.product(
                sorted(t("object", s.name)), sorted(t("relationship", r.predicate)),
                sorted(t("object", o.name)),
            )
        ])  # fmt: skip
    out: np.ndarray | None = None
    for keys in sorted(groups, key=len):
        found = _postings(index, keys)
        out = found if out is None else np.intersect1d(out, found, assume_unique=True)
        if not len(out):
            break
    return out if out is not None else np.zeros(0, np.uint32)


def together(negative: SceneGraph, g: SceneGraph, mapping: Mapping[int, int]) -> bool:
    """Whether the objects of ``negative`` that none of its relationships links ("woman white
    shirt": the parser left "in" out) are each linked to another mapped object in ``g`` (any
    predicate, either way): such a caption still says whose shirt it is, and a woman beside a
    man in a blue shirt does not make "woman blue shirt" true. (An HN-COMP negative joins two
    compounds with "and": it is not asked.)"""
    linked = {i for r in negative.relationships for i in (r.subject, r.object)}
    alone = [o.id for o in negative.objects if o.id not in linked]
    if len(negative.objects) < 2 or not alone:
        return True
    pairs = {frozenset((r.subject, r.object)) for r in g.relationships}
    mapped = {mapping[o.id] for o in negative.objects}
    return all(
        any(frozenset((mapping[i], other)) in pairs for other in mapped - {mapping[i]})
        for i in alone
    )


def _may_have(g: SceneGraph, thing: SGObject, attributes: Set[str]) -> bool:
    """Whether ``thing`` may have one of ``attributes`` though ``g`` does not give it: it has
    several colours (:data:`MANY_COLOURS`), an attribute of several words names one ("blue grey
    carpet" may be called grey), or a part of it has one ("green leaves on a brown tree": the
    tree is green too)."""
    return (
        bool(set(thing.attributes) & MANY_COLOURS)
        or any(set(a.replace("-", " ").split()) & attributes for a in thing.attributes)
        or any(
            p is not thing and set(p.attributes) & attributes and part_of(p.name, thing.name)
            for p in g.objects
        )
    )


def _may_be(g: SceneGraph, colours: Set[str]) -> SceneGraph:
    """``g`` with ``colours`` given to each thing that may have them though ``g`` does not say
    so (:func:`_may_have`: several colours, a colour among an attribute's words, a part of that
    colour), for condition 2 on the whole region: a "printed chair" elsewhere in the image may be
    the caption's purple one."""
    if not colours:
        return g
    objects = [
        dataclasses.replace(o, attributes=(*o.attributes, *sorted(colours - set(o.attributes))))
        if _may_have(g, o, colours)
        else o
        for o in g.objects
    ]
    return dataclasses.replace(g, objects=objects)


def _contradiction(
    region: PoolRegion, mapping: dict[int, int], negative: SceneGraph,
    exchange: tuple[str, str, str], loose: Alternatives,
) -> str | None:  # fmt: skip
    """How ``region`` excludes the replaced atom, or ``None`` when it does not."""
    kind, old, new = exchange
    g = region.graph
    by_id = g.object_by_id()
    olds = loose(kind, old)
    if kind == "object":
        if any(named(o.name, olds, last_word) for o in g.objects):
            return None
        return f"no {old} in the region"
    if kind == "attribute":
        holders = [mapping[o.id] for o in negative.objects if new in o.attributes]
        if any(set(by_id[h].attributes) & olds or _may_have(g, by_id[h], olds) for h in holders):
            return None
        names = ", ".join(sorted({by_id[h].name for h in holders}))
        return f"the {names} is {new}, not {old}"
    pairs = [(mapping[r.subject], mapping[r.object]) for r in negative.relationships
             if r.predicate == new]  # fmt: skip
    linked = {(r.subject, r.object) for r in g.relationships if r.predicate in olds}
    if any(p in linked for p in pairs):
        return None
    return f"{new}, not {old}"


def _comp_contradiction(
    region: PoolRegion, exchange: tuple[str, str, str], foils: Sequence[str], loose: Alternatives
) -> str | None:
    """How ``region`` excludes an HN-COMP caption's compound (condition 5 found it absent), or
    ``None`` when an attribute compound may still hold there: an object of the caption's name
    has several colours, or a part of it has the caption's attribute (as :func:`_contradiction`
    for HN-ATOM: "a pink car" is not excluded by "a blue striped car")."""
    compound = exchange[1].split("|")
    if len(compound) == 2:
        attribute, name = compound
        olds, names, g = loose("attribute", attribute), loose("object", name), region.graph
        if any(named(o.name, names, last_word) and _may_have(g, o, olds) for o in g.objects):
            return None
    return f"no {' '.join(compound)} in the region; its foils {' and '.join(foils)} are"


def _region_shows_absence(positive: SceneGraph, old: str) -> bool:
    """Whether a region graph's silence on ``old`` is evidence enough (condition 2): ``old``
    takes part in no relationship of ``positive`` ("the desk is brown" → "the chair is brown":
    the region is about a brown chair), or it is only the place of a kept subject ("a computer
    on the desk" → "… on the table": the region shows the computer elsewhere; the object of an
    exclusive placing predicate, :data:`PLACES`, and the subject of nothing). Otherwise the
    region need not mention it ("woman wearing a hat" leaves a scarf unsaid; "a box on the
    table" a cup)."""
    ids = {o.id for o in positive.objects if o.name == old}
    if not ids:
        return False
    linked = [r for r in positive.relationships if r.subject in ids or r.object in ids]
    return all(r.object in ids and r.subject not in ids and _placing(r.predicate) for r in linked)


def _placing(predicate: str) -> bool:
    words = predicate.split()
    return bool(words) and (words[-1] in PLACES or predicate.startswith("on top"))


def _absent_from_image(
    index: CounterIndex, image_id: str, old: str, loose: Alternatives
) -> bool | None:
    """Whether the whole annotated image ``image_id`` has no object named ``old`` (or a broad
    synonym, or with it as head noun); ``None`` when the pool has no whole graph of the image.

    A region's graph names what its description mentions: "woman wearing a hat" leaves a scarf
    unsaid, so an object exchange's absence (condition 2) is read on the whole image."""
    whole = index.image_graph(image_id)
    if whole is None:
        return None
    olds = loose("object", old)
    return not any(named(o.name, olds, last_word) for o in whole.objects)


def _box(region: PoolRegion, mapping: dict[int, int]) -> list[float] | None:
    if region.source != "vg_image":
        return region.box
    by_id = region.graph.object_by_id()
    boxes = [by_id[i].box for i in mapping.values()]
    if not boxes or any(b is None for b in boxes):
        return region.box
    out: Box = boxes[0]  # type: ignore[assignment]
    for b in boxes[1:]:
        out = out.union(b)  # type: ignore[arg-type]
    return out.to_list()


def _size_tier(box: list[float] | None, region: PoolRegion, area: float | None) -> tuple:
    if not box or not region.width or not region.height or area is None or area <= 0:
        return (1, 0.0)
    own = box[2] * box[3] / float(region.width * region.height)
    if own <= 0:
        return (1, 0.0)
    distance = abs(math.log(own / area))
    return (0, 0.0) if distance <= math.log(SIZE_FACTOR) else (2, round(distance, 6))


def matched_part(region: PoolRegion, mapping: dict[int, int]) -> SceneGraph:
    """The part of ``region``'s graph a match localises to: for a whole-image graph the objects
    the negative maps onto and the relationships among them; any other region whole."""
    g = region.graph
    if region.source != WHOLE_IMAGE:
        return g
    used = set(mapping.values())
    return SceneGraph(
        [o for o in g.objects if o.id in used],
        [r for r in g.relationships if r.subject in used and r.object in used],
        g.image_id, g.width, g.height,
    )  # fmt: skip


def _covers(region: PoolRegion, words: list[str], mapping: dict[int, int]) -> bool:
    """Whether every word is in ``region``'s description or graph (condition 4); for a
    whole-image graph, in the matched objects' annotation (the localised counter-region): the
    rest of the image names too much ("wall is green and yellow" is not covered by a green
    wall because something else in the image is yellow)."""
    if not words:
        return True
    from crepe_datasets.scenegraph.lexicon import singularize

    text = {w.strip(".,;:!?'\"") for w in region.text.lower().split()}
    text |= {singularize(w) for w in text}
    missing = [w for w in words if w not in text and singularize(w) not in text]
    return not uncovered_words(" ".join(missing), matched_part(region, mapping))


def comp_exchange(
    positive: SceneGraph, negative: SceneGraph, foils: list[str] | tuple[str, ...]
) -> tuple[str, str, str] | None:
    """``("compound", caption's compound, "foil+foil")`` of an HN-COMP negative: it keeps every
    atom of the caption and adds its two foils (``None`` otherwise)."""
    pa, na = Counter(positive.atoms()), Counter(negative.atoms())
    added = {a.text for a in (na - pa).elements()}
    if pa - na or len(foils) != 2 or not all(f in added for f in foils):
        return None
    by_id = positive.object_by_id()
    if positive.relationships:
        r = positive.relationships[0]
        compound = f"{by_id[r.subject].name}|{r.predicate}|{by_id[r.object].name}"
    else:
        o = next((o for o in positive.objects if o.attributes), None)
        if o is None:
            return None
        compound = f"{o.attributes[0]}|{o.name}"
    return "compound", compound, "+".join(foils)


def _prepare(
    positive: SceneGraph, negative: SceneGraph, foils: list[str] | tuple[str, ...] | None
) -> tuple[str, str, str] | str:
    """The exchange of a negative, or why it gets no look-up (conditions 5 and the shape)."""
    if foils is None:
        exchange = exchange_of(positive, negative)
        if exchange is None:
            return "no_single_exchange"
        if exchange[0] == "object" and part_whole(exchange[1], exchange[2]):
            return "part_whole_foil"
        return exchange
    exchange = comp_exchange(positive, negative, foils)
    if exchange is None:
        return "not_a_comp_negative"
    names = {o.name for o in negative.objects}
    if any(part_whole(f, o.name) for f in foils if f in names for o in positive.objects):
        return "part_whole_foil"
    return exchange


def find_counter(
    index: CounterIndex, positive: SceneGraph, negative: SceneGraph, image_id: str,
    area: float | None, key: str, words: list[str] | tuple[str, ...] = (),
    foils: list[str] | tuple[str, ...] | None = None, scope: str | None = None,
    captions: Sequence[SceneGraph] = (), own: Sequence[Set[str]] | None = None,
    described: Callable[[str], Sequence[Set[str]]] | None = None,
) -> CounterMatch | str:  # fmt: skip
    """The chosen counter-region of ``negative``, or the reason there is none (see the module).

    ``words``: the words of the negative's caption beyond its graph (:func:`uncovered_words`).
    ``foils``: for an HN-COMP negative, its two foils (the row's ``negative_foils``); ``None`` for
    HN-ATOM. ``scope``: why the positive caption is scene-level
    (:func:`crepe_datasets.scenegraph.scope.scene_level`), ``None`` when it is region-level.
    ``captions``: the graphs of the other region descriptions of image ``i`` (condition 6 looks
    at them too: a region description is annotation the scene graph may lack). ``own``: the
    keys of image ``i``'s graphs, whole-image graph and ``captions``, kept by the caller
    (:class:`OwnImageKeys`); ``None``: worked out here (``captions`` is then read).
    ``described``: the keys of any image's graphs (an :class:`OwnImageKeys`): condition 2 then
    also refuses a counter-region whose image's graphs may make ``P`` true
    (:func:`true_in_image`: "blue gray carpet on the floor" among the descriptions of a counter
    for "there is a grey rug" whose scene graph calls the carpet blue).
    """
    exchange = _prepare(positive, negative, foils)
    if isinstance(exchange, str):
        return exchange
    tight, loose = index.terms.tight, index.terms.loose
    if own is None:
        whole = index.image_graph(image_id)
        own = [image_keys(g) for g in ([whole] if whole else []) + list(captions)]
    if any(true_in_image(negative, keys, loose) for keys in own):
        return "negative_true_in_own_image"
    found = candidate_regions(index, negative)
    if not len(found):
        return "not_in_pool"
    rng = random.Random(key)
    order = [int(x) for x in found]
    rng.shuffle(order)
    if scope is not None:  # whole-image graphs first: only they can show the caption false
        whole = set(index.whole_images.values())
        order.sort(key=lambda n: n not in whole)
    colours = {a for o in positive.objects for a in o.attributes
               if any(colour_sense(w) for w in a.replace("-", " ").split())}  # fmt: skip
    reason, matches = 0, []
    for number in order[:MAX_VISIT]:
        region = index.region(number)
        if region.image_id == image_id:
            reason = max(reason, 1)
            continue
        mapping = find_map(negative, region.graph, tight, index.terms.head)
        if mapping is None or (foils is None and not together(negative, region.graph, mapping)):
            reason = max(reason, 2)
            continue
        if not _covers(region, list(words), mapping):
            reason = max(reason, 3)
            continue
        if scope is not None and region.source != WHOLE_IMAGE:
            reason = max(reason, 4)
            continue
        if find_map(counted_out(positive), _may_be(region.graph, colours), loose, last_word) or (
            described is not None
            and any(true_in_image(positive, keys, loose) for keys in described(region.image_id))
        ):
            reason = max(reason, 5)
            continue
        if foils is None:
            why = _contradiction(region, mapping, negative, exchange, loose)
        else:  # the caption's compound is not there (checked just above); its atoms are, split
            why = _comp_contradiction(region, exchange, foils, loose)
        if why is None:
            reason = max(reason, 6)
            continue
        if (
            foils is None
            and exchange[0] == "object"
            and region.source != WHOLE_IMAGE
            and not _region_shows_absence(positive, exchange[1])
        ):
            absent = _absent_from_image(index, region.image_id, exchange[1], loose)
            if not absent:
                reason = max(reason, 6 if absent is False else 7)
                continue
        matches.append((region, mapping, why))
        if len(matches) >= MAX_MATCHES:
            break
    if not matches:
        return REASONS[reason]
    tiers = [(_size_tier(_box(r, m), r, area), i) for i, (r, m, _) in enumerate(matches)]
    best = min(t for t, _ in tiers)
    pool = [i for t, i in tiers if t == best]
    region, mapping, why = matches[rng.choice(pool)]
    return CounterMatch(
        region, _box(region, mapping), mapping, exchange, why, len(found), len(matches)
    )

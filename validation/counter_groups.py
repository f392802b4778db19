"""Independent re-verification of the ``groups`` rows (counter-images).

The builder's match (:mod:`crepe_datasets.builders.counter_images.match`) maps graphs object by
object; this check works on **compound sets** instead, from the row alone: for each group,

* ``different_images``: the two images differ;
* ``negative_compounds_in_counter``: every compound and object of the negative's graph
  (``negative_graph``) is a compound / object of the counter-region's graph (``image_1_graph``),
  names compared through first-sense synonyms and Visual Genome aliases, an object also under
  its head noun (:meth:`~crepe_datasets.generators.terms.Terms.head`) (a prepositional
  predicate also through the counter-region's predicates ending with it: "sit on" is "on");
* ``positive_true_in_counter``: violated when every compound and object of the caption's graph
  (``scene_graph``, counts left out) is found in the counter-region's graph through broad
  synonyms (an object also under the last word of its name: a "desk chair" may be the chair).
  A colour of the caption is also found on an object of several colours
  (:data:`SEVERAL_COLOURS`: "a blue striped carpet" may be grey too) and on an object one of
  whose parts has that colour (a WordNet part, :func:`is_part`: "green leaves on a brown tree"
  leave "the tree is green" true): neither contradicts a colour;
* ``replaced_object_in_counter``: for an object exchange, the replaced object (or a broad
  synonym) is an object of the counter-region's graph (or the last word of one's name);
* ``replaced_object_in_counter_image`` / ``replaced_object_absence_unverified`` (when the pool
  is given): for an object exchange whose counter-region is not a whole-image graph, the
  replaced object must be absent from the counter-region's whole image too (a region graph
  names what its description mentions: "woman wearing a hat" leaves a scarf unsaid): it is
  there (``..._in_counter_image``), or the pool has no whole-image graph of that image
  (``..._absence_unverified``). The region's silence is enough (:func:`silence_shows_absence`)
  when the replaced object is in no relationship of the caption's graph, or only the place of
  subjects that are kept ("a computer on the desk" → "on the table": the region shows the
  computer elsewhere);
* ``scene_level_caption_on_region``: the caption is a claim about the whole picture
  (:func:`crepe_datasets.scenegraph.scope.scene_level`: "there is a black chair in the
  picture", "one chair is brown") but the counter-image is one region's graph, not a whole-image
  graph (``image_1_source`` is not ``vg_image``), so nothing shows the caption false of the rest
  of that image;
* ``negative_false_in_own_image`` (when the pool is given): violated when every compound and
  object of the negative's graph (counts left out) is found, through broad synonyms, in one
  pool graph of the caption's own image (``image_0_id``: its whole-image graph, and every other
  pool region of it, such as a FACTUAL row or a VG region graph): another instance there may make
  the negative true ("the carpet is black" of an image with a grey and a black carpet);
* ``exchange_matches_graphs``: the ``exchange`` column is the one-atom difference of the two
  graphs (an HN-COMP group, ``compound:<caption's compound>-><foil>+<foil>``: the negative's
  graph keeps every atom of the caption's and adds both foils);
* ``counter_region_in_pool`` (when the pool is given, as the build and ``crepe validate dataset``
  give it): the row's counter-region (``image_1_source``, ``image_1_id``, ``image_1_region_id``)
  is a region of the pool with the row's graph, file and description, and a box that is the
  region's own (a whole-image graph: the union of the boxes of the objects ``match_1`` maps the
  negative onto). The checks above then read the pool's graph, not the row's.

The synonyms are the pool's (:class:`~crepe_datasets.generators.terms.Terms` with every predicate
of the pool known), so the report does not depend on the order of the rows.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from crepe_datasets.generators.negatives import from_compact
from crepe_datasets.generators.negatives.foils import colour_sense
from crepe_datasets.generators.terms import Terms
from crepe_datasets.infra.resources import wordnet
from crepe_datasets.scenegraph.scope import scene_level
from crepe_datasets.scenegraph.types import SceneGraph
from crepe_datasets.validation.invariants import InvariantReport

CONFIG = "groups"
WHOLE_IMAGE = "vg_image"
# attributes that give a thing several colours at once: such a thing contradicts no colour
SEVERAL_COLOURS = frozenset(
    """striped stripe stripes plaid checkered checked patterned pattern floral flowered printed
    spotted dotted polka multicolored multicoloured colorful colourful rainbow camouflage
    tie-dye tiedye two-tone two-toned""".split()
)
# the word a predicate ends with when it gives its subject's place ("sitting on", "parked in")
PLACE_WORDS = frozenset({"on", "in", "inside", "under", "underneath", "beneath", "atop"})
# the attribute of a compound that stands for every colour (a thing of several colours)
ANY_COLOUR = "<any colour>"


class PoolRegionLike(Protocol):
    """What the check reads of a pool region (:class:`crepe_datasets.builders.counter_images.pool.PoolRegion`)."""

    source: str
    box: list[float] | None
    file: str
    text: str
    graph: SceneGraph


# (source, image id, region id) -> the pool's regions of that key (empty: not in the pool)
PoolLookup = Callable[[str, str, str], Sequence[PoolRegionLike]]
# image id -> every pool region of that image (its whole-image graph, region graphs, FACTUAL rows)
OwnRegions = Callable[[str], Sequence[PoolRegionLike]]


def _compounds(
    g: SceneGraph, canon: Callable[[str, str], str],
    head: Callable[[str], str | None] | None = None, counts: bool = True,
) -> set[tuple]:  # fmt: skip
    """The compounds and objects of ``g``; ``head``: each object also under the head noun it
    gives; ``counts=False``: numeric attributes left out."""
    by_id = g.object_by_id()

    def names(name: str) -> set[str]:
        h = head(name) if head is not None else None
        return {canon("object", name)} | ({h} if h else set())

    out: set[tuple] = {("o", n) for o in g.objects for n in names(o.name)}
    out |= {
        ("ao", canon("attribute", a), n)
        for o in g.objects
        for a in o.attributes
        if counts or not a.isdigit()
        for n in names(o.name)
    }
    out |= {
        ("oro", x, canon("relationship", r.predicate), y)
        for r in g.relationships if r.subject in by_id and r.object in by_id
        for x in names(by_id[r.subject].name) for y in names(by_id[r.object].name)
    }  # fmt: skip
    return out


def _last_word(name: str) -> str | None:
    return name.rsplit(" ", 1)[-1] if " " in name else None


def _present(
    query: SceneGraph, target: set[tuple], alts: Callable[[str, str], frozenset[str]],
    counts: bool = True,
) -> bool:  # fmt: skip
    """Every compound and object of ``query`` is in ``target`` (names through ``alts``;
    ``counts=False``: the query's numeric attributes left out; a colour of ``query`` is also
    found as :data:`ANY_COLOUR`)."""
    kinds = {"o": ("object",), "ao": ("attribute", "object"),
             "oro": ("object", "relationship", "object")}  # fmt: skip
    for c in _compounds(query, lambda k, x: x, counts=counts):
        options = [alts(k, x) for k, x in zip(kinds[c[0]], c[1:], strict=True)]
        if c[0] == "ao" and is_colour(c[1]):
            options[0] = options[0] | {ANY_COLOUR}
        if not any(t[0] == c[0] and all(v in o for v, o in zip(t[1:], options, strict=True))
                   for t in target):  # fmt: skip
            return False
    return True


@functools.lru_cache(maxsize=100_000)
def is_colour(attribute: str) -> bool:
    """Whether ``attribute``, or one of its words, names a colour ("grey", "dark brown",
    "blue-green"): a WordNet noun sense of it is below ``color.n.01``."""
    words = {attribute, *re.split(r"[ -]", attribute)}
    return any(colour_sense(w) is not None for w in words if w)


@functools.lru_cache(maxsize=100_000)
def is_part(part: str, whole: str) -> bool:
    """Whether a thing named ``part`` is a WordNet part of a thing named ``whole``: the first
    noun sense of ``part``, or a kind it is of, is a part meronym of ``whole``'s first sense or
    of a kind ``whole`` is of (a leaf is a plant organ, a part of a plant, and a tree is a
    plant; a wheel is a part of a wheeled vehicle, and a car is one)."""
    found = [wordnet().synsets(w.replace(" ", "_"), pos="n") for w in (part, whole)]
    if not found[0] or not found[1] or found[0][0] == found[1][0]:
        return False
    kinds_of_part, kinds_of_whole = ({s[0], *s[0].closure(lambda x: x.hypernyms())} for s in found)
    parts = {m for k in kinds_of_whole for m in k.part_meronyms()}
    return not kinds_of_part.isdisjoint(parts)


def _coloured_compounds(g: SceneGraph) -> set[tuple]:
    """The colour compounds ``("ao", colour, name)`` that ``g`` cannot contradict beyond its
    own: :data:`ANY_COLOUR` of a thing of several colours, and each colour of a part of a thing
    (an object of ``g`` that is a WordNet part of another one) as a colour of the thing too.
    Names as the caption check reads them (an object also under its last word)."""

    def names(name: str) -> set[str]:
        last = _last_word(name)
        return {name} | ({last} if last else set())

    out: set[tuple] = set()
    coloured = [(o, [a for a in o.attributes if is_colour(a)]) for o in g.objects]
    for whole in g.objects:
        colours = {ANY_COLOUR} if SEVERAL_COLOURS & set(whole.attributes) else set()
        for part, part_colours in coloured:
            if part.id != whole.id and part_colours and is_part(part.name, whole.name):
                colours.update(part_colours)
        out |= {("ao", c, n) for c in colours for n in names(whole.name)}
    return out


def silence_shows_absence(caption: SceneGraph, old: str) -> bool:
    """Whether a region graph without ``old`` shows that the caption's ``old`` is not in its
    image: ``old`` is an object of the caption's graph, and each of its relationships there, if
    any, only places another object on / in / under it (``old`` is the object of a predicate
    ending with a word of :data:`PLACE_WORDS`, or starting with "on top", and that subject is
    no ``old``). A thing is in one place at a time, so a region showing the subject elsewhere
    shows it; any other relationship leaves ``old`` possibly unsaid ("wearing a scarf")."""
    olds = {o.id for o in caption.objects if o.name == old}
    if not olds:
        return False
    for r in caption.relationships:
        if r.subject not in olds and r.object not in olds:
            continue
        words = r.predicate.split()
        places = bool(words) and (words[-1] in PLACE_WORDS or words[:2] == ["on", "top"])
        if r.subject in olds or not places:
            return False
    return True


def _same_box(a: Sequence[float] | None, b: Sequence[float] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return len(a) == len(b) and all(
        abs(float(x) - float(y)) < 1e-6 for x, y in zip(a, b, strict=True)
    )


def _own_box(region: PoolRegionLike, row: Mapping[str, Any]) -> list[float] | None:
    """The box the row must carry for ``region``: its own, or for a whole-image graph the union
    of the boxes of the objects the negative maps onto (``match_1``'s object map)."""
    if region.source != "vg_image":
        return region.box
    try:
        targets = json.loads(row["match_1"])["object_map"].values()
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    by_id = region.graph.object_by_id()
    boxes = [by_id[int(t)].box if int(t) in by_id else None for t in targets]
    if not boxes or any(b is None for b in boxes):
        return region.box
    out = boxes[0]
    for b in boxes[1:]:
        out = out.union(b)  # type: ignore[union-attr,arg-type]
    return out.to_list()  # type: ignore[union-attr]


def _pool_region(
    row: Mapping[str, Any], lookup: PoolLookup, report: InvariantReport, where: str, config: str
) -> SceneGraph | None:
    """The pool's graph of the row's counter-region (``None``, counted, when the row's
    counter-region is not that pool region)."""
    found = lookup(
        str(row["image_1_source"]), str(row["image_1_id"]), str(row["image_1_region_id"] or "")
    )
    for region in found:
        if (
            region.graph.to_json() == row["image_1_graph"]
            and region.file == row["image_1_file"]
            and (not region.text or region.text == row["image_1_description"])
            and _same_box(_own_box(region, row), row["image_1_bbox"])
        ):
            return region.graph
    report.fail(config, "counter_region_in_pool", where)
    return None


def _own_graphs(row: Mapping[str, Any], own: OwnRegions | None) -> list[SceneGraph]:
    """The pool's graphs of the caption's own image (empty: no pool given, or none there)."""
    if own is None:
        return []
    return [r.graph for r in own(str(row["image_0_id"]))]


def check_group(
    row: Mapping[str, Any], terms: Terms, report: InvariantReport,
    lookup: PoolLookup | None = None, config: str = CONFIG, own: OwnRegions | None = None,
) -> None:  # fmt: skip
    """Check one row of a ``groups`` (or ``groups_comp``) config (see the module docstring);
    ``own``: the pool's regions of an image (default: its whole-image graph through
    ``lookup``)."""
    where = f"{row['caption_0']} / {row['caption_1']} / image {row['image_1_id']}"
    if str(row["image_0_id"]) == str(row["image_1_id"]):
        report.fail(config, "different_images", where)
    counter = SceneGraph.from_json(row["image_1_graph"])
    if lookup is not None:
        counter = _pool_region(row, lookup, report, where, config) or counter
    terms.add_predicates({r.predicate for r in counter.relationships})
    same = lambda k, x: x  # noqa: E731 - the pool's names are canonical already
    positive, negative = from_compact(row["scene_graph"]), from_compact(row["negative_graph"])
    if not _present(negative, _compounds(counter, same, terms.head), terms.tight):
        report.fail(config, "negative_compounds_in_counter", where)
    found = _compounds(counter, same, _last_word) | _coloured_compounds(counter)
    if _present(positive, found, terms.loose, counts=False):
        report.fail(config, "positive_true_in_counter", where)
    if (
        scene_level(str(row["caption_0"]), positive) is not None
        and row["image_1_source"] != WHOLE_IMAGE
    ):
        report.fail(config, "scene_level_caption_on_region", where)
    if own is None and lookup is not None:
        own = lambda image: lookup(WHOLE_IMAGE, image, "")  # noqa: E731 - its scene graph only
    graphs = _own_graphs(row, own)
    if not graphs:
        report.skipped["negative_false_in_own_image (own image not in the pool)"] += 1
    elif any(
        _present(negative, _compounds(g, same, _last_word), terms.loose, counts=False)
        for g in graphs
    ):
        report.fail(config, "negative_false_in_own_image", where)
    pa, na = Counter(positive.atoms()), Counter(negative.atoms())
    removed, added = list((pa - na).elements()), list((na - pa).elements())
    kind, _, pair = str(row["exchange"]).partition(":")
    old, _, new = pair.partition("->")
    if kind == "compound":
        foils = new.split("+")
        if removed or len(foils) != 2 or not set(foils) <= {a.text for a in added}:
            report.fail(config, "exchange_matches_graphs", where)
    elif [(a.type, a.text) for a in removed] != [(kind, old)] or [
        (a.type, a.text) for a in added
    ] != [(kind, new)]:
        report.fail(config, "exchange_matches_graphs", where)
    if kind == "object":
        olds = terms.loose("object", old)
        if any(o.name in olds or _last_word(o.name) in olds for o in counter.objects):
            report.fail(config, "replaced_object_in_counter", where)
        if row["image_1_source"] != WHOLE_IMAGE and not silence_shows_absence(positive, old):
            _absent_from_counter_image(row, olds, lookup, report, where, config)


def _absent_from_counter_image(
    row: Mapping[str, Any], olds: frozenset[str], lookup: PoolLookup | None,
    report: InvariantReport, where: str, config: str,
) -> None:  # fmt: skip
    """The replaced object (any of ``olds``, or the last word of a name) is no object of the
    whole-image graph of the counter-region's image (counted as skipped without the pool)."""
    if lookup is None:
        report.skipped["replaced_object_in_counter_image (no pool)"] += 1
        return
    wholes = lookup(WHOLE_IMAGE, str(row["image_1_id"]), "")
    if not wholes:
        report.fail(config, "replaced_object_absence_unverified", where)
    elif any(o.name in olds or _last_word(o.name) in olds for w in wholes for o in w.graph.objects):
        report.fail(config, "replaced_object_in_counter_image", where)


def check_groups(
    tables: Mapping[str, Sequence[Mapping[str, Any]]], terms: Terms,
    lookup: PoolLookup | None = None, config: str = CONFIG, own: OwnRegions | None = None,
) -> InvariantReport:  # fmt: skip
    """Check every row of the splits ``{split: rows}`` of ``config`` (against the pool, when
    ``lookup`` finds its regions and ``own`` an image's regions); without the pool the pool
    checks are counted as skipped."""
    report = InvariantReport()
    for rows in tables.values():
        for row in rows:
            report.rows += 1
            check_group(row, terms, report, lookup, config, own)
    if lookup is None and report.rows:
        report.skipped["counter_region_in_pool (no pool)"] = report.rows
        report.skipped.pop("negative_false_in_own_image (own image not in the pool)", None)
        report.skipped["negative_false_in_own_image (no pool)"] = report.rows
    return report

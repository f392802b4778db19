"""Clean one Visual Genome scene graph's text before sampling (issue 13, part 1).

Every change is counted under stage ``productivity_clean``: a *repair* keeps the record with a
new text, a *drop* removes it.

Objects (names are lemmatised first, :func:`crepe_datasets.scenegraph.lexicon.normalize_object`):

* repairs ``object_name_transliterated`` (non-ASCII letters), ``object_name_article_removed``
  ("a chair" → "chair"), ``object_name_repeated_word`` ("leg leg" → "leg"),
  ``object_name_phrase_to_head`` ("glasses on table" → "glasses", "chair is black" → "chair";
  :func:`crepe_datasets.builders.productivity.phrases.head_name`; the synset stays only when
  the head names it);
* repair ``object_name_spelling_variant`` ("colour" → "color": one spelling per word,
  :func:`crepe_datasets.scenegraph.lexicon.canonical_spelling`, as the foils are spelled);
* drops ``object_name_empty`` (nothing left), ``object_name_function_word`` (only
  function words: "an", "this") and ``object_name_colour_word`` (a colour word alone with no
  tangible synset: "orange", "white", :func:`colour_word_name`) and ``object_name_adjective``
  (one word more often an adjective: "busy", "several", :func:`adjective_name`); their
  relationships go too, counted as ``relationship_object_dropped``;
* drop ``object_annotated_twice``: one thing boxed twice under one name (IoU ≥ 0.5) becomes one
  object with the attributes and relationships of both (:func:`merge_twice_annotated`), so no
  caption says "another man" of one man.

Attributes (per object):

* repairs as for names (``attribute_transliterated``, ``attribute_article_removed``,
  ``attribute_repeated_word``, ``attribute_spelling_variant``: "gray" → "grey");
* drops ``attribute_empty``, ``attribute_repeats_object_name`` ("yellow" on "yellow wall",
  "license" on "license plate"), ``attribute_function_word`` ("on", "behind"),
  ``attribute_verb`` ("see", "hold"), ``attribute_synonym_merged`` (the second of "gray",
  "grey" on one object) — see :mod:`crepe_datasets.builders.productivity.words` —, and
  ``attribute_prepositional_phrase`` ("in photo", "on the side";
  :func:`crepe_datasets.builders.productivity.phrases.prepositional_attribute`),
  ``attribute_scene_level`` ("indoors", "outdoors": a place of the whole scene, true of every
  object, so no swap or negation of it is false) and ``attribute_abstract_noun`` ("source",
  "daytime": a noun naming no thing, material or property, which reads as no attribute:
  "open, source and light window") — :func:`.words.scene_attribute`,
  :func:`.words.abstract_noun_attribute`. "l-shaped" on "l shaped counter top" repeats the
  name (hyphens read as spaces).

Relationships:

* repairs ``predicate_transliterated``, ``predicate_repeated_word``, ``predicate_inflected``
  ("hold" → "holds"), ``predicate_agreement`` (the leading verb in the subject's number:
  "paper are on desk" → "paper is on desk", "people holds" → "people hold");
* drops ``predicate_empty``, ``predicate_article`` (a predicate that is only "a"/"the"),
  ``predicate_negated`` ("not"), ``predicate_conjunction`` ("and"), ``predicate_noun_phrase``
  ("on a wood grain") — :func:`predicate_reason` —,
  ``self_loop_relationship``, ``repeated_relationship`` (the same
  triple after cleaning). Cycles (a → b → a) are kept: they are valid scene graphs.
"""

from __future__ import annotations

import dataclasses

from crepe_datasets.builders.productivity.phrases import (
    head_name,
    head_synset,
    prepositional_attribute,
)
from crepe_datasets.builders.productivity.words import (
    ARTICLES,
    abstract_noun_attribute,
    agree_predicate,
    ascii_text,
    collapse_repeats,
    function_word,
    inflect_predicate,
    same_attribute,
    scene_attribute,
    verb_attribute,
)
from crepe_datasets.generators.negatives.foils import colour_sense, sense_counts
from crepe_datasets.generators.negatives.senses import OBJECT_LEXFILES
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.infra.resources import synset_or_none, wordnet
from crepe_datasets.scenegraph.lexicon import canonical_spelling, normalize_object
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

STAGE = "productivity_clean"


def clean_phrase(text: str, what: str, drops: DropLog, articles: bool = True) -> str:
    """ASCII, leading articles removed, repeated words collapsed; each change counted."""
    out = ascii_text(text)
    if out != text:
        drops.repair(STAGE, f"{what}_transliterated")
    words = out.split()
    if articles and len(words) > 1 and words[0] in ARTICLES:
        while len(words) > 1 and words[0] in ARTICLES:
            words = words[1:]
        drops.repair(STAGE, f"{what}_article_removed")
    collapsed = collapse_repeats(words)
    if len(collapsed) != len(words):
        drops.repair(STAGE, f"{what}_repeated_word")
    return " ".join(collapsed)


def _split_words(text: str) -> list[str]:
    """Words, with hyphens read as spaces ("l-shaped" and "l shaped" are one attribute)."""
    return text.replace("-", " ").split()


def _attribute_reason(attribute: str, name_words: set[str]) -> str | None:
    words = attribute.split()
    if not words:
        return "attribute_empty"
    if attribute in name_words or set(_split_words(attribute)) <= name_words:
        return "attribute_repeats_object_name"
    if all(function_word(w) for w in words):
        return "attribute_function_word"
    if len(words) == 1 and verb_attribute(attribute):
        return "attribute_verb"
    if prepositional_attribute(attribute):
        return "attribute_prepositional_phrase"
    if len(words) == 1 and scene_attribute(attribute):
        return "attribute_scene_level"
    if abstract_noun_attribute(attribute):
        return "attribute_abstract_noun"
    return None


def spelled(text: str, what: str, drops: DropLog) -> str:
    """``text`` in the canonical spelling of its words
    (:func:`crepe_datasets.scenegraph.lexicon.canonical_spelling`), counted as a repair."""
    out = canonical_spelling(text)
    if out != text:
        drops.repair(STAGE, f"{what}_spelling_variant")
    return out


def _tangible(synset: str | None) -> bool:
    sense = synset_or_none(synset) if synset else None
    return sense is not None and sense.lexname() in OBJECT_LEXFILES


def adjective_name(name: str, synset: str | None) -> bool:
    """True for an object named by one word more often an adjective than a noun (WordNet's sense
    counts: "busy", "several", "empty") whose Visual Genome synset, if any, is no tangible
    thing ("remote" annotated as a remote control stays): it names no object, and a caption
    over it reads as no English ("clear road not the busy")."""
    if " " in name or not name.isalpha() or _tangible(synset):
        return False
    counts = sense_counts(name)
    return counts.get("a", -1) > counts.get("n", -1)


def predicate_reason(predicate: str) -> str | None:
    """Why a predicate states no relation a caption can hold, or None: a negation ("not":
    HN-NEG would negate it again), a conjunction alone ("and": "telephone and computer"), or
    a noun phrase after an article ("on a wood grain": the object would follow a second noun)."""
    words = predicate.split()
    if words[0] in ("not", "no"):
        return "predicate_negated"
    if len(words) == 1 and words[0] in ("and", "or"):
        return "predicate_conjunction"
    if any(w in ARTICLES for w in words[1:-1]):
        return "predicate_noun_phrase"
    return None


def colour_word_name(name: str, synset: str | None) -> bool:
    """True for an object named by a colour word alone ("orange", "white") whose Visual Genome
    synset, if any, is no tangible thing: the annotator named a patch of colour, and a foil
    drawn for it would be a thing ("orange" → "lemon") where a reader sees a colour."""
    if " " in name or colour_sense(name) is None or not wordnet().synsets(name, pos="a"):
        return False
    return not _tangible(synset)


def clean_attributes(obj_name: str, attributes: tuple[str, ...], drops: DropLog, where: str):
    """The object's attributes after the rules of the module docstring."""
    name_words = set(_split_words(obj_name))
    kept: list[str] = []
    for raw in attributes:
        attribute = spelled(clean_phrase(raw, "attribute", drops), "attribute", drops)
        reason = _attribute_reason(attribute, name_words)
        if reason is None and any(same_attribute(attribute, k) for k in kept):
            reason = "attribute_synonym_merged"
        if reason is not None:
            drops.drop(STAGE, reason, f"{where}: {raw!r} on {obj_name!r}")
        else:
            kept.append(attribute)
    return tuple(kept)


def clean_object_name(
    raw: str, synset: str | None, drops: DropLog, where: str
) -> tuple[str, str | None] | None:
    """An object name and its synset after the rules of the module docstring, or ``None``
    after counting why the name is unusable. An object's aliases go through the same rules,
    with a scratch log: a dropped alias drops nothing of the object."""
    name = clean_phrase(normalize_object(raw), "object_name", drops)
    head = head_name(name)
    if head != name:
        drops.repair(STAGE, "object_name_phrase_to_head")
        name, synset = normalize_object(head), head_synset(head, synset)
    reason = None
    if not name:
        reason = "object_name_empty"
    elif all(function_word(w) for w in name.split()):
        reason = "object_name_function_word"
    elif colour_word_name(name, synset):
        reason = "object_name_colour_word"
    elif adjective_name(name, synset):
        reason = "object_name_adjective"
    if reason is not None:
        drops.drop(STAGE, reason, where if reason == "object_name_empty" else f"{where}: {name!r}")
        return None
    return spelled(name, "object_name", drops), synset


def merge_twice_annotated(
    objects: list[SGObject], drops: DropLog, where: str
) -> tuple[list[SGObject], dict[int, int]]:
    """The objects with each thing annotated twice under one name made one object, and the
    merged ids (``dropped id -> kept id``).

    Visual Genome's annotators often box one thing twice ("man" and "man", IoU 0.82, in image
    1; 492 pairs in images 1–100): a walk through both would say "man …, another man" of one
    man. An object whose box and an earlier object's of the same name overlap with IoU ≥
    :data:`~crepe_datasets.generators.negatives.graphs.SAME_THING_IOU` joins it (its
    attributes and other names are added, its relationships move to it): drop
    ``object_annotated_twice``."""
    from crepe_datasets.generators.negatives.graphs import SAME_THING_IOU

    kept: list[SGObject] = []
    merged: dict[int, int] = {}
    for o in objects:
        into = next(
            (
                k
                for k, other in enumerate(kept)
                if other.name == o.name
                and o.box is not None
                and other.box is not None
                and other.box.iou(o.box) >= SAME_THING_IOU
            ),
            None,
        )
        if into is None:
            kept.append(o)
            continue
        first = kept[into]
        kept[into] = dataclasses.replace(
            first,
            attributes=tuple(dict.fromkeys((*first.attributes, *o.attributes))),
            aliases=tuple(dict.fromkeys((*first.aliases, *o.aliases))),
        )
        merged[o.id] = first.id
        drops.drop(STAGE, "object_annotated_twice", f"{where} object {o.id}: {o.name!r}")
    return kept, merged


def clean_graph(g: SceneGraph, drops: DropLog) -> SceneGraph:
    """A copy of ``g`` with clean names, attributes and predicates (see the module docstring)."""
    where = f"image {g.image_id}"
    objects: list[SGObject] = []
    for o in g.objects:
        cleaned = clean_object_name(o.name, o.synset, drops, f"{where} object {o.id}")
        if cleaned is None:
            continue
        name, synset = cleaned
        attrs = clean_attributes(name, o.attributes, drops, where)
        aliases = dict.fromkeys(
            c[0] for a in o.aliases if (c := clean_object_name(a, None, DropLog(), where))
        )
        aliases.pop(name, None)
        objects.append(SGObject(o.id, name, attrs, o.box, synset, tuple(aliases)))
    objects, merged = merge_twice_annotated(objects, drops, where)
    by_id = {o.id: o for o in objects}
    ids = set(by_id)
    rels: list[Relationship] = []
    seen: set[tuple[int, str, int]] = set()
    for r in g.relationships:
        r = Relationship(
            merged.get(r.subject, r.subject), r.predicate, merged.get(r.object, r.object), r.synset
        )
        if r.subject not in ids or r.object not in ids:
            drops.drop(STAGE, "relationship_object_dropped", where)
            continue
        if r.subject == r.object:
            drops.drop(STAGE, "self_loop_relationship", where)
            continue
        predicate = clean_phrase(r.predicate, "predicate", drops, articles=False)
        if not predicate:
            drops.drop(STAGE, "predicate_empty", where)
            continue
        if ARTICLES.issuperset(predicate.split()):
            drops.drop(STAGE, "predicate_article", f"{where}: {r.predicate!r}")
            continue
        if (reason := predicate_reason(predicate)) is not None:
            drops.drop(STAGE, reason, f"{where}: {r.predicate!r}")
            continue
        inflected = inflect_predicate(predicate)
        if inflected != predicate:
            drops.repair(STAGE, "predicate_inflected")
        agreed = agree_predicate(inflected, by_id[r.subject].name)
        if agreed != inflected:
            drops.repair(STAGE, "predicate_agreement")
            inflected = agreed
        key = (r.subject, inflected, r.object)
        if key in seen:
            drops.drop(STAGE, "repeated_relationship", where)
            continue
        seen.add(key)
        rels.append(Relationship(r.subject, inflected, r.object, r.synset))
    return SceneGraph(objects, rels, g.image_id, g.width, g.height)

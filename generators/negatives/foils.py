"""Candidate foils for HN-ATOM: WordNet antonyms and grand-hypernym co-hyponyms (SPEC §2.5).

Choices the papers leave open, written down:

* **Attributes**: WordNet adjective antonyms first ("tall" → "short", "old" → "new", "young"),
  kept when the antonym's most frequent sense occurs at least once in SemCor (drops
  "achromatic", "unrhetorical"); for a colour, only antonyms that are colours ("white" →
  "black"; not "young" for "grey", whose second sense is old); then,
  for colours only, the basic colours (two levels below ``color.n.01``: red, blue, white, gray, …)
  other than the colour itself and the colour it is a shade of ("red" → blue, green, …;
  "silver", a shade of gray → not gray; "beige" → not brown). A colour is a word one of whose
  noun senses descends from ``color.n.01`` ("white": its first sense is a person, its second the
  colour). Other attributes' noun senses are unrelated to the adjective, so their co-hyponyms are
  not used.
* **Objects**: co-hyponyms of the object's tangible sense (its Visual Genome synset when that
  is an artifact, animal, plant, food, body part, person or natural object; an unannotated
  name's first such sense) under a close enough ancestor, each in its dominant sense and of the
  object's kind, no mass noun for a count noun — the rules and their thresholds are in
  :mod:`crepe_datasets.generators.negatives.senses` ("building" → porch, bridge, tower; not
  system, equipment); then noun antonyms.
* **Relationships**: a hand-written table of spatial opposites (``data/relation_foils.json``,
  "on" → "under"), then WordNet verb antonyms of the predicate's verb, re-inflected.
* **Plausibility**: the paper ranks foils with a masked LM (BERT). Here the co-hyponyms that
  pass the rules above are ranked by their count in the caption corpus (below) and at most
  :data:`TOP_K` are kept; the generators then order them by plausibility in context
  (:mod:`crepe_datasets.generators.negatives.plausible`). Foils are single lower-case words
  without digits, or phrases from the relation table.
* **Synonyms are never foils**: a word sharing a synset with the original is removed.
* **One spelling**: every foil is written in its canonical spelling
  (:func:`crepe_datasets.scenegraph.lexicon.canonical_spelling`: "gray" → "grey"), the one the
  cleaned positives use, so that a spelling variant never marks a negative.
* **The attribute's own sense**: antonyms come from adjective senses that can describe a thing
  in a picture; a sense that is a value of a time ("present" → "past") gives none
  (:func:`visual_antonyms`).
* **Words of image captions only**: an object or attribute foil must occur at least
  :data:`MIN_CAPTION_COUNT` times in a caption corpus (the word counts the plausibility ranker
  ships: the 25,014 COCO val2017 captions), so that it names something people see and write
  about in images; WordNet's co-hyponyms and antonyms also hold words no image shows ("inquiry"
  for "reflection", "diode" for "monitor", "ammunition" for "drawer"). Relation foils come from
  the opposites table and are not filtered.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from crepe_datasets.generators.negatives.senses import (
    OBJECT_LEXFILES,
    foil_pool,
    foil_sense_ok,
    index_sense,
    is_mass,
    object_sense,
)
from crepe_datasets.infra.resources import synset_or_none, wordnet
from crepe_datasets.scenegraph.lexicon import antonyms, canonical_spelling, lemmatize_verb

TOP_K = 10
MIN_ANTONYM_COUNT = 1
MIN_CAPTION_COUNT = 3
RELATION_TABLE = Path(__file__).resolve().parent / "data" / "relation_foils.json"


@functools.lru_cache(maxsize=1)
def relation_table() -> dict[str, tuple[str, ...]]:
    data = json.loads(RELATION_TABLE.read_text(encoding="utf-8"))
    return {k: tuple(v) for k, v in data["foils"].items()}


def _plain(word: str) -> bool:
    return word.isalpha() and word.islower() and len(word) >= 2


def _caption_counts() -> dict[str, int]:
    from crepe_datasets.generators.balance.frequency_lm import DEFAULT_COUNTS, load_counts

    return load_counts(str(DEFAULT_COUNTS))["unigrams"]  # the ranker's own (cached) counts


def in_captions(word: str) -> bool:
    """Whether every word of ``word`` occurs at least :data:`MIN_CAPTION_COUNT` times in the
    caption corpus (see the module docstring)."""
    counts = _caption_counts()
    return all(counts.get(w, 0) >= MIN_CAPTION_COUNT for w in word.split())


#: Nouns whose values no image shows: an adjective sense that is a value of one of them or of
#: a hyponym (WordNet's ``attribute`` link) gives no antonym. "present" in its temporal sense
#: (a value of *timing*, a temporal property) has the antonym "past", but a "present" chair is
#: one that is there (antonym "absent"); "early"/"late", "past"/"future" likewise.
NON_VISUAL_PROPERTIES = frozenset({"temporal_property.n.01"})


def _non_visual(synset) -> bool:
    for noun in synset.attributes():
        names = {noun.name()} | {h.name() for h in noun.closure(lambda z: z.hypernyms())}
        if names & NON_VISUAL_PROPERTIES:
            return True
    return False


def _colour_adjective(synset) -> bool:
    """Whether an adjective sense is a colour: similar to "chromatic", "achromatic" or
    "metallic", or a value of lightness (``value.n.04``: "light" and "dark" in their colour
    senses)."""
    return bool(
        {s.name() for s in synset.similar_tos()} & _COLOUR_ADJECTIVE_KINDS
        or any(a.name() == "value.n.04" for a in synset.attributes())
    )


@functools.lru_cache(maxsize=100_000)
def visual_antonyms(attribute: str) -> tuple[str, ...]:
    """WordNet antonyms of the attribute's two most frequent adjective senses, leaving out the
    senses that are values of a non-visual noun (:data:`NON_VISUAL_PROPERTIES`): the sense an
    attribute of an object in a picture has is not a time. Further, the foil takes the
    attribute's own sense (issue 20):

    * when one of the two senses is a colour (:func:`_colour_adjective`), only the colour senses
      give antonyms: a "light" wall is light in colour, so "dark", never "heavy";
    * the antonyms of the senses the attribute's sense is similar to (WordNet's indirect
      antonyms) come from its most frequent sense only; a second sense gives its direct
      antonyms only ("rectangular": "rounded" through "angular"; not "parallel" through its
      second, mathematical sense, similar to "perpendicular").
    """
    senses = [
        s for s in wordnet().synsets(attribute.replace(" ", "_"), pos="a")[:2] if not _non_visual(s)
    ]
    if any(_colour_adjective(s) for s in senses):
        senses = [s for s in senses if _colour_adjective(s)]
    first = wordnet().synsets(attribute.replace(" ", "_"), pos="a")[:1]
    out: set[str] = set()
    for synset in senses:
        lemmas = list(synset.lemmas())
        if synset in first:
            for similar in synset.similar_tos():
                lemmas += similar.lemmas()
        for lemma in lemmas:
            out.update(a.name().replace("_", " ").lower() for a in lemma.antonyms())
    out.discard(attribute.lower())
    return tuple(sorted(out))


@functools.lru_cache(maxsize=100_000)
def attribute_antonyms(attribute: str) -> tuple[str, ...]:
    """Antonyms of the attribute's visual senses (:func:`visual_antonyms`), in their canonical
    spelling; for a colour, only those that are colours too ("white" -> black; not "young" for
    "grey", whose second sense is old); for an attribute that is no colour, none that may be
    read as one ("heavy" -> not "light": a light box may be light in colour)."""
    found = tuple(dict.fromkeys(canonical_spelling(a) for a in visual_antonyms(attribute)))
    if colour_sense(attribute) is not None:
        return tuple(a for a in found if colour_sense(a) is not None)
    if not _reads_as_colour(attribute):  # "heavy" -> not "light", which may be a light colour
        return tuple(a for a in found if not _reads_as_colour(a))
    return found


@functools.lru_cache(maxsize=100_000)
def _reads_as_colour(word: str) -> bool:
    """Whether one of the two most frequent adjective senses of ``word`` is a colour
    (:func:`_colour_adjective`)."""
    return any(_colour_adjective(s) for s in wordnet().synsets(word.replace(" ", "_"), pos="a")[:2])


@functools.lru_cache(maxsize=100_000)
def synonyms(word: str) -> frozenset[str]:
    """Lemma names sharing a synset with ``word`` (any part of speech, three senses each)."""
    wn = wordnet()
    out = {word}
    for pos in ("n", "a", "v", "r"):
        for synset in wn.synsets(word.replace(" ", "_"), pos=pos)[:3]:
            out.update(lemma.name().replace("_", " ").lower() for lemma in synset.lemmas())
    return frozenset(out)


_SS_TYPE = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}


@functools.lru_cache(maxsize=1)
def first_senses() -> dict[tuple[str, str], tuple[int, int]]:
    """``(lemma, pos) → (synset offset, SemCor count)`` of each word's most frequent sense.

    Read once from WordNet's ``index.sense`` (satellite adjectives count as adjectives); much
    faster than asking NLTK for every candidate's synsets and lemma counts.
    """
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for lemma, ss_type, _, offset, number, count in index_sense():
        if number == 1:
            out.setdefault((lemma.replace("_", " "), _SS_TYPE[ss_type]), (offset, count))
    return out


@functools.lru_cache(maxsize=100_000)
def sense_counts(word: str) -> dict[str, int]:
    """``part of speech → SemCor count`` of the word's most frequent sense, for each part of
    speech (``n``, ``v``, ``a``, ``r``) it has (from :func:`first_senses`)."""
    senses = first_senses()
    return {pos: senses[(word, pos)][1] for pos in "nvar" if (word, pos) in senses}


@functools.lru_cache(maxsize=100_000)
def ranked_cohyponyms(word: str, synset: str | None = None) -> tuple[str, ...]:
    """Co-hyponyms of the object's sense (:func:`.senses.object_sense`) under a close enough
    ancestor, each the head word and dominant sense of its synset, of the original's
    lexicographer file and countability; the :data:`TOP_K` most common (see :mod:`.senses`)."""
    return cohyponym_pool(word, synset)[:TOP_K]


@functools.lru_cache(maxsize=100_000)
def cohyponym_pool(word: str, synset: str | None = None) -> tuple[str, ...]:
    """Every co-hyponym :func:`ranked_cohyponyms` would consider, most common first (the foil
    balance looks here for foils that are words of the image graphs)."""
    sense = object_sense(word, synset)
    if sense is None:
        return ()
    mass = is_mass(word)
    out = set()
    for other in foil_pool(sense):
        for lemma in other.lemma_names():
            foil = lemma.lower()
            if not _plain(foil) or foil in out or not in_captions(foil):
                continue
            other_pos = max((c for p, c in sense_counts(foil).items() if p != "n"), default=-1)
            if foil_sense_ok(foil, other, sense.lexname(), other_pos) and (
                mass or not is_mass(foil)
            ):
                out.add(foil)
    counts = _caption_counts()
    return tuple(w for _, w in sorted((-counts.get(w, 0), w) for w in out))


def synset_cohyponyms(synset_name: str) -> tuple[str, ...]:
    """Like :func:`ranked_cohyponyms`, from an annotated synset ("sign.n.02") alone."""
    sense = synset_or_none(synset_name)
    if sense is None:
        return ()
    return ranked_cohyponyms(sense.lemmas()[0].name().replace("_", " ").lower(), synset_name)


@functools.lru_cache(maxsize=1)
def _colours() -> frozenset:
    """Every synset below ``color.n.01`` (computed once)."""
    root = wordnet().synset("color.n.01")
    return frozenset(root.closure(lambda z: z.hyponyms()))


@functools.lru_cache(maxsize=10_000)
def noun_only(word: str) -> bool:
    """Whether WordNet knows ``word`` as a noun and never as an adjective or adverb ("carpet",
    "coffee", "trash"; not "black", "wooden", "on"): before another noun, it modifies it."""
    poses = {s.pos() for s in wordnet().synsets(word)}
    return "n" in poses and not poses & {"a", "s", "r"}


@functools.lru_cache(maxsize=100_000)
def colour_sense(word: str) -> str | None:
    """The word's first noun sense that is a colour, by name ("white" -> ``white.n.02``: its
    first sense is a person; "silver" -> ``ash_grey.n.01``)."""
    colours = _colours()
    for sense in wordnet().synsets(word.replace(" ", "_"), pos="n"):
        if sense in colours:
            return sense.name()
    return None


@functools.lru_cache(maxsize=1)
def basic_colours() -> tuple[tuple[str, str], ...]:
    """``(name, sense)`` of the colours two levels below ``color.n.01`` (red, white, gray, …)
    whose most frequent sense is that colour, most frequent first."""
    colour = wordnet().synset("color.n.01")
    grandchildren = {gc for c in colour.hyponyms() for gc in c.hyponyms()}
    by_offset = {gc.offset(): gc.name() for gc in grandchildren}
    senses = first_senses()
    out = set()
    for gc in grandchildren:
        for lemma in gc.lemma_names():
            first = senses.get((lemma.replace("_", " ").lower(), "n"))
            if _plain(lemma) and first is not None and first[0] in by_offset:
                out.add((-first[1], lemma, by_offset[first[0]]))
    return tuple((name, sense) for _, name, sense in sorted(out))


_COLOUR_ADJECTIVE_KINDS = frozenset({"chromatic.a.03", "achromatic.a.01", "metallic.a.01"})
# SemCor uses of a colour adjective whose first noun sense is not a colour ("white": a person)
# for it to be a colour foil of every attribute: "white" 61, "orange" 7; rarer ones ("olive",
# "lavender") are foils only where the image graphs being built hold them (colour_pool)
MIN_COLOUR_ADJECTIVE_COUNT = 5


def _describes_colour(word: str) -> bool:
    """Whether the word's most frequent adjective sense is a colour: similar to "chromatic",
    "achromatic" or "metallic" ("red", "grey", "silver") or an attribute of lightness ("white",
    "black"); not "blond" (a complexion)."""
    senses = wordnet().synsets(word, pos="a") + wordnet().synsets(word, pos="s")
    if not senses:
        return False
    first = max(senses, key=lambda s: sum(lm.count() for lm in s.lemmas() if lm.name() == word))
    return bool(
        {s.name() for s in first.similar_tos()} & _COLOUR_ADJECTIVE_KINDS
        or any(a.name() == "value.n.04" for a in first.attributes())
    )


@functools.lru_cache(maxsize=1)
def colour_names() -> tuple[tuple[str, str, int], ...]:
    """``(name, colour sense, adjective count)`` of every colour name that captions use as an
    adjective (a lemma of a colour below ``color.n.01`` whose first colour sense is that one:
    "white", "tan", "beige", "silver"), most frequent adjective first."""
    senses = first_senses()
    out = {}
    for colour in _colours():
        for lemma in colour.lemma_names():
            word = lemma.lower()
            if word in out or not _plain(word) or colour_sense(word) != colour.name():
                continue
            if (word, "a") in senses and in_captions(word) and _describes_colour(word):
                out[word] = (colour.name(), senses[(word, "a")][1])
    ranked = sorted(out.items(), key=lambda kv: (-kv[1][1], kv[0]))
    return tuple((word, sense, count) for word, (sense, count) in ranked)


@functools.lru_cache(maxsize=1)
def colour_adjectives() -> tuple[tuple[str, str], ...]:
    """``(name, sense)`` of the colour foils of every colour: the basic colours
    (:func:`basic_colours`) and the colour names whose most frequent adjective sense is a colour
    though their first noun sense is not, when common ("white", "orange"), most frequent
    adjective first. "white" was a positive's colour that no negative held."""
    names = dict(basic_colours())
    for word, sense, count in colour_names():
        if word not in names and count >= MIN_COLOUR_ADJECTIVE_COUNT:
            names[word] = sense
    order = {word: i for i, (word, _, _) in enumerate(colour_names())}
    return tuple(sorted(names.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


def _not_shades(sense_name: str, colours: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    sense = wordnet().synset(sense_name)
    own = {sense.name()} | {h.name() for h in sense.closure(lambda z: z.hypernyms())}
    own |= {h.name() for h in sense.closure(lambda z: z.hyponyms())}
    return tuple(name for name, colour in colours if colour not in own)


@functools.lru_cache(maxsize=100_000)
def colour_family(word: str) -> frozenset[str]:
    """The colour sense of ``word``, the colours it is a shade of and its shades (the colours
    :func:`colour_foils` never gives as its foils: "silver" -> gray, "beige" -> brown); empty
    for a word that is no colour."""
    sense_name = colour_sense(word)
    if sense_name is None:
        return frozenset()
    sense = wordnet().synset(sense_name)
    own = {sense.name()} | {h.name() for h in sense.closure(lambda z: z.hypernyms())}
    own |= {h.name() for h in sense.closure(lambda z: z.hyponyms())}
    return frozenset(own - {"color.n.01", "chromatic_color.n.01", "achromatic_color.n.01"})


@functools.lru_cache(maxsize=100_000)
def colour_foils(sense_name: str) -> tuple[str, ...]:
    """The colour foils (:func:`colour_adjectives`) that are neither the colour ``sense_name``,
    nor one it is a shade of, nor a shade of it ("silver" -> not gray; "beige" -> not brown,
    "brown" -> not beige)."""
    return _not_shades(sense_name, colour_adjectives())


@functools.lru_cache(maxsize=100_000)
def colour_pool(attribute: str) -> tuple[str, ...]:
    """Every colour name (:func:`colour_names`) that could replace the colour ``attribute`` by
    the rule of :func:`colour_foils`; empty for a word that is no colour. The foil balance looks
    here for colours of the image graphs ("tan", "beige", "silver"), which are truths, so must
    be foils too."""
    sense = colour_sense(attribute)
    if sense is None:
        return ()
    names = [(w, c) for w, c, _ in colour_names() if w != attribute]
    return _clean(attribute, list(_not_shades(sense, names)))


@functools.lru_cache(maxsize=100_000)
def attribute_foils(attribute: str) -> tuple[str, ...]:
    """Foils for an attribute: frequent antonyms, then other colours for a colour."""
    senses = first_senses()
    out = [
        a
        for a in attribute_antonyms(attribute)
        if _plain(a) and senses.get((a, "a"), (0, 0))[1] >= MIN_ANTONYM_COUNT
    ]
    colour = colour_sense(attribute)
    if colour is not None:
        out += [c for c in colour_foils(colour) if (c, "a") in senses]
    return _clean(attribute, [a for a in out if in_captions(a)])


@functools.lru_cache(maxsize=100_000)
def object_foils(name: str, synset: str | None = None) -> tuple[str, ...]:
    """Foils for an object name: ranked co-hyponyms (of its VG synset when given), then antonyms."""
    out = list(ranked_cohyponyms(name, synset)) + [a for a in antonyms(name, "n") if _plain(a)]
    return _clean(name, [f for f in out if in_captions(f)])


def _inflect_like(lemma: str, original: str) -> str:
    """``lemma`` (maybe a phrase) with its first word inflected like ``original``'s first word."""
    from lemminflect import getInflection

    first, _, rest = lemma.partition(" ")
    word = original.split(" ", 1)[0]
    tag = (
        "VBG"
        if word.endswith("ing")
        else "VBZ"
        if word.endswith("s")
        else "VBD"
        if word.endswith("ed")
        else None
    )
    if tag is None or word == lemmatize_verb(word):
        return lemma
    forms = getInflection(first, tag=tag)
    return " ".join(x for x in (forms[0] if forms else first, rest) if x)


@functools.lru_cache(maxsize=100_000)
def relation_foils(predicate: str) -> tuple[str, ...]:
    """Foils for a relationship predicate: the opposites table, then WordNet verb antonyms."""
    out = list(relation_table().get(predicate, ()))
    words = predicate.split(" ")
    verb = lemmatize_verb(words[0])
    for antonym in antonyms(verb, "v"):
        out.append(" ".join([_inflect_like(antonym, predicate), *words[1:]]))
    return _clean(predicate, out)


def _clean(original: str, foils: list[str]) -> tuple[str, ...]:
    """Foils in their canonical spelling (the spelling the cleaned positives use, so "gray" is
    never a foil of "grey"), without the original, its synonyms and repeats."""
    same = synonyms(original) | {canonical_spelling(w) for w in synonyms(original)}
    out: list[str] = []
    for raw in foils:
        foil = canonical_spelling(raw)
        if foil and foil != original and foil not in same and foil not in out:
            out.append(foil)
    return tuple(out)


@functools.lru_cache(maxsize=100_000)
def _noun_senses(word: str) -> frozenset:
    return frozenset(wordnet().synsets(word.replace(" ", "_"), pos="n"))


@functools.lru_cache(maxsize=100_000)
def _first_noun_sense(word: str) -> tuple:
    """The most frequent noun sense of ``word`` (none or one)."""
    return tuple(wordnet().synsets(word.replace(" ", "_"), pos="n")[:1])


#: The lexicographer files of the noun senses that a picture can show as an object or a place,
#: and how many of a word's most frequent noun senses are read: the kinds, parts and wholes of
#: an object foil are looked up in these senses only ("man" as mankind, whose members are
#: persons, "chin" as a language, or "hand" as an ape's foot, its 13th sense, are not what a
#: picture's caption means).
TANGIBLE_LEXFILES = OBJECT_LEXFILES | {"noun.location"}
TANGIBLE_SENSES = 4


@functools.lru_cache(maxsize=100_000)
def tangible_senses(word: str) -> frozenset:
    """The noun senses of ``word`` among its :data:`TANGIBLE_SENSES` most frequent that are in
    :data:`TANGIBLE_LEXFILES`."""
    senses = wordnet().synsets(word.replace(" ", "_"), pos="n")[:TANGIBLE_SENSES]
    return frozenset(s for s in senses if s.lexname() in TANGIBLE_LEXFILES)


@functools.lru_cache(maxsize=100_000)
def _first_noun_family(word: str) -> frozenset:
    """The most frequent noun sense of ``word``, its ancestors, and its parts and wholes."""
    senses = wordnet().synsets(word.replace(" ", "_"), pos="n")[:1]
    out = set(senses)
    for sense in senses:
        out.update(sense.closure(lambda z: z.hypernyms() + z.instance_hypernyms()))
        out.update(sense.part_meronyms() + sense.part_holonyms() + sense.member_holonyms())
    return frozenset(out)


#: How many levels of parts and wholes an object foil must stay clear of ("chin" -> face -> head).
PART_WHOLE_LEVELS = 2
#: The senses below which a noun names a place that things are found in (with WordNet's
#: ``noun.location`` file): rooms, buildings and dwellings.
PLACE_ROOTS = frozenset({"room.n.01", "building.n.01", "housing.n.01"})


def _walk(sense, step, levels: int) -> set:
    """The synsets ``levels`` steps or fewer from ``sense`` along ``step``."""
    out: set = set()
    frontier = {sense}
    for _ in range(levels):
        frontier = {n for s in frontier for n in step(s)} - out
        out |= frontier
    return out


def _whole_links(s) -> list:
    return s.part_holonyms() + s.member_holonyms() + s.substance_holonyms()


def _part_links(s) -> list:
    return s.part_meronyms() + s.member_meronyms() + s.substance_meronyms()


@functools.lru_cache(maxsize=100_000)
def _linked(word: str, links: Callable) -> frozenset:
    """The senses ``links`` reaches from the tangible noun senses of ``word``
    (:func:`tangible_senses`), up to :data:`PART_WHOLE_LEVELS` levels: parts of parts with
    :func:`_part_links`, wholes of wholes with :func:`_whole_links` (not the other parts of a
    whole)."""
    out: set = set()
    for sense in tangible_senses(word):
        out |= _walk(sense, links, PART_WHOLE_LEVELS)
    return frozenset(out)


#: Where the names of a body's parts are filed: its parts and its coverings (skin, hair).
BODY_ROOTS = ("body_part.n.01", "body_covering.n.01")


@functools.lru_cache(maxsize=1)
def body_part_names() -> frozenset[str]:
    """Names whose most frequent noun sense is a body part or covering (:data:`BODY_ROOTS` or a
    kind of one): "palm", "tongue", "limb", "knee", "beard"."""
    wn = wordnet()
    senses = set()
    for root in BODY_ROOTS:
        top = wn.synset(root)
        senses |= {top, *top.closure(lambda s: s.hyponyms())}
    out = set()
    for sense in senses:
        for name in sense.lemma_names():
            first = wn.synsets(name, pos="n")
            if first and first[0] in senses:
                out.add(name.lower().replace("_", " "))
    return frozenset(out)


@functools.lru_cache(maxsize=100_000)
def part_names(whole: str) -> frozenset[str]:
    """Every name WordNet gives a part of a thing called ``whole`` or of a kind of it, up to
    :data:`PART_WHOLE_LEVELS` levels below its tangible senses and their ancestors: "wheel" of a
    car, "palm" of a man (a human's hand), "key" of a keyboard (the keys of its action), "frame"
    of a building (its skeleton). The names are read in any of their senses: a reader who sees
    "key of the cpu" beside a keyboard takes the key for a keyboard's, not a door's."""
    out: set[str] = set()
    for key in sorted(x.name() for x in tangible_senses(whole) | tangible_ancestors(whole)):
        for part in _walk(wordnet().synset(key), _part_links, PART_WHOLE_LEVELS):
            out.update(name.lower().replace("_", " ") for name in part.lemma_names())
    return frozenset(out)


def part_of(word: str, whole: str) -> bool:
    """Whether a thing called ``word`` is a part of a thing called ``whole`` or of a kind of it
    (:func:`part_names`): a car has wheels, a hand a palm, a keyboard keys; and a person
    ("woman", "boy", "person") every body part and covering (:func:`body_part_names`: WordNet
    gives a human body's parts to "homo", which only some senses of "man" are, so "person has
    palm" or "limb of woman" would otherwise read as false)."""
    from crepe_datasets.generators.negatives.kinds import is_person

    return word in part_names(whole) or (word in body_part_names() and is_person(whole))


def excludes(others: Iterable[str], attribute: str) -> bool:
    """Whether one of the attributes ``others`` excludes ``attribute``: it is one of its foils
    (:func:`attribute_foils`: an antonym, another basic colour) or ``attribute`` is one of its
    foils. A brown bench is not red; "large and small" says two values of one kind."""
    foils = set(attribute_foils(attribute))
    return any(b in foils or attribute in attribute_foils(b) for b in others)


#: WordNet's senses of "of many colours" ("colorful", "multicolored", "varicolored",
#: "prismatic"): an object annotated so has colours that its annotation does not list.
MANY_COLOUR_SENSES = frozenset(
    {"colorful.a.01", "motley.s.02", "varicolored.s.01", "prismatic.s.01"}
)


def several_colours(words: Iterable[str]) -> bool:
    """Whether ``words`` name two colours of which neither is a shade of the other ("red" and
    "white"; not "gray" and "silver"): a thing of two colours may well have a third (a red and
    white sign with black letters), so they exclude no colour."""
    senses = [(colour_sense(w), colour_family(w)) for w in sorted(set(words))]
    colours = [(s, f) for s, f in senses if s is not None]
    return any(
        a not in g and b not in f for i, (a, f) in enumerate(colours) for b, g in colours[i + 1 :]
    )


@functools.lru_cache(maxsize=100_000)
def many_coloured(word: str) -> bool:
    """Whether the attribute ``word`` says that a thing has many colours: its first adjective
    sense is one of :data:`MANY_COLOUR_SENSES` ("multi colored", "multi-colored",
    "colorful"). A "multi colored and yellow building" may be white too, so a colour foil
    of it is not false."""
    for form in (word.replace(" ", "_").replace("-", "_"), word.replace(" ", "").replace("-", "")):
        senses = wordnet().synsets(form, pos="a")
        if senses:
            return senses[0].name() in MANY_COLOUR_SENSES
    return False


#: The achromatic colours from light to dark; two next to each other are neighbouring shades
#: (:func:`neighbouring_shades`).
ACHROMATIC_SCALE = ("white.n.02", "gray.n.01", "black.n.01")
#: Words of a shade's definition that give the lightness of a basic colour (:func:`shade_between`)
_LIGHTNESS = {"light": "white.n.02", "pale": "white.n.02", "dark": "black.n.01"}
_WORD = re.compile(r"[a-z]+")
# adjectives similar to these are colours (:func:`shade_between`; "ginger" is "colored")
_SHADE_ADJECTIVE_KINDS = _COLOUR_ADJECTIVE_KINDS | {"colored.a.01"}


@functools.lru_cache(maxsize=1)
def _basic_senses() -> frozenset[str]:
    """The senses of :func:`basic_colours` (white, grey, black, red, brown, …)."""
    return frozenset(sense for _, sense in basic_colours())


def _basic_colour_of(word: str) -> str | None:
    """The basic colour (:func:`basic_colours`) a definition's word names ("brownish" and
    "brown": ``brown.n.01``)."""
    basic = _basic_senses()
    for stem in (word, word[:-3], word[:-4], word[:-3] + "e") if word.endswith("ish") else (word,):
        sense = colour_sense(stem) if stem else None
        if sense in basic:
            return sense
    return None


def _named_colours(definition: str) -> set[str]:
    """The basic colours a definition names, and the lightness of one ("a *light* brown", "a
    *dark* shade of blue": white, black; not "reflects little light")."""
    words = _WORD.findall(definition.lower())
    named = {_basic_colour_of(w) for w in words}
    for w, after in itertools.pairwise(words):
        if w in _LIGHTNESS and (after in ("shade", "tint") or _basic_colour_of(after)):
            named.add(_LIGHTNESS[w])
    return named - {None}


@functools.lru_cache(maxsize=100_000)
def shade_between(word: str) -> frozenset[str]:
    """The basic colours a shade lies between, as WordNet defines it: those its colour
    definitions name ("maroon": *a dark purplish-red to dark brownish-red color* -> purple, red,
    brown, and black for "dark"; "beige": *of a light greyish-brown color* -> grey, brown,
    white; "ginger": *a bright orange-brown color* -> orange, brown). Empty for a basic colour
    (whose definitions name the neighbours on the colour wheel, each a colour of its own) and
    for a word that is no colour. A maroon car is called brown by some people, a beige monitor
    white: readers took such negatives for possibly true."""
    sense = colour_sense(word)
    if sense in _basic_senses():
        return frozenset()
    glosses = [wordnet().synset(sense).definition()] if sense else []
    if " " in word.strip():  # a phrase reads as its own definition: "dark green", "light blue"
        glosses.append(word)
    glosses += [  # colour adjective senses ("ginger": no colour noun sense; not "blond")
        s.definition()
        for s in wordnet().synsets(word.replace(" ", "_"), pos="s")
        if {t.name() for t in s.similar_tos()} & _SHADE_ADJECTIVE_KINDS
    ]
    return frozenset(c for g in glosses for c in _named_colours(g))


@functools.lru_cache(maxsize=100_000)
def shades_meet(a: str, b: str) -> bool:
    """Whether one of the colours ``a`` and ``b`` lies between basic colours
    (:func:`shade_between`) of which the other is one, or a shade of one ("maroon" and "brown",
    "navy" and "black", "ginger" and "orange")."""
    return bool(shade_between(a) & colour_family(b) or shade_between(b) & colour_family(a))


@functools.lru_cache(maxsize=100_000)
def neighbouring_shades(a: str, b: str) -> bool:
    """Whether the colours ``a`` and ``b`` are neighbouring shades, which people call each other:

    * next to each other on the scale of :data:`ACHROMATIC_SCALE` (a colour counts as the step
      whose shade it is: "silver" as grey): a white monitor in shadow reads grey and a grey one
      in dim light black, so two readers took "grey monitor" of a white one for possibly true.
      White and black are no neighbours;
    * or they meet as shades (:func:`shades_meet`): "maroon" and "brown", "navy" and "black",
      "beige" and "white"."""
    if shades_meet(a, b):
        return True
    steps = []
    for word in (a, b):
        family = colour_family(word)
        step = next((i for i, c in enumerate(ACHROMATIC_SCALE) if c in family), None)
        if step is None:
            return False
        steps.append(step)
    return abs(steps[0] - steps[1]) == 1


@functools.lru_cache(maxsize=100_000)
def tangible_ancestors(word: str) -> frozenset:
    """The hypernyms (and instance hypernyms) of every tangible noun sense of ``word``
    (:data:`TANGIBLE_LEXFILES`), transitively."""
    out: set = set()
    for sense in tangible_senses(word):
        out |= set(sense.closure(lambda z: z.hypernyms() + z.instance_hypernyms()))
    return frozenset(out)


@functools.lru_cache(maxsize=100_000)
def _compound_heads(word: str) -> frozenset[str]:
    """The head words (last words) of the word's own name and of the compound lemmas of its
    noun senses ("microwave": microwave_oven -> oven; "remote": remote_control -> control)."""
    names = {word.replace(" ", "_")} | {
        lemma.lower() for s in _noun_senses(word) for lemma in s.lemma_names()
    }
    return frozenset(n.split("_")[-1] for n in names if "_" in n)


@functools.lru_cache(maxsize=100_000)
def place_kind(word: str) -> str | None:
    """The kind of place the most frequent noun sense of ``word`` is, or ``None``: the first
    root of :data:`PLACE_ROOTS` it is a kind of (``"room.n.01"``: "kitchen", "bathroom";
    ``"building.n.01"``: "house", "hotel"; ``"housing.n.01"``: "apartment"), else
    ``"location"`` for one of WordNet's ``noun.location`` file ("area", "corner", "field")."""
    for sense in wordnet().synsets(word.replace(" ", "_"), pos="n")[:1]:
        names = {sense.name()} | {h.name() for h in sense.closure(lambda z: z.hypernyms())}
        for root in sorted(PLACE_ROOTS, key=_PLACE_ORDER.index):
            if root in names:
                return root
        if sense.lexname() == "noun.location":
            return "location"
    return None


_PLACE_ORDER = ("room.n.01", "building.n.01", "housing.n.01")


def _part_or_whole(a: str, b: str) -> bool:
    """Whether ``b`` is a part or a whole of ``a`` (:func:`_linked`), or a kind
    of one of its wholes ("house" of "wall": a wall is part of a building)."""
    own = tangible_senses(b)
    wholes = _linked(a, _whole_links)
    return bool(own & (_linked(a, _part_links) | wholes) or tangible_ancestors(b) & wholes)


def _shares_sense_with_head(word: str, other: str) -> bool:
    """Whether a compound head of ``word`` (:func:`_compound_heads`) is ``other`` or shares a
    noun sense with it."""
    return any(h == other or _noun_senses(h) & _noun_senses(other) for h in _compound_heads(word))


#: Sex and age of the person nouns whose foils can exclude each other (``None``: not said).
#: Other person nouns name roles a person may have at once ("guy" / "gentleman", "player" /
#: "athlete", "child" / "parent" of someone): no person foil excludes them.
PERSON_SEX_AGE: dict[str, tuple[str | None, str | None]] = {
    **dict.fromkeys(
        ("man", "guy", "gentleman", "gent", "dude", "husband", "father"), ("m", "adult")
    ),
    **dict.fromkeys(("woman", "lady", "wife", "mother"), ("f", "adult")),
    "boy": ("m", "child"),
    "girl": ("f", "child"),
    **dict.fromkeys(("child", "kid"), (None, "child")),
    **dict.fromkeys(("baby", "infant", "toddler"), (None, "baby")),
    **dict.fromkeys(("teenager", "teen"), (None, "teen")),
    "adult": (None, "adult"),
}


def _person(word: str) -> bool:
    """Whether the word's most frequent noun sense is a person."""
    first = _first_noun_sense(word)
    return bool(first) and first[0].lexname() == "noun.person"


def persons_exclude(truth: str, foil: str) -> bool:
    """Whether two person nouns cannot name the same person: both in :data:`PERSON_SEX_AGE`,
    with a different sex or age ("man" / "woman", "boy" / "man"; not "guy" / "gentleman")."""
    a, b = PERSON_SEX_AGE.get(truth), PERSON_SEX_AGE.get(foil)
    if a is None or b is None:
        return False
    return any(x is not None and y is not None and x != y for x, y in zip(a, b, strict=True))


@functools.lru_cache(maxsize=100_000)
def coreference_reason(truth: str, foil: str) -> str | None:
    """Why a thing called ``truth`` may also be called ``foil``, or be part of it or in it, or
    ``None``. Such a foil may leave the negative true. The drop reasons, tried in this order:

    * ``atom_object_foil_may_name_the_same_thing``: a noun sense the two names share, in any
      sense ("picture" / "photo"), or, in their most frequent senses, one a kind of the other
      ("woman" / "lady") or a part or whole of it ("wall" / "room");
    * ``atom_object_foil_kind_of``: in any of their senses, one is a kind of the other ("tin on
      the microwave" is true of a tin on a toaster oven that is a kind of oven; "remote" /
      "device");
    * ``atom_object_foil_compound_head``: one names the other in a compound ("microwave oven",
      "remote control" / "controller");
    * ``atom_object_foil_part_or_whole``: in any of their senses, one is a part or whole of the
      other or of a kind it is of, up to :data:`PART_WHOLE_LEVELS` levels ("chin" / "head": the
      chin is part of the face, which is part of the head; "room" / "house": a room is part of a
      building, and a house is a building);
    * ``atom_object_foil_place``: the foil is a place (:func:`place_kind`) and the truth is
      not a place of that kind: the truth may be in that place or a part of it ("home office
      in a corner" -> "in a room", "bookshelf against the wall" -> "against the house", "the
      room is spacious" -> "the apartment"); a room for a room ("kitchen" -> "bathroom") or a
      building for a building stays a foil;
    * ``atom_object_foil_person_role``: both are persons and not of a different sex or age
      (:func:`persons_exclude`): "guy is wearing glasses" -> "gentleman is wearing glasses" may
      be true, as may "player" -> "athlete".
    """
    if _noun_senses(truth) & _noun_senses(foil):
        return "atom_object_foil_may_name_the_same_thing"
    first, other = _first_noun_sense(truth), _first_noun_sense(foil)
    if set(first) & _first_noun_family(foil) or set(other) & _first_noun_family(truth):
        return "atom_object_foil_may_name_the_same_thing"
    if tangible_senses(foil) & tangible_ancestors(truth) or tangible_senses(
        truth
    ) & tangible_ancestors(foil):
        return "atom_object_foil_kind_of"
    if _shares_sense_with_head(truth, foil) or _shares_sense_with_head(foil, truth):
        return "atom_object_foil_compound_head"
    if _part_or_whole(truth, foil) or _part_or_whole(foil, truth):
        return "atom_object_foil_part_or_whole"
    place = place_kind(foil)
    if place is not None and place != place_kind(truth):
        return "atom_object_foil_place"
    if _person(truth) and _person(foil) and not persons_exclude(truth, foil):
        return "atom_object_foil_person_role"
    return None


def names_may_corefer(truth: str, foil: str) -> bool:
    """Whether a thing called ``truth`` may also be called ``foil``, or be a kind, part or whole
    of it, or be in it (:func:`coreference_reason` gives a reason). Such a foil may leave the
    negative true."""
    return coreference_reason(truth, foil) is not None


def keeps_references(names: list[str], index: int, foil: str) -> bool:
    """Whether an object foil leaves the references between same-named objects as they are:
    the object at ``index`` of a subgraph whose object names are ``names`` shares its name with
    no other object, and ``foil`` is the name of no other object.

    The template writes a second object of a name as "another NAME" and later mentions as "the
    other NAME" (:mod:`crepe_datasets.generators.captions.template`). A foil replacing one of two
    men leaves one man, so the negative loses "another … the other" that its positive has (107
    sets of the productivity build of issue 20); a foil equal to another object's name adds
    them. Either way the words "another"/"other" tell the positive from the negative without
    the image, and the text cannot keep them, since no second object of that name is left (or
    none was there). So an object foil is used only where it keeps them: for HN-ATOM, the
    generator (``atom.py``) should skip a foil for which this is False.
    """
    own = names[index]
    others = names[:index] + names[index + 1 :]
    return own not in others and foil not in others

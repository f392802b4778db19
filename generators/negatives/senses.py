"""Which WordNet senses an object foil may come from (issue 13, validity of HN-ATOM objects).

Co-hyponyms under a word's grand-hypernym (SPEC §2.5) are good foils when the grand-hypernym is
specific ("dog" → cat, fox under *carnivore*) and poor ones when it is near the top of the
hierarchy ("building" → system, equipment under *artifact*), when the word's sense is not the
one an image shows ("seat" as a place reserved for sitting → neighborhood), or when the foil's
everyday sense is another kind of thing ("tree" → banana, whose WordNet plant and fruit senses
are equally frequent). The rules, each a property of WordNet or of word frequencies, not of
particular words:

* **The original's sense** (:func:`object_sense`): the annotated Visual Genome synset when it
  is in a lexicographer file of tangible things (:data:`OBJECT_LEXFILES`: artifacts, animals,
  plants, foods, body parts, people, natural objects); an annotated sense of another kind
  gives no co-hyponym foils ("seat" annotated as a place reserved for sitting, "shadow" as a
  state, "glass" as the substance: their other senses are other things — a follower for
  "shadow" — so no other sense is guessed). An unannotated name takes its first tangible noun
  sense whose head word (first lemma) it is, else its first tangible one.
* **A close enough ancestor** (:func:`foil_pool`): co-hyponyms are the grandchildren of the
  grand-hypernym, unless more than :data:`MAX_SUBTREE` synsets lie below the grand-hypernym
  (counted along each path); then they are the siblings under the parent, which are as
  general as the word itself. It keeps *carnivore*, *garment*, *furniture* and *adult*, and
  cuts *artifact* (the siblings of building under *structure*: porch, bridge, tower …),
  *instrumentality*, *person* and *organism*. :data:`MAX_SUBTREE` = 2,000 was chosen on the
  295 most captioned Visual Genome object names of the synset table of all of Visual Genome
  that do not occur in the evaluation images (``images_1-100``), as the limit with the
  smallest share of foils whose Wu-Palmer similarity to every sense of the original is below
  0.7 (the smaller of two equal ones). Limit: share below 0.7, below 0.75, foils, names with a
  foil — 500: 4.9%, 6.6%, 408, 115; 1,000: 4.2%, 5.5%, 527, 123; 1,500: 4.1%, 5.7%, 543,
  127; 2,000: 3.9%, 7.0%, 571, 128; 3,000: 3.9%, 6.9%, 612, 131; no limit: 10.2%, 28.4%, 806,
  133; the code before this module (grand-hypernym always, the name's first sense): 16.4%,
  33.6%, 980, 243, and 6.8% of another lexicographer file (0.0% now). Below 0.75 the best
  limit would be 1,000. The price is coverage: 128 of those 295 names keep a co-hyponym foil,
  against 243 before. Measured by ``scripts/bench/foil_limit.py``.
* **The foil's sense** (:func:`foil_sense_ok`): in the same lexicographer file as the
  original's sense, and the word's *dominant* noun sense — its most frequent sense, with a
  SemCor count strictly greater than that of any of its senses in another lexicographer file
  ("banana": plant 1, fruit 1 → not a plant foil; "bush": shrub 5, wilderness 2 → a plant
  foil) and at least that of its most frequent verb, adjective or adverb sense ("local": a
  local train 2, the adjective 47 → no foil).
* **Count nouns for count nouns** (:func:`is_mass`): a word is a mass noun when its plural
  is written less than :data:`MASS_RATIO` times as often as its singular (``wordfreq``; for a
  word that lemminflect gives as its own plural, the regular plural in "-s"): equipment 0.010,
  furniture 0.004, clothing 0.002, rice 0.002 against building 0.25, tree 0.69, hair 0.049,
  snow 0.020. A count noun takes no mass-noun foil ("balconies" → not "equipments"); a mass
  noun, or an unmarked plural that the test reads as one ("sheep"), takes either.
"""

from __future__ import annotations

import functools

from crepe_datasets.infra.resources import synset_or_none, wordnet

OBJECT_LEXFILES = frozenset(
    {
        "noun.artifact",
        "noun.animal",
        "noun.plant",
        "noun.food",
        "noun.body",
        "noun.person",
        "noun.object",
    }
)
MAX_SUBTREE = 2_000
MASS_RATIO = 0.015


def _head(sense) -> str:
    return sense.lemmas()[0].name().replace("_", " ").lower()


@functools.lru_cache(maxsize=100_000)
def object_sense(name: str, synset: str | None = None):
    """The sense an object's foils come from, or ``None`` (see the module docstring)."""
    wn = wordnet()
    if synset:
        annotated = synset_or_none(synset)
        if annotated is not None:
            return annotated if annotated.lexname() in OBJECT_LEXFILES else None
    found = [
        s for s in wn.synsets(name.replace(" ", "_"), pos="n") if s.lexname() in OBJECT_LEXFILES
    ]
    headed = [s for s in found if _head(s) == name.lower()]
    return (headed or found or [None])[0]


@functools.lru_cache(maxsize=100_000)
def broad(sense) -> bool:
    """Whether more than :data:`MAX_SUBTREE` synsets lie below ``sense`` (hyponyms and
    instances, counted along each path; the walk stops once past the limit)."""
    seen, stack = 0, [sense]
    while stack and seen <= MAX_SUBTREE:
        node = stack.pop()
        children = node.hyponyms() + node.instance_hyponyms()
        seen += len(children)
        stack.extend(children)
    return seen > MAX_SUBTREE


def foil_pool(sense) -> set:
    """Co-hyponym senses of ``sense``: grandchildren of each grand-hypernym, or siblings under
    the parent where the grand-hypernym is too general (:data:`MAX_SUBTREE`)."""
    pool: set = set()
    for parent in sense.hypernyms():
        for grand in parent.hypernyms():
            if not broad(grand):
                pool.update(gc for c in grand.hyponyms() for gc in c.hyponyms())
            else:
                pool.update(parent.hyponyms())
    pool.discard(sense)
    return pool


@functools.lru_cache(maxsize=1)
def index_sense() -> tuple[tuple[str, str, int, int, int, int], ...]:
    """Rows ``(lemma, synset type digit, lexicographer file number, offset, sense number,
    SemCor count)`` of WordNet's ``index.sense``, read once (one read of the whole file)."""
    with wordnet().open("index.sense") as handle:
        text = handle.read()
    rows = []
    for line in text.splitlines():
        key, offset, number, count = line.split()
        lemma, _, rest = key.partition("%")
        parts = rest.split(":")
        rows.append((lemma, parts[0], int(parts[1]), int(offset), int(number), int(count)))
    return tuple(rows)


@functools.lru_cache(maxsize=1)
def noun_senses() -> dict[str, tuple[tuple[int, int, int], ...]]:
    """``lemma → ((offset, lexicographer file number, SemCor count), ...)`` of its noun senses in
    WordNet's order (from :func:`index_sense`)."""
    rows: dict[str, list[tuple[int, int, int, int]]] = {}
    for lemma, ss_type, lexfile, offset, number, count in index_sense():
        if ss_type == "1":
            rows.setdefault(lemma, []).append((number, offset, lexfile, count))
    return {k: tuple(r[1:] for r in sorted(v)) for k, v in rows.items()}


def foil_sense_ok(word: str, sense, lexname: str, other_pos_count: int = -1) -> bool:
    """Whether ``word`` may stand for ``sense`` as a foil of a ``lexname`` object:
    ``other_pos_count`` is the SemCor count of the word's most frequent verb, adjective or
    adverb sense (-1 when it has none)."""
    if sense.lexname() != lexname:
        return False
    found = noun_senses().get(word.replace(" ", "_"))
    if not found or found[0][0] != sense.offset():
        return False
    _, lexfile, own = found[0]
    if own < other_pos_count:
        return False
    return all(count < own for _, lex, count in found[1:] if lex != lexfile)


@functools.lru_cache(maxsize=100_000)
def is_mass(word: str) -> bool:
    """Whether ``word`` is a mass noun by the written frequency of its plural (``wordfreq``)."""
    from lemminflect import getInflection
    from wordfreq import word_frequency

    last = word.split()[-1]
    plurals = getInflection(last, tag="NNS")
    plural = plurals[0] if plurals and plurals[0] != last else last + "s"
    singular = word_frequency(last, "en")
    if singular <= 0:
        return False
    return word_frequency(plural, "en") < MASS_RATIO * singular

"""What counts as the same thing, the same attribute and the same relation when a foil is
checked against the full image graph (HN-ATOM, issue 20: "true negatives only").

A caption speaks of *a* pole, not of the annotated object 1058: "a black pole on top of the
ground" is true when any pole of the image is black. So the checks of
:mod:`crepe_datasets.generators.negatives.atom` look at every object of the image graph that a
reader could take for the replaced one, and at every attribute and predicate that says what the
foil says. The rules, each a property of WordNet or of the graph, not of particular words:

* **Same kind of object** (:func:`same_kind`): two names are one kind when they are equal, when
  their Visual Genome synsets are equal, when their head words (last words, as nouns: "water
  bottle", "drinking bottle") are equal, or when the names or their head words share one of
  their :data:`SYNONYM_SENSES` most frequent noun senses ("carpet rug" / "carpet": *rug* and
  *carpet* are one synset).
* **Or a kind of it** (:func:`is_kind_of`): a thing whose name is a kind of the caption's word
  is one the caption may speak of ("a white car": a white SUV); a word that names any physical
  thing (:func:`vacuous`: "thing", "object") speaks of every object ("a black thing": anything
  black).
* **Same attribute** (:func:`attribute_says`): an attribute says ``foil`` when it is ``foil``,
  a lemma of ``foil``'s most frequent adjective sense, a phrase one of whose words is ("light
  brown" says brown), or a colour that ``foil`` is a shade of or that is a shade of ``foil``
  ("silver" says grey: a silver moped may be called grey).
* **Same relation** (:func:`predicate_variants`): the predicate, its WordNet verb synonyms and the
  predicates of the same meaning of the relation table (``data/relation_foils.json``,
  ``same_meaning``: "on" / "on top of"). A relation also holds when the *converse* links the two
  objects the other way ("A behind B" when "B in front of A", "books on the table" when "the
  table has books"; ``converse`` of the table) or, for a symmetric predicate ("next to"), when
  the predicate itself does. An annotated predicate that ends with a spatial preposition of the
  table after a verb says that preposition ("photo sitting on table": on;
  :func:`predicate_says`).
"""

from __future__ import annotations

import functools
import json

from crepe_datasets.infra.resources import wordnet
from crepe_datasets.scenegraph.lexicon import canonical_spelling

#: How many of a name's most frequent noun senses count for synonymy (as in
#: :func:`crepe_datasets.generators.negatives.foils.synonyms`).
SYNONYM_SENSES = 3


@functools.lru_cache(maxsize=100_000)
def head(name: str) -> str:
    """The head word of a name (its last word) as a noun lemma ("curtains" -> curtain)."""
    last = name.split()[-1] if name.split() else name
    return wordnet().morphy(last, "n") or last


@functools.lru_cache(maxsize=100_000)
def _senses(word: str) -> frozenset:
    return frozenset(wordnet().synsets(word.replace(" ", "_"), pos="n")[:SYNONYM_SENSES])


@functools.lru_cache(maxsize=200_000)
def _same_name_kind(a: str, b: str) -> bool:
    if a == b:
        return True
    ha, hb = head(a), head(b)
    if ha == hb:
        return True
    return bool(
        (_senses(a) | _senses(ha)) & (_senses(b) | _senses(hb))
        if (_senses(a) or _senses(ha)) and (_senses(b) or _senses(hb))
        else False
    )


@functools.lru_cache(maxsize=100_000)
def kind_keys(name: str) -> frozenset:
    """Keys of ``name``'s kind: two names are of one kind by name (:func:`same_kind` without
    synsets) exactly when their keys meet. Its head word and the names of the synonym senses of
    the name and its head (strings: they hash fast); an index of the keys finds every word of a
    kind at once."""
    h = head(name)
    return frozenset({f"head:{h}", *(x.name() for x in _senses(name) | _senses(h))})


def same_kind(a: str, b: str, a_synset: str | None = None, b_synset: str | None = None) -> bool:
    """Whether a thing called ``a`` and one called ``b`` are of one kind (module docstring)."""
    if a_synset and b_synset and a_synset == b_synset:
        return True
    return _same_name_kind(*sorted((a, b)))


@functools.lru_cache(maxsize=200_000)
def is_kind_of(name: str, general: str) -> bool:
    """Whether a thing called ``name`` is a kind of what ``general`` names: one of the tangible
    senses of ``general`` is an ancestor of one of ``name``'s ("suv" of "car", anything of
    "thing"), senses read as
    :func:`crepe_datasets.generators.negatives.foils.coreference_reason` reads them. "A white
    car" is true of a white SUV."""
    from crepe_datasets.generators.negatives.foils import tangible_ancestors, tangible_senses

    if vacuous(general):
        return True
    own = tangible_ancestors(name) or tangible_ancestors(head(name))  # "mouse pad": pad
    return bool(tangible_senses(general) & own)


@functools.lru_cache(maxsize=100_000)
def ancestors(name: str) -> frozenset:
    """The names of the ancestors of ``name``'s tangible noun senses (those of its head word
    where the name has none: "mouse pad": pad)."""
    from crepe_datasets.generators.negatives.foils import tangible_ancestors

    return frozenset(x.name() for x in tangible_ancestors(name) or tangible_ancestors(head(name)))


@functools.lru_cache(maxsize=100_000)
def general_senses(name: str) -> frozenset:
    """The names of the :data:`SYNONYM_SENSES` most frequent noun senses of ``name``, of any
    kind, as a general kind that other things may be (:func:`may_be`); none for a vacuous
    word."""
    return frozenset() if vacuous(name) else frozenset(x.name() for x in _senses(name))


def may_be(name: str, general: str) -> bool:
    """Whether a thing called ``general`` may be a ``name``: one of ``general``'s
    :func:`general_senses` is an ancestor of one of ``name``'s (:func:`ancestors`: "a person"
    may be a man, "a vehicle" a van). Vacuous words ("thing") are left to :func:`is_kind_of`,
    which reads them the other way."""
    return bool(general_senses(general) & ancestors(name))


@functools.lru_cache(maxsize=10_000)
def is_person(name: str) -> bool:
    """Whether ``name``'s most frequent noun sense is a person ("man", "girl") or it is
    "person" / "people": a colour on a person reads as skin colour, never a fair foil."""
    if name.split()[-1] in {"person", "people", "persons"}:
        return True
    senses = wordnet().synsets(name.replace(" ", "_"), pos="n")
    return bool(senses) and senses[0].lexname() == "noun.person"


#: How deep below ``entity.n.01`` a noun sense of a physical entity may be for the noun to name
#: anything at all ("thing": thing.n.12, "object": object.n.01, both two levels down).
VACUOUS_DEPTH = 2


@functools.lru_cache(maxsize=100_000)
def vacuous(word: str) -> bool:
    """Whether ``word`` has a noun sense that names any physical thing (a sense of a physical
    entity at most :data:`VACUOUS_DEPTH` levels below the root): "a black thing" is true of
    whatever is black."""
    root = wordnet().synset("physical_entity.n.01")
    return any(
        s.min_depth() <= VACUOUS_DEPTH and root in s.closure(lambda z: z.hypernyms())
        for s in wordnet().synsets(word.replace(" ", "_"), pos="n")
    )


@functools.lru_cache(maxsize=100_000)
def attribute_variants(attribute: str) -> frozenset[str]:
    """``attribute``, its canonical spelling and the lemmas of its most frequent adjective
    sense ("grey": gray, grey)."""
    out = {attribute, canonical_spelling(attribute) or attribute}
    senses = wordnet().synsets(attribute.replace(" ", "_"), pos="a")[:1]
    for sense in senses:
        for lemma in sense.lemma_names():
            word = lemma.replace("_", " ").lower()
            out.update({word, canonical_spelling(word) or word})
    return frozenset(out)


@functools.lru_cache(maxsize=200_000)
def attribute_says(attribute: str, foil: str) -> bool:
    """Whether an annotated ``attribute`` says what ``foil`` says (module docstring): one of
    its :func:`attribute_forms` is a variant of ``foil``, or one of its colours is in ``foil``'s
    family (:func:`says_in`)."""
    return says_in(*attribute_forms(attribute), foil)


@functools.lru_cache(maxsize=100_000)
def attribute_forms(attribute: str) -> tuple[frozenset[str], frozenset[str]]:
    """What :func:`attribute_says` reads of an annotated ``attribute``: its spellings (and those
    of its words, for a phrase) and the colour senses among them ("silver" says grey: a silver
    moped may be called grey). The union of several attributes' forms says ``foil`` when
    :func:`says_in` finds it: one of them says it."""
    from crepe_datasets.generators.negatives.foils import colour_sense

    words = attribute.replace("-", " ").split()
    parts = words if len(words) > 1 else []
    forms = {attribute, canonical_spelling(attribute) or attribute}
    forms.update(x for w in parts for x in (w, canonical_spelling(w) or w))
    colours = {colour_sense(w) for w in (attribute, *words)} - {None}
    return frozenset(forms), frozenset(colours)


def says_in(forms: frozenset[str], colours: frozenset[str], foil: str) -> bool:
    """Whether attributes of the joined :func:`attribute_forms` say ``foil``: one is a variant
    of it, one of their colours is in its family, or it and one of them meet as shades
    (:func:`~crepe_datasets.generators.negatives.foils.shades_meet`: "maroon" says brown,
    "ginger" orange)."""
    from crepe_datasets.generators.negatives.foils import colour_family

    return (
        bool(attribute_variants(foil) & forms)
        or bool(colour_family(foil) & colours)
        or meets_a_shade(foil, forms)
    )


def meets_a_shade(colour: str, words: frozenset[str]) -> bool:
    """Whether ``colour`` meets one of ``words`` as a shade
    (:func:`~crepe_datasets.generators.negatives.foils.shades_meet`), checked at once for all
    of them: "orange" meets "ginger" of "wide ginger curtains". False for a word that is no
    colour."""
    from crepe_datasets.generators.negatives.foils import colour_family, shade_between

    family = colour_family(colour)
    if not family:
        return False
    families, between = _shades_of(words)
    return bool(shade_between(colour) & families or between & family)


@functools.lru_cache(maxsize=20_000)
def _shades_of(forms: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The colours of ``forms`` with their families, and the basic colours they lie between
    (:func:`~crepe_datasets.generators.negatives.foils.shade_between`)."""
    from crepe_datasets.generators.negatives.foils import colour_family, shade_between

    return (
        frozenset().union(*(colour_family(w) for w in forms)),
        frozenset().union(*(shade_between(w) for w in forms)),
    )


@functools.lru_cache(maxsize=1)
def _relation_groups() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]], frozenset]:
    from crepe_datasets.generators.negatives.foils import RELATION_TABLE

    data = json.loads(RELATION_TABLE.read_text(encoding="utf-8"))
    same = {w: frozenset(group) for group in data.get("same_meaning", []) for w in group}
    converse: dict[str, frozenset[str]] = {}
    for left, right in data.get("converse", []):
        for w in left:
            converse[w] = converse.get(w, frozenset()) | frozenset(right)
        for w in right:
            converse[w] = converse.get(w, frozenset()) | frozenset(left)
    symmetric = frozenset(w for group in data.get("symmetric", []) for w in group)
    return same, converse, symmetric


def predicate_meaning(predicate: str) -> str:
    """One name for the predicates of ``predicate``'s meaning in the relation table ("near",
    "next to", "beside" → "beside"); the predicate itself outside the table's groups."""
    same, _, _ = _relation_groups()
    return min(same.get(predicate, frozenset()) | {predicate})


@functools.lru_cache(maxsize=100_000)
def predicate_variants(predicate: str) -> frozenset[str]:
    """The predicates that say ``predicate`` between the same subject and object: itself, the
    lemmas of a one-word verb's :data:`SYNONYM_SENSES` most frequent senses and the table's
    predicates of the same meaning."""
    same, _, _ = _relation_groups()
    out = {predicate} | same.get(predicate, frozenset())
    if " " not in predicate:  # a one-word verb's WordNet synonyms ("holds" / "holding": hold)
        for sense in wordnet().synsets(predicate, pos="v")[:SYNONYM_SENSES]:
            out.update(lemma.replace("_", " ").lower() for lemma in sense.lemma_names())
    return frozenset(out)


@functools.lru_cache(maxsize=100_000)
def reverse_variants(predicate: str) -> frozenset[str]:
    """The predicates that say ``predicate`` with subject and object exchanged: its converses
    ("behind" for "in front of") and, when it is symmetric ("next to"), its own variants."""
    same, converse, symmetric = _relation_groups()
    out: set[str] = set()
    for p in {predicate} | same.get(predicate, frozenset()):  # not WordNet's: "hold" / "have"
        for c in converse.get(p, frozenset()):
            out |= same.get(c, frozenset({c}))
        if p in symmetric:
            out |= predicate_variants(predicate)
    return frozenset(out)


@functools.lru_cache(maxsize=200_000)
def predicate_says(annotated: str, variants: frozenset[str]) -> bool:
    """Whether an annotated predicate says one of ``variants``: it is one, or it ends with one
    that is a spatial preposition of the relation table after a verb ("sitting on", "is on",
    "hanging on" say "on"; "lying under" says "under")."""
    if annotated in variants:
        return True
    spatial = _spatial()
    return any(annotated.endswith(" " + v) for v in variants if v in spatial)


@functools.lru_cache(maxsize=1)
def _spatial() -> frozenset[str]:
    """The predicates of the relation table's ``same_meaning`` and ``converse`` groups that are
    prepositions (no verb)."""
    same, converse, _ = _relation_groups()
    words = set(same) | set(converse)
    return frozenset(w for w in words if w not in HAVE)


#: The predicates of having, the converse of "on" / "in" / "of" in the relation table.
HAVE = frozenset({"has", "have", "with"})

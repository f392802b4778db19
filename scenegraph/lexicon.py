"""The lexicon: canonical object and attribute forms, verb lemmas, and WordNet relations.

Rules (SPEC §1, §4.1):

* **Objects** are singularised: a keep-as-is list first (words whose plural form is the
  object: glasses, scissors, pants, jeans, …), then an irregular-plural list
  (children→child, teeth→tooth, geese→goose, …), then lemminflect's noun lemma. In a
  multi-word name only the head (last word) changes: "tennis rackets" → "tennis racket".
* **Attributes** are never lemmatised: only lower-cased and trimmed ("smiling" stays).
* **WordNet** relations use the most frequent sense(s) of a word; results are lower-case,
  with underscores turned into spaces, de-duplicated, sorted, and cached.
"""

from __future__ import annotations

import functools
import itertools

from crepe_datasets.infra.resources import wordnet
from crepe_datasets.scenegraph.types import normalize_name

# Plural-only nouns and nouns whose plural names the object (kept exactly as written).
KEEP_AS_IS = frozenset(
    """glasses sunglasses eyeglasses goggles binoculars scissors pliers tongs tweezers pants
    trousers jeans shorts leggings tights pajamas pyjamas overalls briefs panties boxers trunks
    clothes stairs steps? news species series means headquarters barracks gallows
    sheep deer fish moose bison aircraft offspring swine shrimp salmon trout cattle police
    people? electronics athletics physics mathematics gymnastics politics economics
    bus gas glass lens cactus octopus walrus canvas atlas iris chassis""".replace("?", "").split()
)

IRREGULAR_PLURALS = {
    "children": "child",
    "men": "man",
    "women": "woman",
    "people": "person",
    "persons": "person",
    "teeth": "tooth",
    "feet": "foot",
    "geese": "goose",
    "mice": "mouse",
    "lice": "louse",
    "oxen": "ox",
    "dice": "die",
    "knives": "knife",
    "wives": "wife",
    "lives": "life",
    "leaves": "leaf",
    "loaves": "loaf",
    "halves": "half",
    "calves": "calf",
    "wolves": "wolf",
    "shelves": "shelf",
    "scarves": "scarf",
    "hooves": "hoof",
    "elves": "elf",
    "thieves": "thief",
    "cacti": "cactus",
    "fungi": "fungus",
    "octopi": "octopus",
    "buses": "bus",
    "busses": "bus",
    "lenses": "lens",
    "glasses_": "glass",
    "tomatoes": "tomato",
    "potatoes": "potato",
    "heroes": "hero",
    "volcanoes": "volcano",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "indices": "index",
    "vertices": "vertex",
    "matrices": "matrix",
    "appendices": "appendix",
    "axes": "axis",
    "ladies": "lady",
    "skies": "sky",
    "babies": "baby",
    "puppies": "puppy",
    "kitties": "kitty",
    "cookies": "cookie",
    "bodies": "body",
    "candies": "candy",
    "horses": "horse",
    "houses": "house",
    "vases": "vase",
    "bases": "base",
    "cases": "case",
    "surfboards": "surfboard",
}


@functools.lru_cache(maxsize=200_000)
def _singular_word(word: str) -> str:
    if word in KEEP_AS_IS:
        return word
    if word in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[word]
    if not word.isalpha() or len(word) < 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    from lemminflect import getLemma

    lemmas = getLemma(word, upos="NOUN", lemmatize_oov=True)
    return lemmas[0] if lemmas else word


def singularize(noun: str) -> str:
    """Singular form of a (possibly multi-word) noun; only the head word changes.

    Example:
        >>> singularize("children"), singularize("glasses"), singularize("tennis rackets")
        ('child', 'glasses', 'tennis racket')
    """
    words = noun.split(" ")
    if not words or not words[-1]:
        return noun
    words[-1] = _singular_word(words[-1])
    return " ".join(words)


def pluralize(noun: str) -> str:
    """Plural form of a (possibly multi-word) noun; only the head word changes (lemminflect).

    Example:
        >>> pluralize("drawer"), pluralize("tennis racket"), pluralize("man")
        ('drawers', 'tennis rackets', 'men')
    """
    from lemminflect import getInflection

    head, _, last = noun.rpartition(" ")
    forms = getInflection(last, tag="NNS")
    plural = forms[0] if forms else last + "s"
    return f"{head} {plural}" if head else plural


def normalize_object(name: str) -> str:
    """Canonical object name: lower case, trimmed, head word singularised."""
    return singularize(normalize_name(name))


def normalize_attribute(attribute: str) -> str:
    """Canonical attribute: lower case and trimmed only (never lemmatised)."""
    return normalize_name(attribute)


@functools.lru_cache(maxsize=50_000)
def lemmatize_verb(word: str) -> str:
    """Base form of a verb ("standing" → "stand", "wears" → "wear"); other words unchanged."""
    from lemminflect import getLemma

    lower = word.lower()
    lemmas = getLemma(lower, upos="VERB", lemmatize_oov=False)
    return lemmas[0] if lemmas else lower


# --------------------------------------------------------------------- WordNet


def _names(synsets) -> tuple[str, ...]:
    out = {lemma.name().replace("_", " ").lower() for s in synsets for lemma in s.lemmas()}
    return tuple(sorted(out))


def _synsets(word: str, pos: str | None, senses: int):
    return wordnet().synsets(word.replace(" ", "_"), pos=pos)[:senses]


@functools.lru_cache(maxsize=50_000)
def antonyms(word: str, pos: str | None = None, senses: int = 2) -> tuple[str, ...]:
    """WordNet antonyms of a word (direct, and through "similar to" for adjectives).

    Example:
        >>> "white" in antonyms("black", "a")
        True
    """
    out: set[str] = set()
    for synset in _synsets(word, pos, senses):
        lemmas = list(synset.lemmas())
        for similar in synset.similar_tos():
            lemmas += similar.lemmas()
        for lemma in lemmas:
            out.update(a.name().replace("_", " ").lower() for a in lemma.antonyms())
    out.discard(word.lower())
    return tuple(sorted(out))


@functools.lru_cache(maxsize=50_000)
def hypernyms(word: str, pos: str | None = "n", senses: int = 1) -> tuple[str, ...]:
    """Lemma names of the direct hypernyms of a word's most frequent sense(s) ("dog" → canine, …)."""
    return _names(h for s in _synsets(word, pos, senses) for h in s.hypernyms())


@functools.lru_cache(maxsize=50_000)
def cohyponyms(word: str, pos: str | None = "n", senses: int = 1) -> tuple[str, ...]:
    """Words sharing a grand-hypernym with ``word`` (co-hyponyms at depth 2).

    For each hypernym ``h`` of the word's sense and each hypernym ``g`` of ``h``, the
    grandchildren of ``g`` (hyponyms of hyponyms) are returned, without the word itself, its
    own synonyms and its hypernyms ("dog" → wolf, fox, cat, … via carnivore).
    """
    own: set[str] = set()
    out: set[str] = set()
    for synset in _synsets(word, pos, senses):
        own.update(_names([synset]))
        for parent in synset.hypernyms():
            own.update(_names([parent]))
            for grand in parent.hypernyms():
                for child in grand.hyponyms():
                    out.update(_names(child.hyponyms()))
    return tuple(sorted(out - own - {word.lower()}))


def is_known(word: str, pos: str | None = None) -> bool:
    """True when WordNet has the word (with that part of speech)."""
    return bool(_synsets(word, pos, 1))


#: Plural nouns that lemminflect gives as their own lemma (grammar, not a list of VG names).
COLLECTIVE_PLURALS = frozenset({"people", "police", "cattle"})


@functools.lru_cache(maxsize=100_000)
def is_plural_name(name: str) -> bool:
    """Whether an object name is grammatically plural: lemminflect gives its last word another
    lemma ("shorts" -> "short"), or the word ends in "s" and is its own only plural ("scissors",
    "jeans", "clothes"), or it is a collective plural (:data:`COLLECTIVE_PLURALS`)."""
    from lemminflect import getInflection, getLemma

    last = name.split()[-1] if name.split() else ""
    if last in COLLECTIVE_PLURALS:
        return True
    lemmas = getLemma(last, upos="NOUN")
    if lemmas and last not in lemmas:
        return True
    return last.endswith("s") and getInflection(last, tag="NNS") == (last,)


#: Leading verbs that change with the subject's number: singular form -> plural form.
NUMBER_VERBS = {"is": "are", "was": "were", "has": "have"}
SINGULAR_VERBS = {plural: singular for singular, plural in NUMBER_VERBS.items()}


@functools.lru_cache(maxsize=200_000)
def agree_predicate(predicate: str, subject: str) -> str:
    """The predicate with its leading verb in the subject's number ("are on" → "is on" for
    "paper"; "holds" → "hold" for "people"). Shared by the productivity cleaning step and the
    caption edits of negatives (:mod:`crepe_datasets.generators.negatives.surface`)."""
    first, _, rest = predicate.partition(" ")
    plural = is_plural_name(subject)
    if plural and first in NUMBER_VERBS:
        first = NUMBER_VERBS[first]
    elif not plural and first in SINGULAR_VERBS:
        first = SINGULAR_VERBS[first]
    elif plural and first.endswith("s") and first.isalpha():
        from lemminflect import getInflection

        lemma = lemmatize_verb(first)
        if lemma != first and first in getInflection(lemma, tag="VBZ"):
            first = lemma
    return " ".join(x for x in (first, rest) if x)


# ------------------------------------------------------------ spelling variants


def _edits(a: str, b: str) -> int:
    """Levenshtein distance with adjacent transpositions (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, prev2[j - 2] + 1)
            row.append(cost)
        prev2, prev = prev, row
    return prev[-1]


_SS_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}


@functools.lru_cache(maxsize=1)
def _spelling_groups() -> dict[str, frozenset[str]]:
    """``word -> its spellings`` for every WordNet word that has another spelling (see
    :func:`canonical_spelling`), from one read of WordNet's ``index.sense``."""
    first: dict[tuple[str, int], list[str]] = {}
    with wordnet().open("index.sense") as handle:
        for line in handle.read().splitlines():
            key, offset, number, _ = line.split()
            if number != "1":
                continue
            lemma, _, rest = key.partition("%")
            if len(lemma) >= 3 and lemma.isalpha() and lemma.islower():
                first.setdefault((_SS_POS[rest[0]], int(offset)), []).append(lemma)
    parent: dict[str, str] = {}

    def root(w: str) -> str:
        while parent.get(w, w) != w:
            w = parent[w]
        return w

    for lemmas in first.values():
        for a, b in itertools.combinations(sorted(set(lemmas)), 2):
            if a.startswith(b) or b.startswith(a) or a[0] != b[0] or _edits(a, b) > 1:
                continue  # an inflection or derivation ("full"/"fully"), or another word
            ra, rb = root(a), root(b)
            parent.setdefault(ra, ra)
            if ra != rb:
                parent[rb] = ra
    groups: dict[str, set[str]] = {}
    for w in parent:
        groups.setdefault(root(w), set()).add(w)
    return {w: frozenset(g) for g in groups.values() for w in g}


@functools.lru_cache(maxsize=200_000)
def canonical_spelling(word: str) -> str:
    """One spelling for each word that WordNet spells two ways ("gray" → "grey", "colour" →
    "color"), so that a spelling never tells a positive from a negative.

    Two words are spellings of one word when both have the same synset as their most frequent
    sense of one part of speech (WordNet's ``index.sense``) and they differ by one letter or one
    swap of adjacent letters, with the same first letter and neither being the start of the
    other ("fully" is no spelling of "full"). The canonical spelling is the one most frequent in
    written English (``wordfreq``; ties: alphabetical). Multi-word text is mapped word by word;
    other words are returned as they are. The productivity cleaning step, systematicity's
    spelling step and the foils all use it.

    Example:
        >>> canonical_spelling("gray"), canonical_spelling("light gray"), canonical_spelling("red")
        ('grey', 'light grey', 'red')
    """
    if " " in word:
        return " ".join(canonical_spelling(w) for w in word.split(" "))
    variants = _spelling_groups().get(word)
    if variants is None:
        return word
    from wordfreq import zipf_frequency

    return min(variants, key=lambda w: (-zipf_frequency(w, "en"), w))

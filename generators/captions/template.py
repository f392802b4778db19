"""The template caption writer of CREPE productivity (SPEC §3.3), for n = 4 and as the fallback.

Rules (the paper gives one example; the rest is written down here):

* **Noun phrase**: the object's attributes before its name, joined with "and" in a fixed order
  (size words, other adjectives, colours; alphabetical within each: "tall and blue boy"; three
  or more: "small, fluffy and white dog"; :func:`_attribute_order`); attributes that are
  nouns used as modifiers ("brick", "wood") come last, next to the name, outside the "and"
  list ("red brick wall", "big freezer fridge"; :func:`noun_modifier`).
* **Clauses**: each relationship is "subject relation object" ("tall and blue boy on green
  grass"). Within one connected part the relationships are written in graph order, except that
  each next clause is the first one touching an object already mentioned (so the part reads as
  a chain). An object is written in full at its first mention and as "the NAME" later.
  Clauses of one part are joined with ", ".
* **Disconnected parts** are appended with "and a …" / "and an …" (an object without
  relationships is its own part): "tall boy on green grass and a red car". The article is
  chosen by sound (:func:`crepe_datasets.generators.captions.phrases.indefinite_article`); a
  part whose first object has a plural name takes none ("and people on grass", "and jeans").
* **Repeated names**: a second object with a name already mentioned is introduced as
  "another NAME" ("chair near another chair"; "other NAME" for a plural name: "other people"); when two objects of that name have been
  introduced, later mentions are "the first NAME" and "the other NAME" (three or more: "the
  second NAME", "the third NAME", …).
* **Rejected texts**: a caption failing
  :func:`crepe_datasets.generators.captions.phrases.broken_reason` (a repeated word, a
  doubled or wrong article) is rejected with that reason, never emitted.
* **Negated atoms** (text starting with "not "): an attribute becomes "NAME that is not A"
  ("vase that is not yellow"); a relationship is written as is ("boy not on grass"), except
  that a verb in the third person takes "does not" ("man does not hold cup") and "is"/"are"
  take "not" after them ("people are not on grass"); an object
  becomes "thing that is not a NAME" ("… not NAME" for a plural name; later mentions: "that
  thing").
* Output is lower case (names as given), single-spaced, with no final period — the same house
  style as the LLM writer's cleaned captions.

Example:
    >>> from crepe_datasets.scenegraph.types import SceneGraph, SGObject, Relationship
    >>> g = SceneGraph([SGObject(1, "boy", ("tall", "blue")), SGObject(2, "grass", ("green",))],
    ...                [Relationship(1, "on", 2)])
    >>> template_caption(g)
    'tall and blue boy on green grass'
"""

from __future__ import annotations

import functools

from crepe_datasets.generators.captions import NEGATION_PREFIX, WrittenCaption, is_negated
from crepe_datasets.generators.captions.coverage import ARTICLES, missing_atoms, words
from crepe_datasets.generators.captions.phrases import broken_reason, indefinite_article
from crepe_datasets.scenegraph.lexicon import is_plural_name, lemmatize_verb
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def join_and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def article(word: str) -> str:
    """ "a" or "an" before ``word``, by its sound."""
    return indefinite_article(word)


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def noun_phrase(obj: SGObject, another: bool = False) -> str:
    """First mention of an object: attributes, name, negations ("another …" for a repeat)."""
    return _noun_phrase(obj.name, tuple(obj.attributes), another)


@functools.lru_cache(maxsize=100_000)
def noun_modifier(attribute: str) -> bool:
    """Whether an attribute is a noun used as a modifier ("brick", "wood", "freezer"): one word
    with a noun sense and no adjective sense in WordNet, not a participle. Such a word stands
    next to the name, not in the "and" list of adjectives: "white brick wall", not "white and
    brick wall"."""
    if " " in attribute or not attribute.isalpha() or attribute.endswith(("ing", "ed")):
        return False
    from crepe_datasets.generators.negatives.foils import sense_counts

    counts = sense_counts(attribute)
    return "n" in counts and "a" not in counts


SIZE_WORDS = frozenset(
    "big small large little tall short long huge tiny wide narrow thin thick giant high low "
    "medium enormous massive".split()
)


def _attribute_order(attribute: str) -> tuple[int, str]:
    """Size words, then other adjectives, then colours (English adjective order: "tall and
    blue boy"), alphabetical within each group. A fixed order, not the graph's: a negative that
    moves or replaces an attribute is written in the same order as any positive, so where a
    word stands in the list tells nothing (a moved attribute would otherwise always come last)."""
    from crepe_datasets.generators.negatives.foils import colour_sense

    if attribute in SIZE_WORDS:
        return (0, attribute)
    return (2 if colour_sense(attribute) is not None else 1, attribute)


def _modifiers(attributes: list[str]) -> str:
    """Adjectives joined with "and" (:func:`_attribute_order`), then noun modifiers
    (:func:`noun_modifier`) next to the name, alphabetically: "big and open freezer …"; "open,
    source and light" read as no English."""
    nouns = sorted(a for a in attributes if noun_modifier(a))
    adjectives = sorted((a for a in attributes if not noun_modifier(a)), key=_attribute_order)
    return " ".join(x for x in (join_and(adjectives), " ".join(nouns)) if x)


@functools.lru_cache(maxsize=200_000)
def _noun_phrase(name: str, attributes: tuple[str, ...], another: bool) -> str:
    positive = [a for a in attributes if not is_negated(a)]
    negative = [a for a in attributes if is_negated(a)]
    adjectives = _modifiers(positive)
    if is_negated(name):
        core = name[len(NEGATION_PREFIX) :]
        head = f"thing that is not {core if is_plural_name(core) else f'{article(core)} {core}'}"
    else:
        head = name
    phrase = f"{adjectives} {head}" if adjectives else head
    if negative:
        phrase += " that is " + join_and(negative)
    if not another:
        return phrase
    return f"{'other' if is_plural_name(name) else 'another'} {phrase}"


def later_mention(obj: SGObject, rank: int = 0, introduced: int = 1) -> str:
    """Second and later mentions of an object (``rank`` among ``introduced`` same-named ones)."""
    if is_negated(obj.name):
        return "that thing"
    if introduced <= 1:
        return f"the {obj.name}"
    if introduced == 2 and rank == 1:
        return f"the other {obj.name}"
    ordinal = ORDINALS[rank] if rank < len(ORDINALS) else f"{rank + 1}th"
    return f"the {ordinal} {obj.name}"


_BE = frozenset({"is", "are", "was", "were", "can", "will"})


@functools.lru_cache(maxsize=100_000)
def predicate_text(predicate: str) -> str:
    """A predicate as written; a negated one placed as English does ("is not in", "does not
    hold" for "not holds", "not parked on" stays)."""
    if not is_negated(predicate):
        return predicate
    body = predicate[len(NEGATION_PREFIX) :]
    first, _, rest = body.partition(" ")
    if first in _BE:
        return " ".join(x for x in (first, "not", rest) if x)
    lemma = lemmatize_verb(first)
    if first.endswith("s") and lemma != first and not first.endswith("ss"):
        return " ".join(x for x in ("does not", lemma, rest) if x)
    return predicate


class _Mentions:
    """Who has been mentioned, and each object's rank among objects of the same name."""

    def __init__(self) -> None:
        self.rank: dict[int, int] = {}
        self.introduced: dict[str, int] = {}

    def mention(self, obj: SGObject) -> str:
        name = obj.name
        rank = self.rank.get(obj.id)
        if rank is not None:
            return later_mention(obj, rank, self.introduced[name])
        rank = self.introduced.get(name, 0)
        self.rank[obj.id] = rank
        self.introduced[name] = rank + 1
        return _noun_phrase(name, tuple(obj.attributes), rank > 0 and not is_negated(name))


def _order_clauses(rels: list[Relationship]) -> list[Relationship]:
    """Graph order, but each next clause touches an already mentioned object when one can."""
    pending, ordered, mentioned = list(rels), [], set()
    while pending:
        for j, r in enumerate(pending):  # noqa: B007 (j is the index found)
            if r.subject in mentioned or r.object in mentioned:
                break
        else:
            j = 0
        pick = pending.pop(j)
        ordered.append(pick)
        mentioned.add(pick.subject)
        mentioned.add(pick.object)
    return ordered


@functools.lru_cache(maxsize=8192)
def _plan(n_objects: int, ends: tuple[tuple[int, int], ...]) -> tuple:
    """The shape of a caption over objects ``0 .. n_objects - 1`` (graph positions) and
    relationship ends as positions (-1: not an object of the graph).

    One entry per connected part, in order of its first object: ``(position, ())`` for a lone
    object, else ``(None, clauses)`` with one ``(subject, relationship index, object, subject
    first mentioned here, object first mentioned here)`` per clause in clause order. The shape
    depends only on positions, which a graph shares with its atom negatives and with many other
    walks, so it is memoised.
    """
    parent = list(range(n_objects))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    inside = [j for j, (s, o) in enumerate(ends) if s >= 0 and o >= 0]
    for j in inside:
        a, b = root(ends[j][0]), root(ends[j][1])
        if a != b:
            parent[b] = a
    parts: dict[int, tuple[int, list[int]]] = {}
    for i in range(n_objects):
        parts.setdefault(root(i), (i, []))
    for j in inside:
        parts[root(ends[j][0])][1].append(j)
    plan, seen = [], set()
    for first, rels in parts.values():
        if not rels:
            plan.append((first, ()))
            continue
        clauses = []
        for j in _clause_order(rels, ends):
            s, o = ends[j]
            s_first = s not in seen
            seen.add(s)
            o_first = o not in seen
            seen.add(o)
            clauses.append((s, j, o, s_first, o_first))
        plan.append((None, tuple(clauses)))
    return tuple(plan)


def _clause_order(rels: list[int], ends: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """:func:`_order_clauses` on relationship indices."""
    pending, ordered, mentioned = list(rels), [], set()
    while pending:
        for j, r in enumerate(pending):  # noqa: B007 (j is the index found)
            if ends[r][0] in mentioned or ends[r][1] in mentioned:
                break
        else:
            j = 0
        pick = pending.pop(j)
        ordered.append(pick)
        mentioned.update(ends[pick])
    return tuple(ordered)


def _part_text(
    ids: list[int],
    graph: SceneGraph,
    by_id: dict[int, SGObject],
    mentions: _Mentions,
    rels: list[Relationship] | None = None,
) -> str:
    if rels is None:
        members = set(ids)
        rels = [r for r in graph.relationships if r.subject in members and r.object in members]
    if not rels:
        return mentions.mention(by_id[ids[0]])
    clauses = []
    for rel in _order_clauses(rels):
        subject = mentions.mention(by_id[rel.subject])
        predicate = predicate_text(rel.predicate)
        clauses.append(f"{subject} {predicate} {mentions.mention(by_id[rel.object])}")
    return ", ".join(clauses)


def _with_article(text: str, first_name: str) -> str:
    """A disconnected part after "and": "a"/"an" before a singular first object, nothing before
    a plural one ("and people on grass", not "and a people"), nor before "another"/"other"."""
    if text.startswith(("another ", "other ")) or is_plural_name(first_name):
        return text
    return f"{article(text)} {text}"


def _first_named(ids: list[int], rels: list[Relationship], by_id: dict[int, SGObject]) -> SGObject:
    """The object a part's text names first (as :func:`_part_text` writes it from ``rels``)."""
    return by_id[_order_clauses(rels)[0].subject] if rels else by_id[ids[0]]


def template_caption(graph: SceneGraph) -> str:
    """The template caption of a graph (see the module docstring)."""
    objects, rels = graph.objects, graph.relationships
    pos = {o.id: i for i, o in enumerate(objects)}
    texts = []
    if len(pos) == len(objects):
        plan = _plan(
            len(objects), tuple((pos.get(r.subject, -1), pos.get(r.object, -1)) for r in rels)
        )
        rank: dict[int, int] = {}  # position -> rank among the objects of its name
        introduced: dict[str, int] = {}  # name -> objects of that name mentioned so far

        def mention(p: int, first: bool) -> str:
            obj = objects[p]
            name = obj.name
            if not first:
                return later_mention(obj, rank[p], introduced[name])
            r = rank[p] = introduced.get(name, 0)
            introduced[name] = r + 1
            return _noun_phrase(name, tuple(obj.attributes), r > 0 and not is_negated(name))

        for lone, clauses in plan:
            if not clauses:
                text = mention(lone, True)
            else:
                text = ", ".join(
                    f"{mention(s, s_first)} {predicate_text(rels[j].predicate)} {mention(o, o_first)}"
                    for s, j, o, s_first, o_first in clauses
                )
            if texts:
                text = _with_article(text, objects[clauses[0][0] if clauses else lone].name)
            texts.append(text)
        return " and ".join(texts)
    by_id = graph.object_by_id()
    mentions = _Mentions()
    # repeated ids: the general path
    order_of = {o.id: i for i, o in enumerate(objects)}
    comps = sorted(graph.components(), key=lambda comp: min(order_of[i] for i in comp))
    for ids in comps:
        members = sorted(ids, key=order_of.__getitem__)
        inside = set(ids)
        part_rels = [r for r in graph.relationships if r.subject in inside and r.object in inside]
        text = _part_text(members, graph, by_id, mentions, part_rels)
        if texts:
            text = _with_article(text, _first_named(members, part_rels, by_id).name)
        texts.append(text)
    return " and ".join(texts)


@functools.lru_cache(maxsize=200_000)
def _plain(text: str) -> bool:
    """True when ``text``, written as is, is sure to be found by the coverage check: not only
    articles, and its lower-case text is exactly its words joined by single spaces."""
    atom_words = words(text)
    return (
        bool(atom_words)
        and " ".join(atom_words) == text.lower()
        and not ARTICLES.issuperset(atom_words)
    )


@functools.lru_cache(maxsize=200_000)
def _plain_object(name: str, attributes: tuple[str, ...]) -> bool:
    """The object's name (not negated: that one is rewritten) and attributes are plain."""
    return not is_negated(name) and _plain(name) and all(_plain(a) for a in attributes)


@functools.lru_cache(maxsize=100_000)
def _plain_predicate(predicate: str) -> bool:
    """The predicate is plain and written as is (not "does not hold" for "not holds")."""
    return _plain(predicate) and predicate_text(predicate) == predicate


def covered_by_construction(graph: SceneGraph) -> bool:
    """True when the template caption of ``graph`` mentions every atom by construction.

    With unique object ids, every object gets a first mention holding its name and its
    attributes verbatim (negated ones after "that is"), and every relationship between
    objects of the graph a clause holding its predicate as :func:`predicate_text` writes it;
    each is bounded by a space, a comma or the end of the text. So when every name and
    attribute is plain (:func:`_plain`) and every predicate is written as is, each atom is found
    verbatim by :func:`crepe_datasets.generators.captions.coverage.missing_atoms`, and the
    check can be skipped. Negated objects ("thing that is not a …") and rewritten negated
    predicates ("does not hold") still go through it.
    """
    objects = graph.objects
    ids = {o.id for o in objects}
    if len(ids) != len(objects):
        return False
    if not all(_plain_object(o.name, tuple(o.attributes)) for o in objects):
        return False
    return all(
        _plain_predicate(r.predicate)
        for r in graph.relationships
        if r.subject in ids and r.object in ids
    )


def _checked(graph: SceneGraph) -> WrittenCaption:
    text = template_caption(graph)
    if not text:
        return WrittenCaption(None, "empty_caption")
    if not covered_by_construction(graph) and missing_atoms(text, graph):
        return WrittenCaption(None, "missing_atom")
    if (reason := broken_reason(text)) is not None:
        return WrittenCaption(None, reason)
    return WrittenCaption(text)


class TemplateCaptionWriter:
    """Writes template captions; rejects any that omit an atom (``missing_atom``) or that read
    as broken English (:func:`crepe_datasets.generators.captions.phrases.broken_reason`)."""

    name = "template"

    def caption(self, graph: SceneGraph) -> str:
        return template_caption(graph)

    def write(self, graphs: list[SceneGraph]) -> list[WrittenCaption]:
        return [_checked(graph) for graph in graphs]

"""What one caption says, for the captioning splits: its length and its concept bindings.

One caption → :class:`CaptionFacts`: the number of spaCy tokens (punctuation and spaces not
counted), the object names of its scene graph, its attribute–object bindings and its
verb–subject bindings. Everything comes from one spaCy parse through the caption parser
(:func:`crepe_datasets.scenegraph.parser.parse_view`):

* attribute–object: every attribute of every parsed object (attributes as written, objects
  lemmatised): "two black cats" → ``(black, cat)``;
* verb–subject: the first word of every relationship predicate (predicates are lemmatised:
  "a woman lying on a bed" → ``(lie, woman)``), plus the verbs the parser leaves without a
  relationship because they have no object: a verb whose ``nsubj`` is an object ("a man is
  eating") or a participle modifying one ("a bird flying over water") → ``(eat, man)``.

:func:`facts_shard_json` is the module-level task that an engine
(:mod:`crepe_datasets.builders.engines`) runs on a shard of captions; it reuses the process's parser
(:func:`crepe_datasets.builders.seen_tables.worker_parser`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from crepe_datasets.builders.seen_tables import worker_parser

FACTS_VERSION = "1"
_SUBJECT_DEPS = ("nsubj", "nsubjpass")
_MODIFIER_DEPS = ("acl", "relcl")
_SKIP_POS = ("PUNCT", "SPACE")


@dataclass(frozen=True)
class CaptionFacts:
    """Length and bindings of one caption (lists sorted, so equal facts give equal JSON)."""

    n_tokens: int
    objects: tuple[str, ...]
    attribute_object: tuple[tuple[str, str], ...]
    verb_subject: tuple[tuple[str, str], ...]

    def to_list(self) -> list[Any]:
        return [
            self.n_tokens,
            list(self.objects),
            [list(p) for p in self.attribute_object],
            [list(p) for p in self.verb_subject],
        ]

    @classmethod
    def from_list(cls, data: list[Any]) -> CaptionFacts:
        return cls(
            int(data[0]),
            tuple(data[1]),
            tuple((a, o) for a, o in data[2]),
            tuple((v, s) for v, s in data[3]),
        )

    def object_words(self) -> set[str]:
        """Object names and each of their words ("hot dog" → hot dog, hot, dog)."""
        words = set(self.objects)
        for name in self.objects:
            words.update(name.split())
        return words


def _intransitive(tv: Any, objects: set[str]) -> set[tuple[str, str]]:
    """``(verb, subject)`` of verbs whose subject is a parsed object (no object needed)."""
    from crepe_datasets.scenegraph.parser.words import object_lemma, verb_lemma

    found: set[tuple[str, str]] = set()
    for i, pos in enumerate(tv.pos):
        if pos != "VERB":
            continue
        subjects = tv.kids(i, *_SUBJECT_DEPS)
        if tv.dep[i] in _MODIFIER_DEPS and tv.head[i] != i:
            subjects = [*subjects, tv.head[i]]
        for s in subjects:
            name = object_lemma(tv.lower[s])
            if name in objects:
                found.add((verb_lemma(tv.lower[i]), name))
    return found


def facts_of_view(tv: Any) -> CaptionFacts:
    """The facts of one caption given as a parser :class:`TokenView`."""
    from crepe_datasets.scenegraph.parser import parse_view

    n_tokens = sum(1 for p in tv.pos if p not in _SKIP_POS)
    graph = parse_view(tv)
    by_id = graph.object_by_id()
    objects = {o.name for o in graph.objects}
    heads = objects | {name.split()[-1] for name in objects if name}
    ao = {(a, o.name) for o in graph.objects for a in o.attributes if not a.isdigit()}
    vs = {
        (r.predicate.split()[0], by_id[r.subject].name)
        for r in graph.relationships
        if r.subject in by_id and r.predicate
    }
    vs |= _intransitive(tv, heads)
    return CaptionFacts(n_tokens, tuple(sorted(objects)), tuple(sorted(ao)), tuple(sorted(vs)))


def parse_facts(
    texts: list[str], model: str | None = None, batch_size: int = 256
) -> list[CaptionFacts]:
    """Facts of each caption, in order, with the process's caption parser."""
    from crepe_datasets.scenegraph.parser.tokens import view

    parser = worker_parser(model)
    docs = parser.nlp.pipe(texts, batch_size=batch_size, disable=parser._disable)
    return [facts_of_view(view(doc, parser.attribute_rules)) for doc in docs]


def facts_shard_json(texts: list[str], model: str | None = None) -> str:
    """:func:`parse_facts` of one shard as JSON text (small and picklable for the engines)."""
    return json.dumps([f.to_list() for f in parse_facts(texts, model)], ensure_ascii=False)


def parser_versions(model: str | None = None) -> dict[str, str]:
    """Versions that decide the facts (part of the cache key and the manifest)."""
    parser = worker_parser(model)
    return {
        "spacy_model": parser.model_version,
        "parser_version": parser.version,
        "facts_version": FACTS_VERSION,
    }

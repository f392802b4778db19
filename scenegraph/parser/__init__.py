"""Caption -> scene graph: rules over the spaCy dependency parse, written for caption language.

Usage:
    >>> parser = CaptionParser()                                   # doctest: +SKIP
    >>> parser.parse(["two dogs sitting on a red couch"])[0].compounds()   # doctest: +SKIP
    [Compound('attribute_object', ('2', 'dog')), Compound('attribute_object', ('red', 'couch')),
     Compound('object_relationship_object', ('dog', 'sit on', 'couch'))]

Objects and predicates are lemmatised ("dogs" -> "dog", "sitting on" -> "sit on");
attributes are kept as written (lower case). The rules run on a list-based copy of the spaCy
parse (:mod:`.tokens`; spaCy's ``attribute_ruler`` is reproduced by :mod:`.attribute_rules`):
:mod:`.repairs` fixes frequent misparses of caption fragments,
:mod:`.nouns` finds objects and quantity phrases (compound nouns in :mod:`.compounds`, whose
noun modifiers a lexicon learned from annotated captions decides first, :mod:`.modifier_lexicon`;
parts named by "-ed" adjectives in :mod:`.parts`), :mod:`.attributes` their modifiers,
:mod:`.relations` subjects, prepositions, verbs and possessives, and :mod:`.predicates` the
attributes a clause says (copulas, bare verbs, adverbs, "with X extended"). Their vocabulary
is in :mod:`.rules`, WordNet and lemma look-ups in :mod:`.words`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from crepe_datasets.scenegraph.parser.attribute_rules import AttributeRules
from crepe_datasets.scenegraph.parser.attributes import distributive_counts
from crepe_datasets.scenegraph.parser.nouns import find_nouns
from crepe_datasets.scenegraph.parser.predicates import (
    absolute_attributes,
    adverb_attributes,
    copula_attributes,
    gerund_attributes,
)
from crepe_datasets.scenegraph.parser.relations import direct_objects, possessives, prepositions
from crepe_datasets.scenegraph.parser.repairs import repair
from crepe_datasets.scenegraph.parser.rules import PARSER_VERSION, UNUSED_PIPES
from crepe_datasets.scenegraph.parser.tokens import TokenView, view
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

__all__ = ["PARSER_VERSION", "CaptionParser", "parse_caption", "parse_view"]


def parse_view(tv: TokenView) -> SceneGraph:
    """Scene graph of one caption given as a :class:`TokenView`."""
    nouns = find_nouns(repair(tv))
    attributes = copula_attributes(tv, nouns) + gerund_attributes(tv, nouns)
    attributes += adverb_attributes(tv, nouns) + absolute_attributes(tv, nouns)
    for s, attribute in attributes:
        nouns.nodes[s].add(attribute)
    triples: list[tuple[int, str, int]] = []
    seen: set[tuple[int, str, int]] = set()
    for triple in (
        nouns.triples + direct_objects(tv, nouns) + prepositions(tv, nouns) + possessives(tv, nouns)
    ):
        if triple not in seen and triple[0] != triple[2]:
            seen.add(triple)
            triples.append(triple)
    counted = {t: n.attributes for t, n in nouns.nodes.items()}
    for o, n in distributive_counts(tv, counted, triples):
        nouns.nodes[o].add(n)
    order = sorted(nouns.nodes)
    ids = {tok: k for k, tok in enumerate(order)}
    objects = [
        SGObject(ids[t], nouns.nodes[t].name, tuple(nouns.nodes[t].attributes)) for t in order
    ]
    rels = [Relationship(ids[s], p, ids[o]) for s, p, o in triples]
    return SceneGraph(objects, rels)


def parse_caption(doc: Any, attribute_rules: AttributeRules | None = None) -> SceneGraph:
    """Scene graph of one caption parsed by spaCy (a ``Doc``; ``attribute_rules``: see ``view``)."""
    return parse_view(view(doc, attribute_rules))


class CaptionParser:
    """Batch caption parser: one spaCy pipeline, loaded once, without the pipes it never reads.

    The pipeline's ``attribute_ruler`` (tag -> POS mapping and exceptions) is disabled and
    reproduced exactly, for the labels the rules read, by :mod:`.attribute_rules`, which
    is several times cheaper; a ruler it cannot reproduce stays in the pipeline.

    Args:
        nlp: a loaded spaCy pipeline; ``None`` loads :func:`crepe_datasets.infra.resources.load_spacy`
            with :data:`rules.UNUSED_PIPES` excluded.
        model: pipeline name or folder (when ``nlp`` is ``None``).
    """

    version = PARSER_VERSION

    def __init__(self, nlp: Any = None, model: str | None = None) -> None:
        if nlp is None:
            from crepe_datasets.infra.resources import load_spacy

            nlp = load_spacy(model, exclude=UNUSED_PIPES)
        self.nlp = nlp
        self._disable = [p for p in nlp.pipe_names if p in UNUSED_PIPES]
        self.attribute_rules = AttributeRules.from_pipeline(nlp)
        if self.attribute_rules is not None and "attribute_ruler" in nlp.pipe_names:
            self._disable.append("attribute_ruler")

    @property
    def model_version(self) -> str:
        from crepe_datasets.infra.resources import spacy_model_version

        return spacy_model_version(self.nlp)

    def iter_parse(self, texts: Iterable[str], batch_size: int = 256) -> Iterator[SceneGraph]:
        """Parse captions lazily, in order."""
        for doc in self.nlp.pipe(texts, batch_size=batch_size, disable=self._disable):
            yield parse_caption(doc, self.attribute_rules)

    def parse(self, texts: Iterable[str], batch_size: int = 256) -> list[SceneGraph]:
        """Parse captions; one scene graph per caption, in order."""
        return list(self.iter_parse(texts, batch_size))

    def parse_one(self, text: str) -> SceneGraph:
        return self.parse([text])[0]

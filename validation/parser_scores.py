"""Precision, recall and F1 of a caption parser against FACTUAL-format gold.

What is compared, per caption (as sets: a duplicate counts once), micro-averaged over captions:

* **objects**: object names;
* **attributes**: (object, attribute) pairs — an attribute on the wrong object is wrong;
* **relations**: predicate strings (the relationship *atoms* of the caption);
* **triplets**: (subject, predicate, object) triples, all three parts matching;
* **exact graph**: the share of captions whose objects, attribute pairs and triples all match.

Normalisations, applied identically to gold and prediction (and to any peer parser):

1. Every string: lower case, trimmed, inner whitespace collapsed, leading/trailing punctuation
   removed (:func:`crepe_datasets.scenegraph.types.normalize_name`); hyphens become spaces
   ("heart-shaped" = "heart shaped").
2. Object names: the last word singularised (:func:`crepe_datasets.scenegraph.parser.words.object_lemma`:
   "boats" = "boat", keep-as-is words such as "glasses" unchanged; FACTUAL writes plural names,
   parsers of this project write singular ones), then inner spaces removed, so that spelling
   variants of one compound match ("cell phone" = "cellphone", "wet suit" = "wetsuit").
3. Attributes: number words written as digits ("two" = "2"); otherwise never lemmatised
   ("smiling" stays "smiling").
4. Predicates: articles removed ("at the left of" = "at left of"); the first word lemmatised as a
   verb ("standing on" = "stand on"); "lay" and "lie" merged into "lie", because FACTUAL writes
   "lay on" for "lying on".
5. The attribute predicate ``is`` is not a relation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crepe_datasets.scenegraph.parser import words
from crepe_datasets.scenegraph.parser.rules import NUMBER_WORDS
from crepe_datasets.scenegraph.types import SceneGraph, normalize_name
from crepe_datasets.validation.factual import GoldGraph

CATEGORIES = ("objects", "attributes", "relations", "triplets")
ARTICLES = frozenset({"a", "an", "the"})
PREDICATE_SYNONYMS = {"lay": "lie"}
NUMBERS = {**NUMBER_WORDS, "one": "1"}


def norm_text(text: str) -> str:
    """Rule 1."""
    return normalize_name(str(text).replace("-", " "))


def norm_object(name: str) -> str:
    """Rules 1-2."""
    return words.object_lemma(norm_text(name)).replace(" ", "")


def norm_attribute(attr: str) -> str:
    """Rules 1 and 3."""
    a = norm_text(attr)
    return NUMBERS.get(a, a)


def norm_predicate(pred: str) -> str:
    """Rules 1 and 4."""
    toks = [t for t in norm_text(pred).split() if t not in ARTICLES]
    if toks:
        first = words.verb_lemma(toks[0])
        toks[0] = PREDICATE_SYNONYMS.get(first, first)
    return " ".join(toks)


@dataclass(frozen=True)
class CaptionTuples:
    """The normalised sets of one caption."""

    objects: frozenset[str]
    attributes: frozenset[tuple[str, str]]
    triplets: frozenset[tuple[str, str, str]]

    @property
    def relations(self) -> frozenset[str]:
        return frozenset(p for _, p, _ in self.triplets)

    @classmethod
    def build(
        cls,
        objects: Iterable[str],
        attributes: Iterable[tuple[str, str]],
        triplets: Iterable[tuple[str, str, str]],
    ) -> CaptionTuples:
        attrs = {(norm_object(o), norm_attribute(a)) for o, a in attributes}
        trips = {(norm_object(s), norm_predicate(p), norm_object(o)) for s, p, o in triplets}
        objs = {norm_object(o) for o in objects}
        objs |= {o for o, _ in attrs} | {s for s, _, _ in trips} | {o for _, _, o in trips}
        return cls(
            frozenset(o for o in objs if o),
            frozenset(a for a in attrs if all(a)),
            frozenset(t for t in trips if all(t)),
        )

    @classmethod
    def from_gold(cls, gold: GoldGraph) -> CaptionTuples:
        return cls.build(gold.objects, gold.attributes, gold.relations)

    @classmethod
    def from_graph(cls, graph: SceneGraph) -> CaptionTuples:
        by_id = graph.object_by_id()
        return cls.build(
            [o.name for o in graph.objects],
            [(o.name, a) for o in graph.objects for a in o.attributes],
            [
                (by_id[r.subject].name, r.predicate, by_id[r.object].name)
                for r in graph.relationships
                if r.subject in by_id and r.object in by_id
            ],
        )


@dataclass
class PRF:
    """Counts and rates of one category."""

    tp: int = 0
    n_pred: int = 0
    n_gold: int = 0

    @property
    def precision(self) -> float:
        return self.tp / self.n_pred if self.n_pred else 0.0

    @property
    def recall(self) -> float:
        return self.tp / self.n_gold if self.n_gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict[str, float]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "tp": self.tp,
            "n_pred": self.n_pred,
            "n_gold": self.n_gold,
        }


@dataclass
class ParserScores:
    """Scores of one parser on one gold set, with the per-caption errors."""

    n_captions: int
    categories: dict[str, PRF]
    exact: int
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def exact_rate(self) -> float:
        return self.exact / self.n_captions if self.n_captions else 0.0

    def to_dict(self, with_errors: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n_captions": self.n_captions,
            "exact_graph_rate": round(self.exact_rate, 4),
            **{k: v.to_dict() for k, v in self.categories.items()},
        }
        if with_errors:
            out["errors"] = self.errors
        return out

    def table(self, title: str = "") -> str:
        """A small fixed-width table of P/R/F1 per category."""
        lines = [title] if title else []
        lines.append(f"{'':<11}{'P':>7}{'R':>7}{'F1':>7}")
        for name, prf in self.categories.items():
            lines.append(f"{name:<11}{prf.precision:7.3f}{prf.recall:7.3f}{prf.f1:7.3f}")
        lines.append(f"{'exact':<11}{'':>14}{self.exact_rate:7.3f}")
        return "\n".join(lines)


def _sets(t: CaptionTuples) -> dict[str, frozenset]:
    return {
        "objects": t.objects,
        "attributes": t.attributes,
        "relations": t.relations,
        "triplets": t.triplets,
    }


def score(
    predictions: Sequence[CaptionTuples],
    gold: Sequence[CaptionTuples],
    captions: Sequence[str] = (),
) -> ParserScores:
    """Micro-averaged P/R/F1 per category; ``errors`` lists every caption that is not exact."""
    if len(predictions) != len(gold):
        raise ValueError(f"{len(predictions)} predictions for {len(gold)} gold graphs")
    cats = {c: PRF() for c in CATEGORIES}
    exact = 0
    errors: list[dict[str, Any]] = []
    for n, (pred, ref) in enumerate(zip(predictions, gold, strict=True)):
        ps, gs = _sets(pred), _sets(ref)
        for c in CATEGORIES:
            cats[c].tp += len(ps[c] & gs[c])
            cats[c].n_pred += len(ps[c])
            cats[c].n_gold += len(gs[c])
        if all(ps[c] == gs[c] for c in ("objects", "attributes", "triplets")):
            exact += 1
            continue
        entry: dict[str, Any] = {"index": n, "caption": captions[n] if n < len(captions) else ""}
        for c in ("objects", "attributes", "triplets"):
            entry[f"missing_{c}"] = (
                sorted(map(list, gs[c] - ps[c])) if c != "objects" else sorted(gs[c] - ps[c])
            )
            entry[f"extra_{c}"] = (
                sorted(map(list, ps[c] - gs[c])) if c != "objects" else sorted(ps[c] - gs[c])
            )
        errors.append(entry)
    return ParserScores(len(gold), cats, exact, errors)


def score_graphs(graphs: Sequence[SceneGraph], gold: Sequence[GoldGraph]) -> ParserScores:
    """Score parsed scene graphs against FACTUAL gold rows (same order)."""
    return score(
        [CaptionTuples.from_graph(g) for g in graphs],
        [CaptionTuples.from_gold(g) for g in gold],
        [g.caption for g in gold],
    )

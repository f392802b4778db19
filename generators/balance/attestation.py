"""How often people say a text's pairs: a third judge of the balanced choice (productivity).

The two generation-time scorers (:func:`~crepe_datasets.generators.balance.refine.default_scorers`)
know web captions. They do not know which pairs the annotators of the images being built write:
"yellow license plate" and "has license plate" are said of many Visual Genome images,
"yellow foil" and "has foil" of none. Negatives chosen without that knowledge were said less
often than their positives (on VG images 1–100, 1,103 HN-ATOM negatives had pairs that other
images state less often than their positive's, 314 more often), and a language model of other
images' region descriptions picked the positive from that alone.

:class:`PairAttestation` counts, over the human graphs of a chunk, how many images state each
adjacent pair (the pair kinds of
:func:`~crepe_datasets.generators.negatives.joint_balance.graph_features`: "yellow foil",
"black and white", "plate has", "has plate"). A text's attestation is the sum, over its pairs,
of ``log2(1 + n)``, ``n`` the number of *other* images stating the pair (its own image would
make every positive attested). A negative shares all but the changed pairs with its positive,
so only those make a difference; within :data:`ATTESTATION_TIE` (a factor of about two on one
pair) the two tie. The mark (above, tied, below the positive) joins the scorers' marks, and the
balanced choice then picks negatives said more often than their positive as often as less
often, as it does for the two scorers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator

from crepe_datasets.scenegraph.types import SceneGraph, SGObject

# log2(1 + n) within this of the positive's: a tie (about a factor of two on one pair)
ATTESTATION_TIE = 1.0
Pair = tuple[str, str, str]


def object_pairs(o: SGObject) -> Iterator[Pair]:
    """An object's attribute–object pairs and its pairs of attributes (alphabetical)."""
    for a in o.attributes:
        yield ("attribute_object", a, o.name)
    if len(o.attributes) > 1:
        attrs = sorted(o.attributes)
        for i, a in enumerate(attrs):
            for b in attrs[i + 1 :]:
                yield ("attribute_attribute", a, b)


def graph_pairs(graph: SceneGraph) -> Iterator[Pair]:
    """Every adjacent pair of a graph, with repeats: its objects' pairs, then each relation's
    subject–relation and relation–object pairs."""
    names = {o.id: o.name for o in graph.objects}
    for o in graph.objects:
        yield from object_pairs(o)
    for r in graph.relationships:
        if r.subject in names and r.object in names:
            yield ("subject_relation", names[r.subject], r.predicate)
            yield ("relation_object", r.predicate, names[r.object])


class PairAttestation:
    """The images of a chunk that state each adjacent pair, and the marks they give."""

    def __init__(self, graphs: Iterable[tuple[str, SceneGraph]]) -> None:
        """``graphs``: ``(image id, the image's whole human graph)`` of each image."""
        self.own: dict[str, frozenset[Pair]] = {}
        for image_id, graph in graphs:
            key = str(image_id)
            self.own[key] = self.own.get(key, frozenset()) | frozenset(graph_pairs(graph))
        self.images: Counter = Counter(p for pairs in self.own.values() for p in pairs)
        # log2(1 + n) for every count n a pair can have
        self._log = [math.log2(1 + n) for n in range(len(self.own) + 1)]

    def weight(self, pair: Pair, image_id: str) -> float:
        """``log2(1 + n)``, ``n`` the images other than ``image_id`` stating ``pair``."""
        return self._log[self.images.get(pair, 0) - (pair in self.own.get(image_id, ()))]

    def score(
        self, graph: SceneGraph, image_id: str, memo: dict[int, tuple] | None = None
    ) -> float:
        """The attestation of a text's graph: ``log2(1 + n)`` summed over its pairs. ``memo``
        (``id(object) -> (object, its pairs' sum)``) reuses the objects a pool's graphs share."""
        memo = {} if memo is None else memo
        total = 0.0
        for o in graph.objects:
            seen = memo.get(id(o))
            if seen is None or seen[0] is not o:
                seen = memo[id(o)] = (o, sum(self.weight(p, image_id) for p in object_pairs(o)))
            total += seen[1]
        # the relations' pairs, looked up inline: the only part computed for every candidate
        own, images, log = self.own.get(image_id, frozenset()), self.images, self._log
        names = {o.id: o.name for o in graph.objects}
        for r in graph.relationships:
            subject, obj = names.get(r.subject), names.get(r.object)
            if subject is not None and obj is not None:
                before = ("subject_relation", subject, r.predicate)
                after = ("relation_object", r.predicate, obj)
                total += log[images.get(before, 0) - (before in own)]
                total += log[images.get(after, 0) - (after in own)]
        return total

    def marks(
        self, positive: SceneGraph, negatives: Iterable[SceneGraph], image_id: str
    ) -> list[int]:
        """Each negative's mark: 1 said more often than the positive, 0 about as often, -1
        less often."""
        memo: dict[int, tuple] = {}  # the objects the positive and its negatives share
        base = self.score(positive, image_id, memo)
        out = []
        for graph in negatives:
            change = round(self.score(graph, image_id, memo) - base, 9)  # sums in other orders
            out.append((change > ATTESTATION_TIE) - (change < -ATTESTATION_TIE))
        return out

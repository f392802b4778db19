"""Hard negatives of crepe-systematicity captions: HN-ATOM and HN-COMP, ranked by plausibility.

Only captions of the two seen-atom splits whose graph has exactly one compound get negatives
(SPEC §2.5; the paper made none usable for UA). Per caption:

1. **HN-ATOM** candidates come from the productivity generator
   (:func:`crepe_datasets.generators.negatives.atom.atom_negatives`: antonyms and grand-hypernym
   co-hyponyms, every candidate checked against the full VG image graph ``G``); each changes
   one atom of the caption's graph, and the text is the caption with that atom's words replaced
   (:mod:`crepe_datasets.generators.negatives.surface`). **HN-COMP** candidates come from
   :func:`crepe_datasets.generators.negatives.comp.comp_negatives`.
2. A candidate equal to any description of the image (any region, filtered or not) is dropped.
3. With an NLI model, candidates that the caption entails are dropped.
4. The rest are ranked by the plausibility ranker (a masked LM with ``--mlm``, else
   :class:`~crepe_datasets.generators.filters.frequency_lm.FrequencyLMRanker`); the ``k`` most
   plausible form the retrieval set (k = 4 for HN-ATOM, 6 for HN-COMP: sets of 1 + 4 and
   1 + 6 as in the paper). A caption with fewer than ``k`` is left out of that config (counted).

Seeds: candidates of region ``r`` of image ``i`` use ``random.Random("{seed}:{i}:{r}:{type}")``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crepe_datasets.generators.negatives.atom import atom_negatives
from crepe_datasets.generators.negatives.comp import TextNegative, comp_negatives
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.surface import replace_atom
from crepe_datasets.scenegraph.provenance import DropLog
from crepe_datasets.scenegraph.types import SceneGraph

STAGE = "systematicity_negatives"
CHECK_STAGE = "systematicity_negative_checks"
SET_SIZES = {"atom": 4, "comp": 6}
CANDIDATE_FACTOR = 3


@dataclass
class Pending:
    """One caption waiting for its negatives to be filtered and ranked."""

    key: str
    caption: str
    image_captions: set[str]
    candidates: dict[str, list[TextNegative]] = field(default_factory=dict)
    chosen: dict[str, list[TextNegative]] = field(default_factory=dict)


def atom_text_negatives(
    caption: str, sub: SceneGraph, g: GraphIndex, rng: random.Random, limit: int, drops: DropLog
) -> list[TextNegative]:
    """HN-ATOM candidates of a caption, written by replacing the changed atom's words."""
    checks = DropLog()
    out = []
    for cand in atom_negatives(sub, g, rng, limit, checks):
        removed = Counter(sub.atoms()) - Counter(cand.graph.atoms())
        added = Counter(cand.graph.atoms()) - Counter(sub.atoms())
        old, new = next(iter(removed)), next(iter(added))
        text = replace_atom(caption, old.type, old.text, new.text)
        if text is None:
            drops.drop(CHECK_STAGE, "atom_foil_not_placeable", f"{caption} -> {new.text}")
            continue
        out.append(TextNegative("atom", cand.rule, text, cand.graph, (new.text,)))
    for (_, reason), n in checks.counts.items():
        drops.drop(CHECK_STAGE, reason, n=n)
    return out


def candidates_for(
    caption: str,
    sub: SceneGraph,
    g: GraphIndex,
    rng_key: str,
    drops: DropLog,
    sizes: dict[str, int] | None = None,
) -> dict[str, list[TextNegative]]:
    """HN-ATOM and HN-COMP candidates of one one-compound caption (step 1)."""
    sizes = sizes or SET_SIZES
    return {
        "atom": atom_text_negatives(
            caption,
            sub,
            g,
            random.Random(f"{rng_key}:atom"),
            CANDIDATE_FACTOR * sizes["atom"],
            drops,
        ),
        "comp": comp_negatives(
            caption,
            sub,
            g,
            random.Random(f"{rng_key}:comp"),
            CANDIDATE_FACTOR * sizes["comp"],
            drops,
        ),
    }


def choose(
    pending: Sequence[Pending],
    ranker: Any,
    drops: DropLog,
    entailed: Callable[[list[str], list[str]], list[bool]] | None = None,
    sizes: dict[str, int] | None = None,
) -> None:
    """Steps 2–4 for a batch of captions: fills each ``Pending.chosen`` (best first)."""
    sizes = sizes or SET_SIZES
    pairs: list[tuple[Pending, str, TextNegative]] = []
    for p in pending:
        for kind, cands in p.candidates.items():
            texts = set()
            for c in cands:
                if c.text == p.caption or c.text in p.image_captions:
                    drops.drop(STAGE, f"{kind}_equals_caption_of_image", c.text)
                elif c.text in texts:
                    drops.drop(STAGE, f"{kind}_duplicate_text", c.text)
                else:
                    texts.add(c.text)
                    pairs.append((p, kind, c))
    if entailed is not None and pairs:
        flags = entailed([p.caption for p, _, _ in pairs], [c.text for _, _, c in pairs])
        for (p, kind, c), flag in zip(pairs, flags, strict=True):
            if flag:
                drops.drop(STAGE, f"{kind}_entailed_by_caption", f"{p.caption} => {c.text}")
        pairs = [pair for pair, flag in zip(pairs, flags, strict=True) if not flag]
    scores = ranker.rank([c.text for _, _, c in pairs]) if pairs else []
    grouped: dict[tuple[int, str], list[tuple[float, int, TextNegative]]] = {}
    for n, ((p, kind, c), score) in enumerate(zip(pairs, scores, strict=True)):
        grouped.setdefault((id(p), kind), []).append((-float(score), n, c))
    for p in pending:
        for kind in p.candidates:
            ranked = sorted(grouped.get((id(p), kind), []), key=lambda x: (x[0], x[1]))
            p.chosen[kind] = [c for _, _, c in ranked[: sizes[kind]]]
            if len(p.chosen[kind]) < sizes[kind]:
                drops.drop(
                    "systematicity_configs",
                    f"hn_{kind}_fewer_than_{sizes[kind]}_negatives",
                    p.key,
                )

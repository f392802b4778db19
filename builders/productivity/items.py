"""One image → productivity items: walks, regions, negative candidates, then rendered rows.

Stages and their drop reasons (every rejected walk or negative is counted):

* ``productivity_walk``: ``graph_smaller_than_n`` (once per image and n), ``cannot_reach_n``.
* ``productivity_region``: ``no_region``, ``image_size_unknown``, ``region_too_small``,
  ``region_below_image_fraction``, ``region_aspect_out_of_range``, ``duplicate_patch``.
* ``productivity_caption``: the writer's reason (``missing_atom``, …) for a rejected positive.
* ``productivity_negative_checks``: candidates rejected by the generators' checks against the
  full image graph (e.g. ``swap_true_in_image_graph``, ``atom_attribute_foil_already_holds``,
  ``negate_relationship_pair_has_other_predicate``); see :mod:`crepe_datasets.generators.negatives`.
* ``productivity_negatives``: ``<type>_caption_rejected:<reason>`` (the writer's reason, e.g.
  ``repeated_word``), ``<type>_broken_text:<reason>`` (any writer's text failing
  :func:`crepe_datasets.generators.captions.phrases.broken_reason`), ``<type>_same_text_as_caption``,
  ``<type>_duplicate_text``, ``<type>_equals_other_caption_of_image``,
  ``<type>_entailed_by_caption`` (NLI).

Seeds: the negatives of walk ``k`` of (image, n) use ``"{seed}:{image}:{n}:{k}:{type}"``.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from crepe_datasets.builders.productivity.regions import (
    PatchDeduplicator,
    region_reason,
    subgraph_region,
)
from crepe_datasets.builders.productivity.sampler import sample_walks, walk_facts
from crepe_datasets.builders.region_filter import RegionFilter
from crepe_datasets.generators.balance.items import Item, Negative, RenderedItem
from crepe_datasets.generators.captions import (
    CaptionWriter,
    match_format,
    negate_caption_text,
    write_texts,
)
from crepe_datasets.generators.captions.phrases import broken_reason
from crepe_datasets.generators.negatives import NEGATIVE_TYPES, out_of_reach
from crepe_datasets.generators.negatives.atom import atom_negatives
from crepe_datasets.generators.negatives.foil_balance import (
    FoilLedger,
    copy_splits,
    positive_atoms,
)
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.negate import negate_negatives
from crepe_datasets.generators.negatives.swap import swap_negatives
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Description, SceneGraph

NEG_STAGE = "productivity_negatives"
NEGATE_CANDIDATES = 8  # HN-NEG is not refined: k plus a few spares for dropped texts


def sample_items(
    g: SceneGraph,
    image_file: str,
    complexities: Sequence[int],
    seed: int,
    walks: int,
    candidates_per_type: int,
    writer_for: Callable[[int], str],
    drops: DropLog,
    region_filter: RegionFilter | None = None,
    ranker: Any = None,
) -> list[Item]:
    """Walks for every n, filtered and deduplicated, each with its negative candidates
    (:func:`sample_walk_items`, then :func:`add_candidates`)."""
    items = sample_walk_items(
        g, image_file, complexities, seed, walks, writer_for, drops, region_filter
    )
    add_candidates(items, g, seed, candidates_per_type, drops, ranker)
    return items


def sample_walk_items(
    g: SceneGraph,
    image_file: str,
    complexities: Sequence[int],
    seed: int,
    walks: int,
    writer_for: Callable[[int], str],
    drops: DropLog,
    region_filter: RegionFilter | None = None,
) -> list[Item]:
    """Walks for every n, filtered and deduplicated, as items without negatives yet."""
    rf = region_filter or RegionFilter()
    dedup = PatchDeduplicator()
    items: list[Item] = []
    facts = walk_facts(g)
    for n in complexities:
        for k, result in enumerate(sample_walks(g, n, seed, walks, facts)):
            if result.graph is None:
                drops.drop(
                    "productivity_walk", result.reason or "unknown", f"image {g.image_id} n={n}"
                )
                continue
            region = subgraph_region(result.graph)
            reason = region_reason(result.graph, region, rf)
            if reason is None and not dedup.admit(n, region):  # type: ignore[arg-type]
                reason = "duplicate_patch"
            if reason is not None:
                drops.drop("productivity_region", reason, f"image {g.image_id} n={n} walk {k}")
                continue
            items.append(
                Item(str(g.image_id), image_file, n, k, result.graph, region, writer_for(n))  # type: ignore[arg-type]
            )
    return items


def add_candidates(
    items: list[Item],
    g: SceneGraph,
    seed: int,
    candidates_per_type: int,
    drops: DropLog,
    ranker: Any = None,
    ledgers: Mapping[int, FoilLedger] | None = None,
    vocab: Counter | None = None,
    forecast: int = 0,
    same_atom: int = 0,
    descriptions: Sequence[Description] = (),
    need: int = 0,
) -> None:
    """Each item's negative candidates (HN-ATOM, HN-SWAP, HN-NEG) from the image graph ``g``
    and the texts people wrote of the image (``descriptions``: its region descriptions and
    questions, evidence the negative checks read, :class:`GraphIndex`).

    ``ranker`` (``rank(sentences) -> scores``) orders HN-ATOM foils by plausibility in context.
    ``ledgers`` (the refinement's split views of its foil ledger, one per complexity,
    :mod:`crepe_datasets.generators.negatives.foil_balance`) steer HN-ATOM foils toward
    balanced word uses: a copy of them records each item's first
    ``forecast`` candidates (those the refinement most likely keeps), so that the image's later
    items do not all reach for the same foils; ``vocab`` (``(kind, word)`` counts of the
    chunk's image graphs) favours foils that are words of them. ``same_atom`` (the set size):
    an item's HN-ATOM candidates all replace one atom
    (:func:`~crepe_datasets.generators.negatives.atom.atom_negatives`). ``need`` (the fewest
    negatives of a type a set takes): HN-SWAP and HN-NEG give up an item, unchecked, as soon as
    it cannot reach that many (it could enter no set of theirs), and HN-ATOM candidates too few
    for a set are not rendered.
    """
    index = GraphIndex(g, descriptions)
    copies = copy_splits(ledgers) if ledgers is not None else {}
    for item in items:
        n, k, sub = item.n, item.walk, item.graph
        ledger = copies.get(n)
        rngs = {t: random.Random(f"{seed}:{g.image_id}:{n}:{k}:{t}") for t in NEGATIVE_TYPES}
        atoms = atom_negatives(
            sub, index, rngs["atom"], candidates_per_type, drops, ranker, ledger, vocab, same_atom
        )
        if ledger is not None:
            ledger.record([c.exchange for c in atoms[:forecast]], positive_atoms(sub))  # type: ignore[misc]
        if len(atoms) < need:  # no set of them: not rendered (the forecast above still holds)
            atoms = out_of_reach(drops, "atom", len(atoms))
        item.candidates += atoms
        item.candidates += swap_negatives(
            sub, index, rngs["swap"], candidates_per_type, n, drops, need
        )
        item.candidates += negate_negatives(
            sub, index, rngs["negate"], min(candidates_per_type, NEGATE_CANDIDATES), drops, need
        )


def render_items(
    items: list[Item], writers: dict[str, CaptionWriter], drops: DropLog
) -> list[RenderedItem]:
    """Write every positive and negative graph with the item's writer; assemble the texts."""
    jobs: dict[str, list[SceneGraph]] = defaultdict(list)
    for item in items:
        jobs[item.writer].append(item.graph)
        jobs[item.writer] += [c.graph for c in item.candidates if not c.caption_level]
    texts = {w: iter(write_texts(writers[w], graphs)) for w, graphs in jobs.items()}
    out: list[RenderedItem] = []
    for item in items:
        stream = texts[item.writer]
        caption, reason = next(stream)
        rendered = [(c, None if c.caption_level else next(stream)) for c in item.candidates]
        if caption is not None and (broken := broken_reason(caption)) is not None:
            caption, reason = None, broken
        if caption is None:
            drops.drop(
                "productivity_caption", reason or "rejected", f"image {item.image_id} n={item.n}"
            )
            continue
        negatives: list[Negative] = []
        seen = {caption}
        for cand, result in rendered:
            if cand.caption_level:
                text: str | None = negate_caption_text(caption)
            else:
                text, why = result  # type: ignore[misc]
                if text is None:
                    drops.drop(
                        NEG_STAGE, f"{cand.type}_caption_rejected:{why}", f"image {item.image_id}"
                    )
                    continue
            text = match_format(text, caption)
            if (broken := broken_reason(text)) is not None:
                drops.drop(NEG_STAGE, f"{cand.type}_broken_text:{broken}", text)
            elif text == caption:
                drops.drop(NEG_STAGE, f"{cand.type}_same_text_as_caption", text)
            elif text in seen:
                drops.drop(NEG_STAGE, f"{cand.type}_duplicate_text", text)
            else:
                seen.add(text)
                negatives.append(Negative(cand.type, cand.rule, text, cand.graph, cand.exchange))
        out.append(RenderedItem(item, caption, negatives))
    return out


def drop_other_captions(rendered: list[RenderedItem], drops: DropLog) -> None:
    """Remove negatives equal to a positive caption of another item of the same image."""
    by_image: dict[str, set[str]] = defaultdict(set)
    for r in rendered:
        by_image[r.item.image_id].add(r.caption)
    for r in rendered:
        captions = by_image[r.item.image_id]
        kept = []
        for neg in r.negatives:
            if neg.text in captions:
                drops.drop(NEG_STAGE, f"{neg.type}_equals_other_caption_of_image", neg.text)
            else:
                kept.append(neg)
        r.negatives = kept


def drop_entailed(
    rendered: list[RenderedItem],
    entailed: Callable[[list[str], list[str]], list[bool]],
    drops: DropLog,
) -> None:
    """Remove negatives that their positive entails (NLI), counting them by type."""
    pairs = [(r, neg) for r in rendered for neg in r.negatives]
    if not pairs:
        return
    flags = entailed([r.caption for r, _ in pairs], [neg.text for _, neg in pairs])
    doomed = {id(neg) for (_, neg), flag in zip(pairs, flags, strict=True) if flag}
    for r in rendered:
        for neg in r.negatives:
            if id(neg) in doomed:
                drops.drop(
                    NEG_STAGE, f"{neg.type}_entailed_by_caption", f"{r.caption} => {neg.text}"
                )
        r.negatives = [neg for neg in r.negatives if id(neg) not in doomed]

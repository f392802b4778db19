"""One function per config: images with their facts → rows per split, the split of each image, stats.

Each returns a :class:`ConfigResult`; the split rules are in :mod:`.splits`, the card tables in
:mod:`.rows`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crepe_datasets.builders.captioning import rows as R
from crepe_datasets.builders.captioning import splits as S
from crepe_datasets.builders.captioning.inputs import CocoImage
from crepe_datasets.builders.captioning.pairs import ConceptPair, SynonymGroup, pairs_in

Images = Mapping[str, CocoImage]


@dataclass
class ConfigResult:
    """Rows per split, the split of every image, statistics and the card's table."""

    rows: dict[str, list[dict[str, Any]]]
    split_of: dict[str, str]
    stats: dict[str, Any] = field(default_factory=dict)
    card_table: str = ""


def _group(
    images: Images, split_of: Mapping[str, str], extra: Mapping[str, dict]
) -> dict[str, list]:
    rows: dict[str, list] = {}
    for i in images:
        if i in split_of:
            rows.setdefault(split_of[i], []).append({**images[i].base_row(), **extra[i]})
    return R.ordered(rows)


def average_length(images: Images) -> dict[str, float]:
    """Mean spaCy tokens per caption of each image."""
    return {i: sum(f.n_tokens for f in img.facts) / len(img.facts) for i, img in images.items()}


def systematicity(
    images: Images, pairs: Sequence[ConceptPair], size: int, seed: int
) -> ConfigResult:
    """``train`` / ``validation`` / ``test_comb`` / ``test_no_comb`` by held-out pairs."""
    ids = list(images)
    present = {i: pairs_in(pairs, img.facts) for i, img in images.items()}
    nouns = {
        i: {p.id for p in pairs if any(p.noun_in(f) for f in img.facts)}
        for i, img in images.items()
    }
    co_occur = {
        i: {p.id for p in pairs if any(p.co_occur(f) for f in img.facts)}
        for i, img in images.items()
    }
    split_of, balances, stats = S.systematicity(
        ids, present, nouns, [p.id for p in pairs], size, seed, co_occur
    )
    extra = {i: {"heldout_pairs": present[i], "no_comb_pair": balances.get(i)} for i in ids}
    captions = {
        p.id: sum(p.in_facts(f) for img in images.values() for f in img.facts) for p in pairs
    }
    for p in pairs:
        stats[p.id] = {
            **p.to_dict(),
            "modifier_forms": sorted(p.modifier_forms),
            "noun_forms": sorted(p.noun_forms),
            "captions_with_pair": captions[p.id],
            **stats[p.id],
        }
    return ConfigResult(
        _group(images, split_of, extra), split_of, stats, R.pairs_table(stats, captions)
    )


def productivity_length(images: Images, size: int, seed: int) -> ConfigResult:
    """``test_rich`` (longest captions) / ``test_base`` / ``validation`` / ``train``."""
    avg = average_length(images)
    split_of = S.by_score(list(images), avg, size, seed, ("test_rich", "test_base"), "length")
    extra = {i: {"avg_length": round(v, 4)} for i, v in avg.items()}
    return ConfigResult(
        _group(images, split_of, extra),
        split_of,
        {},
        R.histogram_table(avg, split_of, "avg tokens"),
    )


def productivity_density(
    images: Images, boxes: Mapping[str, int], size: int, seed: int
) -> ConfigResult:
    """``test_high_density`` / ``test_low_density`` / ``validation`` / ``train`` by box count."""
    ids = [i for i in images if i in boxes]
    score = {i: float(boxes[i]) for i in ids}
    split_of = S.by_score(
        ids, score, size, seed, ("test_high_density", "test_low_density"), "density"
    )
    avg = average_length(images)
    extra = {i: {"n_boxes": int(boxes[i]), "avg_length": round(avg[i], 4)} for i in ids}
    stats = {"images_with_boxes": len(ids), "split_size": size}
    return ConfigResult(
        _group(images, split_of, extra),
        split_of,
        stats,
        R.histogram_table(score, split_of, "boxes"),
    )


def substitutivity(images: Images, groups: Sequence[SynonymGroup]) -> ConfigResult:
    """``train`` / ``test_canonical`` / ``test_synonym`` / ``test_both`` by synonym-group words."""
    uses: dict[str, dict[str, set[str]]] = {}
    for i, img in images.items():
        uses[i] = {g.canonical: set().union(*(g.words_in(f) for f in img.facts)) for g in groups}
    split_of = S.substitutivity(uses, list(images))
    extra = {}
    for i, groups_used in uses.items():
        used = {c: w for c, w in groups_used.items() if w}
        extra[i] = {
            "synonym_groups": sorted(used),
            "words_used": sorted(set().union(*used.values())),
        }
    stats = {
        g.canonical: {w: sum(1 for u in uses.values() if w in u[g.canonical]) for w in g.forms}
        for g in groups
    }
    return ConfigResult(_group(images, split_of, extra), split_of, {"images_per_word": stats})

"""Rows, features, config metadata and card tables of crepe-captioning.

Every config has one row per image: ``image_id``, ``image_file`` (``<folder>/<file_name>``,
the folder named after the captions file, e.g. ``val2017/000000397133.jpg``) and ``captions``
(its reference captions, annotation order), plus the columns that explain its split.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from crepe_datasets.cards.metadata import ConfigInfo, TaskSpec

CONFIGS = {
    "systematicity": "held-out adjective–noun / verb–noun pairs: train without them, test_comb with "
    "them, test_no_comb (same size per pair) without them",
    "productivity_length": "average caption length (spaCy tokens): test_rich = the longest, "
    "test_base = random others",
    "productivity_density": "COCO instance boxes per image: test_high_density = the most, "
    "test_low_density = the fewest",
    "substitutivity": "images whose captions name a synonym group by its canonical word, by a "
    "synonym, or both",
}
SPLIT_ORDER = (
    "train",
    "validation",
    "test_comb",
    "test_no_comb",
    "test_rich",
    "test_base",
    "test_high_density",
    "test_low_density",
    "test_canonical",
    "test_synonym",
    "test_both",
)


def config_infos(names: list[str]) -> dict[str, ConfigInfo]:
    """Config metadata (task ``captioning``: generated captions scored against ``captions``)."""
    task = TaskSpec(
        type="captioning", text_column="captions", negatives_column=None, bbox_column=None
    )
    return {n: ConfigInfo(n, CONFIGS[n], task) for n in names}


def features(name: str, with_image: bool = False) -> Any:
    """``datasets.Features`` of a config (plus the embedded ``image`` column when asked)."""
    from datasets import Features, Image, List, Value

    base = {
        "image_id": Value("string"),
        "image_file": Value("string"),
        "captions": List(Value("string")),
    }
    extra = {
        "systematicity": {"heldout_pairs": List(Value("string")), "no_comb_pair": Value("string")},
        "productivity_length": {"avg_length": Value("float64")},
        "productivity_density": {"n_boxes": Value("int64"), "avg_length": Value("float64")},
        "substitutivity": {
            "synonym_groups": List(Value("string")),
            "words_used": List(Value("string")),
        },
    }[name]
    image = {"image": Image()} if with_image else {}
    return Features({**base, **extra, **image})


def ordered(splits: Mapping[str, list]) -> dict[str, list]:
    """Splits in the card's order (train, validation, then the tests)."""
    rank = {s: k for k, s in enumerate(SPLIT_ORDER)}
    return {s: splits[s] for s in sorted(splits, key=lambda s: rank.get(s, len(rank)))}


def histogram_table(values: Mapping[str, float], split_of: Mapping[str, str], unit: str) -> str:
    """A markdown histogram: images per split in bins of ``values`` (integer bins, top bin open)."""
    if not values:
        return ""
    cap = max(1, int(sorted(values.values())[int(0.99 * (len(values) - 1))]) + 1)
    splits = list(ordered({s: [] for s in set(split_of.values())}))
    counts: Counter[tuple[int, str]] = Counter()
    for iid, v in values.items():
        if iid in split_of:
            counts[(min(int(v), cap), split_of[iid])] += 1
    lines = [f"| {unit} | " + " | ".join(splits) + " |", "|---|" + "---|" * len(splits)]
    for b in range(min(int(min(values.values())), cap), cap + 1):
        label = f"≥ {b}" if b == cap else f"{b}–{b + 1}" if unit.startswith("avg") else str(b)
        cells = [f"{counts[(b, s)]:,}" for s in splits]
        if any(c != "0" for c in cells):
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def pairs_table(stats: Mapping[str, Mapping[str, int]], captions: Mapping[str, int]) -> str:
    """Per held-out pair: test_comb / test_no_comb images and captions binding the pair."""
    lines = [
        "| pair | captions with the pair | test_comb images | test_no_comb images | of which name the noun |",
        "|---|---|---|---|---|",
    ]
    for pid, s in stats.items():
        lines.append(
            f"| {pid} | {captions.get(pid, 0):,} | {s['test_comb']:,} | {s['test_no_comb']:,} | "
            f"{s['test_no_comb_with_noun']:,} |"
        )
    return "\n".join(lines)

"""Dataset rows and configs of crepe-productivity.

Configs (splits ``complexity_4`` … ``complexity_12`` each):

* ``raw`` — every ground truth (image region + caption), task ``raw_retrieval``;
* ``hn_atom`` / ``hn_swap`` / ``hn_negate`` — 1 positive + exactly ``k`` (5) negatives of one type;
* ``hn_all`` — 1 positive + ``k`` negatives of each type (1 + 15).

A ground truth enters a hard-negative config only when it has at least ``min_k`` negatives of
each of that config's types (default ``min_k = k = 5``: full, fixed-size retrieval sets with
chance 1/6 or 1/16, as the paper's retrieval sets); otherwise it is counted under stage
``productivity_configs`` with reason ``<config>_fewer_than_<min_k>_negatives``. The paper's
counts (e.g. 2,510 HN-NEG for 1,508 ground truths at n = 4) show it kept smaller sets;
``--min-negatives 1`` does the same. Negatives are taken in candidate order (the generators' seeded order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crepe_datasets.builders.productivity.items import RenderedItem
from crepe_datasets.cards.metadata import ConfigInfo, TaskSpec
from crepe_datasets.generators.negatives import NEGATIVE_TYPES
from crepe_datasets.scenegraph.provenance import DropLog

HN_CONFIGS = {
    "hn_atom": ("atom",),
    "hn_swap": ("swap",),
    "hn_negate": ("negate",),
    "hn_all": NEGATIVE_TYPES,
}
CONFIG_NAMES = ("raw", *HN_CONFIGS)
DESCRIPTIONS = {
    "raw": "image regions and their captions (no hard negatives)",
    "hn_atom": "1 caption + 5 HN-ATOM negatives (one atom replaced by an antonym or co-hyponym)",
    "hn_swap": "1 caption + 5 HN-SWAP negatives (atoms of one type swapped or permuted)",
    "hn_negate": "1 caption + 5 HN-NEG negatives (caption or one atom negated)",
    "hn_all": "1 caption + 15 negatives (5 HN-ATOM, 5 HN-SWAP, 5 HN-NEG)",
}


def split_name(n: int) -> str:
    return f"complexity_{n}"


def config_infos() -> dict[str, ConfigInfo]:
    infos = {
        "raw": ConfigInfo(
            "raw", DESCRIPTIONS["raw"], TaskSpec(type="raw_retrieval", negatives_column=None)
        )
    }
    for name in HN_CONFIGS:
        infos[name] = ConfigInfo(name, DESCRIPTIONS[name], TaskSpec(type="retrieval"))
    return infos


def base_row(r: RenderedItem) -> dict[str, Any]:
    g = r.item.graph
    return {
        "image_id": r.item.image_id,
        "image_file": r.item.image_file,
        "bbox": r.item.region.to_list(),
        "caption": r.caption,
        "subgraph": g.to_json(),
        "n_objects": len(g.objects),
        "n_attributes": sum(len(o.attributes) for o in g.objects),
        "n_relationships": len(g.relationships),
        "n": r.item.n,
        "caption_writer": r.item.writer,
    }


def hn_row(
    r: RenderedItem,
    types: Sequence[str],
    k: int,
    min_k: int | None = None,
    base: dict[str, Any] | None = None,
    by_type: dict[str, list] | None = None,
) -> dict[str, Any] | None:
    """The row of one hard-negative config: up to ``k`` negatives per type, ``None`` when a
    type has fewer than ``min_k`` (default ``k``: fixed-size retrieval sets). ``base``: the
    item's :func:`base_row`, when already made (it is copied, not changed); ``by_type``: its
    first ``k`` negatives per type, when already split."""
    need = k if min_k is None else min_k
    if by_type is None:
        by_type = first_per_type(r, k)
    chosen = []
    for t in types:
        of_type = by_type.get(t, [])
        if len(of_type) < need:
            return None
        chosen += of_type
    row = dict(base) if base is not None else base_row(r)
    row["hard_negatives"] = [neg.text for neg in chosen]
    row["negative_types"] = [neg.type for neg in chosen]
    row["negative_rules"] = [neg.rule for neg in chosen]
    row["negative_subgraphs"] = [neg.graph for neg in chosen]
    return row


def first_per_type(r: RenderedItem, k: int) -> dict[str, list]:
    """The item's first ``k`` negatives of each type, in order."""
    by_type: dict[str, list] = {}
    for neg in r.negatives:
        of_type = by_type.setdefault(neg.type, [])
        if len(of_type) < k:
            of_type.append(neg)
    return by_type


def add_rows(
    tables: dict[str, dict[str, list]],
    rendered: list[RenderedItem],
    k: int,
    drops: DropLog,
    min_k: int | None = None,
) -> None:
    """Append the rows of rendered items to ``tables[config][split]``."""
    need = k if min_k is None else min_k
    for r in rendered:
        split = split_name(r.item.n)
        base = base_row(r)
        tables["raw"][split].append(base)
        by_type = first_per_type(r, k)
        for config, types in HN_CONFIGS.items():
            row = hn_row(r, types, k, need, base, by_type)
            if row is None:
                drops.drop(
                    "productivity_configs",
                    f"{config}_fewer_than_{need}_negatives",
                    f"image {r.item.image_id} n={r.item.n}",
                )
            else:
                tables[config][split].append(row)


def features(with_images: bool) -> dict[str, Any]:
    """Explicit ``datasets`` features per config (stable schemas, even for empty splits)."""
    from datasets import Features, Image, List, Value

    base = {
        "image_id": Value("string"),
        "image_file": Value("string"),
        "bbox": List(Value("float64")),
        "caption": Value("string"),
        "subgraph": Value("string"),
        "n_objects": Value("int32"),
        "n_attributes": Value("int32"),
        "n_relationships": Value("int32"),
        "n": Value("int32"),
        "caption_writer": Value("string"),
    }
    if with_images:
        base["image"] = Image()
    hn = dict(base)
    for col in ("hard_negatives", "negative_types", "negative_rules", "negative_subgraphs"):
        hn[col] = List(Value("string"))
    return {name: Features(base if name == "raw" else hn) for name in CONFIG_NAMES}

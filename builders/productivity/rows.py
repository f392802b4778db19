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

from collections.abc import Iterator
from typing import Any

from crepe_datasets.cards.metadata import ConfigInfo, TaskSpec
from crepe_datasets.generators.balance.items import RenderedItem
from crepe_datasets.generators.negatives import NEGATIVE_TYPES
from crepe_datasets.infra.provenance import DropLog

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


def first_per_type(r: RenderedItem, k: int) -> dict[str, list]:
    """The item's first ``k`` negatives of each type, in order."""
    by_type: dict[str, list] = {}
    for neg in r.negatives:
        of_type = by_type.setdefault(neg.type, [])
        if len(of_type) < k:
            of_type.append(neg)
    return by_type


def item_record(
    r: RenderedItem, k: int, drops: DropLog, min_k: int | None = None
) -> dict[str, Any]:
    """The rows of one rendered item in compact form, as a chunk result holds them.

    A hard-negative config repeats the item's base row and its negatives (``hn_all`` holds
    those of the three single-type configs again), so a chunk's rows took about five times the
    bytes of what they say; this keeps the base row once (``row``), each type's first ``k``
    negatives that a config of the item uses once (``negatives``: ``[text, rule, graph]``), and
    the configs the item enters (``configs``, in :data:`CONFIG_NAMES` order). A config it does
    not enter (a type with fewer than ``min_k``, default ``k``, negatives) is counted under
    stage ``productivity_configs``. :func:`record_rows` gives the rows back.
    """
    need = k if min_k is None else min_k
    by_type = first_per_type(r, k)
    configs, used = ["raw"], set()
    for config, types in HN_CONFIGS.items():
        if all(len(by_type.get(t, ())) >= need for t in types):
            configs.append(config)
            used.update(types)
        else:
            drops.drop(
                "productivity_configs",
                f"{config}_fewer_than_{need}_negatives",
                f"image {r.item.image_id} n={r.item.n}",
            )
    negatives = {
        t: [[neg.text, neg.rule, neg.graph] for neg in by_type[t]]
        for t in NEGATIVE_TYPES
        if t in used
    }
    return {"row": base_row(r), "configs": configs, "negatives": negatives}


def record_rows(record: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(config, row)`` for each config of an :func:`item_record`, in its order: the ``raw``
    row is the base row; a hard-negative row adds ``hard_negatives``, ``negative_types``,
    ``negative_rules`` and ``negative_subgraphs`` (the negatives of its types, in order)."""
    base, negatives = record["row"], record["negatives"]
    for config in record["configs"]:
        if config == "raw":
            yield config, base
            continue
        chosen = [(t, neg) for t in HN_CONFIGS[config] for neg in negatives[t]]
        row = dict(base)
        row["hard_negatives"] = [neg[0] for _, neg in chosen]
        row["negative_types"] = [t for t, _ in chosen]
        row["negative_rules"] = [neg[1] for _, neg in chosen]
        row["negative_subgraphs"] = [neg[2] for _, neg in chosen]
        yield config, row


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

"""Stratified, seeded samples of a built dataset for human verification.

Two kinds of item: ``caption`` (is the caption faithful to its region?) from configs without
negatives, and ``negative`` (is this hard negative genuinely wrong for the region?) from
configs with a negatives column. A 2 × 2 ``group`` config (the counter-image ``groups`` of
systematicity) gives both: its second caption as a ``caption`` item of its second image, and its
first caption as a ``negative`` item (type ``counter``) of the same image. Items are grouped into strata by any of ``config``, ``split``,
``complexity``, ``negative_type`` and ``kind``; each stratum draws up to ``per_stratum`` items
with a generator seeded by the seed and the stratum's name, so a stratum's sample does not
change when other strata are added. Each item records the hash of the row it came from.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from crepe_datasets.cards.manifest import read_manifest
from crepe_datasets.cards.verification import read_rows, row_hash
from crepe_datasets.infra.errors import CrepeInputError

STRATUM_COLUMNS = ("config", "split", "complexity", "negative_type", "kind")
KINDS = ("caption", "negative")
_COMPLEXITY = re.compile(r"(\d+)$")


@dataclass
class Item:
    """One text to judge against one image region."""

    item_id: str
    kind: str
    config: str
    split: str
    row: int
    text: str
    caption: str
    image_id: str
    image_file: str
    bbox: list[float] | None
    complexity: int | None
    row_hash: str
    negative_index: int | None = None
    negative_type: str = ""
    negative_rule: str = ""
    image: str = ""
    region: dict[str, float] | None = field(default=None)
    image_size: list[float] | None = None

    def stratum(self, by: Sequence[str]) -> tuple[str, ...]:
        """The item's stratum under the columns ``by``."""
        return tuple("" if getattr(self, c) is None else str(getattr(self, c)) for c in by)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Item:
        return cls(**data)


def _image_size(row: dict) -> list[float] | None:
    """Width and height of the full image, from a row's ``subgraph`` JSON when it has one."""
    try:
        graph = json.loads(row.get("subgraph") or "{}")
    except (TypeError, ValueError):
        return None
    if isinstance(graph, dict) and graph.get("width") and graph.get("height"):
        return [float(graph["width"]), float(graph["height"])]
    return None


def _complexity(row: dict, split: str) -> int | None:
    if isinstance(row.get("n"), int):
        return row["n"]
    match = _COMPLEXITY.search(split)
    return int(match.group(1)) if match else None


def _group_items(
    folder: str | Path, config: str, splits: Sequence[str], task: Any, kinds: Sequence[str]
) -> list[Item]:
    """Items of a 2 × 2 group config, both on image 1 (the counter-image): ``caption_1`` as a
    ``caption`` item (should be true of it) and ``caption_0`` as a ``negative`` item of type
    ``counter`` (should be false of it): "is caption A true of image B?"."""
    out: list[Item] = []
    cap0, cap1 = task.caption_columns
    for split in sorted(splits):
        for i, row in sorted(read_rows(folder, config, split).items()):
            graph = {"subgraph": row.get("image_1_graph")}
            base = {
                "config": config, "split": split, "row": i, "image_id": str(row.get("image_1_id", "")),
                "image_file": str(row.get(task.image_file_columns[1], "")),
                "bbox": row.get("image_1_bbox"), "complexity": None, "row_hash": row_hash(row),
                "image_size": _image_size(graph),
            }  # fmt: skip
            if "caption" in kinds:
                out.append(Item(item_id=f"{config}/{split}/{i}", kind="caption",
                                text=row[cap1], caption=row[cap1], **base))  # fmt: skip
            if "negative" in kinds:
                out.append(Item(item_id=f"{config}/{split}/{i}/0", kind="negative", text=row[cap0],
                                caption=row[cap1], negative_index=0, negative_type="counter",
                                negative_rule=str(row.get("exchange", "")), **base))  # fmt: skip
    return out


def candidates(
    folder: str | Path, kinds: Sequence[str] = KINDS, configs: Sequence[str] | None = None
) -> list[Item]:
    """Every item of a dataset folder that could be sampled, in a fixed order."""
    manifest = read_manifest(folder)
    unknown = sorted(set(configs or ()) - set(manifest.counts))
    if unknown:
        raise CrepeInputError(
            f"{folder} has no config {', '.join(unknown)}; it has {', '.join(manifest.counts)}"
        )
    items: list[Item] = []
    for config in sorted(configs or manifest.counts):
        info = manifest.configs.get(config)
        if info is None or info.task.type == "none":
            continue
        task = info.task
        if task.type == "group":
            items += _group_items(folder, config, manifest.counts[config], task, kinds)
            continue
        kind = "negative" if task.negatives_column else "caption"
        if kind not in kinds:
            continue
        for split in sorted(manifest.counts[config]):
            for i, row in sorted(read_rows(folder, config, split).items()):
                base = {
                    "config": config,
                    "split": split,
                    "row": i,
                    "caption": row[task.text_column],
                    "image_id": str(row.get("image_id", "")),
                    "image_file": str(row.get(task.image_file_column, "")),
                    "bbox": row.get(task.bbox_column) if task.bbox_column else None,
                    "complexity": _complexity(row, split),
                    "row_hash": row_hash(row),
                    "image_size": _image_size(row),
                }
                if kind == "caption":
                    items.append(
                        Item(
                            item_id=f"{config}/{split}/{i}", kind=kind, text=base["caption"], **base
                        )
                    )
                    continue
                types = row.get("negative_types") or []
                rules = row.get("negative_rules") or []
                for j, text in enumerate(row.get(task.negatives_column) or []):
                    items.append(
                        Item(
                            item_id=f"{config}/{split}/{i}/{j}",
                            kind=kind,
                            text=text,
                            negative_index=j,
                            negative_type=types[j] if j < len(types) else "",
                            negative_rule=rules[j] if j < len(rules) else "",
                            **base,
                        )
                    )
    return items


def stratified_sample(
    items: Sequence[Item], by: Sequence[str], per_stratum: int, seed: int
) -> tuple[list[Item], dict[str, dict[str, int]]]:
    """Up to ``per_stratum`` items of each stratum, and the counts per stratum.

    Within a stratum, items with the same image, region, kind and text are one item; the others
    are counted as ``duplicates_dropped``.
    """
    bad = [c for c in by if c not in STRATUM_COLUMNS]
    if bad:
        raise CrepeInputError(
            f"cannot stratify by {', '.join(bad)}; choose from {', '.join(STRATUM_COLUMNS)}"
        )
    if per_stratum < 1:
        raise CrepeInputError("--per-stratum must be at least 1")
    strata: dict[tuple[str, ...], list[Item]] = defaultdict(list)
    seen: set[tuple] = set()
    duplicates: Counter[tuple[str, ...]] = Counter()
    for item in items:
        key = item.stratum(by)
        identity = (key, item.kind, item.image_id, str(item.bbox), item.text)
        if identity in seen:
            duplicates[key] += 1
        else:
            seen.add(identity)
            strata[key].append(item)
    sample: list[Item] = []
    counts: dict[str, dict[str, int]] = {}
    for key in sorted(strata):
        pool = strata[key]
        name = "/".join(key) or "all"
        digest = int(hashlib.sha256(name.encode()).hexdigest()[:8], 16)
        rng = np.random.default_rng([seed, digest])
        k = min(per_stratum, len(pool))
        picked = sorted(rng.choice(len(pool), size=k, replace=False).tolist())
        sample += [pool[i] for i in picked]
        counts[name] = {"available": len(pool), "sampled": k, "duplicates_dropped": duplicates[key]}
    return sample, counts

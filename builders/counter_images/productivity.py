"""The ``groups`` config of a crepe-productivity build (``--counter-pool``).

The same construction as crepe-systematicity's (:mod:`.config`, :mod:`.groups`, the match rule of
:mod:`.match` unchanged): for each HN-ATOM negative of an ``hn_atom`` row, a counter-region of
another image where the negative's **whole subgraph** (every atom and compound of its 4–12
atoms) is annotated and the caption is false. A region graph holds 1–3 facts, so the matches are
mostly whole-image graphs (the ``--vg`` folder's own ``scene_graphs.json`` is always in the
pool); on a small Visual Genome folder the yield is small, and every unmatched negative is
counted by reason, per split (complexity).

:func:`rows_for_groups` reads a productivity row as :func:`.groups.group_rows` reads a
systematicity row: the subgraph in compact form, the negative subgraphs, no region id (the
group key is ``image:split:k`` with ``k`` the row's rank among the image's rows of that split).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from crepe_datasets.builders.counter_images.config import add_groups_config
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.generators.negatives import compact_json
from crepe_datasets.scenegraph.types import SceneGraph

CARD_TEXT = (
    "`groups` is our extension (Winoground-style, not part of the CREPE paper): for each HN-ATOM "
    "negative of `hn_atom`, a counter-region of another Visual Genome image where the negative's "
    "whole subgraph (every atom and compound) is annotated and the caption is false, found in an "
    "inverted index of human-annotated graphs (the `--vg` folder's whole-image scene graphs and "
    "region graphs, and each `--counter-pool` source such as FACTUAL), with the match rule of "
    "the systematicity `groups` (names lemmatised, Visual Genome aliases and first-sense WordNet "
    "synonyms; the caption must not hold there even with broad synonyms; the replaced atom absent "
    "or contradicted; never the caption's own image). A whole-image match is localised to the "
    "union of the boxes of the matched objects. Rows hold two images (id, box, file) and two "
    "captions, each true of one image only. Yields per split: {yields}."
)


def rows_for_groups(split: str, rows: Iterable[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The ``hn_atom`` rows of one split in the form :func:`.groups.group_rows` reads."""
    rank: Counter = Counter()
    for row in rows:
        image = str(row["image_id"])
        k = rank[image]
        rank[image] += 1
        yield {
            "image_id": image,
            "region_id": "",
            "group_key": f"{image}:{split}:{k}",
            "image_file": row["image_file"],
            "bbox": row["bbox"],
            "caption": row["caption"],
            "scene_graph": compact_json(SceneGraph.from_json(row["subgraph"])),
            "hard_negatives": row["hard_negatives"],
            "negative_graphs": row["negative_subgraphs"],
            "negative_types": row["negative_types"],
            "negative_rules": row["negative_rules"],
            "split": split,
            "caption_origin": f"the caption is written from a {row['n']}-atom subgraph of that "
            "scene graph",
        }


def add_groups(
    vg: str, pools: Sequence[str], tables: dict, infos: Mapping[str, Any], manifest: BuildManifest,
    scratch: Path, seed: int, cache_dir: str | None = None,
) -> Any:  # fmt: skip
    """Add the ``groups`` config to a productivity build's ``tables`` and ``manifest``; return
    its features."""
    return add_groups_config(
        vg, pools, tables, infos, manifest, scratch, seed, CARD_TEXT, cache_dir, rows_for_groups
    )

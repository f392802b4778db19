"""The ``groups`` config of a crepe-systematicity build (``--counter-pool``).

:func:`add_groups` runs after the ``hn_atom`` rows are final: it opens (or builds) the pool's
index, finds a counter-region for every HN-ATOM negative (:mod:`.groups`), spools the ``groups``
rows beside the other configs, and records in the manifest the config, the pool, the yields per
split (groups / HN-ATOM negatives), the unmatched negatives by reason and an independent
re-verification of every group (:mod:`crepe_datasets.validation.counter_groups`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from crepe_datasets.builders.counter_images.groups import CONFIG, config_info, features, group_rows
from crepe_datasets.builders.counter_images.index import open_index
from crepe_datasets.builders.counter_images.match import STAGE
from crepe_datasets.builders.counter_images.pool import pool_sources, source_files
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.infra.provenance import DropLog

CARD_TEXT = (
    "`groups` is our extension (Winoground-style, not part of the CREPE paper): for each HN-ATOM "
    "negative of `hn_atom`, a counter-region of another Visual Genome image where the negative is "
    "true and the caption false, found in an inverted index of human-annotated graphs (the "
    "`--vg` folder's scene graphs and region graphs, and each `--counter-pool` source such as "
    "FACTUAL). The negative's every atom and compound must be annotated there (names "
    "lemmatised, Visual Genome aliases and first-sense WordNet synonyms), the caption must not "
    "hold there even with broad synonyms, and the replaced atom must be absent (object) or "
    "contradicted (the object carries the foil, not the original attribute); among matches one is "
    "chosen by seed, preferring a region of similar size. Rows hold two images (id, box, file) "
    "and two captions, each true of one image only, so a scorer that ignores the image wins no "
    "group. Yields per split: {yields}."
)


def _yields(groups: Mapping[str, int], negatives: Mapping[str, int]) -> str:
    return "; ".join(
        f"{sp}: {groups.get(sp, 0):,} groups from {n:,} HN-ATOM negatives "
        f"({groups.get(sp, 0) / n:.1%})"
        if n
        else f"{sp}: no HN-ATOM negatives"
        for sp, n in negatives.items()
    )


def add_groups(
    vg: str, pools: Sequence[str], tables: dict, infos: Mapping[str, Any], manifest: BuildManifest,
    scratch: Path, seed: int, cache_dir: str | None = None,
) -> Any:  # fmt: skip
    """Add the ``groups`` config to ``tables`` and ``manifest``; return its features.

    Rows are spooled to disk under ``scratch`` (the build's temporary folder).
    """
    from crepe_datasets.builders.productivity.spool import SpooledRows
    from crepe_datasets.generators.terms import Terms
    from crepe_datasets.validation.counter_groups import check_groups

    index, info = open_index(vg, list(pools), cache_dir)
    schema = features().arrow_schema
    try:
        groups: dict[str, Any] = {}
        negatives: dict[str, int] = {}
        stats: Counter = Counter()
        for split, rows in tables["hn_atom"].items():
            out = groups[split] = SpooledRows(scratch / CONFIG / split, schema)
            before = stats["negatives"]
            for row in group_rows(rows, index, infos, seed, manifest.drops, stats):
                out.append(row)
            negatives[split] = stats["negatives"] - before
        tables[CONFIG] = groups
    finally:
        index.close()
    counts = {sp: len(rows) for sp, rows in groups.items()}
    manifest.drops.merge(DropLog.from_dict(index.manifest["drops"]))  # the pool's own skips
    for path, _ in pool_sources(vg, list(pools)):
        manifest.add_inputs(*source_files(path))
    manifest.configs[CONFIG] = config_info()
    manifest.summary["groups"] = {
        "pool": info,
        "groups_per_split": counts,
        "hn_atom_negatives_per_split": negatives,
        "share_per_split": {
            sp: round(counts[sp] / n, 4) if n else 0.0 for sp, n in negatives.items()
        },
        "by_source": {k[7:]: v for k, v in sorted(stats.items()) if k.startswith("groups_")},
        "unmatched": {r: n for (st, r), n in sorted(manifest.drops.counts.items()) if st == STAGE},
    }
    manifest.validation["groups_checks"] = check_groups(groups, Terms.from_vg(vg)).to_dict()
    manifest.card.how_built += " " + CARD_TEXT.format(yields=_yields(counts, negatives))
    return features()

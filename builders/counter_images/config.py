"""The ``groups`` config of a build, for any builder whose ``hn_atom`` rows can be read as
:func:`crepe_datasets.builders.counter_images.groups.group_rows` reads them.

:func:`add_groups_config` runs after the ``hn_atom`` rows are final: it opens (or builds) the
pool's index, finds a counter-region for every HN-ATOM negative, spools the ``groups`` rows
beside the other configs, and records in the manifest the config, the pool (with the path and
SHA-256 of every source, so that ``crepe validate dataset`` can find it again:
:mod:`.sources`), the yields per split (groups / HN-ATOM negatives), the unmatched negatives by
reason (in all and per split) and the independent re-verification of every group against the
pool (:func:`crepe_datasets.validation.counter_groups.check_groups`, the check that
:mod:`.checks` registers for ``crepe validate dataset``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from crepe_datasets.builders.counter_images.groups import (
    COMP_CONFIG,
    CONFIG,
    caption_graphs,
    config_info,
    features,
    group_rows,
)
from crepe_datasets.builders.counter_images.index import CounterIndex, PoolLookup, open_index
from crepe_datasets.builders.counter_images.match import STAGE, OwnImageKeys
from crepe_datasets.builders.counter_images.pool import pool_sources, source_files
from crepe_datasets.builders.counter_images.sources import describe_pool
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.validation.invariants import InvariantReport

# (split, hn_atom rows of that split) -> rows in the form group_rows reads
RowAdapter = Callable[[str, Iterable[Mapping[str, Any]]], Iterable[Mapping[str, Any]]]


COMP_STAGE = STAGE + "_comp"  # the unmatched HN-COMP negatives, apart from HN-ATOM's


def _restaged(drops: DropLog, stage: str) -> DropLog:
    out = DropLog()
    for (_, reason), n in drops.counts.items():
        out.counts[(stage, reason)] += n
    for (_, reason), examples in drops.examples.items():
        out.examples[(stage, reason)] = list(examples)
    return out


def yields_text(
    groups: Mapping[str, int], negatives: Mapping[str, int], kind: str = "HN-ATOM"
) -> str:
    """``split: G groups from N HN-ATOM negatives (share)``, for the card."""
    return "; ".join(
        f"{sp}: {groups.get(sp, 0):,} groups from {n:,} {kind} negatives "
        f"({groups.get(sp, 0) / n:.1%})"
        if n
        else f"{sp}: no {kind} negatives"
        for sp, n in negatives.items()
    )


def verify_groups(
    index: CounterIndex, groups: Mapping[str, Sequence[Mapping[str, Any]]], config: str = CONFIG
) -> InvariantReport:
    """The independent check of every group of ``config``, against the pool of ``index`` (its
    synonyms, with every predicate of the pool known, and its regions)."""
    from crepe_datasets.validation.counter_groups import check_groups

    lookup = PoolLookup(index, groups)
    return check_groups(groups, index.terms, lookup, config, lookup.image)


def own_graphs(
    index: CounterIndex, tables: dict, source: str, adapt: RowAdapter | None
) -> dict[str, list[Any]]:
    """The annotation of each caption's own image that condition 6 reads besides its scene
    graph: every other pool region of the image (FACTUAL rows, VG region graphs), and for
    systematicity the parsed graphs of its region descriptions (its ``raw`` and ``source`` rows)."""
    rows = {
        split: list(adapt(split, given)) if adapt is not None else given
        for split, given in tables[source].items()
    }
    images = {str(r["image_id"]) for split in rows.values() for r in split}
    out: dict[str, list[Any]] = {}
    if adapt is None:
        described = [given for c in ("raw", source) for given in (tables.get(c) or {}).values()]
        out = caption_graphs(described, index)
    for image, numbers in sorted(index.image_regions(images).items()):
        regions = [index.region(n) for n in numbers]
        out.setdefault(image, []).extend(r.graph for r in regions if r.source != "vg_image")
    return out


def add_groups_config(
    vg: str, pools: Sequence[str], tables: dict, infos: Mapping[str, Any], manifest: BuildManifest,
    scratch: Path, seed: int, card_text: str, cache_dir: str | None = None,
    adapt: RowAdapter | None = None, comp: bool = False,
) -> Any:  # fmt: skip
    """Add the ``groups`` config to ``tables`` and ``manifest``; return its features.

    Args:
        vg: the ``--vg`` folder (always part of the pool).
        pools: the ``--counter-pool`` sources.
        tables: the build's rows ``{config: {split: rows}}``; ``hn_atom`` is read.
        infos: image sizes by image id (for the size preference).
        manifest: filled with the config, the summary, the drops and the check.
        scratch: the build's temporary folder (the rows are spooled there).
        seed: the build's seed.
        card_text: the card's paragraph, with ``{yields}`` for the yields per split.
        cache_dir: cache of the pool's index (default ``$CREPE_CACHE``).
        adapt: turns a split's ``hn_atom`` rows into the form ``group_rows`` reads.
        comp: build ``groups_comp`` from the ``hn_comp`` rows instead (HN-COMP negatives).
    """
    from crepe_datasets.builders.productivity.spool import SpooledRows

    config, source = (COMP_CONFIG, "hn_comp") if comp else (CONFIG, "hn_atom")
    index, info = open_index(vg, list(pools), cache_dir)
    schema = features().arrow_schema
    try:
        groups: dict[str, Any] = {}
        negatives: dict[str, int] = {}
        unmatched: dict[str, dict[str, int]] = {}
        stats: Counter = Counter()
        own = OwnImageKeys(index, own_graphs(index, tables, source, adapt))  # once per image
        for split, rows in tables[source].items():
            out = groups[split] = SpooledRows(scratch / config / split, schema)
            before = stats["negatives"]
            drops = DropLog()
            given = adapt(split, rows) if adapt is not None else rows
            for row in group_rows(given, index, infos, seed, drops, stats, comp, own):
                out.append(row)
            negatives[split] = stats["negatives"] - before
            unmatched[split] = {r: n for (_, r), n in sorted(drops.counts.items())}
            for (_, r), n in drops.counts.items():
                stats[f"unmatched:{r}"] += n
            manifest.drops.merge(_restaged(drops, COMP_STAGE) if comp else drops)
        tables[config] = groups
        report = verify_groups(index, groups, config)
    finally:
        index.close()
    counts = {sp: len(rows) for sp, rows in groups.items()}
    manifest.drops.merge(DropLog.from_dict(index.manifest["drops"]))  # the pool's own skips
    for path, _ in pool_sources(vg, list(pools)):
        manifest.add_inputs(*source_files(path))
    manifest.configs[config] = config_info(comp)
    manifest.summary[config] = {
        "pool": {**info, "sources": describe_pool(vg, list(pools))},
        "groups_per_split": counts,
        f"{source}_negatives_per_split": negatives,
        "share_per_split": {
            sp: round(counts[sp] / n, 4) if n else 0.0 for sp, n in negatives.items()
        },
        "by_source": {k[7:]: v for k, v in sorted(stats.items()) if k.startswith("groups_")},
        "unmatched": {k[10:]: v for k, v in sorted(stats.items()) if k.startswith("unmatched:")},
        "unmatched_per_split": unmatched,
    }
    manifest.validation[f"{config}_checks"] = report.to_dict()
    kind = "HN-COMP" if comp else "HN-ATOM"
    manifest.card.how_built += " " + card_text.format(yields=yields_text(counts, negatives, kind))
    return features()

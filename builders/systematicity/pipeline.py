"""One batch of parsed images → rows of crepe-systematicity (split, negatives, rows).

:class:`GraphLookup` gives each image's full Visual Genome scene graph (read in step with the
region file); :func:`process_batch` classifies every kept text, makes and ranks the negatives of
the one-compound SC / UC captions, and appends the rows to the spooled tables.
"""

from __future__ import annotations

import itertools
from collections import Counter, OrderedDict
from collections.abc import Iterator
from functools import partial
from typing import Any

from crepe_datasets.builders.systematicity.negatives import (
    SET_SIZES,
    Pending,
    batch_vocab,
    candidates_for,
    choose,
    matched_for,
)
from crepe_datasets.builders.systematicity.rows import base_row, hn_row, matched_row
from crepe_datasets.builders.systematicity.split import HN_SPLITS, admits, classify
from crepe_datasets.builders.systematicity.texts import ImageTexts, keep_regions
from crepe_datasets.generators.negatives.foil_balance import text_atoms
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.joint_balance import graph_features
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, SceneGraph


class GraphLookup:
    """The full VG scene graph of each image, read in step with the region file.

    Visual Genome lists images in the same order in both files, so graphs are read forward
    until the requested image; the graphs passed over (images without a one-compound caption)
    wait in a buffer of at most ``max_buffer`` graphs (oldest dropped first), so memory stays
    bounded. An image whose graph is not found gets ``None`` (the caller counts it).
    """

    def __init__(
        self, graphs: Iterator[SceneGraph], max_buffer: int = 2_000, drops: DropLog | None = None
    ) -> None:
        from crepe_datasets.builders.productivity.build import prepare_graph

        self._graphs, self._prepare = graphs, prepare_graph
        self._buffer: OrderedDict[str, SceneGraph] = OrderedDict()
        self._max = max_buffer
        self._drops = drops if drops is not None else DropLog()

    def get(self, image_id: str) -> SceneGraph | None:
        """The prepared graph of ``image_id`` (object names lemmatised), or ``None``."""
        if image_id in self._buffer:
            return self._prepare(self._buffer.pop(image_id), self._drops)
        for g in self._graphs:
            if str(g.image_id) == image_id:
                return self._prepare(g, self._drops)
            self._buffer[str(g.image_id)] = g
            if len(self._buffer) > self._max:
                self._buffer.popitem(last=False)
        return None


def batches(it: Iterator[Any], size: int) -> Iterator[list[Any]]:
    """Lists of up to ``size`` items of ``it``."""
    while batch := list(itertools.islice(it, size)):
        yield batch


def process_batch(
    batch: list[ImageTexts], ctx: dict[str, Any], tables: dict, stats: Counter, drops: DropLog
) -> None:
    """Classify, make negatives for and append the rows of a batch of parsed images."""
    pending: list[tuple[Pending, dict[str, Any]]] = []
    todo: list[tuple[Pending, Any, GraphIndex, Any]] = []  # (pending, region, full graph, class)
    matched: dict[int, Any] = {}
    for image in batch:
        stats["images"] += 1
        stats["regions_parsed"] += len(image.regions)
        full = None
        for region in keep_regions(image, drops):
            c = classify(region.graph, ctx["seen"])  # type: ignore[arg-type]
            row = base_row(image.image_id, image.image_file, region, c)
            tables["raw"][c.split].append(row)
            if c.split not in HN_SPLITS or row["n_compounds"] != 1:
                continue
            if full is None:
                graph = ctx["graphs"].get(image.image_id)
                full = GraphIndex(graph) if graph is not None else False
            if full is False:
                drops.drop("systematicity_configs", "no_scene_graph_for_image", image.image_id)
                continue
            stats[f"one_compound_{c.split}"] += 1
            key = f"{ctx['seed']}:{image.image_id}:{region.region_id}"
            p = Pending(key, region.text, image.captions, c.split)
            p.image_id, p.graph = str(image.image_id), region.graph  # type: ignore[assignment]
            p.atoms = text_atoms(region.text, region.graph)  # type: ignore[arg-type]
            p.features = graph_features(region.graph)  # type: ignore[arg-type]
            todo.append((p, region, full, c))
            pending.append((p, row))
    # the batch's positives are known: the words and pairs of a split's are its foils to prefer
    vocab = {split: batch_vocab([p for p, *_ in todo if p.split == split]) for split in HN_SPLITS}
    for p, region, full, c in todo:
        p.candidates = candidates_for(
            region.text, region.graph, full, p.key, drops, vocab=vocab[p.split],
            one_atom=ctx.get("one_atom", False),
            stated=partial(ctx["attested"].states, besides=p.image_id) if "attested" in ctx else None,
            region=Box.from_list(region.box),
        )  # fmt: skip
        admit = admits(ctx["seen"], c.split)
        found = matched_for(p, region.graph, full, admit, drops, Box.from_list(region.box))
        if found is not None:
            matched[id(p)] = found
    choose(
        [p for p, _ in pending],
        ctx["ranker"],
        drops,
        ctx["entailed"],
        refiner=ctx.get("refiner"),
        one_atom=ctx.get("one_atom", False),
        attested=ctx.get("attested"),
    )
    for p, row in pending:
        for kind, chosen in p.chosen.items():
            if len(chosen) != SET_SIZES[kind]:
                continue
            if kind == "comp_matched":
                found = matched[id(p)]
                c = classify(found.graph, ctx["seen"])
                if c.split != row["split"]:  # not expected: the second compound is admitted
                    drops.drop("systematicity_configs", "hn_comp_matched_split_changed", p.key)
                    continue
                tables["hn_comp_matched"][row["split"]].append(matched_row(row, found, c, chosen))
            else:
                tables[f"hn_{kind}"][row["split"]].append(hn_row(row, chosen))

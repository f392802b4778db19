"""The steps of a crepe-productivity build (:func:`crepe_datasets.builders.productivity.build.build_productivity`).

:func:`read_inputs` reads the Visual Genome files, :func:`open_tables` makes the spooled
tables, :func:`run_chunks` runs the engine over the chunks and merges their results into a
:class:`ChunkResults`, :func:`validate` runs the checks recorded in the manifest's
``validation``; the summary is :mod:`crepe_datasets.builders.productivity.summary`.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crepe_datasets.builders.engines.base import Engine, InProcessEngine
from crepe_datasets.builders.productivity.chunks import (
    chunk_path,
    chunk_rows,
    merge_drops,
    read_chunk,
    run_chunk,
)
from crepe_datasets.builders.productivity.rows import CONFIG_NAMES, features, split_name
from crepe_datasets.builders.productivity.sampler import MAX_N, MIN_N
from crepe_datasets.builders.productivity.spool import SpooledRows
from crepe_datasets.generators.balance.refine import RefineStats
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.vg.descriptions import FILES as DESCRIPTION_FILES
from crepe_datasets.scenegraph.vg.descriptions import ImageDescriptions
from crepe_datasets.scenegraph.vg.folder import vg_files
from crepe_datasets.scenegraph.vg.images import ImageInfo

if TYPE_CHECKING:
    from crepe_datasets.builders.productivity.build import ProductivitySettings

Tables = dict[str, dict[str, SpooledRows]]
"""Rows of every config and split (``tables[config][split]``)."""


@dataclass(frozen=True)
class VGInputs:
    """The Visual Genome inputs of a build.

    Attributes:
        graphs: ``scene_graphs.json``.
        image_data: ``image_data.json``.
        descriptions: the folder's region descriptions and questions that the negative checks
            read (:mod:`crepe_datasets.scenegraph.vg.descriptions`), those present.
        infos: every image of ``image_data.json``, by string id.
        drops: the build's drop log (already holding the drops of ``image_data.json``).
    """

    graphs: Path
    image_data: Path
    infos: dict[str, ImageInfo]
    drops: DropLog
    descriptions: tuple[Path, ...] = ()


@dataclass(frozen=True)
class ChunkResults:
    """The merged results of every chunk.

    Attributes:
        tables: rows of every config and split.
        generated: negatives the items hold, per split and negative type, after the checks,
            rendering and refinement (the summary's ``negatives_generated_per_type_per_n``).
        refine: statistics of the adversarial refinement.
        images: images read.
        drops: the build's drop log, with the drops of every chunk.
        engine: the engine's description (JSON), recorded under the manifest's models.
    """

    tables: Tables
    generated: dict[str, Counter]
    refine: RefineStats
    images: int
    drops: DropLog
    engine: str


def read_inputs(s: ProductivitySettings) -> VGInputs:
    """Find and read the Visual Genome files of ``s.vg`` and check the complexities.

    Args:
        s: inputs and settings.

    Returns:
        The files, the image data and a new drop log.

    Raises:
        CrepeInputError: a file is missing or the complexities are out of range.
    """
    from crepe_datasets.scenegraph.visual_genome import read_image_data

    graphs, image_data = vg_files(s.vg, "scene_graphs.json", "image_data.json")
    if not MIN_N <= s.min_n <= s.max_n <= MAX_N:
        raise CrepeInputError(f"complexities must satisfy {MIN_N} <= min_n <= max_n <= {MAX_N}.")
    drops = DropLog()
    texts = tuple(p for f in DESCRIPTION_FILES if (p := graphs.parent / f).is_file())
    return VGInputs(graphs, image_data, read_image_data(image_data, drops), drops, texts)


def open_tables(scratch: Path, min_n: int, max_n: int) -> Tables:
    """Empty spooled tables of every config, one split per complexity.

    Args:
        scratch: folder of the spools.
        min_n: smallest complexity.
        max_n: largest complexity.
    """
    schemas = features(False)
    return {
        c: {
            split_name(n): SpooledRows(scratch / c / split_name(n), schemas[c].arrow_schema)
            for n in range(min_n, max_n + 1)
        }
        for c in CONFIG_NAMES
    }


def _chunks(it: Iterator[Any], size: int) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for x in it:
        chunk.append(x)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _tasks(s: ProductivitySettings, inputs: VGInputs, chunk_dir: Path) -> Iterator[tuple]:
    """The engine's tasks: one per chunk of images, without its records when already done.

    A record is ``(graph dict, image file, descriptions)``, the descriptions as
    :meth:`~crepe_datasets.scenegraph.types.Description.to_list` lists."""
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs

    settings = asdict(s)
    stream = iter_scene_graphs(inputs.graphs, inputs.drops, inputs.infos)
    if s.limit is not None:
        stream = itertools.islice(stream, s.limit)
    texts = ImageDescriptions(inputs.graphs.parent, inputs.drops, inputs.infos)
    for index, chunk in enumerate(_chunks(stream, s.chunk_images)):
        said = [texts.take(g.image_id) for g in chunk]  # read in step, even for a done chunk
        if chunk_path(chunk_dir, index).exists():
            yield (settings, index, None, str(chunk_dir))
            continue
        records = []
        for g, descriptions in zip(chunk, said, strict=True):
            info = inputs.infos.get(str(g.image_id))
            records.append(
                (
                    g.to_dict(),
                    info.file_name if info else f"{g.image_id}.jpg",
                    [d.to_list() for d in descriptions],
                )
            )
        yield (settings, index, records, str(chunk_dir))


def run_chunks(
    s: ProductivitySettings,
    engine: Engine | None,
    inputs: VGInputs,
    tables: Tables,
    chunk_dir: Path,
) -> ChunkResults:
    """Run every chunk on the engine and merge the results in chunk order.

    Args:
        s: inputs and settings.
        engine: runs the chunks (default in-process).
        inputs: the Visual Genome inputs; their drop log receives every chunk's drops.
        tables: the spooled tables the rows are appended to.
        chunk_dir: folder of finished chunks (a resumed build reuses them).

    Returns:
        The merged results.
    """
    from tqdm import tqdm

    generated: dict[str, Counter] = defaultdict(Counter)
    refine = RefineStats()
    images = 0
    bar = tqdm(desc="productivity", unit="image", disable=not s.progress)
    with contextlib.nullcontext(engine) if engine else InProcessEngine() as eng:
        description = json.dumps(eng.describe(), sort_keys=True)
        for path in eng.imap(run_chunk, _tasks(s, inputs, chunk_dir)):
            result = read_chunk(path)
            merge_drops(inputs.drops, result)
            for config, split, row in chunk_rows(result):
                tables[config][split].append(row)
            for split, counts in result["generated"].items():
                generated[split].update(counts)
            refine.merge_dict(result["refine"])
            images += result["images"]
            bar.update(result["images"])
    bar.close()
    return ChunkResults(tables, generated, refine, images, inputs.drops, description)


def validate(tables: Tables) -> dict[str, Any]:
    """Run the checks recorded in the manifest's ``validation``.

    Args:
        tables: rows of every config and split.

    Returns:
        ``invariants`` (every config), ``shortcuts``, ``blind_baselines`` and
        ``trained_blind`` (the configs with negatives), each as a dict.
    """
    from crepe_datasets.generators.balance.blind import blind_audit
    from crepe_datasets.generators.balance.shortcuts import audit_rows
    from crepe_datasets.validation.invariants import check_rows
    from crepe_datasets.validation.trained_blind import trained_audit

    with_negatives = {c: t for c, t in tables.items() if c != "raw"}
    return {
        "invariants": check_rows(tables).to_dict(),
        "shortcuts": audit_rows(with_negatives).to_dict(),
        "blind_baselines": blind_audit(with_negatives).to_dict(),
        "trained_blind": trained_audit(with_negatives).to_dict(),
    }

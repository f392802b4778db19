"""Evaluation texts of crepe-systematicity (SPEC §2.2–2.3): VG region descriptions, filtered and parsed.

Per image of ``region_descriptions.json`` (streamed; one image's regions in memory at a time):

1. every description, lower-cased and trimmed (:func:`~crepe_datasets.scenegraph.types.normalize_name`),
   joins the image's *caption set* (a negative must differ from all of them);
2. the region must pass the region filter (≥ 40,000 px, ≥ 10% of the image, aspect 0.5–2.0);
3. the description is spelling-corrected (:mod:`.spelling`);
4. descriptions are parsed in chunks of about ``chunk_texts`` texts through an engine
   (:mod:`crepe_datasets.builders.engines`: in-process, a local pool, or Dask), the same
   engines and the same parser as ``crepe parse-corpus``;
5. a text is kept when its graph has ≥ 2 atoms and ≥ 1 compound, and when no earlier kept
   text *of the same image* has the same graph (:meth:`SceneGraph.signature`). Deduplication
   is per image: the same graph on two images is two image–text pairs (the paper leaves this open).

Drops (stage ``systematicity_texts``): ``image_not_in_image_data``, the region filter's reasons,
``empty_description``, ``fewer_than_2_atoms``, ``no_compound``, ``duplicate_graph_in_image``.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from crepe_datasets.builders.engines.base import Engine
from crepe_datasets.builders.region_filter import RegionFilter
from crepe_datasets.builders.systematicity.spelling import SpellingCorrector
from crepe_datasets.generators.negatives import compact_json, from_compact
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import SceneGraph, normalize_name
from crepe_datasets.scenegraph.vg.images import ImageInfo
from crepe_datasets.scenegraph.vg.regions import Region

STAGE = "systematicity_texts"
DEFAULT_CHUNK_TEXTS = 2_000


@dataclass
class RegionText:
    """One kept region: its description before and after spelling correction."""

    region_id: int
    box: list[float]
    original: str
    text: str
    graph: SceneGraph | None = None


@dataclass
class ImageTexts:
    """The regions of one image that passed the filter, and every description of the image."""

    image_id: str
    image_file: str
    captions: set[str] = field(default_factory=set)
    regions: list[RegionText] = field(default_factory=list)


def image_texts(
    regions: Iterable[Region],
    infos: dict[str, ImageInfo],
    corrector: SpellingCorrector,
    drops: DropLog,
    region_filter: RegionFilter | None = None,
) -> Iterator[ImageTexts]:
    """Group consecutive regions by image; filter and spelling-correct them (steps 1–3)."""
    rf = region_filter or RegionFilter()
    for image_id, group in itertools.groupby(regions, key=lambda r: r.image_id):
        info = infos.get(image_id)
        items = list(group)
        if info is None:
            drops.drop(STAGE, "image_not_in_image_data", f"image {image_id}", n=len(items))
            continue
        out = ImageTexts(image_id, info.file_name)
        for r in items:
            text = normalize_name(r.phrase)
            if not text:
                drops.drop(STAGE, "empty_description", f"region {r.region_id}")
                continue
            out.captions.add(text)
            reason = rf.reason(r.box, info.width, info.height)
            if reason is not None:
                drops.drop(STAGE, reason, f"region {r.region_id}")
                continue
            fixed = corrector.correct(text)
            if fixed != text:
                drops.repair("systematicity_spelling", "description_corrected")
                out.captions.add(fixed)
            out.regions.append(RegionText(r.region_id, r.box.to_list(), text, fixed))
        yield out


def parse_texts(texts: list[str], model: str | None = None) -> list[str]:
    """Parse texts with this process's caption parser; compact JSON graphs (engine task)."""
    from crepe_datasets.builders.seen_tables import worker_parser

    return [compact_json(g) for g in worker_parser(model).iter_parse(texts)]


def parsed_images(
    images: Iterable[ImageTexts],
    engine: Engine,
    model: str | None = None,
    chunk_texts: int = DEFAULT_CHUNK_TEXTS,
) -> Iterator[ImageTexts]:
    """Step 4: attach a parsed graph to every region, chunk by chunk, images in input order."""
    pending: deque[list[ImageTexts]] = deque()

    def tasks() -> Iterator[tuple[list[str], str | None]]:
        chunk: list[ImageTexts] = []
        size = 0
        for image in images:
            chunk.append(image)
            size += len(image.regions)
            if size >= chunk_texts:
                pending.append(chunk)
                yield [r.text for im in chunk for r in im.regions], model
                chunk, size = [], 0
        if chunk:
            pending.append(chunk)
            yield [r.text for im in chunk for r in im.regions], model

    for graphs in engine.imap(parse_texts, tasks()):
        chunk = pending.popleft()
        it = iter(graphs)
        for image in chunk:
            for region in image.regions:
                region.graph = from_compact(next(it))
            yield image


def keep_regions(image: ImageTexts, drops: DropLog) -> list[RegionText]:
    """Step 5: regions whose graph has ≥ 2 atoms and ≥ 1 compound, one per graph and image."""
    kept, seen = [], set()
    for region in image.regions:
        g = region.graph
        assert g is not None
        where = f"image {image.image_id} region {region.region_id}: {region.text}"
        if g.complexity() < 2:
            drops.drop(STAGE, "fewer_than_2_atoms", where)
        elif not g.compounds():
            drops.drop(STAGE, "no_compound", where)
        elif g.signature() in seen:
            drops.drop(STAGE, "duplicate_graph_in_image", where)
        else:
            seen.add(g.signature())
            kept.append(region)
    return kept

"""Build crepe-systematicity (SPEC §2) for one training corpus.

Steps: (1) the seen tables (:mod:`.seen_source`); (2) the region texts of Visual Genome,
streamed, filtered, spelling-corrected and parsed through an engine (:mod:`.texts`);
(3) each kept text classified SC / UC / UA (:mod:`.split`); (4) HN-ATOM and HN-COMP for the
one-compound captions of SC and UC, checked against the image's full VG scene graph and ranked
by plausibility (:mod:`.negatives`); (5) rows spooled to disk (:mod:`.rows`), validated, and
written with the manifest and card. The parser's FACTUAL precision and recall go into the
card (:mod:`.parser_quality`).
"""

from __future__ import annotations

import itertools
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.builders.systematicity import card as card_text
from crepe_datasets.builders.systematicity.negatives import Pending, candidates_for, choose
from crepe_datasets.builders.systematicity.rows import CONFIG_SPLITS, base_row, features, hn_row
from crepe_datasets.builders.systematicity.split import HN_SPLITS, SPLITS, classify
from crepe_datasets.builders.systematicity.texts import (
    DEFAULT_CHUNK_TEXTS,
    ImageTexts,
    keep_regions,
)
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.scenegraph.errors import CrepeInputError
from crepe_datasets.scenegraph.provenance import DropLog
from crepe_datasets.scenegraph.types import SceneGraph
from crepe_datasets.scenegraph.version import __version__

VG_FILES = ("region_descriptions.json", "image_data.json", "scene_graphs.json")
BATCH_IMAGES = 64


@dataclass
class SystematicitySettings:
    """Inputs and settings of one build (serialised into the manifest's parameters)."""

    vg: str
    out: str
    seen: str | None = None
    training: str | None = None
    images: str | None = None
    nli: str | None = None
    mlm: str | None = None
    min_count: int = 1
    factual: str | None = None
    engine: str = "local"
    workers: int = 1
    scheduler: str | None = None
    chunk_texts: int = DEFAULT_CHUNK_TEXTS
    limit: int | None = None
    cache_dir: str | None = None
    spacy_model: str | None = None
    seed: int = 0
    version: str = __version__
    progress: bool = True


class GraphLookup:
    """The full VG scene graph of each image, read in step with the region file.

    Both files list images in the same order in Visual Genome, so the look-ahead buffer stays
    at one image; an image missing from ``scene_graphs.json`` makes the reader run to the end once.
    """

    def __init__(self, graphs: Iterator[SceneGraph]) -> None:
        from crepe_datasets.builders.productivity.build import prepare_graph

        self._graphs, self._prepare = graphs, prepare_graph
        self._buffer: dict[str, SceneGraph] = {}
        self._drops = DropLog()

    def get(self, image_id: str) -> SceneGraph | None:
        if image_id in self._buffer:
            return self._buffer.pop(image_id)
        for g in self._graphs:
            if str(g.image_id) == image_id:
                return self._prepare(g, self._drops)
            self._buffer[str(g.image_id)] = self._prepare(g, self._drops)
        return None


def _check_inputs(s: SystematicitySettings) -> list[Path]:
    folder = Path(s.vg)
    paths = [folder / name for name in VG_FILES]
    for p in paths:
        if not p.is_file():
            raise CrepeInputError(f"--vg {folder} has no {p.name}; give the Visual Genome folder.")
    if bool(s.seen) == bool(s.training):
        raise CrepeInputError("give exactly one of --seen FOLDER or --training KIND:PATH.")
    if s.chunk_texts < 1:
        raise CrepeInputError(f"--chunk-texts must be at least 1, got {s.chunk_texts}.")
    return paths


def _ranker(s: SystematicitySettings) -> Any:
    if s.mlm:
        from crepe_datasets.generators.filters.plausibility import PlausibilityRanker

        return PlausibilityRanker(s.mlm)
    from crepe_datasets.generators.filters.frequency_lm import FrequencyLMRanker

    return FrequencyLMRanker()


def _batches(it: Iterator[Any], size: int) -> Iterator[list[Any]]:
    while batch := list(itertools.islice(it, size)):
        yield batch


def _process(
    batch: list[ImageTexts], ctx: dict[str, Any], tables: dict, stats: Counter, drops: DropLog
) -> None:
    """Classify, make negatives for and append the rows of a batch of parsed images."""
    pending: list[tuple[Pending, dict[str, Any]]] = []
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
                full = ctx["graphs"].get(image.image_id) or False
            if full is False:
                drops.drop("systematicity_configs", "no_scene_graph_for_image", image.image_id)
                continue
            stats[f"one_compound_{c.split}"] += 1
            key = f"{ctx['seed']}:{image.image_id}:{region.region_id}"
            p = Pending(key, region.text, image.captions)
            p.candidates = candidates_for(region.text, region.graph, GraphIndex(full), key, drops)  # type: ignore[arg-type]
            pending.append((p, row))
    choose([p for p, _ in pending], ctx["ranker"], drops, ctx["entailed"])
    for p, row in pending:
        for kind, chosen in p.chosen.items():
            if len(chosen) == {"atom": 4, "comp": 6}[kind]:
                tables[f"hn_{kind}"][row["split"]].append(hn_row(row, chosen))


def build_systematicity(s: SystematicitySettings) -> tuple[Path, BuildManifest]:
    """Build the dataset folder; return it and its manifest."""
    from tqdm import tqdm

    from crepe_datasets.builders.engines import make_engine
    from crepe_datasets.builders.images import ImageCropper
    from crepe_datasets.builders.productivity.spool import SpooledRows
    from crepe_datasets.builders.systematicity.parser_quality import parser_quality
    from crepe_datasets.builders.systematicity.seen_source import resolve_seen
    from crepe_datasets.builders.systematicity.spelling import SpellingCorrector, vg_vocabulary
    from crepe_datasets.builders.systematicity.texts import image_texts, parsed_images
    from crepe_datasets.builders.writer import write_dataset
    from crepe_datasets.scenegraph.visual_genome import (
        iter_regions,
        iter_scene_graphs,
        read_image_data,
    )

    regions_path, image_data_path, graphs_path = _check_inputs(s)
    drops = DropLog()
    infos = read_image_data(image_data_path, drops)
    ranker = _ranker(s)
    entailed, models = None, {"parser": "", "plausibility": ranker.describe()["model"]}
    if s.nli:
        from crepe_datasets.generators.filters.entailment import EntailmentFilter

        entailed, models["nli"] = EntailmentFilter(s.nli).entailed, s.nli
    vocabulary, vocab_files = vg_vocabulary(s.vg)
    corrector = SpellingCorrector(vocabulary)
    out_parent = Path(s.out).resolve().parent
    out_parent.mkdir(parents=True, exist_ok=True)
    scratch = tempfile.TemporaryDirectory(prefix=".crepe-spool-", dir=out_parent)
    try:
        with make_engine(s.engine, s.workers, s.scheduler) as engine:
            seen, seen_info = resolve_seen(
                s.seen, s.training, engine, s.min_count, s.spacy_model, s.cache_dir, s.progress
            )
            schemas = features(False)
            tables = {
                c: {sp: SpooledRows(Path(scratch.name) / c / sp, schemas[c].arrow_schema)
                    for sp in splits}
                for c, splits in CONFIG_SPLITS.items()
            }  # fmt: skip
            ctx = {
                "seen": seen,
                "graphs": GraphLookup(iter_scene_graphs(graphs_path, DropLog(), infos)),
                "ranker": ranker,
                "entailed": entailed,
                "seed": s.seed,
            }
            stats: Counter = Counter()
            images = image_texts(iter_regions(regions_path, drops, infos), infos, corrector, drops)
            if s.limit is not None:
                images = itertools.islice(images, s.limit)
            bar = tqdm(desc="systematicity", unit=" images", disable=not s.progress)
            for batch in _batches(parsed_images(images, engine, s.spacy_model, s.chunk_texts), BATCH_IMAGES):
                _process(batch, ctx, tables, stats, drops)
                bar.update(len(batch))
            bar.close()
        quality = parser_quality(s.factual, s.spacy_model)
        models["parser"] = quality["parser"]
        manifest = BuildManifest(
            dataset="crepe-systematicity",
            version=s.version,
            builder="crepe_datasets.builders.systematicity",
            card=card_text.card_info(s, seen.describe(), quality),
            configs=card_text.config_infos(),
            parameters={k: v for k, v in asdict(s).items() if k != "progress"},
            seed=s.seed,
            models=models,
        )
        manifest.add_inputs(regions_path, image_data_path, graphs_path, *vocab_files)
        manifest.drops.merge(drops)
        manifest.summary = card_text.summary(tables, stats, seen.describe(), seen_info, ranker)
        manifest.validation = card_text.validation(tables, seen, quality)
        cropper = ImageCropper(s.images, manifest.drops) if s.images else None
        out = write_dataset(
            s.out, tables, manifest, features=features(cropper is not None), images=cropper
        )
    finally:
        scratch.cleanup()
    return out, manifest


__all__ = ["SPLITS", "SystematicitySettings", "build_systematicity"]

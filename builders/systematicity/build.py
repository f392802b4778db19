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
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.builders.systematicity import card as card_text
from crepe_datasets.builders.systematicity.negatives import Refiner
from crepe_datasets.builders.systematicity.pipeline import GraphLookup, batches, process_batch
from crepe_datasets.builders.systematicity.rows import CONFIG_SPLITS, features
from crepe_datasets.builders.systematicity.texts import DEFAULT_CHUNK_TEXTS
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.generators.balance.corpus_lm import corpus_lm
from crepe_datasets.generators.negatives.foil_balance import DEFAULT_CAP, SYSTEMATICITY_RATE
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog, InputFile
from crepe_datasets.infra.version import __version__
from crepe_datasets.scenegraph.seen import SPLITS

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
    foil_cap: int | None = DEFAULT_CAP
    foil_rate: float = SYSTEMATICITY_RATE
    one_atom_sets: bool = False
    version: str = __version__
    progress: bool = True
    allow_failed_checks: bool = False
    counter_pool: tuple[str, ...] = ()  # extra pool sources: the ``groups`` config (counter_images)


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
    from crepe_datasets.generators.balance.frequency_lm import FrequencyLMRanker

    return FrequencyLMRanker()


def build_systematicity(s: SystematicitySettings) -> tuple[Path, BuildManifest]:
    """Build the dataset folder; return it and its manifest."""
    from tqdm import tqdm

    from crepe_datasets.builders.engines import make_engine
    from crepe_datasets.builders.productivity.spool import SpooledRows
    from crepe_datasets.builders.systematicity.parser_quality import parser_quality
    from crepe_datasets.builders.systematicity.seen_source import resolve_seen
    from crepe_datasets.builders.systematicity.spelling import SpellingCorrector, vg_vocabulary
    from crepe_datasets.builders.systematicity.texts import image_texts, parsed_images
    from crepe_datasets.builders.writer import write_dataset
    from crepe_datasets.scenegraph.crops import ImageCropper
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
                "graphs": GraphLookup(iter_scene_graphs(graphs_path, drops, infos), drops=drops),
                "ranker": ranker,
                "entailed": entailed,
                "seed": s.seed,
                "one_atom": s.one_atom_sets,
                "refiner": Refiner(
                    corpus_lm=corpus_lm(s.training, Path(scratch.name)),
                    foil_cap=s.foil_cap,
                    foil_rate=s.foil_rate,
                ),
            }
            stats: Counter = Counter()
            images = image_texts(iter_regions(regions_path, drops, infos), infos, corrector, drops)
            if s.limit is not None:
                images = itertools.islice(images, s.limit)
            bar = tqdm(desc="systematicity", unit=" images", disable=not s.progress)
            for batch in batches(
                parsed_images(images, engine, s.spacy_model, s.chunk_texts), BATCH_IMAGES
            ):
                process_batch(batch, ctx, tables, stats, drops)
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
        # the training corpus files, as parse-corpus described them (size and SHA-256)
        manifest.inputs += [InputFile(**f) for f in seen.manifest.get("inputs") or []]
        manifest.drops.merge(drops)
        manifest.summary = card_text.summary(tables, stats, seen.describe(), seen_info, ranker)
        manifest.summary["adversarial_refinement"] = ctx["refiner"].stats.to_dict()
        manifest.validation = card_text.validation(tables, seen, quality)
        cropper = ImageCropper(s.images, manifest.drops) if s.images else None
        schemas = features(cropper is not None)
        if s.counter_pool:
            from crepe_datasets.builders.counter_images.systematicity import add_groups

            for config, comp in (("groups", False), ("groups_comp", True)):
                schemas[config] = add_groups(
                    s.vg,
                    s.counter_pool,
                    tables,
                    infos,
                    manifest,
                    Path(scratch.name),
                    s.seed,
                    s.cache_dir,
                    comp,
                )
        out = write_dataset(
            s.out,
            tables,
            manifest,
            features=schemas,
            images=cropper,
            allow_failed_checks=s.allow_failed_checks,
        )
    finally:
        scratch.cleanup()
    return out, manifest


__all__ = ["SPLITS", "SystematicitySettings", "build_systematicity"]

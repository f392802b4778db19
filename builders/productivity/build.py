"""Build crepe-productivity (SPEC §3) from Visual Genome scene graphs.

Pipeline per chunk of images (streamed; each chunk is one task of an engine — in-process, a
local pool or Dask — and is kept on disk until the dataset is written, so an interrupted build
resumes: :mod:`crepe_datasets.builders.productivity.chunks`):

1. read ``scene_graphs.json`` (+ ``image_data.json`` for sizes and file names), clean the text
   (:mod:`crepe_datasets.builders.productivity.clean`: names lemmatised, function-word and verb
   attributes dropped, predicates inflected, self-loops and repeated triples dropped);
2. sample walks for n = 4..12, filter and deduplicate their regions, generate negative
   candidates (:mod:`crepe_datasets.builders.productivity.items`);
3. write captions: the template for n = 4 and, without ``--llm``, for every n; with ``--llm``
   an LLM for n ≥ 5. Negatives are written by the same writer as their positive;
4. drop negatives equal to another caption of the image, and (unless ``--no-nli``) negatives
   the caption entails; choose the negatives of each set so that text-only scorers are
   balanced (:mod:`crepe_datasets.generators.balance.refine`);
5. rows into the configs of :mod:`crepe_datasets.builders.productivity.rows`; after the last chunk, the
   validators run and the dataset folder is written with its manifest and card; with
   ``--counter-pool``, the ``groups`` config first (:mod:`crepe_datasets.builders.counter_images.productivity`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.builders.engines.base import Engine
from crepe_datasets.builders.productivity.chunks import CHUNK_FORMAT, worker_state
from crepe_datasets.builders.productivity.clean import clean_graph
from crepe_datasets.builders.productivity.rows import config_infos, features
from crepe_datasets.builders.productivity.sampler import DEFAULT_WALKS, MAX_N, MIN_N
from crepe_datasets.builders.productivity.steps import (
    Tables,
    VGInputs,
    open_tables,
    read_inputs,
    run_chunks,
    validate,
)
from crepe_datasets.builders.productivity.summary import summarize
from crepe_datasets.cards import citations
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo
from crepe_datasets.generators.negatives.foil_balance import DEFAULT_CAP, DEFAULT_RATE
from crepe_datasets.infra.leftovers import SPOOL_PREFIX, clean_stale, owner_tag
from crepe_datasets.infra.provenance import DropLog, cache_root, describe_input, write_json_atomic
from crepe_datasets.infra.version import __version__
from crepe_datasets.scenegraph.types import SceneGraph


@dataclass
class ProductivitySettings:
    """Inputs and settings of one build (serialised into the manifest's parameters)."""

    vg: str
    out: str
    seed: int = 0
    images: str | None = None
    llm: str | None = None
    llm_base_url: str | None = None
    llm_cache: str | None = None
    nli: str | None = None
    mlm: str | None = None
    lm_corpus: str | None = None
    refine: bool = True
    walks: int = DEFAULT_WALKS
    negatives_per_type: int = 5
    min_negatives: int = 5
    spare_negatives: int = 7
    foil_cap: int | None = DEFAULT_CAP
    foil_rate: float = DEFAULT_RATE
    one_atom_sets: bool = False
    min_n: int = MIN_N
    max_n: int = MAX_N
    limit: int | None = None
    chunk_images: int = 64
    version: str = __version__
    progress: bool = True
    allow_failed_checks: bool = False
    counter_pool: tuple[str, ...] = ()  # extra pool sources: the ``groups`` config (counter_images)
    cache_dir: str | None = None  # cache of the counter pool's index (default $CREPE_CACHE)


def prepare_graph(g: SceneGraph, drops: DropLog) -> SceneGraph:
    """Clean text (:func:`crepe_datasets.builders.productivity.clean.clean_graph`): object names
    lemmatised and cleaned, attributes and predicates cleaned, self-loops and repeated triples
    removed; every change counted under stage ``productivity_clean``."""
    return clean_graph(g, drops)


def _chunk_folder(s: ProductivitySettings, *inputs: Path) -> Path:
    """The run's folder of finished chunks (``$CREPE_CACHE/productivity-chunks/<hash of --out>``,
    nothing beside the user's output); chunks of other inputs or settings are removed, so a
    resumed build never mixes runs."""
    out = str(Path(s.out).resolve())
    folder = cache_root("productivity-chunks") / hashlib.sha256(out.encode()).hexdigest()[:16]
    # settings that do not change a chunk
    unused = ("progress", "out", "allow_failed_checks", "counter_pool", "cache_dir")
    key = {
        "chunk_format": CHUNK_FORMAT,
        "inputs": [describe_input(p).to_dict() for p in inputs],
        "settings": {k: v for k, v in asdict(s).items() if k not in unused},
    }
    run = folder / "run.json"
    if run.exists() and json.loads(run.read_text(encoding="utf-8")) != key:
        shutil.rmtree(folder)
    if not run.exists():
        write_json_atomic(run, key)
    return folder


def _card(s: ProductivitySettings, llm: bool) -> CardInfo:
    captions = (
        f"Captions: template for n = 4 and LLM `{s.llm}` for n ≥ 5 (generations omitting an atom are rejected)."
        if llm
        else "Captions: **template captions** for every complexity (no LLM was used)."
    )
    nli = (
        f"Negatives entailed by their caption were removed with the NLI model `{s.nli}`."
        if s.nli
        else ("No NLI entailment filter was applied (`--no-nli`).")
    )
    return CardInfo(
        pretty_name="CREPE productivity",
        summary="Image regions of Visual Genome described by captions of complexity n = 4..12 "
        "(random-walk subgraphs), each with HN-ATOM, HN-SWAP and HN-NEG hard negatives. "
        + ("LLM and template captions." if llm else "Template captions."),
        source_datasets=("Visual Genome",),
        limitations=(
            "Visual Genome annotations are incomplete: a negative may be true of the image when the "
            "truth is not annotated (checks against the full image graph, its objects' other "
            "names and, where the folder has them, its region descriptions and questions cannot "
            "see it).",
            "HN-ATOM foils are WordNet antonyms and co-hyponyms ordered by plausibility in context "
            + (
                f"(masked LM `{s.mlm}`)"
                if s.mlm
                else "(word frequency + a word-bigram LM of COCO captions, no masked LM)"
            )
            + "; negatives are chosen so that these text-only scorers, and how often other images' "
            "annotations state each text's word pairs, prefer the positive no more often than "
            "chance (see the blind-baseline audit below).",
            "Template captions are plain, list-like English; they test the atoms, not the style.",
        ),
        citations=(citations.CREPE,),
        how_built=f"Random walks over each image's scene graph (seed {s.seed}, {s.walks} walks per image and n), "
        "region filter (≥ 40,000 px, ≥ 10% of the image, aspect 0.5–2.0), patches overlapping with IoU ≥ 0.75 "
        f"deduplicated. {captions} {nli} Negatives are written from modified subgraphs by the same writer "
        "as their caption, with the caption's formatting.",
    )


def build_productivity(
    s: ProductivitySettings, engine: Engine | None = None
) -> tuple[Path, BuildManifest]:
    """Build the dataset folder; return it and its manifest.

    The steps: :func:`~crepe_datasets.builders.productivity.steps.read_inputs`,
    :func:`~crepe_datasets.builders.productivity.steps.run_chunks` over spooled tables,
    :func:`~crepe_datasets.builders.productivity.summary.summarize`,
    :func:`~crepe_datasets.builders.productivity.steps.validate` and :func:`_write`.

    Args:
        s: inputs and settings.
        engine: runs the chunks (:mod:`crepe_datasets.builders.engines`; default in-process).
            The dataset does not depend on the engine or its number of workers.
    """
    inputs = read_inputs(s)
    state = worker_state(s)  # fails early on a bad --llm/--nli/--mlm; reused in-process
    writers, models = state["writers"], dict(state["models"])
    scratch = _scratch(s)
    chunk_dir = _chunk_folder(s, inputs.graphs, inputs.image_data, *inputs.descriptions)
    results = run_chunks(
        s, engine, inputs, open_tables(Path(scratch.name), s.min_n, s.max_n), chunk_dir
    )
    models["engine"] = results.engine
    manifest = _manifest(s, inputs, "llm" in writers, models)
    manifest.summary = summarize(s, results, writers).to_dict()
    manifest.validation = validate(results.tables)
    out = _write(s, results.tables, inputs, manifest, scratch)
    _forget_chunks(chunk_dir)
    return out, manifest


def _forget_chunks(chunk_dir: Path) -> None:
    """Remove the finished chunks once the dataset is written: nothing is left to resume."""
    shutil.rmtree(chunk_dir, ignore_errors=True)
    with contextlib.suppress(OSError):  # and no empty cache folder
        chunk_dir.parent.rmdir()


def _scratch(s: ProductivitySettings) -> tempfile.TemporaryDirectory:
    """The build's spool folder beside ``s.out`` (spools of killed builds are removed first)."""
    out_parent = Path(s.out).resolve().parent
    out_parent.mkdir(parents=True, exist_ok=True)
    clean_stale(out_parent)  # spools of killed builds
    return tempfile.TemporaryDirectory(prefix=SPOOL_PREFIX + owner_tag() + "-", dir=out_parent)


def _manifest(
    s: ProductivitySettings, inputs: VGInputs, llm: bool, models: dict[str, Any]
) -> BuildManifest:
    """The manifest before its summary and validation: card, configs, parameters, inputs, drops."""
    manifest = BuildManifest(
        dataset="crepe-productivity",
        version=s.version,
        builder="crepe_datasets.builders.productivity",
        card=_card(s, llm),
        configs=config_infos(),
        parameters={k_: v for k_, v in asdict(s).items() if k_ not in ("progress",)},
        seed=s.seed,
        models=models,
    )
    manifest.add_inputs(inputs.graphs, inputs.image_data, *inputs.descriptions)
    manifest.drops.merge(inputs.drops)
    return manifest


def _write(
    s: ProductivitySettings,
    tables: Tables,
    inputs: VGInputs,
    manifest: BuildManifest,
    scratch: tempfile.TemporaryDirectory,
) -> Path:
    """Write the dataset folder (with ``--counter-pool``, the ``groups`` config first) and
    remove the spools."""
    from crepe_datasets.builders.writer import write_dataset
    from crepe_datasets.scenegraph.crops import ImageCropper

    cropper = ImageCropper(s.images, manifest.drops) if s.images else None
    schemas = features(cropper is not None)
    with scratch:
        if s.counter_pool:
            from crepe_datasets.builders.counter_images.productivity import add_groups

            schemas["groups"] = add_groups(
                s.vg, s.counter_pool, tables, inputs.infos, manifest, Path(scratch.name), s.seed,
                s.cache_dir,
            )  # fmt: skip
        return write_dataset(
            s.out,
            tables,
            manifest,
            features=schemas,
            images=cropper,
            allow_failed_checks=s.allow_failed_checks,
        )

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

import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.builders.systematicity import card as card_text
from crepe_datasets.builders.systematicity.rows import features
from crepe_datasets.builders.systematicity.steps import (
    ProcessedTables,
    SystematicityInputs,
    Tables,
    process_regions,
    read_inputs,
)
from crepe_datasets.builders.systematicity.summary import summarize
from crepe_datasets.builders.systematicity.texts import DEFAULT_CHUNK_TEXTS
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.generators.negatives.foil_balance import DEFAULT_CAP, SYSTEMATICITY_RATE
from crepe_datasets.infra.provenance import InputFile
from crepe_datasets.infra.version import __version__
from crepe_datasets.scenegraph.seen import SPLITS


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


def build_systematicity(s: SystematicitySettings) -> tuple[Path, BuildManifest]:
    """Build the dataset folder; return it and its manifest.

    The steps: :func:`~crepe_datasets.builders.systematicity.steps.read_inputs`,
    :func:`~crepe_datasets.builders.systematicity.steps.process_regions` into spooled tables,
    the parser's FACTUAL quality, :func:`_manifest`,
    :func:`~crepe_datasets.builders.systematicity.summary.summarize`, the validation and
    :func:`_write`.

    Args:
        s: inputs and settings.

    Raises:
        CrepeInputError: an input is missing or a setting is out of range.
    """
    from crepe_datasets.builders.systematicity.parser_quality import parser_quality

    inputs = read_inputs(s)
    scratch = _scratch(s)
    try:
        processed = process_regions(s, inputs, Path(scratch.name))
        quality = parser_quality(s.factual, s.spacy_model)
        manifest = _manifest(s, inputs, processed, quality)
        manifest.summary = summarize(processed, inputs.ranker).to_dict()
        manifest.validation = card_text.validation(processed.tables, processed.seen, quality)
        out = _write(s, inputs, processed.tables, manifest, Path(scratch.name))
    finally:
        scratch.cleanup()
    return out, manifest


def _scratch(s: SystematicitySettings) -> tempfile.TemporaryDirectory:
    """The build's spool folder beside ``s.out``."""
    out_parent = Path(s.out).resolve().parent
    out_parent.mkdir(parents=True, exist_ok=True)
    return tempfile.TemporaryDirectory(prefix=".crepe-spool-", dir=out_parent)


def _manifest(
    s: SystematicitySettings,
    inputs: SystematicityInputs,
    processed: ProcessedTables,
    quality: dict[str, Any],
) -> BuildManifest:
    """The manifest before its summary and validation: card, configs, parameters, models,
    inputs (Visual Genome, the spelling vocabulary and the training corpus) and drops."""
    manifest = BuildManifest(
        dataset="crepe-systematicity",
        version=s.version,
        builder="crepe_datasets.builders.systematicity",
        card=card_text.card_info(s, processed.seen.describe(), quality),
        configs=card_text.config_infos(),
        parameters={k: v for k, v in asdict(s).items() if k != "progress"},
        seed=s.seed,
        models=dict(inputs.models, parser=quality["parser"]),
    )
    manifest.add_inputs(inputs.regions, inputs.image_data, inputs.graphs, *inputs.vocab_files)
    # the training corpus files, as parse-corpus described them (size and SHA-256)
    manifest.inputs += [InputFile(**f) for f in processed.seen.manifest.get("inputs") or []]
    manifest.drops.merge(inputs.drops)
    return manifest


def _write(
    s: SystematicitySettings,
    inputs: SystematicityInputs,
    tables: Tables,
    manifest: BuildManifest,
    scratch: Path,
) -> Path:
    """Write the dataset folder (with ``--counter-pool``, the ``groups`` and ``groups_comp``
    configs first)."""
    from crepe_datasets.builders.writer import write_dataset
    from crepe_datasets.scenegraph.crops import ImageCropper

    cropper = ImageCropper(s.images, manifest.drops) if s.images else None
    schemas = features(cropper is not None)
    if s.counter_pool:
        from crepe_datasets.builders.counter_images.systematicity import add_groups

        for config, comp in (("groups", False), ("groups_comp", True)):
            schemas[config] = add_groups(
                s.vg, s.counter_pool, tables, inputs.infos, manifest, scratch, s.seed,
                s.cache_dir, comp,
            )  # fmt: skip
    return write_dataset(
        s.out,
        tables,
        manifest,
        features=schemas,
        images=cropper,
        allow_failed_checks=s.allow_failed_checks,
    )


__all__ = ["SPLITS", "SystematicitySettings", "build_systematicity"]

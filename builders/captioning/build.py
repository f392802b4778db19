"""Build crepe-captioning (SPEC §5): compositional splits of COCO captions.

Steps: (1) captions grouped by image (:mod:`.inputs`); (2) every caption parsed once into
length and bindings on an engine, cached by input checksum (:mod:`.concepts`); (3) per image,
the held-out pairs its captions bind, its average length, its synonym-group words and (with
``--instances``) its box count; (4) the split rules of :mod:`.splits`; (5) one row per image
and config through :func:`crepe_datasets.builders.writer.write_dataset`. Configs:
``systematicity``, ``productivity_length``, ``substitutivity`` and, with instances,
``productivity_density``. Every image is in exactly one split of each config.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.builders.captioning import rows as R
from crepe_datasets.builders.captioning import splits as S
from crepe_datasets.builders.captioning.images import WholeImages
from crepe_datasets.builders.captioning.steps import (
    CaptioningInputs,
    Splits,
    make_splits,
    parse_captions,
    read_inputs,
    summarize,
)
from crepe_datasets.builders.captioning.summary import PAPER_SIZES
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo
from crepe_datasets.infra.version import __version__
from crepe_datasets.validation.captioning import check_captioning

__all__ = ["PAPER_SIZES", "CaptioningSettings", "build_captioning"]

COMBINE_TO_DESCRIBE = """@inproceedings{pantazopoulos2022combine,
  title     = {Combine to Describe: Evaluating Compositional Generalization in Image Captioning},
  author    = {Pantazopoulos, Georgios and Suglia, Alessandro and Eshghi, Arash},
  booktitle = {Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics: Student Research Workshop},
  year      = {2022}
}"""
CITATION = """@inproceedings{nikolaus2019compositional,
  title     = {Compositional Generalization in Image Captioning},
  author    = {Nikolaus, Mitja and Abdou, Mostafa and Lamm, Matthew and Aralikatte, Rahul and Elliott, Desmond},
  booktitle = {Proceedings of the 23rd Conference on Computational Natural Language Learning (CoNLL)},
  year      = {2019}
}"""
CARD_TABLES = {
    "pairs": "systematicity",
    "length": "productivity_length",
    "density": "productivity_density",
}


@dataclass
class CaptioningSettings:
    """Inputs and settings of one build (serialised into the manifest's parameters)."""

    captions: list[str]
    out: str
    instances: list[str] = field(default_factory=list)
    images: str | None = None
    pairs: str | None = None
    synonyms: str | None = None
    seed: int = 0
    split_size: int | None = None
    engine: str = "local"
    workers: int = 1
    scheduler: str | None = None
    cache_dir: str | None = None
    spacy_model: str | None = None
    version: str = __version__
    progress: bool = True


def _card(s: CaptioningSettings, size: int, n: int, tables: dict[str, str]) -> CardInfo:
    how = (
        f"From {n:,} COCO images ({', '.join(s.captions)}), seed {s.seed}. Captions are parsed by the "
        "toolkit's caption parser (spaCy); a held-out pair is found on the parsed, lemmatised "
        "attribute–object and verb–subject bindings, never by substring. Held-out split size: "
        f"**{size:,} images** ({'given' if s.split_size else S.SIZE_RULE}); the paper uses 5,000 "
        f"beside {S.PAPER_TRAIN_IMAGES:,} training images. Length = mean number of spaCy tokens per "
        "caption (punctuation not counted).\n\n### Held-out pairs\n\n"
        + tables["pairs"]
        + "\n\n### Average caption length per image (productivity_length)\n\n"
        + tables["length"]
        + (
            "\n\n### Boxes per image (productivity_density)\n\n" + tables["density"]
            if tables.get("density")
            else ""
        )
    )
    return CardInfo(
        pretty_name="CREPE captioning",
        summary="Compositional splits of COCO captions for captioning models: held-out concept "
        "pairs (systematicity), long captions and dense images (productivity), synonyms "
        "(substitutivity).",
        task_categories=("image-to-text",),
        tags=("compositionality", "image-captioning", "benchmark"),
        source_datasets=("COCO",),
        limitations=(
            "Pairs are found by a rule-based parser: a missed binding leaves a held-out pair in train.",
            "test_no_comb images have no caption holding both constituents of their pair, and name "
            "the pair's noun when enough such images exist; others are drawn "
            "from the remaining pair-free images (counted per pair).",
            "Density counts every COCO instance annotation, crowd regions included.",
        ),
        citations=(COMBINE_TO_DESCRIBE, CITATION),
        how_built=how,
    )


def build_captioning(s: CaptioningSettings) -> tuple[Path, BuildManifest]:
    """Build the dataset folder; return it and its manifest.

    The steps: :func:`~crepe_datasets.builders.captioning.steps.read_inputs`,
    :func:`~crepe_datasets.builders.captioning.steps.parse_captions`,
    :func:`~crepe_datasets.builders.captioning.steps.make_splits`, :func:`_manifest`,
    :func:`~crepe_datasets.builders.captioning.steps.summarize`, the checks and :func:`_write`.

    Args:
        s: inputs and settings.

    Raises:
        CrepeInputError: no or bad captions file, bad pairs / synonyms / instances file.
    """
    inputs = read_inputs(s)
    parse = parse_captions(s, inputs)
    splits = make_splits(s, inputs)
    manifest = _manifest(s, inputs, parse, splits)
    manifest.summary = summarize(s, inputs, parse, splits).to_dict()
    tables = {name: r.rows for name, r in splits.results.items()}
    manifest.validation = {"invariants": check_captioning(tables, manifest.summary)}
    return _write(s, tables, manifest), manifest


def _manifest(
    s: CaptioningSettings, inputs: CaptioningInputs, parse: dict[str, Any], splits: Splits
) -> BuildManifest:
    """The manifest before its summary and validation: card, configs, parameters, inputs, drops."""
    results = splits.results
    card_tables = {k: results[c].card_table for k, c in CARD_TABLES.items() if c in results}
    manifest = BuildManifest(
        dataset="crepe-captioning",
        version=s.version,
        builder="crepe_datasets.builders.captioning",
        card=_card(s, splits.size, len(inputs.images), card_tables),
        configs=R.config_infos(list(results)),
        parameters={k: v for k, v in asdict(s).items() if k not in ("progress", "cache_dir")},
        seed=s.seed,
        models={"spacy": parse["spacy_model"], "caption_parser": parse["parser_version"]},
    )
    manifest.add_inputs(*inputs.paths, *[Path(p) for p in s.instances])
    manifest.add_inputs(*[Path(p) for p in (s.pairs, s.synonyms) if p])
    manifest.drops.merge(inputs.drops)
    return manifest


def _write(
    s: CaptioningSettings,
    tables: dict[str, dict[str, list[dict[str, Any]]]],
    manifest: BuildManifest,
) -> Path:
    """Write the dataset folder (with ``--images``, each image embedded as an ``image`` column)."""
    from crepe_datasets.builders.writer import write_dataset

    images_col = WholeImages(s.images, manifest.drops) if s.images else None
    features = {c: R.features(c, images_col is not None) for c in tables}
    return write_dataset(s.out, tables, manifest, features=features, images=images_col)

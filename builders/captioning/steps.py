"""The steps of a crepe-captioning build (:func:`crepe_datasets.builders.captioning.build.build_captioning`).

:func:`read_inputs` checks and reads the captions, pairs and synonym groups,
:func:`parse_captions` attaches every caption's facts (on an engine, cached),
:func:`make_splits` runs the split rule of every config and checks the partitions, and
:func:`summarize` gives the manifest's summary
(:class:`~crepe_datasets.builders.captioning.summary.CaptioningSummary`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crepe_datasets.builders.captioning import configs as C
from crepe_datasets.builders.captioning import splits as S
from crepe_datasets.builders.captioning.configs import ConfigResult
from crepe_datasets.builders.captioning.inputs import (
    CocoImage,
    attach_facts,
    coco_path,
    read_images,
)
from crepe_datasets.builders.captioning.instances import STAGE as DENSITY_STAGE
from crepe_datasets.builders.captioning.instances import read_box_counts
from crepe_datasets.builders.captioning.pairs import (
    ConceptPair,
    SynonymGroup,
    load_pairs,
    load_synonyms,
)
from crepe_datasets.builders.captioning.summary import PAPER_SIZES, CaptioningSummary
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog

if TYPE_CHECKING:
    from crepe_datasets.builders.captioning.build import CaptioningSettings


@dataclass(frozen=True)
class CaptioningInputs:
    """The inputs of a build.

    Attributes:
        paths: the COCO captions files.
        pairs: the held-out pairs.
        groups: the synonym groups.
        images: every image with its captions, by id (facts attached by :func:`parse_captions`).
        drops: the build's drop log.
    """

    paths: list[Path]
    pairs: list[ConceptPair]
    groups: list[SynonymGroup]
    images: dict[str, CocoImage]
    drops: DropLog


@dataclass(frozen=True)
class Splits:
    """The split of every config.

    Attributes:
        size: images per held-out split.
        results: rows, split of every image, statistics and card table, by config.
    """

    size: int
    results: dict[str, ConfigResult]


def read_inputs(s: CaptioningSettings) -> CaptioningInputs:
    """Check the ``--captions`` files and read them with the pairs and synonym groups.

    Args:
        s: inputs and settings.

    Raises:
        CrepeInputError: no or bad captions file, a file given twice, bad pairs / synonyms file.
    """
    if not s.captions:
        raise CrepeInputError("give at least one --captions coco:PATH (a COCO captions JSON file).")
    paths = [coco_path(c) for c in s.captions]
    if len({p.resolve() for p in paths}) != len(paths):
        raise CrepeInputError(
            "a --captions file is given twice; give each COCO captions file once."
        )
    pairs, groups = load_pairs(s.pairs), load_synonyms(s.synonyms)
    drops = DropLog()
    return CaptioningInputs(paths, pairs, groups, read_images(paths, drops), drops)


def parse_captions(s: CaptioningSettings, inputs: CaptioningInputs) -> dict[str, Any]:
    """Parse every caption on the build's engine (or read the cache) and attach the facts.

    Args:
        s: inputs and settings.
        inputs: the inputs; each image receives its captions' facts.

    Returns:
        The parse info: parser versions, captions, engine, cache use and cache path.
    """
    from crepe_datasets.builders.engines.base import make_engine
    from crepe_datasets.infra.provenance import combined_checksum, describe_inputs

    checksum = combined_checksum(describe_inputs(inputs.paths))
    with make_engine(s.engine, s.workers, s.scheduler) as engine:
        return attach_facts(
            inputs.images,
            checksum,
            engine,
            cache_dir=s.cache_dir,
            model=s.spacy_model,
            progress=s.progress,
        )


def make_splits(s: CaptioningSettings, inputs: CaptioningInputs) -> Splits:
    """Run the split rule of every config and check that each is a partition.

    With ``--instances``, images the instances files lack are dropped from
    ``productivity_density`` (counted in the drop log).

    Args:
        s: inputs and settings.
        inputs: the inputs, with their facts attached.

    Raises:
        CrepeInputError: a bad instances file.
    """
    images = inputs.images
    size = S.scaled_size(len(images), s.split_size)
    results = {
        "systematicity": C.systematicity(images, inputs.pairs, size, s.seed),
        "productivity_length": C.productivity_length(images, size, s.seed),
        "substitutivity": C.substitutivity(images, inputs.groups),
    }
    if s.instances:
        boxes = read_box_counts([Path(p) for p in s.instances], inputs.drops)
        for i in images:
            if i not in boxes:
                inputs.drops.drop(DENSITY_STAGE, "image_not_in_instances", f"image_id {i}")
        dsize = S.scaled_size(sum(1 for i in images if i in boxes), s.split_size)
        results["productivity_density"] = C.productivity_density(images, boxes, dsize, s.seed)
    for name, result in results.items():
        expected = list(images) if name != "productivity_density" else list(result.split_of)
        S.check_partition(expected, result.split_of)
    return Splits(size, results)


def summarize(
    s: CaptioningSettings, inputs: CaptioningInputs, parse: dict[str, Any], splits: Splits
) -> CaptioningSummary:
    """Summarise the build.

    Args:
        s: inputs and settings.
        inputs: the inputs.
        parse: the parse info of :func:`parse_captions`.
        splits: the split of every config.
    """
    results = splits.results
    density = results.get("productivity_density")
    return CaptioningSummary(
        images=len(inputs.images),
        captions=parse["captions"],
        split_size=splits.size,
        size_rule="given by --split-size" if s.split_size else S.SIZE_RULE,
        paper_sizes=PAPER_SIZES,
        pairs=results["systematicity"].stats,
        substitutivity=results["substitutivity"].stats,
        density=density.stats if density is not None else "not built: no --instances given",
        parse={k: v for k, v in parse.items() if k != "cache_path"},
    )

"""crepe-vg-regions: Visual Genome region crops with their descriptions (a RAW image–text set).

This is the evaluation-side input of CREPE systematicity (SPEC §2.2–2.3): region descriptions
whose regions pass the region filter, one row per distinct (image, description). It is a
useful dataset on its own (RAW image–text retrieval) and the demo of the writer: every region
can be embedded as a crop of an image folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from crepe_datasets.builders.region_filter import RegionFilter
from crepe_datasets.builders.writer import write_dataset
from crepe_datasets.cards import citations
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo, ConfigInfo, TaskSpec
from crepe_datasets.scenegraph.crops import ImageCropper
from crepe_datasets.scenegraph.types import normalize_name
from crepe_datasets.scenegraph.vg.folder import vg_files
from crepe_datasets.scenegraph.visual_genome import iter_regions, read_image_data
from crepe_datasets.validation.registry import register_dataset

DATASET = "crepe-vg-regions"
VERSION = "0.1.0"


@dataclass
class VGRegionsConfig:
    """Parameters of a crepe-vg-regions build (serialised into the manifest)."""

    vg_dir: Path
    out: Path
    images: Path | None = None
    region_filter: RegionFilter = field(default_factory=RegionFilter)
    split: str = "test"

    def parameters(self) -> dict[str, Any]:
        return {
            "vg_dir": str(self.vg_dir),
            "images": str(self.images) if self.images else None,
            "region_filter": self.region_filter.to_dict(),
            "split": self.split,
        }


def _rows(config: VGRegionsConfig, manifest: BuildManifest) -> Iterator[dict[str, Any]]:
    images = read_image_data(config.vg_dir / "image_data.json")
    seen: set[tuple[str, str]] = set()
    drops = manifest.drops
    regions = iter_regions(config.vg_dir / "region_descriptions.json", drops)
    for region in tqdm(regions, desc="regions", unit=" regions"):
        image_id = str(region.image_id)
        info = images.get(image_id)
        if info is None:
            drops.drop("regions", "image_not_in_image_data", example=f"region {region.region_id}")
            continue
        reason = config.region_filter.reason(region.box, info.width, info.height)
        if reason is not None:
            drops.drop("regions", reason, example=f"region {region.region_id}")
            continue
        caption = normalize_name(region.phrase)
        if not caption:
            drops.drop("regions", "empty_description", example=f"region {region.region_id}")
            continue
        if (image_id, caption) in seen:
            drops.drop("regions", "duplicate_description", example=f"region {region.region_id}")
            continue
        seen.add((image_id, caption))
        yield {
            "image_id": image_id,
            "image_file": info.file_name,
            "bbox": region.box.to_list(),
            "region_id": str(region.region_id),
            "caption": caption,
        }


def build_vg_regions(config: VGRegionsConfig) -> BuildManifest:
    """Build the dataset folder ``config.out`` and return its manifest.

    Raises:
        CrepeInputError: when the Visual Genome folder lacks the files this build reads.
    """
    vg_files(config.vg_dir, "region_descriptions.json", "image_data.json")
    manifest = BuildManifest(
        dataset=DATASET,
        version=VERSION,
        builder="crepe_datasets.builders.vg_regions",
        card=CardInfo(
            pretty_name="CREPE VG regions",
            summary=(
                "Visual Genome region crops paired with their region descriptions, filtered as "
                "in CREPE (area ≥ 40,000 px, ≥ 10% of the image, aspect 0.5–2.0)."
            ),
            source_datasets=("Visual Genome",),
            how_built=(
                "Each region description is lower-cased and trimmed; regions failing the region "
                "filter and repeated descriptions of the same image are dropped and counted."
            ),
            citations=(citations.CREPE,),
        ),
        configs={
            "regions": ConfigInfo(
                "regions",
                "Region crops and their descriptions (RAW image–text retrieval).",
                TaskSpec(type="raw_retrieval", negatives_column=None),
            )
        },
        parameters=config.parameters(),
    )
    manifest.add_inputs(
        config.vg_dir / "region_descriptions.json", config.vg_dir / "image_data.json"
    )
    rows = list(_rows(config, manifest))
    cropper = None
    if config.images is not None:
        cropper = ImageCropper(config.images, manifest.drops)
    manifest.summary = {
        "regions_kept": len(rows),
        "regions_dropped": manifest.drops.total("regions"),
    }
    write_dataset(config.out, {"regions": {config.split: rows}}, manifest, images=cropper)
    return manifest


# A crepe-vg-regions build records no check of its own (``crepe validate dataset`` runs the common
# ones on its folders).
register_dataset(DATASET)

"""Dataset rows and configs of crepe-systematicity.

Configs:

* ``raw`` — splits ``seen_compounds``, ``unseen_compounds``, ``unseen_atoms``: every kept
  region text (image region + caption), task ``raw_retrieval``;
* ``hn_atom`` — splits ``seen_compounds``, ``unseen_compounds``: one-compound captions with
  exactly 4 HN-ATOM negatives (retrieval among 1 + 4);
* ``hn_comp`` — the same splits, exactly 6 HN-COMP negatives (retrieval among 1 + 6).

Every row carries ``atoms``, ``compounds``, ``unseen_atoms`` and ``unseen_compounds`` (string
formats in :mod:`crepe_datasets.builders.systematicity.split`), so the split can be re-derived
from the row and the seen tables (:mod:`crepe_datasets.validation.systematicity` does).
"""

from __future__ import annotations

from typing import Any

from crepe_datasets.builders.systematicity.split import HN_SPLITS, SPLITS, Classified
from crepe_datasets.builders.systematicity.texts import RegionText
from crepe_datasets.cards.metadata import ConfigInfo, TaskSpec
from crepe_datasets.generators.negatives import compact_json
from crepe_datasets.generators.negatives.comp import TextNegative

CONFIG_SPLITS = {"raw": SPLITS, "hn_atom": HN_SPLITS, "hn_comp": HN_SPLITS}
DESCRIPTIONS = {
    "raw": "Visual Genome region crops and their (spelling-corrected) descriptions, by split",
    "hn_atom": "1 caption + 4 HN-ATOM negatives (one atom replaced by an antonym or co-hyponym)",
    "hn_comp": "1 caption + 6 HN-COMP negatives (the compound's atoms split over two compounds, "
    "each completed with a foil)",
}


def config_infos() -> dict[str, ConfigInfo]:
    """The three configs with their evaluation tasks."""
    return {
        "raw": ConfigInfo(
            "raw", DESCRIPTIONS["raw"], TaskSpec(type="raw_retrieval", negatives_column=None)
        ),
        "hn_atom": ConfigInfo("hn_atom", DESCRIPTIONS["hn_atom"], TaskSpec(type="retrieval")),
        "hn_comp": ConfigInfo("hn_comp", DESCRIPTIONS["hn_comp"], TaskSpec(type="retrieval")),
    }


def base_row(image_id: str, image_file: str, region: RegionText, c: Classified) -> dict[str, Any]:
    """The ``raw`` row of one kept region text."""
    assert region.graph is not None
    return {
        "image_id": image_id,
        "image_file": image_file,
        "bbox": region.box,
        "region_id": str(region.region_id),
        "caption": region.text,
        "original_description": region.original,
        "scene_graph": compact_json(region.graph),
        "n_atoms": region.graph.complexity(),
        "n_compounds": len(region.graph.compounds()),
        "split": c.split,
        "atoms": c.atoms,
        "compounds": c.compounds,
        "unseen_atoms": c.unseen_atoms,
        "unseen_compounds": c.unseen_compounds,
    }


def hn_row(base: dict[str, Any], negatives: list[TextNegative]) -> dict[str, Any]:
    """A hard-negative row: the base row plus its negatives, best-ranked first."""
    return {
        **base,
        "hard_negatives": [n.text for n in negatives],
        "negative_types": [n.type for n in negatives],
        "negative_rules": [n.rule for n in negatives],
        "negative_foils": [list(n.foils) for n in negatives],
        "negative_graphs": [compact_json(n.graph) for n in negatives],
    }


def features(with_images: bool) -> dict[str, Any]:
    """Explicit ``datasets`` features per config (stable schemas, even for empty splits)."""
    from datasets import Features, Image, List, Value

    strings = List(Value("string"))
    base = {
        "image_id": Value("string"),
        "image_file": Value("string"),
        "bbox": List(Value("float64")),
        "region_id": Value("string"),
        "caption": Value("string"),
        "original_description": Value("string"),
        "scene_graph": Value("string"),
        "n_atoms": Value("int32"),
        "n_compounds": Value("int32"),
        "split": Value("string"),
        "atoms": strings,
        "compounds": strings,
        "unseen_atoms": strings,
        "unseen_compounds": strings,
    }
    if with_images:
        base["image"] = Image()
    hn = dict(base)
    for col in ("hard_negatives", "negative_types", "negative_rules", "negative_graphs"):
        hn[col] = strings
    hn["negative_foils"] = List(strings)
    return {name: Features(base if name == "raw" else hn) for name in CONFIG_SPLITS}

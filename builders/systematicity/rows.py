"""Dataset rows and configs of crepe-systematicity.

Configs:

* ``raw`` — splits ``seen_compounds``, ``unseen_compounds``, ``unseen_atoms``: every kept
  region text (image region + caption), task ``raw_retrieval``;
* ``hn_atom`` — splits ``seen_compounds``, ``unseen_compounds``: one-compound captions with
  exactly 4 HN-ATOM negatives (retrieval among 1 + 4);
* ``hn_comp`` — the same splits, exactly 6 HN-COMP negatives (retrieval among 1 + 6);
* ``hn_comp_matched`` (our extension, not the paper's) — the same splits, 3 negatives (retrieval
  among 1 + 3: no foil colour or name is in two texts of a set), and the
  positive also joins two compounds: ``caption`` is the region's caption joined with a second
  compound true of the image, and the negatives are HN-COMP whose foils are the atoms of the
  image's other true compounds (:mod:`crepe_datasets.generators.negatives.comp_matched`), so
  length and "and" tell nothing. Its ``scene_graph`` and atom / compound lists are those of the
  joined positive (its split is the region caption's, by construction); ``region_caption`` and
  ``region_graph`` keep the region's own text and graph, ``second_compound`` the added compound.

Every row carries ``atoms``, ``compounds``, ``unseen_atoms`` and ``unseen_compounds`` (string
formats in :mod:`crepe_datasets.scenegraph.seen`), so the split can be re-derived
from the row and the seen tables (:mod:`crepe_datasets.validation.systematicity` does).
"""

from __future__ import annotations

from typing import Any

from crepe_datasets.builders.systematicity.split import HN_SPLITS, Classified
from crepe_datasets.builders.systematicity.texts import RegionText
from crepe_datasets.cards.metadata import ConfigInfo, TaskSpec
from crepe_datasets.generators.negatives import compact_json
from crepe_datasets.generators.negatives.comp import TextNegative
from crepe_datasets.generators.negatives.comp_matched import MatchedSet
from crepe_datasets.scenegraph.seen import SPLITS, compound_key

CONFIG_SPLITS = {
    "raw": SPLITS,
    "hn_atom": HN_SPLITS,
    "hn_comp": HN_SPLITS,
    "hn_comp_matched": HN_SPLITS,
}
MATCHED_COLUMNS = ("region_caption", "region_graph", "second_compound")
DESCRIPTIONS = {
    "raw": "Visual Genome region crops and their (spelling-corrected) descriptions, by split",
    "hn_atom": "1 caption + 4 HN-ATOM negatives (one atom replaced by an antonym or co-hyponym)",
    "hn_comp": "1 caption + 6 HN-COMP negatives (the compound's atoms split over two compounds, "
    "each completed with a foil)",
    "hn_comp_matched": "our extension: 1 positive + 3 HN-COMP negatives that all join two "
    "compounds (the caption and a second compound true of the image; negatives take their foils "
    "from the image's other true compounds, each colour and name in one text only), so length, "
    "'and' and shared phrases tell nothing",
}


def config_infos() -> dict[str, ConfigInfo]:
    """The configs with their evaluation tasks."""
    return {
        "raw": ConfigInfo(
            "raw", DESCRIPTIONS["raw"], TaskSpec(type="raw_retrieval", negatives_column=None)
        ),
        "hn_atom": ConfigInfo("hn_atom", DESCRIPTIONS["hn_atom"], TaskSpec(type="retrieval")),
        "hn_comp": ConfigInfo("hn_comp", DESCRIPTIONS["hn_comp"], TaskSpec(type="retrieval")),
        "hn_comp_matched": ConfigInfo(
            "hn_comp_matched", DESCRIPTIONS["hn_comp_matched"], TaskSpec(type="retrieval")
        ),
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


def matched_row(
    base: dict[str, Any], matched: MatchedSet, c: Classified, negatives: list[TextNegative]
) -> dict[str, Any]:
    """An ``hn_comp_matched`` row: the joined positive as ``caption`` (its graph and lists from
    ``c``, the classification of the joined graph), the region's own text and graph beside it."""
    row = hn_row(base, negatives)
    row.update(
        {
            "caption": matched.positive,
            "scene_graph": compact_json(matched.graph),
            "n_atoms": matched.graph.complexity(),
            "n_compounds": len(matched.graph.compounds()),
            "atoms": c.atoms,
            "compounds": c.compounds,
            "unseen_atoms": c.unseen_atoms,
            "unseen_compounds": c.unseen_compounds,
            "region_caption": base["caption"],
            "region_graph": base["scene_graph"],
            "second_compound": compound_key(matched.second),
        }
    )
    return row


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
    matched = dict(hn)
    for col in MATCHED_COLUMNS:
        matched[col] = Value("string")
    schemas = {"raw": base, "hn_comp_matched": matched}
    return {name: Features(schemas.get(name, hn)) for name in CONFIG_SPLITS}

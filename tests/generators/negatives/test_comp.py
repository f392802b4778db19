"""HN-COMP: the compound's atoms over two compounds, each with one foil, false in the image graph.

Real inputs: region descriptions of Visual Genome images 1-100 and those images' scene graphs.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from crepe_datasets.builders.productivity.build import prepare_graph
from crepe_datasets.generators.negatives.comp import comp_negatives
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.generators.negatives.surface import find_atom, replace_atom
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.lexicon import is_plural_name
from crepe_datasets.scenegraph.types import SceneGraph, SGObject, normalize_name
from crepe_datasets.scenegraph.visual_genome import iter_regions, iter_scene_graphs
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # WordNet and spaCy


def _agrees(caption: str) -> bool:
    """Whether every noun directly before a copula or "has"/"have" agrees with it in number."""
    for noun, verb in re.findall(r"\b([a-z]+) (is|was|has|are|were|have)\b", caption):
        if is_plural_name(noun) != (verb in ("are", "were", "have")):
            return False
    return True


def test_replace_atom_keeps_surface_forms() -> None:
    assert replace_atom("a grill on top of the porch", "relationship", "on top of", "under") == (
        "a grill under the porch"
    )
    assert replace_atom(
        "two dogs sitting on a red couch", "relationship", "sit on", "stand on"
    ) == ("two dogs standing on a red couch")
    assert replace_atom("two dogs sitting on a red couch", "object", "dog", "cat") == (
        "two cats sitting on a red couch"
    )
    assert replace_atom("a pink car", "attribute", "pink", "orange") == "an orange car"
    assert replace_atom("man next to man", "object", "man", "woman") is None  # ambiguous
    assert replace_atom("a pink car", "object", "bus", "van") is None  # not in the text
    assert find_atom("a grill on the top of a porch", "on top of") == [(8, 21)]


def test_replaced_subject_takes_a_verb_of_its_number() -> None:
    """ "furniture" has no plural: the copula after it is singular (issue 13); a plural foil of
    a singular subject takes a plural verb."""
    assert replace_atom("the curtains are green", "object", "curtain", "furniture") == (
        "the furniture is green"
    )
    assert replace_atom("the curtains are green", "object", "curtain", "box") == (
        "the boxes are green"
    )
    assert replace_atom("the shirt is white", "object", "shirt", "jeans") == "the jeans are white"
    assert replace_atom("the dog has a collar", "object", "dog", "people") == (
        "the people have a collar"
    )
    # a caption whose verb does not agree keeps its own grammar: only the noun changes
    assert replace_atom("the tables has books on it", "object", "table", "cabinet") == (
        "the cabinets has books on it"
    )


def test_paper_example_and_image_graph_guard() -> None:
    from crepe_datasets.scenegraph.parser import CaptionParser

    sub = CaptionParser().parse_one("a pink car")
    empty = GraphIndex(SceneGraph([SGObject(1, "tree")]))
    negs = comp_negatives("a pink car", sub, empty, random.Random(0), 50)
    assert negs and all(n.rule == "comp:attribute_object" for n in negs)
    for n in negs:
        attr_foil, obj_foil = n.foils
        article = "an" if attr_foil[0] in "aeiou" else "a"
        assert n.text == f"{article} {attr_foil} car and a pink {obj_foil}"
    # an image where one car is blue: "a blue car and ..." is true in part, never offered
    blue = GraphIndex(SceneGraph([SGObject(1, "car", ("blue",))]))
    drops = DropLog()
    guarded = comp_negatives("a pink car", sub, blue, random.Random(0), 50, drops)
    assert guarded and all(n.foils[0] != "blue" for n in guarded)
    assert any(n.foils[0] == "blue" for n in negs)
    checks = drops.to_dict()["systematicity_negative_checks"]
    assert checks["comp_conjunct_true_in_image_graph"]
    # punctuation would appear twice in every negative: no HN-COMP for such a caption
    assert comp_negatives("a pink car.", sub, empty, random.Random(0), 6, drops) == []
    assert drops.to_dict()["systematicity_negative_checks"]["comp_caption_has_punctuation"] == 1


def test_real_regions_two_foils_and_false_in_image() -> None:
    from crepe_datasets.scenegraph.parser import CaptionParser

    vg = require_shared("visual_genome", "images_1-100")
    drops = DropLog()
    graphs = {
        g.image_id: prepare_graph(g, drops)
        for g in iter_scene_graphs(vg / "scene_graphs.json", drops)
    }
    regions = list(iter_regions(vg / "region_descriptions.json", drops))
    captions: dict[str, set[str]] = {}
    for r in regions:
        captions.setdefault(r.image_id, set()).add(normalize_name(r.phrase))
    texts = [normalize_name(r.phrase) for r in regions[:1500]]
    parsed = CaptionParser().parse(texts)
    made = 0
    for r, text, sub in zip(regions, texts, parsed, strict=False):
        if len(sub.compounds()) != 1 or r.image_id not in graphs:
            continue
        index = GraphIndex(graphs[r.image_id])
        compound_atoms = set(sub.compounds()[0].parts)
        for n in comp_negatives(text, sub, index, random.Random(r.region_id), 6, drops):
            made += 1
            atoms = Counter((a.type, a.text) for a in n.graph.atoms())
            before = {(a.type, a.text) for a in sub.atoms()}
            assert compound_atoms <= {t for _, t in atoms}
            assert {t for _, t in set(atoms) - before} == set(n.foils) and len(n.foils) == 2
            assert n.text not in captions[r.image_id]
            for conjunct in n.text.split(" and "):
                assert conjunct != text
            for foil in n.foils:  # a foil subject and its verb agree in number
                wrong = ("is", "was", "has") if is_plural_name(foil) else ("are", "were", "have")
                if not _agrees(text):  # "headphone are on the desk" keeps its own grammar
                    continue
                for part in n.text.split(" and "):
                    # not a foil after "of": "headlights of the truck are off" is right
                    if re.search(rf"\bof (?:\w+ ){{0,3}}{re.escape(foil)}\b", part):
                        continue
                    assert not re.search(rf"\b{re.escape(foil)} (?:{'|'.join(wrong)})\b", part), (
                        n.text
                    )
    assert made > 100

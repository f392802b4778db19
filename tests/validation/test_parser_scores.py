"""FACTUAL gold reading and parser scoring (issue 3, part 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject
from crepe_datasets.validation.factual import parse_scene_graph, read_factual
from crepe_datasets.validation.parser_scores import (
    CaptionTuples,
    norm_attribute,
    norm_object,
    norm_predicate,
    score,
    score_graphs,
)
from tests.conftest import require_shared


def test_parse_scene_graph_string() -> None:
    objs, attrs, rels = parse_scene_graph(
        "( bushes , grow on , lawn ) , ( trees , grow on , lawn ) , ( lawn , is , green ) , ( pole )"
    )
    assert objs == ["bushes", "lawn", "trees", "pole"]
    assert attrs == [("lawn", "green")]
    assert rels == [("bushes", "grow on", "lawn"), ("trees", "grow on", "lawn")]


def test_read_factual_counts_bad_rows(tmp_path: Path) -> None:
    csv = tmp_path / "gold.csv"
    csv.write_text(
        "image_id,region_id,caption,scene_graph\n"
        '1,2,white stove in a kitchen,"( stove , is , white ) , ( stove , in , kitchen )"\n'
        '1,3,,"( a )"\n'
        '1,4,bad graph,"( a , b )"\n'
    )
    drops = DropLog()
    rows = read_factual(csv, drops)
    assert len(rows) == 1 and rows[0].relations == (("stove", "in", "kitchen"),)
    assert drops.to_dict() == {"factual": {"empty_caption": 1, "malformed_scene_graph": 1}}
    with pytest.raises(CrepeInputError):
        read_factual(tmp_path / "missing.csv")


def test_normalisations() -> None:
    assert norm_object("Boats") == "boat"
    assert norm_object("cell phone") == norm_object("cellphone")
    assert norm_attribute("two") == "2" and norm_attribute("Heart-Shaped") == "heart shaped"
    assert norm_attribute("smiling") == "smiling"
    assert norm_predicate("standing on") == "stand on"
    assert norm_predicate("lay on") == norm_predicate("lying on") == "lie on"
    assert norm_predicate("at the left of") == "at left of"


def test_score_counts_and_errors() -> None:
    gold = CaptionTuples.build(["dog"], [("dogs", "black")], [("dog", "on", "couches")])
    pred = CaptionTuples.build([], [("dog", "black"), ("dog", "big")], [("dog", "sit on", "couch")])
    s = score([pred, gold], [gold, gold], ["a", "b"])
    objects, attrs, trips, rels = (
        s.categories[k] for k in ("objects", "attributes", "triplets", "relations")
    )
    assert (objects.tp, objects.n_pred, objects.n_gold) == (4, 4, 4)
    assert (attrs.tp, attrs.n_pred, attrs.n_gold) == (2, 3, 2)
    assert attrs.precision == pytest.approx(2 / 3) and attrs.recall == 1.0
    assert (trips.tp, trips.n_pred, trips.n_gold) == (1, 2, 2)
    assert (rels.tp, rels.n_pred, rels.n_gold) == (1, 2, 2)
    assert s.exact == 1 and s.exact_rate == 0.5
    assert s.errors[0]["caption"] == "a"
    assert s.errors[0]["extra_attributes"] == [["dog", "big"]]
    assert s.errors[0]["missing_triplets"] == [["dog", "on", "couch"]]
    assert "triplets" in s.table()


def test_score_graphs_from_scene_graphs() -> None:
    from crepe_datasets.validation.factual import GoldGraph

    g = SceneGraph(
        [SGObject(0, "man", ()), SGObject(1, "glasses", ("black",))], [Relationship(0, "wear", 1)]
    )
    gold = GoldGraph(
        "the man is wearing black glasses .",
        ("glasses", "man"),
        (("glasses", "black"),),
        (("man", "wear", "glasses"),),
    )
    s = score_graphs([g], [gold])
    assert s.exact == 1 and all(c.f1 == 1.0 for c in s.categories.values())


def test_real_dev_file_reads_whole() -> None:
    rows = read_factual(require_shared("factual", "factual_sg", "random", "dev.csv"))
    assert len(rows) == 1000
    assert sum(len(r.relations) for r in rows) == 1117

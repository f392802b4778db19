"""How often other images' annotations state a text's pairs: the refinement's third judge."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from crepe_datasets.generators.balance.attestation import PairAttestation, graph_pairs
from crepe_datasets.generators.balance.items import Item, Negative, RenderedItem
from crepe_datasets.generators.balance.refine import RefineState, RefineStats, refine
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, Relationship, SceneGraph, SGObject
from tests.conftest import require_shared


@pytest.fixture(scope="module")
def vg_attestation() -> PairAttestation:
    """The attestation of the human graphs of Visual Genome images 1–100, cleaned as a build
    cleans them."""
    from crepe_datasets.builders.productivity.clean import clean_graph
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    folder = require_shared("visual_genome", "images_1-100")
    drops = DropLog()
    infos = read_image_data(folder / "image_data.json", drops)
    graphs = [
        clean_graph(g, drops) for g in iter_scene_graphs(folder / "scene_graphs.json", drops, infos)
    ]
    return PairAttestation((g.image_id, g) for g in graphs)


def _sign_on(place: str) -> SceneGraph:
    """Image 1's "black sign on building", with the building renamed."""
    objects = [SGObject(1058507, "sign", ("black",)), SGObject(1058508, place)]
    return SceneGraph(objects, [Relationship(1058507, "on", 1058508)], "1")


def test_an_images_own_pairs_do_not_attest_it(vg_attestation: PairAttestation) -> None:
    on_building = ("relation_object", "on", "building")
    stated = vg_attestation.images[on_building]
    assert stated >= 10  # a common pair of Visual Genome
    assert vg_attestation.weight(on_building, "1") == math.log2(stated)  # image 1 states it
    assert vg_attestation.weight(on_building, "2") == math.log2(1 + stated)
    assert vg_attestation.weight(("relation_object", "on", "steeple"), "1") == 0.0


def test_marks_say_whether_a_negative_is_said_more_or_less_often(
    vg_attestation: PairAttestation,
) -> None:
    """On image 1: "sign on wall" is said of more images than the positive's "sign on
    building", "sign on steeple" of none; a rename that changes no pair ties."""
    positive = _sign_on("building")
    negatives = [_sign_on("wall"), _sign_on("steeple"), _sign_on("building")]
    assert vg_attestation.marks(positive, negatives, "1") == [1, -1, 0]


def _item(image: str, names: list[str]) -> RenderedItem:
    """A positive "x on a" with one negative per other name (the scorers tie them all)."""
    graph = SceneGraph([SGObject(1, "x"), SGObject(2, "a")], [Relationship(1, "on", 2)], image)
    item = Item(image, f"{image}.jpg", 5, 0, graph, Box(0, 0, 1, 1), "template")
    negatives = [
        Negative(
            "atom",
            "atom:object",
            f"neg {i}",
            SceneGraph([SGObject(1, "x"), SGObject(2, n)], [Relationship(1, "on", 2)], image),
        )
        for i, n in enumerate(names)
    ]
    return RenderedItem(item, "pos 0", negatives)


def test_the_balanced_choice_takes_negatives_said_more_often_as_often_as_less_often() -> None:
    """The two scorers tie every negative with its positive; without the third judge each set
    keeps its first five candidates (all said less often than "on a"); with it, the sets place
    the positive at every rank among them."""
    others = [SceneGraph([SGObject(1, "y"), SGObject(2, "a")], [Relationship(1, "on", 2)], str(i)) for i in range(100, 108)]  # fmt: skip
    others += [SceneGraph([SGObject(1, "y"), SGObject(2, "c")], [Relationship(1, "on", 2)], str(i)) for i in range(200, 232)]  # fmt: skip
    attestation = PairAttestation((g.image_id, g) for g in others)
    names = ["b1", "b2", "b3", "b4", "b5", "c", "c", "c", "c", "c"]  # "on c": 32 images, "on a": 8

    def tie(text: str) -> float:
        return 0.0

    plain = [_item(str(i), names) for i in range(12)]
    refine(plain, [tie, tie], 5, RefineStats())
    assert all({n.text for n in r.negatives[:5]} == {f"neg {i}" for i in range(5)} for r in plain)

    judged = [_item(str(i), names) for i in range(12)]
    refine(judged, [tie, tie], 5, RefineStats(), state=RefineState(attestation=attestation))
    said_more = [sum(int(n.text.split()[1]) >= 5 for n in r.negatives[:5]) for r in judged]
    assert sorted(set(said_more)) == [0, 1, 2, 3, 4, 5]  # the positive first as often as last
    assert max(said_more.count(t) for t in range(6)) <= 3


def test_the_pairs_are_those_the_joint_choice_balances() -> None:
    """:func:`graph_pairs` writes the pairs of ``graph_features`` (joint choice) as tuples."""
    from crepe_datasets.builders.productivity.clean import clean_graph
    from crepe_datasets.generators.negatives.joint_balance import PAIR_KINDS, graph_features
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs

    folder = require_shared("visual_genome", "images_1-100")
    drops = DropLog()
    for n, graph in enumerate(iter_scene_graphs(folder / "scene_graphs.json", drops)):
        graph = clean_graph(graph, drops)
        ours = Counter((kind, f"{a} {b}") for kind, a, b in graph_pairs(graph))
        theirs = Counter({f: c for f, c in graph_features(graph).items() if f[0] in PAIR_KINDS})
        assert ours == theirs
        if n == 20:
            break

"""HN-ATOM: exactly one atom replaced by a WordNet foil that G does not make true."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from crepe_datasets.generators.negatives.atom import (
    CHECK_STAGE,
    MAX_ATOM_GROUPS,
    atom_groups,
    atom_negatives,
)
from crepe_datasets.generators.negatives.foils import attribute_foils, object_foils, relation_foils
from crepe_datasets.generators.negatives.graphs import GraphIndex
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, SGObject
from tests.generators.negatives.helpers import image_graph, subgraph

pytestmark = pytest.mark.slow  # WordNet (first load)


def test_foils_are_antonyms_or_cohyponyms():
    assert attribute_foils("tall")[0] == "short"
    assert "blue" in attribute_foils("red") and "red" not in attribute_foils("red")
    assert "cat" in object_foils("dog")
    assert "man" in object_foils("boy", "boy.n.01")
    assert relation_foils("on")[0] == "under"
    assert "grey" not in attribute_foils("gray")  # synonyms are never foils


def test_each_negative_changes_exactly_one_atom():
    g = image_graph()
    index = GraphIndex(g)
    sub = subgraph(g, [1, 2, 3], [0, 1])
    cands = atom_negatives(sub, index, random.Random(0), 8)
    assert len(cands) == 8
    for cand in cands:
        removed = Counter(sub.atoms()) - Counter(cand.graph.atoms())
        added = Counter(cand.graph.atoms()) - Counter(sub.atoms())
        assert sum(removed.values()) == sum(added.values()) == 1
        assert next(iter(removed)).type == next(iter(added)).type
        assert not index.holds(cand.graph)
    assert len({c.graph.signature() for c in cands}) == 8
    assert [c.graph.to_json() for c in atom_negatives(sub, index, random.Random(0), 8)] == [
        c.graph.to_json() for c in cands
    ]


def test_foils_true_in_g_are_not_used():
    g = image_graph()
    sub = subgraph(g, [1], [])
    # man 1 is tall; "short" is its antonym, but in G man 1 is also short now.
    g.objects[0] = SGObject(1, "man", ("tall", "short"), g.objects[0].box)
    texts = {
        c.graph.objects[0].attributes
        for c in atom_negatives(sub, GraphIndex(g), random.Random(0), 30)
    }
    assert ("short",) not in texts


def test_object_foil_the_crop_shows_is_not_used():
    g = image_graph()
    g.objects.append(SGObject(9, "woman", (), Box(0, 0, 100, 300)))  # same box as man 1
    sub = subgraph(g, [1], [], drop_attrs={1: ("tall",)})
    drops = DropLog()
    names = {
        c.graph.objects[0].name
        for c in atom_negatives(sub, GraphIndex(g), random.Random(0), 30, drops)
    }
    assert "woman" not in names
    assert drops.counts[(CHECK_STAGE, "atom_object_foil_shown_in_crop")] == 1


def test_same_atom_groups_each_replace_one_atom():
    """With ``same_atom``, candidates come in groups of at least that many, each group replacing
    one atom (kind and word), so a set taken from one group differs from its positive and from
    each other at one place only."""
    g = image_graph()
    index = GraphIndex(g)
    sub = subgraph(g, [1, 2, 3], [0, 1])
    cands = atom_negatives(sub, index, random.Random(0), 8, same_atom=5)
    groups = atom_groups(cands)
    assert 1 <= len(groups) <= MAX_ATOM_GROUPS
    for group in groups:
        assert 5 <= len(group) <= 8
        assert len({c.exchange[:2] for c in group}) == 1
        changed = {next(iter(Counter(sub.atoms()) - Counter(c.graph.atoms()))) for c in group}
        assert len(changed) == 1
        assert len({c.exchange[2] for c in group}) == len(group)
    assert len({g_[0].exchange[:2] for g_ in groups}) == len(groups)
    again = atom_negatives(sub, index, random.Random(0), 8, same_atom=5)
    assert [c.graph.to_json() for c in again] == [c.graph.to_json() for c in cands]


def test_same_atom_on_real_visual_genome_graphs():
    """Every candidate group of real VG subgraphs replaces one atom; drops are counted."""
    from crepe_datasets.infra.provenance import DropLog
    from tests.generators.negatives.helpers import vg_graph

    g = vg_graph(1)
    index = GraphIndex(g)
    drops = DropLog()
    made = 0
    for start in range(0, min(len(g.objects), 12), 3):
        ids = [o.id for o in g.objects[start : start + 3]]
        sub = subgraph(g, ids, [])
        for group in atom_groups(
            atom_negatives(sub, index, random.Random(1), 12, drops, same_atom=5)
        ):
            assert len({c.exchange[:2] for c in group}) == 1
            made += 1
    assert made > 0
    assert sum(drops.counts.values()) > 0


def _vg_negatives(image_id: int, ids: list[str], rels: list[tuple[int, str, int]]):
    from tests.generators.negatives.helpers import pick, vg_graph

    g = vg_graph(image_id)
    sub = pick(g, ids, rels)
    drops = DropLog()
    cands = atom_negatives(sub, GraphIndex(g), random.Random(0), 200, drops)
    return sub, cands, drops.to_dict().get(CHECK_STAGE, {})


def test_attribute_foil_held_by_another_object_of_the_kind_vg64():
    """VG image 64: "green pole on top of ground" must not become "black pole on top of
    ground": the image's other pole is black."""
    _, cands, dropped = _vg_negatives(64, ["1062068", "1062075"], [(1062068, "on top of", 1062075)])
    pole = [c.graph.object_by_id()[1062068] for c in cands]
    assert cands and all("black" not in o.attributes for o in pole)
    assert {"red", "blue"} & {a for o in pole for a in o.attributes}  # other colours stay
    assert dropped["atom_attribute_foil_held_by_same_kind"] >= 1


def test_colour_foil_where_the_crop_shows_an_uncoloured_thing_of_the_kind_vg74():
    """VG image 74: "pink chair near table" must not become "white chair near table": the crop
    (the chair and the table) shows two more chairs, annotated with no colour."""
    _, cands, dropped = _vg_negatives(74, ["1062175", "1062176"], [(1062175, "near", 1062176)])
    chair = [c.graph.object_by_id()[1062175] for c in cands]
    assert all(o.attributes == ("pink",) for o in chair)  # no colour foil of the chair
    assert dropped["atom_attribute_foil_open_for_kin"] >= 1


def test_relationship_foil_held_by_another_pair_of_the_kinds_vg10():
    """VG image 10: "paper on shelf" must not become "paper under shelf": the paper is below
    the shelf above it (another pair of the same kinds, a predicate of the same meaning)."""
    _, cands, dropped = _vg_negatives(10, ["5256", "5259"], [(5256, "on", 5259)])
    assert all(r.predicate != "under" for c in cands for r in c.graph.relationships)
    assert dropped["atom_relationship_foil_holds_for_same_kinds"] == 1


def test_object_foil_part_of_the_truth_vg1():
    """VG image 1: "man holding chin" must not become "man holding head" (the chin is part of
    the face, part of the head)."""
    _, cands, dropped = _vg_negatives(1, ["1058532", "1058541"], [(1058532, "holding", 1058541)])
    names = {o.name for c in cands for o in c.graph.objects}
    assert cands and "head" not in names
    assert dropped["atom_object_foil_part_or_whole"] >= 1


def test_a_body_part_is_not_replaced_by_another():
    """ "leg and a silver oven" must not become "arm and a silver oven": the body the leg belongs
    to may show an arm, even where no person is boxed in the crop."""
    from crepe_datasets.scenegraph.types import SceneGraph

    leg = SGObject(1, "leg", (), Box(0, 0, 50, 100))
    g = SceneGraph([leg, SGObject(2, "oven", ("silver",), Box(100, 0, 50, 50))], [], "67", 200, 200)
    drops = DropLog()
    cands = atom_negatives(subgraph(g, [1], []), GraphIndex(g), random.Random(0), 30, drops)
    names = {c.graph.objects[0].name for c in cands}
    assert not names & {"arm", "finger", "hand", "foot", "knee"}
    assert drops.counts[(CHECK_STAGE, "atom_object_foil_another_body_part")] >= 1


def test_foils_a_pool_states_come_first_and_join_the_colours():
    """With ``stated`` (the counter-image pool), each atom's foils that form a compound some
    human graph states go first, and colours stated with the object join its foils."""
    from crepe_datasets.generators.negatives.foils import colour_pool, neighbouring_shades

    g = image_graph()
    sub = subgraph(g, [4], [], drop_attrs={4: ("small",)})  # a white dog
    extra = next(
        c
        for c in colour_pool("white")
        if c not in attribute_foils("white") and not neighbouring_shades(c, "white")
    )
    stated_words = {("ao", extra, "dog"), ("ao", "black", "dog")}

    def stated(compounds: list[tuple[str, ...]]) -> bool:
        return all(c in stated_words for c in compounds)

    cands = atom_negatives(sub, GraphIndex(g), random.Random(0), 30, stated=stated)
    colours = [c.graph.objects[0].attributes[0] for c in cands if c.graph.objects[0].name == "dog"]
    assert set(colours[:2]) == {extra, "black"}  # the stated ones first, the added one among them
    plain = atom_negatives(sub, GraphIndex(g), random.Random(0), 30)
    assert extra not in {c.graph.objects[0].attributes[0] for c in plain}


def test_graph_compounds_are_attribute_and_relation_compounds():
    from crepe_datasets.generators.negatives.atom import graph_compounds

    g = image_graph()
    sub = subgraph(g, [1, 2], [0])
    assert sorted(graph_compounds(sub)) == [
        ("ao", "black", "hat"), ("ao", "tall", "man"), ("oro", "man", "wearing", "hat"),
    ]  # fmt: skip


def test_with_a_pool_object_foils_are_names_it_states_so():
    """With ``stated``, an object's foils are only the names some human graph writes in the
    object's compounds ("white cat" said of another image): "white aquarium" is no plausible
    negative of "white dog", and no counter-image could show it."""
    g = image_graph()
    sub = subgraph(g, [4], [], drop_attrs={4: ("small",)})  # a white dog

    def stated(compounds: list[tuple[str, ...]]) -> bool:
        return compounds == [("ao", "white", "cat")]

    cands = atom_negatives(sub, GraphIndex(g), random.Random(0), 30, stated=stated)
    names = {c.graph.objects[0].name for c in cands}
    assert names == {"dog", "cat"}  # colour foils of the dog, and the one stated name
    plain = atom_negatives(sub, GraphIndex(g), random.Random(0), 30)
    assert len({c.graph.objects[0].name for c in plain}) > 2


def test_a_colour_people_gave_the_object_is_no_foil():
    """VG image 12: the wall is annotated grey, but people wrote "the wall is green"."""
    from crepe_datasets.scenegraph.vg.descriptions import ImageDescriptions
    from tests.conftest import require_shared
    from tests.generators.negatives.helpers import vg_graph

    g = vg_graph(12)
    texts = ImageDescriptions(require_shared("visual_genome", "images_1-100"), DropLog()).take(12)
    wall = g.object_by_id()[1024208]
    sub = subgraph(g, [wall.id], [])
    drops = DropLog()
    with_texts = atom_negatives(sub, GraphIndex(g, texts), random.Random(0), 200, drops)
    without = atom_negatives(sub, GraphIndex(g), random.Random(0), 200)
    colours = {c.graph.objects[0].attributes[0] for c in with_texts}
    assert "green" in {c.graph.objects[0].attributes[0] for c in without}
    assert "green" not in colours and colours
    assert drops.counts[(CHECK_STAGE, "atom_attribute_foil_described")] >= 1


def test_no_colour_foil_of_a_many_coloured_thing_vg64():
    """VG image 64: the tall building is "multi colored" and yellow; its other colours are not
    annotated, so "white building" may be true; foils of its name stay ("tower")."""
    _, cands, dropped = _vg_negatives(64, ["1062066"], [])
    assert cands and all(c.graph.objects[0].attributes[0] == "yellow" for c in cands)
    assert dropped["atom_colour_foil_many_coloured"] >= 1


def test_no_attribute_foil_on_a_box_of_two_things_vg6():
    """VG image 6: "red lid" of the box also named "drawer" gets no colour foil."""
    _, cands, dropped = _vg_negatives(6, ["5160"], [])
    assert all(c.graph.objects[0].attributes == ("red", "wooden") for c in cands)
    assert dropped["atom_attribute_foil_on_box_of_two_things"] >= 1


def test_no_relationship_foil_where_the_pair_is_related_twice():
    """ "Man wearing hat, the hat on the man": a foil of either relation would leave the other
    saying the opposite ("man removing hat, the hat on the man")."""
    g = image_graph()
    sub = subgraph(g, [1, 2], [0, 4])  # man wearing hat; hat on man
    drops = DropLog()
    cands = atom_negatives(sub, GraphIndex(g), random.Random(0), 50, drops)
    assert cands and all(c.rule != "atom:relationship" for c in cands)
    assert drops.counts[(CHECK_STAGE, "atom_relationship_foil_pair_related_twice")] >= 1

"""The template caption writer: the SPEC example, parts, negations, one house style."""

from __future__ import annotations

from crepe_datasets.generators.captions.template import (
    TemplateCaptionWriter,
    join_and,
    template_caption,
)
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def _boy_on_grass() -> SceneGraph:
    return SceneGraph(
        [SGObject(1, "boy", ("tall", "blue")), SGObject(2, "grass", ("green",))],
        [Relationship(1, "on", 2)],
    )


def test_spec_example():
    assert template_caption(_boy_on_grass()) == "tall and blue boy on green grass"


def test_join_and_lists():
    assert join_and(["a"]) == "a"
    assert join_and(["a", "b"]) == "a and b"
    assert join_and(["a", "b", "c"]) == "a, b and c"


def test_disconnected_parts_get_and_a():
    g = _boy_on_grass()
    g.objects.append(SGObject(3, "car", ("red",)))
    g.objects.append(SGObject(4, "apple"))
    assert template_caption(g) == "tall and blue boy on green grass and a red car and an apple"


def test_chain_mentions_objects_once_in_full():
    g = SceneGraph(
        [SGObject(1, "man", ("old",)), SGObject(2, "hat", ("black",)), SGObject(3, "bench")],
        [Relationship(1, "wearing", 2), Relationship(1, "sitting on", 3)],
    )
    assert template_caption(g) == "old man wearing black hat, the man sitting on bench"


def test_clause_order_follows_mentions():
    # The second relationship in graph order does not touch the first; the third does.
    g = SceneGraph(
        [SGObject(1, "a1"), SGObject(2, "b2"), SGObject(3, "c3"), SGObject(4, "d4")],
        [Relationship(1, "near", 2), Relationship(3, "by", 4), Relationship(2, "on", 3)],
    )
    assert template_caption(g) == "a1 near b2, the b2 on c3, the c3 by d4"


def test_negated_atoms():
    g = SceneGraph(
        [SGObject(1, "vase", ("not yellow",)), SGObject(2, "table")], [Relationship(1, "on", 2)]
    )
    assert template_caption(g) == "vase that is not yellow on table"
    g = SceneGraph([SGObject(1, "boy"), SGObject(2, "grass")], [Relationship(1, "not on", 2)])
    assert template_caption(g) == "boy not on grass"
    g = SceneGraph(
        [SGObject(1, "not boy", ("tall",)), SGObject(2, "grass")], [Relationship(1, "on", 2)]
    )
    assert template_caption(g) == "tall thing that is not a boy on grass"


def test_writer_results_cover_atoms_and_share_style():
    results = TemplateCaptionWriter().write([_boy_on_grass(), SceneGraph([SGObject(1, "egg")])])
    assert [r.caption for r in results] == ["tall and blue boy on green grass", "egg"]
    for r in results:
        assert r.reason is None
        assert r.caption == r.caption.lower() == " ".join(r.caption.split())
        assert not r.caption.endswith(".")


def test_writer_rejects_empty_caption():
    (result,) = TemplateCaptionWriter().write([SceneGraph([SGObject(1, "")])])
    assert result.caption is None and result.reason == "empty_caption"


def test_plural_names_take_no_indefinite_article():
    """ "and people", "other people", "thing that is not glasses": never "a people"."""
    g = SceneGraph(
        [SGObject(1, "boy", ("tall",)), SGObject(2, "grass"), SGObject(3, "people"),
         SGObject(4, "jeans", ("blue",))],
        [Relationship(1, "on", 2)],
    )  # fmt: skip
    assert template_caption(g) == "tall boy on grass and people and blue jeans"
    twice = SceneGraph(
        [SGObject(1, "people"), SGObject(2, "people"), SGObject(3, "bench")],
        [Relationship(1, "are on", 3)],
    )
    assert template_caption(twice) == "people are on bench and other people"
    negated = SceneGraph(
        [SGObject(1, "man"), SGObject(2, "not glasses")], [Relationship(1, "wears", 2)]
    )
    assert template_caption(negated) == "man wears thing that is not glasses"


def test_noun_modifiers_stand_next_to_the_name():
    """ "open, glass and light window" reads as no English: nouns used as modifiers come last."""
    from crepe_datasets.generators.captions.template import noun_modifier

    assert noun_modifier("brick") and noun_modifier("wood") and noun_modifier("freezer")
    assert not any(noun_modifier(a) for a in ("white", "wooden", "parked", "open", "light"))
    window = SGObject(1, "window", ("open", "glass", "light"))
    assert template_caption(SceneGraph([window])) == "light and open glass window"
    wall = SGObject(1, "wall", ("brick", "red"))
    assert template_caption(SceneGraph([wall])) == "red brick wall"

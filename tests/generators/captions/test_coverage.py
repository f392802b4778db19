"""The atom-coverage check shared by the template and LLM writers."""

from __future__ import annotations

from crepe_datasets.generators.captions.coverage import missing_atoms
from crepe_datasets.scenegraph.types import Atom, Relationship, SceneGraph, SGObject


def _graph() -> SceneGraph:
    return SceneGraph(
        [
            SGObject(1, "man", ("tall",)),
            SGObject(2, "hat", ("black",)),
            SGObject(3, "window"),
            SGObject(4, "window"),
        ],
        [Relationship(1, "wearing", 2), Relationship(3, "on top of", 4)],
    )


def test_full_caption_covers_everything():
    text = "A tall man wears a black hat; a window on the top of another window."
    assert missing_atoms(text, _graph()) == []


def test_missing_atoms_in_graph_order_without_repeats():
    text = "a man with a hat near two windows"
    assert missing_atoms(text, _graph()) == [
        Atom("attribute", "tall"),
        Atom("attribute", "black"),
        Atom("relationship", "wearing"),
        Atom("relationship", "on top of"),
    ]


def test_plurals_and_words_not_substrings():
    g = SceneGraph([SGObject(1, "cat"), SGObject(2, "tree")])
    assert missing_atoms("cats under trees", g) == []
    assert missing_atoms("a catalogue near a street", g) == [
        Atom("object", "cat"),
        Atom("object", "tree"),
    ]


def test_negated_atoms_need_the_negation():
    g = SceneGraph([SGObject(1, "not boy"), SGObject(2, "vase", ("not yellow",))])
    assert missing_atoms("a thing that is not a boy and a vase that is not yellow", g) == []
    assert missing_atoms("a boy and a yellow vase", g) == [
        Atom("object", "not boy"),
        Atom("attribute", "not yellow"),
    ]


def test_verbatim_fast_path_agrees_with_the_word_rules():
    from crepe_datasets.generators.captions.coverage import missing_atoms
    from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

    g = SceneGraph([SGObject(1, "black"), SGObject(2, "chair")], [Relationship(1, "a", 2)])
    assert [a.text for a in missing_atoms("black a chair", g)] == ["a"]  # articles never count
    g = SceneGraph([SGObject(1, "man"), SGObject(2, "cup")], [Relationship(1, "holds", 2)])
    assert missing_atoms("man holds cup", g) == [] and missing_atoms("man holding cup", g) == []
    assert [a.text for a in missing_atoms("man near cup", g)] == ["holds"]

"""The SPEC §3.3 prompt lines and the few-shot data files."""

from __future__ import annotations

import pytest

from crepe_datasets.generators.captions.coverage import missing_atoms
from crepe_datasets.generators.captions.llm import clean_caption
from crepe_datasets.generators.captions.prompts import (
    EXAMPLES_PER_PROMPT,
    FEWSHOT_COMPLEXITIES,
    build_messages,
    fewshot_checksum,
    graph_text,
    load_fewshot,
    suffixed_names,
)
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject


def test_objects_with_attributes_and_numbered_duplicates() -> None:
    g = SceneGraph(
        [
            SGObject(10, "window", ("open",)),
            SGObject(11, "wall", ("brick", "red")),
            SGObject(12, "window", ()),
        ],
        [Relationship(10, "on", 11), Relationship(12, "next to", 10)],
    )
    assert graph_text(g) == (
        "Objects: open window1; brick, red wall; window2\n"
        "Relations: window1 on wall; window2 next to window1"
    )
    assert suffixed_names(g) == ["window1", "window2"]


def test_graph_without_relations_and_negated_atoms() -> None:
    g = SceneGraph([SGObject(0, "vase", ("not yellow",)), SGObject(1, "table", ())])
    assert graph_text(g) == "Objects: not yellow vase; table\nRelations: none"
    assert suffixed_names(g) == []


def test_messages_use_the_examples_of_the_graph_complexity() -> None:
    g = SceneGraph(
        [SGObject(0, "man", ("old",)), SGObject(1, "bench", ("green",)), SGObject(2, "park")],
        [Relationship(0, "sitting on", 1), Relationship(1, "in", 2)],
    )
    assert g.complexity() == 7
    messages = build_messages(g)
    shots = load_fewshot(7)
    assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * 5 + ["user"]
    assert [m["content"] for m in messages[2:-1:2]] == [ex.caption for ex in shots]
    assert load_fewshot(4) == load_fewshot(5) and load_fewshot(20) == load_fewshot(12)
    assert len(fewshot_checksum()) == 64


@pytest.mark.parametrize("n", FEWSHOT_COMPLEXITIES)
def test_fewshot_examples_are_faithful(n) -> None:
    examples = load_fewshot(n)
    assert len(examples) == EXAMPLES_PER_PROMPT
    assert len({ex.caption for ex in examples}) == EXAMPLES_PER_PROMPT
    for example in examples:
        assert example.graph.complexity() == n
        assert missing_atoms(example.caption, example.graph) == [], example.caption
        assert clean_caption(example.caption) == example.caption
        assert not any(name in example.caption for name in suffixed_names(example.graph))

"""Items: rendering with the item's writer, formatting, per-image and NLI drops."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.productivity.items import (
    drop_entailed,
    drop_other_captions,
    render_items,
    sample_items,
)
from crepe_datasets.generators.captions import WrittenCaption
from crepe_datasets.generators.captions.template import TemplateCaptionWriter, template_caption
from crepe_datasets.infra.provenance import DropLog
from tests.generators.negatives.helpers import image_graph

pytestmark = pytest.mark.slow  # WordNet (first load)


class ShoutingWriter:
    """A stand-in for an LLM writer: capitalised captions with a final period."""

    def __init__(self) -> None:
        self.calls = 0

    def write(self, graphs):
        self.calls += 1
        return [WrittenCaption("A " + template_caption(g) + ".") for g in graphs]


def _items(drops: DropLog, writer_for=lambda n: "template"):
    g = image_graph()
    g.width, g.height = 400, 300
    return sample_items(g, "7.jpg", [4, 5, 6], 0, 3, 8, writer_for, drops)


def test_sample_items_regions_and_candidates():
    drops = DropLog()
    items = _items(drops)
    assert items, drops.to_dict()
    for item in items:
        assert item.graph.complexity() == item.n and item.image_file == "7.jpg"
        assert item.region.area >= 40_000
        assert {c.type for c in item.candidates} <= {"atom", "swap", "negate"}
        assert (
            item.candidates[[c.type for c in item.candidates].index("negate")].rule
            == "negate:caption"
        )
    again = _items(DropLog())
    assert [i.graph.to_json() for i in again] == [i.graph.to_json() for i in items]


def test_negatives_use_the_positive_writer_and_format():
    drops = DropLog()
    items = _items(drops, writer_for=lambda n: "llm" if n > 4 else "template")
    shouting = ShoutingWriter()
    rendered = render_items(items, {"template": TemplateCaptionWriter(), "llm": shouting}, drops)
    assert shouting.calls == 1  # one batch per writer
    for r in rendered:
        texts = [r.caption] + [neg.text for neg in r.negatives]
        if r.item.n > 4:
            assert all(t[0].isupper() and t.endswith(".") for t in texts)
        else:
            assert all(t == t.lower() and not t.endswith(".") for t in texts)
        assert len(set(texts)) == len(texts)
        caption_neg = [neg for neg in r.negatives if neg.rule == "negate:caption"]
        assert caption_neg and caption_neg[0].text.lower().startswith("there is no")


def test_other_captions_and_entailed_negatives_are_dropped():
    drops = DropLog()
    rendered = render_items(_items(drops), {"template": TemplateCaptionWriter()}, drops)
    first, second = rendered[0], rendered[1]
    second.negatives[0].text = first.caption  # collides with another caption of the image
    drop_other_captions(rendered, drops)
    assert first.caption not in [neg.text for neg in second.negatives]
    before = sum(len(r.negatives) for r in rendered)
    swap_texts = {neg.text for r in rendered for neg in r.negatives if neg.type == "swap"}
    drop_entailed(
        rendered, lambda premises, hypotheses: [h in swap_texts for h in hypotheses], drops
    )
    assert all(neg.type != "swap" for r in rendered for neg in r.negatives)
    counts = drops.to_dict()["productivity_negatives"]
    assert counts["swap_entailed_by_caption"] == before - sum(len(r.negatives) for r in rendered)
    assert sum(v for k, v in counts.items() if k.endswith("equals_other_caption_of_image")) == 1

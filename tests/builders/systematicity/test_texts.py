"""Evaluation texts: region filter, spelling, parsing through an engine, keep rules (real VG sample)."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.engines import InProcessEngine
from crepe_datasets.builders.systematicity.spelling import SpellingCorrector, vg_vocabulary
from crepe_datasets.builders.systematicity.texts import image_texts, keep_regions, parsed_images
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.visual_genome import iter_regions, read_image_data
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # spaCy parses of the VG regions, a process pool


def _images(limit: int | None = None):
    vg = require_shared("visual_genome", "images_1-100")
    drops = DropLog()
    infos = read_image_data(vg / "image_data.json", drops)
    corrector = SpellingCorrector(vg_vocabulary(vg)[0])
    images = image_texts(
        iter_regions(vg / "region_descriptions.json", drops, infos), infos, corrector, drops
    )
    return [im for _, im in zip(range(limit or 10**9), images, strict=False)], drops


def test_region_filter_and_caption_sets() -> None:
    images, drops = _images(20)
    assert [im.image_id for im in images] == [str(i) for i in range(1, 21)]
    counts = drops.to_dict()["systematicity_texts"]
    assert counts["region_too_small"] > 0
    for im in images:
        assert {r.text for r in im.regions} <= im.captions
        assert all(r.box[2] * r.box[3] >= 40_000 for r in im.regions)
        assert len(im.captions) >= len(im.regions)


def test_parse_keep_and_dedup_in_chunks() -> None:
    images, _ = _images(12)
    one = list(parsed_images(images, InProcessEngine(), chunk_texts=7))
    assert [im.image_id for im in one] == [im.image_id for im in images]
    drops = DropLog()
    kept = [r for im in one for r in keep_regions(im, drops)]
    assert kept and all(r.graph.complexity() >= 2 and r.graph.compounds() for r in kept)
    reasons = drops.to_dict()["systematicity_texts"]
    assert reasons["fewer_than_2_atoms"] > 0
    for im in one:
        sigs = [r.graph.signature() for r in keep_regions(im, DropLog())]
        assert len(sigs) == len(set(sigs))
    total = sum(len(im.regions) for im in one)
    assert total == len(kept) + sum(reasons.values())


def test_local_pool_engine_gives_the_same_graphs() -> None:
    from crepe_datasets.builders.engines import make_engine

    images, _ = _images(4)
    texts = [[r.text for r in im.regions] for im in images]
    one = [
        [r.graph.signature() for r in im.regions]
        for im in parsed_images(images, InProcessEngine(), chunk_texts=5)
    ]
    for im, t in zip(images, texts, strict=True):
        for r, text in zip(im.regions, t, strict=True):
            r.graph, r.text = None, text
    with make_engine("local", 2) as pool:
        two = [
            [r.graph.signature() for r in im.regions]
            for im in parsed_images(images, pool, chunk_texts=5)
        ]
    assert one == two and sum(map(len, one)) > 0

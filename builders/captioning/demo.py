"""The captioning step of ``crepe demo``: splits of the demo COCO-format captions, images embedded.

The demo scenes are small and full of cats and dogs, so the demo holds out three of the paper's
pairs (written to ``cache/captioning/demo_pairs.json`` in the demo folder) rather than all 24,
which would leave no training image.
"""

from __future__ import annotations

from pathlib import Path

from crepe_datasets.builders.captioning.build import CaptioningSettings, build_captioning
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.infra.provenance import write_json_atomic

DEMO_PAIRS = {
    "description": "Three held-out pairs for the crepe demo (a subset of the paper's 24).",
    "pairs": [
        {"id": "black_cat", "type": "adjective_noun", "modifier": "black", "noun": "cat"},
        {"id": "brown_dog", "type": "adjective_noun", "modifier": "brown", "noun": "dog"},
        {"id": "big_bird", "type": "adjective_noun", "modifier": "big", "noun": "bird"},
    ],
    "modifier_forms": {"big": ["big", "large", "huge"]},
}


def build_demo(inputs: Path, out: Path, seed: int) -> BuildManifest:
    """Build crepe-captioning from the files of :func:`crepe_datasets.builders.demo_data.write_demo_inputs`."""
    cache = Path(out).parent / "cache" / "captioning"
    pairs = cache / "demo_pairs.json"
    write_json_atomic(pairs, DEMO_PAIRS)
    settings = CaptioningSettings(
        captions=[f"coco:{inputs / 'captions_coco.json'}"],
        out=str(out),
        images=str(inputs / "images"),
        pairs=str(pairs),
        cache_dir=str(cache),
        seed=seed,
        progress=False,
    )
    return build_captioning(settings)[1]

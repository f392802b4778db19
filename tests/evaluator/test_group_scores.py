"""Winoground group scores on a hand-computed fixture, with their confidence intervals."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from crepe_datasets.evaluator.metrics import group_metrics
from crepe_datasets.evaluator.run import _metrics

# scores[i, image, caption]; caption c is true of image c
FIXTURE = np.array(
    [
        [[0.9, 0.1], [0.2, 0.8]],  # both images prefer their caption, both captions their image
        [[0.9, 0.5], [0.6, 0.8]],  # text: 0.9>0.5, 0.8>0.6 yes; image: 0.9>0.6, 0.8>0.5 yes
        [[0.9, 0.5], [0.95, 0.8]],  # text: 0.8>0.95 no; image: 0.9>0.95 no
        [[0.7, 0.3], [0.2, 0.7]],  # text yes; image: 0.7>0.2 yes, 0.7>0.3 yes -> group yes
        [[0.5, 0.5], [0.1, 0.9]],  # tie on image 0 -> text fails; image: 0.5>0.1, 0.9>0.5 yes
        [[0.3, 0.6], [0.8, 0.4]],  # everything reversed
    ]
)
# by hand: text = rows 0, 1, 3 -> 3/6; image = rows 0, 1, 3, 4 -> 4/6; group = rows 0, 1, 3 -> 3/6
TEXT, IMAGE, GROUP = [1, 1, 0, 1, 0, 0], [1, 1, 0, 1, 1, 0], [1, 1, 0, 1, 0, 0]


def test_group_metrics_match_hand_computation() -> None:
    m = group_metrics(FIXTURE)
    assert m.metrics["text"] == 0.5
    assert m.metrics["image"] == 4 / 6
    assert m.metrics["group"] == 0.5
    assert m.metrics["ties"] == 1.0 and m.metrics["n"] == 6.0
    assert m.per_sample["text"].astype(int).tolist() == TEXT
    assert m.per_sample["image"].astype(int).tolist() == IMAGE
    assert m.per_sample["correct"].astype(int).tolist() == GROUP


def test_blind_scores_are_zero() -> None:
    """Scores that depend on the caption only: no image can prefer its caption over the other's
    while the other image prefers the reverse, and each caption ties between the images."""
    caption = np.array([[0.3, 0.7], [0.7, 0.3], [0.5, 0.5]])
    s = np.stack([caption, caption], axis=1)
    m = group_metrics(s).metrics
    assert (m["text"], m["image"], m["group"]) == (0.0, 0.0, 0.0)


def test_text_and_image_scores_get_confidence_intervals() -> None:
    record = SimpleNamespace(key=lambda name, breakdown="": f"b::groups/test::{name}")
    settings = SimpleNamespace(n_boot=200, seed=0)
    out = _metrics(record, {"": group_metrics(FIXTURE)}, settings)  # type: ignore[arg-type]
    for name, value in (("text", 0.5), ("image", 4 / 6), ("group", 0.5)):
        lo, hi = out[f"b::groups/test::{name}_ci_low"], out[f"b::groups/test::{name}_ci_high"]
        assert lo <= value <= hi and lo < hi

"""Issue 13's acceptance test on the 100 real Visual Genome images (template captions, no NLI)."""

from __future__ import annotations

import pytest

from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity
from tests.conftest import require_shared

pytestmark = pytest.mark.slow

# Ground truths per n before issue 13 (same images, seed and settings).
BEFORE = dict(zip(range(4, 13), (120, 129, 133, 146, 174, 162, 148, 165, 164), strict=True))


def test_blind_baselines_at_chance_and_rows_kept(tmp_path):
    vg = require_shared("visual_genome", "images_1-100")
    _, manifest = build_productivity(
        ProductivitySettings(vg=str(vg), out=str(tmp_path / "ds"), progress=False)
    )
    validation = manifest.validation
    assert validation["invariants"]["passed"] and validation["shortcuts"]["passed"]
    blind = validation["blind_baselines"]
    for config in ("hn_atom", "hn_swap"):
        for split, r in blind["configs"][config]["splits"].items():
            # the audit's own verdict (not significantly above chance + 0.05) and a point bound;
            # with the foil ledger one split is above chance + 0.05 (hn_atom n=9: CC3M LM 0.233
            # on 116 sets; 0.250 on 92 since colour foils where the crop shows another
            # uncoloured thing of the kind are refused, a true-negative rule)
            assert r["passed"] and r["best_r1"] <= r["chance"] + 0.09, (config, split, r)
    assert blind["passed"]
    # text-only classifiers trained on part of the sets: hn_atom was 0.438 before the foil ledger
    trained = validation["trained_blind"]
    assert trained["passed"]
    for config in ("hn_atom", "hn_swap"):
        pooled = trained["configs"][config]["all"]
        assert pooled["best_r1"] <= pooled["chance"] + 0.08, (config, pooled)
    balance = manifest.summary["foil_balance"]["hn_atom"]
    assert balance["foil_only_max_uses"] <= 20 and "lacks" not in balance["foil_only_top"][:20]
    for split, count in manifest.summary["ground_truths_per_n"].items():
        before = BEFORE[int(split.rsplit("_", 1)[1])]
        assert abs(count - before) <= 0.15 * before, (split, count, before)

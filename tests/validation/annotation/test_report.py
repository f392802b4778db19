"""The report on real sampled items with three annotators, one of whom skipped some items."""

from __future__ import annotations

import pytest

from crepe_datasets.validation.annotation.agreement import fleiss_kappa, krippendorff_alpha
from crepe_datasets.validation.annotation.report import build_report, majority
from crepe_datasets.validation.annotation.sampling import candidates, stratified_sample
from crepe_datasets.validation.annotation.store import Judgement

pytestmark = pytest.mark.slow  # the productivity build of the 100 VG images


def test_three_annotators_with_gaps(productivity_build):
    items, _ = stratified_sample(candidates(productivity_build), ["negative_type"], 10, seed=2)
    items = {i.item_id: i for i in items}
    labels = ("yes", "no", "unsure")
    judgements = {}
    for n, item_id in enumerate(sorted(items)):
        for a in range(3):
            if a == 2 and n % 4 == 0:
                continue  # the third annotator skipped every fourth item
            label = labels[(n * (a + 1)) % 3] if n % 3 else "yes"
            judgements[(item_id, f"a{a}")] = Judgement(item_id, f"a{a}", label)
    report = build_report(items, judgements, ["negative_type"], n_resamples=50)
    assert report["annotators"] == 3 and report["judged_items"] == len(items)
    negative = report["kinds"]["negative"]
    assert "cohen_kappa" not in negative["agreement"]  # defined for two annotators only
    units = [
        [judgements[(i, f"a{a}")].label if (i, f"a{a}") in judgements else None for a in range(3)]
        for i in sorted(items)
        if items[i].kind == "negative"
    ]
    full = [u for u in units if None not in u]
    assert negative["agreement"]["fleiss_kappa"]["value"] == pytest.approx(
        fleiss_kappa(full), abs=1e-4
    )
    assert negative["agreement"]["krippendorff_alpha"]["value"] == pytest.approx(
        krippendorff_alpha(units), abs=1e-4
    )
    majorities = [majority([x for x in u if x]) for u in units]
    assert negative["yes"] == majorities.count("yes") and negative["no"] == majorities.count("no")
    assert negative["undecided"] == len(units) - majorities.count("yes") - majorities.count("no")
    assert {s["negative_type"] for s in report["strata"] if s["kind"] == "negative"} == {
        "atom", "swap", "negate"
    }  # fmt: skip
    assert majority(["yes", "no"]) == "tie" and majority(["unsure", "unsure", "yes"]) == "unsure"

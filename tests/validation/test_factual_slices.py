"""The fixed FACTUAL slices (dev, rest, held-out) and the parser on the held-out slice (issue 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crepe_datasets.validation.factual import (
    HELDOUT_PERCENT,
    caption_key,
    factual_slices,
    in_heldout_bucket,
)
from tests.conftest import require_shared


def _slices() -> dict:
    folder = require_shared("factual", "factual_sg")
    dev = folder / "random" / "dev.csv"
    return factual_slices(folder / "factual_sg.csv", [dev, dev.with_name("test.csv")])


def test_bucket_is_a_fixed_function_of_the_caption() -> None:
    assert in_heldout_bucket("A  Dog on a couch") == in_heldout_bucket("a dog on a couch")
    assert caption_key("  Two DOGS\t") == "two dogs"
    share = sum(in_heldout_bucket(f"caption number {n}") for n in range(5000)) / 5000
    assert abs(share - HELDOUT_PERCENT / 100) < 0.02


def test_slices_of_the_real_file_are_disjoint_and_sized() -> None:
    slices = _slices()
    keys = {name: {caption_key(g.caption) for g in rows} for name, rows in slices.items()}
    assert len(slices["dev"]) == 1000
    assert not keys["dev"] & keys["heldout"] and not keys["rest"] & keys["heldout"]
    assert not keys["dev"] & keys["rest"]
    share = len(slices["heldout"]) / (len(slices["rest"]) + len(slices["heldout"]))
    assert 0.18 < share < 0.22
    assert all(in_heldout_bucket(g.caption) for g in slices["heldout"])
    assert (len(slices["dev"]), len(slices["rest"]), len(slices["heldout"])) == (1000, 30379, 7482)


def test_missing_exclusion_file_is_ignored(tmp_path: Path) -> None:
    csv = tmp_path / "gold.csv"
    csv.write_text(
        "image_id,region_id,caption,scene_graph\n"
        + "".join(f'1,{n},caption {n},"( a{n} )"\n' for n in range(200))
    )
    slices = factual_slices(csv, [tmp_path / "absent.csv"])
    assert slices["dev"] == [] and len(slices["rest"]) + len(slices["heldout"]) == 200


@pytest.fixture(scope="module")
def heldout_scores():
    """The parser's scores on the held-out slice (only totals are read, never its errors)."""
    from crepe_datasets.scenegraph.parser import CaptionParser
    from crepe_datasets.validation.parser_scores import score_graphs

    gold = _slices()["heldout"]
    return score_graphs(CaptionParser().parse([g.caption for g in gold]), gold).categories


@pytest.mark.slow
def test_parser_on_the_untouched_slice_keeps_its_measured_level(heldout_scores) -> None:
    """Rules 1.2 measured 0.813 attribute F1 and 0.714 triplet F1 here (rules 1.1: 0.799 and
    0.698; rules 1.0: 0.773 and 0.692)."""
    assert heldout_scores["attributes"].f1 >= 0.805
    assert heldout_scores["triplets"].f1 >= 0.705


@pytest.mark.slow
def test_parser_attributes_reach_080_on_the_untouched_slice(heldout_scores) -> None:
    """The issue's target: attribute F1 >= 0.80 on rows the rules were never tuned on."""
    assert heldout_scores["attributes"].f1 >= 0.80

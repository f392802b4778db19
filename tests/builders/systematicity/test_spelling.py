"""Spelling correction of region descriptions, with Visual Genome's vocabulary protected."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.builders.systematicity.spelling import SpellingCorrector, vg_vocabulary
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # loads the symspell dictionary


@pytest.fixture(scope="module")
def corrector() -> SpellingCorrector:
    vocabulary, files = vg_vocabulary(require_shared("visual_genome", "images_1-100"))
    assert len(files) == 5 and "skateboarder" in vocabulary
    return SpellingCorrector(vocabulary)


def test_real_misspellings_of_the_sample(corrector: SpellingCorrector) -> None:
    # descriptions as written in region_descriptions.json of VG images 1-100
    assert corrector.correct("bicycles are seen in the bckground") == (
        "bicycles are seen in the background"
    )
    assert corrector.correct("red pen is ontop of the book") == "red pen is on top of the book"
    assert corrector.correct("the curpet is purple") == "the carpet is purple"


def test_domain_and_short_words_kept(corrector: SpellingCorrector) -> None:
    for text in ("skateboarder jumping high", "a frisbee in the air", "a cd on a tv", "t-shirt"):
        assert corrector.correct(text) == text


def test_most_descriptions_unchanged(corrector: SpellingCorrector) -> None:
    path = require_shared("visual_genome", "images_1-100", "region_descriptions.json")
    texts = [
        " ".join(r["phrase"].lower().split())
        for rec in json.loads(path.read_text())
        for r in rec["regions"]
    ]
    changed = sum(corrector.correct(t) != t for t in texts)
    assert 0 < changed < 0.05 * len(texts)


def test_a_repair_never_guesses_between_real_words(corrector: SpellingCorrector) -> None:
    """ "yatch" is one letter from watch, match, batch, catch …: "living room in a watch" would
    be false of a yacht, so it is kept; grey and gray are spelled one way, as the foils are."""
    assert corrector.correct("living room in a yatch") == "living room in a yatch"
    assert corrector.correct("wiht a dog") == "with a dog"  # "with" is far more common
    assert corrector.correct("a gray car") == "a grey car" == corrector.correct("a grey car")

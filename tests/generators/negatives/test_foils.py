"""WordNet foil lists: ranked, plausible, never synonyms."""

from __future__ import annotations

import pytest

from crepe_datasets.generators.negatives.foils import (
    first_senses,
    ranked_cohyponyms,
    relation_foils,
    synset_cohyponyms,
)

pytestmark = pytest.mark.slow  # WordNet (first load)


def test_first_senses_index():
    offset, count = first_senses()[("dog", "n")]
    assert offset > 0 and count > 0


def test_cohyponyms_keep_words_whose_main_sense_is_related():
    foils = ranked_cohyponyms("boy")
    assert "man" in foils and "head" not in foils and len(foils) <= 10
    assert "truck" in synset_cohyponyms("car.n.01")
    assert synset_cohyponyms("no_such_word.n.09") == ()


def test_relation_foils_table_then_wordnet_inflected():
    assert relation_foils("behind") == ("in front of",)
    assert "letting go of" in relation_foils("holding")
    assert relation_foils("of") == ()

from __future__ import annotations

import pytest

from crepe_datasets.infra import resources
from crepe_datasets.infra.errors import MissingResourceError


def test_spacy_pipeline_loads_with_fallback_name():
    nlp = resources.load_spacy()
    assert [t.text for t in nlp("a black dog")] == ["a", "black", "dog"]
    assert resources.spacy_model_version(nlp).startswith("en_core_web_sm")


def test_missing_spacy_model_is_one_clear_sentence():
    with pytest.raises(MissingResourceError, match="not installed"):
        resources.load_spacy("no_such_pipeline_xyz")


def test_wordnet_is_found():
    wn = resources.wordnet()
    assert wn.synsets("dog")


def test_install_from_debian_writes_lexnames(tmp_path):
    if not (resources.DEBIAN_WORDNET / "data.noun").exists():
        pytest.skip("Debian WordNet files are not installed here")
    target = resources.install_wordnet_from_debian(target_root=tmp_path)
    lines = (target / "lexnames").read_text().splitlines()
    assert lines[0] == "00\tadj.all\t3" and lines[-1] == "44\tadj.ppl\t3"


def test_install_from_missing_folder_says_how(tmp_path):
    with pytest.raises(MissingResourceError, match="wordnet-base"):
        resources.install_wordnet_from_debian(source=tmp_path / "none", target_root=tmp_path)

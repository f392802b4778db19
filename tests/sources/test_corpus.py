from __future__ import annotations

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.corpus import corpus_files, iter_corpus, parse_spec
from crepe_datasets.sources.registry import known_formats, register_corpus, single_file


def test_known_kinds_are_registered():
    assert set(known_formats()) == {"coco", "cc", "laion", "jsonl", "text"}


def test_unknown_kind_lists_the_known_ones():
    with pytest.raises(CrepeInputError, match=r"unknown corpus kind 'yfcc'.*coco.*laion"):
        iter_corpus("yfcc:/x", DropLog())
    with pytest.raises(CrepeInputError, match="KIND:PATH"):
        corpus_files("just-a-path.json")


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(CrepeInputError, match="does not exist"):
        iter_corpus(f"coco:{tmp_path / 'missing.json'}", DropLog())
    with pytest.raises(CrepeInputError, match="folder"):
        corpus_files(f"text:{tmp_path}")


def test_option_split_only_for_formats_with_options(tmp_path):
    fmt, location, option = parse_spec("jsonl:/d/c.jsonl#sentence")
    assert (fmt.name, location, option) == ("jsonl", "/d/c.jsonl", "sentence")
    fmt, location, option = parse_spec("text:/d/a#b.txt")
    assert (location, option) == ("/d/a#b.txt", None)


def test_duplicate_registration_names_both_entries():
    with pytest.raises(ValueError, match=r"registered twice: crepe_datasets\.sources\.coco"):
        register_corpus("coco", single_file, "dup")(lambda files, drops, option: iter(()))

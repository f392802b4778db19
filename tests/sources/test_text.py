from __future__ import annotations

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.corpus import iter_corpus
from tests.conftest import require_shared


def test_text_lines_and_counts(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(b"a dog\r\n\n  a cat  \n\xc3\x28 broken\nlast")
    drops = DropLog()
    records = list(iter_corpus(f"text:{path}", drops))
    assert [(r.text, r.id) for r in records] == [("a dog", "1"), ("a cat", "3"), ("last", "5")]
    assert drops.to_dict() == {"text": {"empty_caption": 1, "invalid_utf8": 1}}


def test_real_captions_as_text():
    path = require_shared("cc3m", "Validation_GCC-1.1.0-Validation.tsv")
    with open(path, "rb") as handle:
        n_lines = sum(1 for _ in handle)
    assert len(list(iter_corpus(f"text:{path}", DropLog()))) == n_lines

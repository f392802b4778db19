from __future__ import annotations

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.cc_tsv import detect_header, read_cc_tsv
from crepe_datasets.sources.corpus import iter_corpus
from tests.conftest import require_shared


def test_cc3m_validation_counts_match_the_file():
    path = require_shared("cc3m", "Validation_GCC-1.1.0-Validation.tsv")
    with open(path, "rb") as handle:
        lines = [line.rstrip(b"\r\n").decode("utf-8").split("\t") for line in handle]
    drops = DropLog()
    records = list(iter_corpus(f"cc:{path}", drops))
    assert len(records) == len(lines) == 15_833
    assert len(drops) == 0
    assert records[0].text == lines[0][0].strip() and records[0].image_id == lines[0][1]
    assert records[-1].id == str(len(lines) - 1)


def test_header_is_detected_and_columns_taken_by_name(tmp_path):
    path = tmp_path / "cc.tsv"
    path.write_text("url\tcaption\nhttp://x/1.jpg\ta dog on a bed\nhttp://x/2.jpg\t  \n")
    drops = DropLog()
    records = list(read_cc_tsv(path, drops))
    assert [(r.text, r.image_id, r.id) for r in records] == [
        ("a dog on a bed", "http://x/1.jpg", "0")
    ]
    assert drops.to_dict() == {"cc": {"empty_caption": 1}}
    assert detect_header(["a caption", "http://x"]) is None
    assert detect_header(["caption", "url"]) == (0, 1)


def test_invalid_utf8_and_empty_rows_are_counted(tmp_path):
    path = tmp_path / "cc.tsv"
    path.write_bytes(b"a cat\thttp://a\nbad \xff\xfe bytes\thttp://b\n\n\xef\xbb\xbfnot first\n")
    drops = DropLog()
    records = list(read_cc_tsv(path, drops))
    # A BOM that is not at the start of the file is an invisible character: removed, counted.
    assert [r.text for r in records] == ["a cat", "not first"]
    assert records[1].id == "3" and records[1].image_id is None
    assert drops.to_dict() == {"cc": {"invalid_utf8": 1, "empty_caption": 1}}
    assert drops.repairs_dict() == {"cc": {"invisible_chars": 1}}

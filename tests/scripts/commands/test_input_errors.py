"""User errors on inputs print one line (exit 2), never a traceback, and name the cause.

Each input is a real file of ../shared/data made malformed by the test.
"""

from __future__ import annotations

import json
import shutil

import pytest

from crepe_datasets.scripts.cli import main
from tests.conftest import require_shared


def _vg_copy(tmp_path, mutate_object=None, records=10, repeat=1):
    vg = require_shared("visual_genome", "images_1-100")
    out = tmp_path / "vg"
    out.mkdir()
    shutil.copy(vg / "image_data.json", out)
    graphs = json.loads((vg / "scene_graphs.json").read_text())[:records] * repeat
    if mutate_object is not None:
        graphs = json.loads(json.dumps(graphs))
        for rec in graphs:
            for obj in rec["objects"]:
                mutate_object(obj)
    (out / "scene_graphs.json").write_text(json.dumps(graphs))
    return out


def _build(vg, out, *extra):
    return main(["build", "productivity", "--vg", str(vg), "--no-nli", "--out", str(out), *extra])


def _drop_keys(obj):
    obj.pop("x")
    obj.pop("y")


@pytest.mark.parametrize(
    ("mutate", "cause"),
    [
        (_drop_keys, "object_bad_box (box coordinates missing"),
        (
            lambda o: o.update(x=float("nan")),
            "object_bad_box (box coordinates missing, not numbers, NaN",
        ),
        (lambda o: o.update(y=str(o["y"])), "object_bad_box"),
        (lambda o: o.update(w=-o["w"]), "object_degenerate_box (box width or height not positive)"),
        (lambda o: o.update(names=[None]), "object_missing_name (object without a name)"),
    ],
)
def test_an_empty_build_says_what_was_dropped_and_why(tmp_path, capsys, mutate, cause):
    vg = _vg_copy(tmp_path, mutate)
    assert _build(vg, tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert "error: nothing to write" in err and cause in err, err
    assert err.index("vg_scene_graphs/object_") < err.index("relationship_missing_object")
    assert "Traceback" not in err


def test_vg_folder_errors_say_what_is_wrong(tmp_path, capsys):
    assert _build(tmp_path / "nonexistent", tmp_path / "out") == 2
    assert "--vg " + str(tmp_path / "nonexistent") + " does not exist" in capsys.readouterr().err
    (tmp_path / "file.json").write_text("[]")
    assert _build(tmp_path / "file.json", tmp_path / "out") == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert (
        main(["build", "vg-regions", "--vg", str(tmp_path / "nope"), "--out", str(tmp_path / "o")])
        == 2
    )
    assert "does not exist" in capsys.readouterr().err


def test_negative_limit_is_a_usage_error(tmp_path, capsys):
    vg = require_shared("visual_genome", "images_1-100")
    assert _build(vg, tmp_path / "out", "--limit", "-5") == 2
    err = capsys.readouterr().err
    assert "--limit" in err and "Traceback" not in err


@pytest.mark.slow
def test_poisoned_names_never_reach_the_dataset_and_repeated_images_are_counted(tmp_path, capsys):
    def poison(obj):
        obj["names"] = [n[:1] + "\x00" + n[1:] for n in obj["names"]]
        obj["attributes"] = [a + "\u200b" for a in obj.get("attributes", [])]

    vg = _vg_copy(tmp_path, poison, records=3, repeat=3)
    out = tmp_path / "out"
    # three images make splits of one or two sets, which the blind audit may fail by chance
    assert _build(vg, out, "--allow-failed-checks") == 0
    assert "invariants: passed" in capsys.readouterr().out
    manifest = json.loads((out / "build_manifest.json").read_text())
    assert manifest["drops"]["vg_scene_graphs"]["image_duplicate_id"] == 6
    assert set(manifest["repairs"]["vg_scene_graphs"]) == {"control_chars", "invisible_chars"}
    import pyarrow.parquet as pq

    for shard in out.glob("data/*/*.parquet"):
        for row in pq.read_table(shard).to_pylist():
            for text in [row["caption"], *(row.get("hard_negatives") or [])]:
                assert text.isprintable() and "\u200b" not in text, text


def test_parse_refuses_binary_and_drops_invalid_utf8(tmp_path, capsys):
    real = require_shared("cc3m", "Validation_GCC-1.1.0-Validation.tsv").read_bytes()
    binary = tmp_path / "captions.txt"
    import gzip

    binary.write_bytes(gzip.compress(real[:100_000]))
    assert main(["parse", "--input", str(binary), "--out", str(tmp_path / "g.jsonl")]) == 2
    assert "looks like a binary file" in capsys.readouterr().err
    assert not (tmp_path / "g.jsonl").exists()
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert main(["parse", "--input", str(empty), "--out", str(tmp_path / "g.jsonl")]) == 2
    assert "is empty" in capsys.readouterr().err


def test_parse_counts_drops_and_truncation(tmp_path, capsys):
    real = require_shared("cc3m", "Validation_GCC-1.1.0-Validation.tsv").read_bytes()
    lines = [line.split(b"\t")[0] for line in real.splitlines()[:12]]
    lines[3] = lines[3][:5] + b"\xff\xfe" + lines[3][5:]  # not UTF-8: dropped
    lines[5] = b"\x00".join(lines[5][i : i + 1] for i in range(len(lines[5])))  # UTF-16-like
    lines[7] = b" ".join([b"dog"] * 400_000)  # 1.6 million characters: cut and counted
    src = tmp_path / "captions.txt"
    src.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "graphs.jsonl"
    assert main(["parse", "--input", str(src), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "dropped invalid_utf8: 1 line(s) (e.g. captions.txt:4" in printed
    assert "truncated: 1 line(s)" in printed and "control chars: 1 line(s)" in printed
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["line"] for r in records] == [n for n in range(1, 13) if n != 4]
    assert not any("\ufffd" in r["caption"] or not r["caption"].isprintable() for r in records)
    assert records[4]["caption"] == lines[5].replace(b"\x00", b"").decode().strip()
    assert len(records[6]["caption"]) <= 1_200


def test_a_huge_caption_in_a_training_corpus_is_dropped_not_a_crash(tmp_path):
    from crepe_datasets.builders.bindsplit.training_table import build_training_table

    corpus = tmp_path / "captions.txt"
    real = require_shared("cc3m", "Validation_GCC-1.1.0-Validation.tsv").read_text()
    captions = [line.split("\t")[0] for line in real.splitlines()[:20]]
    captions[10] = "a red car " * 120_000  # 1.2 million characters
    corpus.write_text("\n".join(captions) + "\n")
    table = build_training_table(f"text:{corpus}", cache_dir=tmp_path / "cache", progress=False)
    assert table.info["captions"] == 19

"""`crepe parse`, `crepe parse-corpus` and `crepe validate parser` through click."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scripts.cli import cli, main


def test_parse_writes_one_line_per_caption(tmp_path: Path) -> None:
    src = tmp_path / "captions.txt"
    src.write_text("two dogs sitting on a red couch\n\nthe man is wearing black glasses .\n")
    out = tmp_path / "graphs.jsonl"
    result = CliRunner().invoke(cli, ["parse", "--input", str(src), "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 3
    assert lines[0] == {
        "line": 1,
        "caption": "two dogs sitting on a red couch",
        "objects": ["dog", "couch"],
        "attributes": [["dog", "2"], ["couch", "red"]],
        "relations": [["dog", "sit on", "couch"]],
    }
    assert lines[1]["objects"] == []
    assert lines[2]["relations"] == [["man", "wear", "glasses"]]


def test_parse_missing_input_is_a_user_error(tmp_path: Path, capsys) -> None:
    result = CliRunner().invoke(
        cli, ["parse", "--input", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "o")]
    )
    assert isinstance(result.exception, CrepeInputError)
    assert main(["parse", "--input", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "o")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_validate_parser_writes_scores_and_errors(tmp_path: Path) -> None:
    gold = tmp_path / "gold.csv"
    gold.write_text(
        "image_id,region_id,caption,scene_graph\n"
        '1,1,white stove in a kitchen,"( stove , is , white ) , ( stove , in , kitchen )"\n'
        '1,2,a man holds a knife,"( man , hold , knife )"\n'
        '1,3,a cat on a mat,"( dog , on , mat )"\n'
    )
    out = tmp_path / "report.json"
    result = CliRunner().invoke(cli, ["validate", "parser", "--gold", str(gold), "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["n_captions"] == 3 and report["exact_graph_rate"] == round(2 / 3, 4)
    assert report["triplets"]["tp"] == 2 and report["triplets"]["n_gold"] == 3
    assert [e["caption"] for e in report["errors"]] == ["a cat on a mat"]


def test_parse_corpus_in_process(tmp_path: Path) -> None:
    src = tmp_path / "c.txt"
    src.write_text("a dog on a couch\na dog on a couch\n狗在沙发上\na red car parked on a street\n")
    out = tmp_path / "seen"
    args = [
        "parse-corpus",
        "--corpus",
        f"text:{src}",
        "--out",
        str(out),
        "--shard-size",
        "2",
        "--quiet",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "non_english: 1" in result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["counts"]["duplicates_within_shard"] == 1
    again = CliRunner().invoke(cli, args)
    assert "(2 already done)" in again.output

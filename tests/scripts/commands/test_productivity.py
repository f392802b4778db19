"""`crepe build productivity` and `crepe validate dataset` from the command line."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.scripts.cli import main
from tests.conftest import require_shared


def test_nli_choice_is_required(tmp_path, capsys):
    vg = require_shared("visual_genome", "images_1-100")
    assert main(["build", "productivity", "--vg", str(vg), "--out", str(tmp_path / "x")]) == 2
    assert "--no-nli" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert (
        main(
            [
                "build",
                "productivity",
                "--vg",
                str(tmp_path / "empty"),
                "--no-nli",
                "--out",
                str(tmp_path / "x"),
            ]
        )
        == 2
    )
    assert "scene_graphs.json" in capsys.readouterr().err


@pytest.mark.slow
def test_build_then_validate(tmp_path, capsys):
    vg = require_shared("visual_genome", "images_1-100")
    out = tmp_path / "crepe-productivity"
    args = [
        "build",
        "productivity",
        "--vg",
        str(vg),
        "--no-nli",
        "--out",
        str(out),
        "--seed",
        "0",
        "--limit",
        "4",
    ]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "invariants: passed" in printed and "hn_swap" in printed
    report = tmp_path / "report.json"
    assert main(["validate", "dataset", str(out), "--json-out", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["invariants"]["passed"] and data["shortcuts"]["passed"]
    assert set(data["shortcuts"]["configs"]) == {"hn_atom", "hn_swap", "hn_negate", "hn_all"}

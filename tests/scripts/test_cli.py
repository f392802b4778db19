"""The `crepe` command line: demo end to end, help, and one-line errors."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.scripts.cli import main


def test_help_lists_groups(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "build" in out and "demo" in out and "validate" in out


@pytest.mark.slow
def test_demo_builds_loadable_datasets(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    from datasets import load_dataset

    assert main(["demo", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "crepe-vg-regions" in out and "load_dataset" in out
    from crepe_datasets.scripts.commands.demo import demo_folder

    assert demo_folder(tmp_path)  # so that `crepe demo` (`make demo`) may run again on it
    for manifest_path in tmp_path.glob("*/build_manifest.json"):
        manifest = json.loads(manifest_path.read_text())
        assert all(f["sha256"] and f["bytes"] > 0 for f in manifest["inputs"])
        for config, splits in manifest["counts"].items():
            if not sum(splits.values()):  # a config without rows is not declared in the card
                continue
            ds = load_dataset(str(manifest_path.parent), config, cache_dir=str(tmp_path / "cache"))
            assert sum(d.num_rows for d in ds.values()) == sum(manifest["counts"][config].values())


def test_user_errors_are_one_line_without_traceback(tmp_path, capsys):
    code = main(["build", "vg-regions", "--vg", str(tmp_path), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert (
        err.startswith("error: ") and "Traceback" not in err and len(err.strip().splitlines()) == 1
    )


def test_doctor_reports_resources(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "spaCy pipeline: en_core_web_sm" in out and "WordNet: 3.0" in out

"""`crepe build systematicity` from the command line: a real build, and bad input.

Bad input must give one clear error (exit status 2, no traceback) or counted drops, and never
leave a half-written output folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crepe_datasets.scripts.cli import main
from tests.conftest import copy_vg_sample, require_shared

pytestmark = pytest.mark.slow
CORPUS = ("coco", "minyus_samples", "captions_val2014.json_samples.json")


def _args(vg: Path, out: Path, *extra: str) -> list[str]:
    return ["build", "systematicity", "--vg", str(vg), "--no-nli", "--out", str(out), *extra]


def _no_leftovers(out: Path) -> None:
    assert not out.exists()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".crepe")]


def test_build_then_validate(tmp_path: Path, capsys) -> None:
    vg = require_shared("visual_genome", "images_1-100")
    corpus = require_shared(*CORPUS)
    out = tmp_path / "syst"
    cache = tmp_path / "cache"
    args = _args(
        vg, out, "--training", f"coco:{corpus}", "--limit", "25", "--cache-dir", str(cache)
    )
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "row checks: passed" in printed and "paper, CC-12M" in printed
    assert main(["validate", "dataset", str(out), "--json-out", str(tmp_path / "r.json")]) == 0
    # with the seen tables, validation runs the build's own systematicity checks, with its result
    (seen,) = cache.iterdir()
    capsys.readouterr()
    checked = ["validate", "dataset", str(out), "--seen", str(seen), "--json-out"]
    assert main([*checked, str(tmp_path / "s.json")]) == 0
    assert "systematicity_checks: passed" in capsys.readouterr().out
    built = json.loads((out / "build_manifest.json").read_text())["validation"]
    with_seen = json.loads((tmp_path / "s.json").read_text())["dataset_checks"]
    assert with_seen["systematicity_checks"] == built["systematicity_checks"]
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["invariants"]["passed"] and report["shortcuts"]["passed"]
    # every config with rows is audited (25 images and a sample corpus leave hn_atom empty)
    assert "hn_comp" in report["shortcuts"]["configs"]
    # the parsed corpus is cached by checksum: a second build parses nothing
    assert len(list(cache.iterdir())) == 1
    assert main(_args(vg, tmp_path / "again", "--training", f"coco:{corpus}", "--limit", "25",
                      "--cache-dir", str(cache))) == 0  # fmt: skip
    manifest = json.loads((tmp_path / "again" / "build_manifest.json").read_text())
    assert manifest["summary"]["seen_tables_source"]["from_cache"] is True


def test_seen_folder_of_another_version(tmp_path: Path, capsys) -> None:
    from crepe_datasets.builders.engines import InProcessEngine
    from crepe_datasets.builders.seen_build import build_seen_tables

    seen = tmp_path / "seen"
    build_seen_tables(f"coco:{require_shared(*CORPUS)}", seen, InProcessEngine(), progress=False)
    manifest = json.loads((seen / "manifest.json").read_text())
    manifest["parser_version"] = "crepe-rules-0.9"
    (seen / "manifest.json").write_text(json.dumps(manifest))
    out = tmp_path / "out"
    vg = require_shared("visual_genome", "images_1-100")
    assert main(_args(vg, out, "--seen", str(seen))) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: seen folder") and "parse-corpus" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    _no_leftovers(out)


def test_corpus_that_parses_to_nothing(tmp_path: Path, capsys) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("一只狗坐在沙发上\n!!!\n\nder Hund und die Katze\n", encoding="utf-8")
    out = tmp_path / "out"
    vg = require_shared("visual_genome", "images_1-100")
    args = _args(vg, out, "--training", f"text:{corpus}", "--cache-dir", str(tmp_path / "c"))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "parsed to no caption" in err and "Traceback" not in err
    _no_leftovers(out)


def test_broken_region_records_are_counted(tmp_path: Path, capsys) -> None:
    vg = copy_vg_sample(tmp_path)
    path = vg / "region_descriptions.json"
    data = json.loads(path.read_text())
    data[0]["regions"][0] = "not a region"
    del data[0]["regions"][1]["phrase"]
    data[0]["regions"][2]["width"] = "wide"
    data[1]["regions"] = None
    path.write_text(json.dumps(data))
    out = tmp_path / "out"
    args = _args(vg, out, "--training", f"coco:{require_shared(*CORPUS)}", "--limit", "4")
    assert main([*args, "--cache-dir", str(tmp_path / "c")]) == 0
    drops = json.loads((out / "build_manifest.json").read_text())["drops"]["vg_regions"]
    assert drops["region_not_an_object"] == 1 and drops["region_missing_phrase"] == 1
    assert drops["region_bad_box"] == 1 and drops["image_bad_regions"] == 1


def test_truncated_region_file(tmp_path: Path, capsys) -> None:
    vg = copy_vg_sample(tmp_path)
    path = vg / "region_descriptions.json"
    path.write_bytes(path.read_bytes()[:300_000])
    out = tmp_path / "out"
    args = _args(vg, out, "--training", f"coco:{require_shared(*CORPUS)}")
    assert main([*args, "--cache-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert "region_descriptions.json" in err and "Traceback" not in err
    _no_leftovers(out)


def test_choices_are_checked(tmp_path: Path, capsys) -> None:
    vg = require_shared("visual_genome", "images_1-100")
    out = tmp_path / "out"
    assert main(["build", "systematicity", "--vg", str(vg), "--out", str(out)]) == 2
    assert "--no-nli" in capsys.readouterr().err
    assert main(_args(vg, out)) == 2
    assert "--seen FOLDER or --training" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(_args(empty, out, "--seen", str(empty))) == 2
    assert "region_descriptions.json" in capsys.readouterr().err
    _no_leftovers(out)

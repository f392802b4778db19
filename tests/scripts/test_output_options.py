"""The output guard on every writing command: one line, exit status 2, nothing touched."""

from __future__ import annotations

import shutil

import pytest

from crepe_datasets.scripts.cli import main
from tests.conftest import require_shared, unwritable_target


@pytest.fixture
def user_folder(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "thesis.tex").write_text("precious")
    return folder


def _refused(argv, capsys, expected: str) -> None:
    assert main(argv) == 2, argv
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_every_writing_command_refuses_a_user_folder(tmp_path, user_folder, capsys):
    coco = require_shared("coco", "captions_val2017.json")
    vg = require_shared("visual_genome", "images_1-100")
    aro = require_shared("aro")
    runs = [
        ["demo", "--out", str(user_folder)],
        ["parse-corpus", "--corpus", f"coco:{coco}", "--out", str(user_folder)],
        ["build", "vg-regions", "--vg", str(vg), "--out", str(user_folder), "--overwrite"],
        ["build", "productivity", "--vg", str(vg), "--no-nli", "--out", str(user_folder)],
        ["build", "bindsplit", "--benchmark", "aro-vga", "--benchmark-path", str(aro),
         "--training", f"coco:{coco}", "--out", str(user_folder)],
        ["build", "bindsplit-holdout", "--attributes", "red,blue", "--objects", "dog,cat",
         "--k", "1", "--out", str(user_folder)],
    ]  # fmt: skip
    for argv in runs:
        _refused(argv, capsys, "non-empty folder")
    assert [p.name for p in user_folder.iterdir()] == ["thesis.tex"]


def test_outputs_inside_inputs_and_files_where_folders_are_expected(tmp_path, capsys):
    factual = require_shared("factual", "factual_sg", "random", "dev.csv")
    coco = tmp_path / "coco"
    coco.mkdir()
    shutil.copy(require_shared("coco", "captions_val2017.json"), coco / "captions.json")
    dataset = tmp_path / "ds"
    assert main(["build", "bindsplit-holdout", "--attributes", "red,blue,green,white", "--objects",
                 "dog,cat,bird,horse", "--k", "2", "--out", str(dataset)]) == 0  # fmt: skip
    capsys.readouterr()
    _refused(["parse-corpus", "--corpus", f"coco:{coco / 'captions.json'}", "--out", str(coco)],
             capsys, "holds the input")  # fmt: skip
    _refused(["evaluate", "--model", "hf:x", "--dataset", str(dataset), "--out", str(dataset / "results")],
             capsys, "inside the input")  # fmt: skip
    _refused(["evaluate", "--model", "hf:x", "--dataset", f"{dataset}:holdout", "--out", str(dataset)],
             capsys, "is the input")  # fmt: skip
    _refused(["report", str(tmp_path), "--out", str(tmp_path)], capsys, "is a folder")
    _refused(
        ["validate", "parser", "--gold", str(factual), "--out", str(factual)],
        capsys,
        "is the input",
    )
    _refused(
        ["validate", "dataset", str(dataset), "--json-out", str(tmp_path)], capsys, "is a folder"
    )
    (tmp_path / "a-file").write_text("x")
    _refused(["evaluate", "--model", "hf:x", "--dataset", str(dataset), "--out", str(tmp_path / "a-file")],
             capsys, "is an existing file, not a folder")  # fmt: skip
    _refused(["parse", "--input", str(coco / "captions.json"), "--out", ""], capsys, "is empty")


def test_unwritable_output_is_one_line(tmp_path, capsys):
    target = unwritable_target(tmp_path, "ds")
    argv = [
        "build",
        "bindsplit-holdout",
        "--attributes",
        "red,blue",
        "--objects",
        "dog,cat",
        "--k",
        "1",
    ]
    _refused([*argv, "--out", target], capsys, "cannot write in")


def test_demo_may_rebuild_its_own_folder(tmp_path):
    from crepe_datasets.infra.outputs import check_output
    from crepe_datasets.scripts.commands.demo import demo_folder

    for name in ("inputs", "crepe-productivity", ".crepe-productivity.tmp-1-00000000-x"):
        (tmp_path / "demo" / name).mkdir(parents=True)
    out = check_output(str(tmp_path / "demo"), "folder", recognise=demo_folder)
    assert out == tmp_path / "demo"

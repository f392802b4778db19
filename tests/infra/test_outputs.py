"""`check_output`: the one guard of every output path, against real input folders."""

from __future__ import annotations

import os

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.outputs import check_output, input_paths
from tests.conftest import copy_vg_sample, unwritable_target


@pytest.fixture
def vg(tmp_path):
    """A copy of the real Visual Genome sample (images 1-100), so nothing can touch the original."""
    return copy_vg_sample(tmp_path)


def _dataset(folder):
    folder.mkdir(parents=True)
    (folder / "build_manifest.json").write_text('{"dataset": "x", "builder": "y"}')
    return folder


def test_new_or_empty_folder_is_accepted(tmp_path, vg):
    assert check_output(str(tmp_path / "new"), "dataset", inputs=[vg]) == tmp_path / "new"
    (tmp_path / "empty").mkdir()
    assert check_output(str(tmp_path / "empty"), "dataset", inputs=[vg]) == tmp_path / "empty"


def test_user_folder_is_refused_even_with_overwrite(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("precious")
    for overwrite in (False, True):
        with pytest.raises(CrepeInputError, match="not a dataset built by crepe"):
            check_output(str(tmp_path / "mine"), "dataset", overwrite=overwrite)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "precious"


def test_earlier_dataset_needs_overwrite(tmp_path):
    old = _dataset(tmp_path / "ds")
    with pytest.raises(CrepeInputError, match="--overwrite"):
        check_output(str(old), "dataset")
    assert check_output(str(old), "dataset", overwrite=True) == old
    (old / ".git").mkdir()  # e.g. a clone of the published repo: never deleted by a rebuild
    with pytest.raises(CrepeInputError, match=r"also files the build did not write \(\.git\)"):
        check_output(str(old), "dataset", overwrite=True)


def test_existing_file_is_refused_for_a_folder_and_the_reverse(tmp_path):
    (tmp_path / "f").write_text("data")
    with pytest.raises(CrepeInputError, match="is an existing file, not a folder"):
        check_output(str(tmp_path / "f"), "dataset")
    with pytest.raises(CrepeInputError, match="is a file, not a folder"):
        check_output(str(tmp_path / "f" / "inside"), "dataset")
    with pytest.raises(CrepeInputError, match="is a folder; give the name of a file"):
        check_output(str(tmp_path), "file")
    with pytest.raises(CrepeInputError, match="is a folder"):
        check_output(str(tmp_path / "new") + "/", "file")


def test_empty_and_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CrepeInputError, match="is empty"):
        check_output("", "dataset")
    with pytest.raises(CrepeInputError, match="current folder"):
        check_output(".", "dataset")
    with pytest.raises(CrepeInputError, match="current folder"):
        check_output(str(tmp_path.parent), "folder")


def test_inputs_are_never_outputs(tmp_path, vg):
    with pytest.raises(CrepeInputError, match="is the input"):
        check_output(str(vg), "dataset", inputs=[str(vg)], overwrite=True)
    with pytest.raises(CrepeInputError, match="inside the input"):
        check_output(str(vg / "out"), "dataset", inputs=[vg])
    with pytest.raises(CrepeInputError, match="holds the input"):
        check_output(str(tmp_path), "folder", inputs=[f"text:{vg / 'image_data.json'}"])
    with pytest.raises(CrepeInputError, match="is the input"):
        check_output(str(vg / "image_data.json"), "file", inputs=[vg / "image_data.json"])
    # a file output may lie inside an input folder (e.g. results/report.md)
    assert check_output(str(vg / "report.md"), "file", inputs=[vg]) == vg / "report.md"
    assert sorted(os.listdir(vg)) == [
        "image_data.json",
        "region_descriptions.json",
        "scene_graphs.json",
    ]


def test_input_specs_are_resolved(tmp_path, vg):
    graphs = vg / "scene_graphs.json"
    found = input_paths(
        [f"coco:{graphs}", (str(vg),), f"laion:{vg}/*.parquet#TEXT", "org/name", None]
    )
    assert found == [graphs.resolve(), vg.resolve(), vg.resolve()]


def test_unwritable_place_is_one_sentence(tmp_path):
    target = unwritable_target(tmp_path, "out")
    with pytest.raises(CrepeInputError, match="cannot write in"):
        check_output(target, "dataset")


def test_folder_kind_recognises_its_own_content(tmp_path):
    (tmp_path / "seen").mkdir()
    (tmp_path / "seen" / "other.txt").write_text("x")
    with pytest.raises(CrepeInputError, match="does not hold"):
        check_output(
            str(tmp_path / "seen"), "folder", recognise=lambda p: (p / "run.json").exists()
        )
    (tmp_path / "seen" / "run.json").write_text("{}")
    assert check_output(str(tmp_path / "seen"), "folder", recognise=lambda p: True)

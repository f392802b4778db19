from __future__ import annotations

import pytest

from crepe_datasets.builders.writer import write_dataset
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo, ConfigInfo
from crepe_datasets.cards.publish import check_folder, plan_release
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scripts.cli import main


@pytest.fixture
def folder(tmp_path):
    m = BuildManifest(
        "toy", "1.4.0", "tests", CardInfo("Toy", "s"), configs={"c": ConfigInfo("c", "d")}
    )
    return write_dataset(tmp_path / "toy", {"c": {"test": [{"caption": "a"}]}}, m)


def test_plan_uses_manifest_version_as_tag(folder):
    plan = plan_release(folder, "org/toy")
    assert plan.tag == "v1.4.0" and plan.configs == ("c",)
    assert set(plan.files) == {
        "README.md",
        "build_manifest.json",
        "data/c/test-00000-of-00001.parquet",
        "assets/rows_per_split.png",  # the card's plot (no drops, so no drops plot)
    }


def test_incomplete_folder_is_refused(folder):
    (folder / "data" / "c" / "test-00000-of-00001.parquet").unlink()
    with pytest.raises(CrepeInputError, match="no files for data/c/test"):
        check_folder(folder)


def test_repo_name_must_have_owner(folder):
    with pytest.raises(CrepeInputError, match="<org or user>/<name>"):
        plan_release(folder, "toy")


def test_dry_run_from_the_command_line(folder, capsys):
    assert main(["publish", str(folder), "--repo", "org/toy", "--dry-run"]) == 0
    assert "org/toy @ v1.4.0: 4 files" in capsys.readouterr().out

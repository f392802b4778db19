from __future__ import annotations

import pytest

from crepe_datasets.cards.manifest import BuildManifest, read_manifest
from crepe_datasets.cards.metadata import CardInfo, ConfigInfo, TaskSpec
from crepe_datasets.cards.render import render_card, size_category
from crepe_datasets.infra.errors import CrepeInputError


def test_task_spec_round_trip_and_validation():
    spec = TaskSpec("group")
    assert TaskSpec.from_dict(spec.to_dict()) == spec
    with pytest.raises(ValueError, match="known: retrieval"):
        TaskSpec("ranking")  # type: ignore[arg-type]


def test_manifest_round_trip_keeps_configs_drops_and_inputs(tmp_path):
    (tmp_path / "in.txt").write_text("x")
    m = BuildManifest(
        "d", "1.2.3", "b", CardInfo("D", "s"), configs={"c": ConfigInfo("c", "desc")}, seed=3
    )
    m.add_inputs(tmp_path / "in.txt", tmp_path / "in.txt")
    m.drops.drop("s", "r")
    again = BuildManifest.from_dict(m.to_dict())
    assert again.to_dict()["inputs"] == m.to_dict()["inputs"] and len(again.inputs) == 1
    assert again.configs["c"].task.type == "retrieval"
    assert again.drops.to_dict() == {"s": {"r": 1}}


@pytest.mark.parametrize(
    ("n", "category"), [(0, "n<1K"), (999, "n<1K"), (1_000, "1K<n<10K"), (26_508, "10K<n<100K")]
)
def test_size_category(n, category):
    assert size_category(n) == category


def test_card_names_repo_and_limitations():
    m = BuildManifest(
        "d", "1.0.0", "b", CardInfo("D", "s", limitations=("template captions only",))
    )
    m.counts = {"c": {"test": 2}}
    m.configs = {"c": ConfigInfo("c", "desc")}
    text = render_card(m, repo="org/d")
    assert 'load_dataset("org/d", "c", split="test")' in text
    assert "- template captions only" in text


def test_read_manifest_of_a_plain_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CrepeInputError, match=r"no build_manifest\.json"):
        read_manifest(tmp_path)

"""Dataset specs: folders with configs, Hub specs offline, and released benchmark files."""

from __future__ import annotations

import os

import pytest

from crepe_datasets.evaluator.compat import open_compat
from crepe_datasets.evaluator.datasets_io import ImageRef, open_dataset
from crepe_datasets.infra.errors import CrepeInputError, MissingResourceError
from tests.conftest import require_shared


def test_folder_configs_tasks_and_items(demo) -> None:
    dataset, _, _ = demo
    source = open_dataset(str(dataset))
    assert source.name == "demo-eval" and source.revision == "0.0.1"
    assert source.fingerprint.startswith("manifest:")
    assert {c: t.type for c, t in source.configs.items()} == {
        "bind": "binary", "hn_all": "retrieval", "hn_atom": "retrieval", "pairs": "group",
        "raw": "raw_retrieval", "syst": "retrieval",
    }  # fmt: skip
    items = source.load("hn_atom")["complexity_4"]
    assert (
        len(items) == 6 and len(items.texts[0]) == 4 and items.texts[0][0] == "a red square on grey"
    )
    assert items.images[0][0] == ImageRef("red_square.png", (0.0, 0.0, 64.0, 64.0))
    assert items.negative_types is not None and items.negative_types[0] == ("atom",) * 3
    pairs = open_dataset(f"{dataset}:pairs")
    assert list(pairs.configs) == ["pairs"]
    group = pairs.load("pairs")["test"]
    assert [r.file for r in group.images[0]] == ["red_square.png", "red_circle.png"]
    bind = source.load("bind")["mixed"]
    assert set(bind.groups["bucket"]) == {"amb_mixed", "amb_perfect_close"}
    with pytest.raises(CrepeInputError, match="no evaluable config"):
        open_dataset(f"{dataset}:nope")


def test_unknown_and_hub_specs_fail_with_one_sentence(tmp_path, monkeypatch) -> None:
    with pytest.raises(CrepeInputError, match="neither a folder nor a Hub repo"):
        open_dataset(str(tmp_path / "missing" / "x" / "y"))
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(MissingResourceError, match=r"build_manifest\.json"):
        open_dataset("some-org/some-dataset:aro_vga@v1.0.0")


def test_embedded_image_key_is_its_hash() -> None:
    a, b = ImageRef.embedded(b"png-bytes"), ImageRef.embedded(b"png-bytes")
    assert a.key == b.key and a.key.startswith("sha1:") and a.available
    assert not ImageRef().available


@pytest.mark.slow
def test_crepe_release_maps_to_productivity_configs() -> None:
    folder = require_shared("crepe_release", "prod_hard_negatives")
    source = open_compat(f"crepe-release:{folder}", "crepe-release", str(folder))
    assert set(source.configs) >= {"hn_atom", "hn_negate", "hn_swap"}
    splits = source.load("hn_atom")
    assert "complexity_4" in splits
    items = splits["complexity_4"]
    assert all(len(t) == 6 for t in items.texts)  # 1 positive + 5 negatives
    assert items.images[0][0].file == "13.jpg" and items.images[0][0].bbox == (
        237.0,
        391.0,
        402.0,
        208.0,
    )
    assert items.texts[0][0] == "computer on floor. floor under computer."


def test_sugarcrepe_and_aro_lists() -> None:
    folder = require_shared("sugarcrepe")
    source = open_dataset(f"sugarcrepe:{folder}")
    assert "swap_att" in source.configs and source.configs["swap_att"].type == "binary"
    items = source.load("swap_att")["test"]
    assert len(items.texts[0]) == 2 and items.images[0][0].file.endswith(".jpg")
    aro = require_shared("aro")
    with pytest.raises(CrepeInputError, match="names no image files"):
        open_dataset(f"aro-vga:{aro}")
    assert os.path.exists(aro)


def test_region_loader_reports_why_a_crop_failed(demo) -> None:
    from crepe_datasets.evaluator.encode import RegionDataset

    _, images, _ = demo
    (images / "broken.png").write_bytes(b"not a png")
    refs = [
        ImageRef("red_square.png", (0.0, 0.0, 10.0, 10.0)),
        ImageRef("missing.png"),
        ImageRef("red_square.png", (500.0, 500.0, 10.0, 10.0)),
        ImageRef("broken.png"),
        ImageRef(),
    ]
    data = RegionDataset(refs, images, lambda img: img.size)
    assert [data[i][1:] for i in range(len(refs))] == [
        ((10, 10), None),
        (None, "missing_image"),
        (None, "empty_crop"),
        (None, "unreadable_image"),
        (None, "no_image_reference"),
    ]


def test_configs_a_build_left_empty_are_not_evaluated():
    """A small build can leave a config without rows (and without data files): the evaluator
    takes the configs the manifest counts rows for."""
    from crepe_datasets.cards.manifest import BuildManifest
    from crepe_datasets.cards.metadata import CardInfo, ConfigInfo, TaskSpec
    from crepe_datasets.evaluator.datasets_io import _built_configs

    task = TaskSpec(type="retrieval")
    manifest = BuildManifest(
        "toy", "0.1.0", "toy", CardInfo("Toy", "A toy dataset."),
        configs={n: ConfigInfo(n, "", task) for n in ("hn_atom", "hn_all")},
    )  # fmt: skip
    assert set(_built_configs(manifest)) == {"hn_atom", "hn_all"}  # rows not counted
    manifest.counts = {"hn_atom": {"complexity_4": 3}, "hn_all": {"complexity_4": 0}}
    assert set(_built_configs(manifest)) == {"hn_atom"}

"""``crepe evaluate`` reads a dataset's ``image`` column (no ``--images``) with the same pixels
as it cuts from the image files, on productivity builds of the real VG 1-100 sample."""

from __future__ import annotations

import pytest
import torch

from crepe_datasets.evaluator.datasets_io import open_dataset
from crepe_datasets.evaluator.encode import RegionDataset
from crepe_datasets.evaluator.models import load_model
from crepe_datasets.evaluator.records import read_records
from crepe_datasets.scripts.cli import main
from tests.conftest import require_shared
from tests.vg_jpegs import productivity_builds

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    vg = require_shared("visual_genome", "images_1-100")
    root = tmp_path_factory.mktemp("image-column")
    return (root, *productivity_builds(vg, root, 12))


def test_column_pixels_equal_file_pixels(builds, tiny_models) -> None:
    root, _, plain, with_images = builds
    model = load_model(f"open_clip:{tiny_models[0]}", device="cpu", precision="fp32")
    embedded = open_dataset(f"{with_images}:hn_atom")
    files = open_dataset(f"{plain}:hn_atom")
    compared = 0
    for split, items in embedded.load("hn_atom").items():
        by_file = files.load("hn_atom")[split]
        assert by_file.ids == items.ids
        for ref, file_ref in zip(items.images, by_file.images, strict=True):
            ref, file_ref = ref[0], file_ref[0]
            if ref.data is None:  # no crop in the column: the file is missing or truncated
                continue
            assert file_ref.data is None and file_ref.file
            a = RegionDataset([ref], None, model.loader_transform)[0]
            b = RegionDataset([file_ref], root / "images", model.loader_transform)[0]
            assert a[2] is None and b[2] is None and torch.equal(a[1], b[1])
            compared += 1
    assert compared >= 8  # the hn_atom rows of 12 images hold about ten crops


def test_evaluate_without_images_equals_evaluate_with_the_files(
    builds, tiny_models, tmp_path
) -> None:
    root, _, plain, with_images = builds
    common = ["--device", "cpu", "--batch-size", "16", "--bootstrap", "50", "--no-cache",
              "--model", f"open_clip:{tiny_models[0]}", "--model", f"hf:{tiny_models[1]}"]  # fmt: skip
    assert (
        main(["evaluate", "--dataset", str(with_images), "--out", str(tmp_path / "a"), *common])
        == 0
    )
    assert main(["evaluate", "--dataset", str(plain), "--images", str(root / "images"),
                 "--out", str(tmp_path / "b"), *common]) == 0  # fmt: skip
    a = {(r.model, r.subset): r for r in read_records(tmp_path / "a")}
    b = {(r.model, r.subset): r for r in read_records(tmp_path / "b")}
    assert a.keys() == b.keys() and len(a) >= 8
    for key, record in a.items():
        assert record.n == b[key].n > 0
        assert record.metrics == {k: v for k, v in b[key].metrics.items()}
        # rows without a crop are dropped in both runs, counted by reason
        assert sum(record.drops.get("evaluate", {}).values()) == sum(
            b[key].drops.get("evaluate", {}).values()
        )

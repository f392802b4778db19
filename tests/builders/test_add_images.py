"""``crepe add-images`` on productivity builds of the real Visual Genome sample (images 1-100).

The images are JPEGs the test writes at the sizes of ``image_data.json`` (RGB, grayscale, CMYK,
EXIF-rotated, truncated, missing): adding them to a build equals building with them (same
shards, byte for byte), a second run changes nothing, an interrupted run resumes, every row
without a crop is counted by reason, and ``validate dataset`` checks the crops' checksums.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from crepe_datasets.builders.add_images import add_images
from crepe_datasets.scenegraph.crops import CROP_RULE, open_rgb
from crepe_datasets.scenegraph.visual_genome import read_image_data
from crepe_datasets.scripts.cli import main
from crepe_datasets.validation.files import check_files
from tests.conftest import require_shared
from tests.vg_jpegs import productivity_builds

pytestmark = pytest.mark.slow
LIMIT = 12


def _shards(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in (folder / "data").rglob("*.parquet")
    }


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    vg = require_shared("visual_genome", "images_1-100")
    root = tmp_path_factory.mktemp("add-images")
    kinds, plain, with_images = productivity_builds(vg, root, LIMIT)
    return vg, root, kinds, plain, with_images


def test_adding_images_equals_building_with_them_and_reruns_are_no_ops(builds, tmp_path) -> None:
    _, root, _, plain, with_images = builds
    folder = tmp_path / "ds"
    shutil.copytree(plain, folder)
    first = add_images(folder, root / "images")
    assert first.changed and first.shards_written > 1 and first.shards_skipped == 0
    assert _shards(folder) == _shards(with_images)
    manifest = json.loads((folder / "build_manifest.json").read_text())
    built = json.loads((with_images / "build_manifest.json").read_text())
    assert manifest["summary"]["image_column"] == built["summary"]["image_column"]
    assert manifest["drops"]["images"] == built["drops"]["images"] == first.failed
    assert manifest["counts"] == built["counts"]  # no row left out
    for card in (folder / "README.md", with_images / "README.md"):
        text = card.read_text()
        assert "image licence: CC BY 4.0 (Visual Genome images)" in text
        assert f"Crop rule: {CROP_RULE}" in text
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    mtimes = {p: p.stat().st_mtime_ns for p in before}
    again = add_images(folder, root / "images")
    assert not again.changed and again.shards_written == 0 and again.crops == first.crops
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert {p: p.stat().st_mtime_ns for p in before} == mtimes
    assert check_files(folder).passed


def test_rows_without_a_crop_are_counted_by_reason_and_crops_follow_the_rule(
    builds, tmp_path
) -> None:
    from datasets import load_dataset

    vg, root, kinds, _, with_images = builds
    infos = read_image_data(vg / "image_data.json")
    summary = json.loads((with_images / "build_manifest.json").read_text())["summary"][
        "image_column"
    ]
    assert summary["crop_rule"] == CROP_RULE and summary["license"].startswith("CC BY 4.0")
    failed: dict[str, int] = {}
    for split in summary["splits"].values():
        for reason, n in split["failed"].items():
            failed[reason] = failed.get(reason, 0) + n
    splits = load_dataset(str(with_images), "raw", cache_dir=str(tmp_path / "hf"))
    seen = {}
    for row in (row for ds in splits.values() for row in ds):
        kind = kinds[row["image_id"]]
        seen[kind] = seen.get(kind, 0) + 1
        if kind in ("missing", "truncated"):
            assert row["image"] is None
            continue
        assert row["image_license"] == "CC BY 4.0 (Visual Genome images)"
        info = infos[row["image_id"]]
        source = open_rgb(root / "images" / info.file_name)
        assert source.size == (info.width, info.height)  # stored pixels: EXIF not applied
        x, y, w, h = row["bbox"]
        expected = source.crop((round(x), round(y), round(x + w), round(y + h)))
        assert row["image"].mode == "RGB"
        assert np.array_equal(np.asarray(row["image"]), np.asarray(expected))
    assert {"rgb", "gray", "cmyk", "exif_rotated"} <= set(seen)
    assert failed.get("missing_image", 0) > 0 and failed.get("truncated_image", 0) > 0
    assert set(failed) <= {"missing_image", "truncated_image"}


def test_an_interrupted_run_resumes_and_the_command_reports(
    builds, tmp_path, monkeypatch, capsys
) -> None:
    import crepe_datasets.builders.add_images as module

    _, root, _, plain, with_images = builds
    folder = tmp_path / "ds"
    shutil.copytree(plain, folder)
    real, calls = module._shard_job, []

    def dies_on_third(*args):
        calls.append(args[0])
        if len(calls) == 3:
            (args[0].parent / f".{args[0].name}.999.tmp").write_bytes(b"half a shard")
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(module, "_shard_job", dies_on_third)
    with pytest.raises(KeyboardInterrupt):
        add_images(folder, root / "images")
    monkeypatch.setattr(module, "_shard_job", real)
    assert not check_files(folder).passed  # two shards changed, the manifest not yet
    assert main(["add-images", str(folder), "--images", str(root / "images")]) == 0
    out = capsys.readouterr().out
    assert "2 already done" in out and "missing_image=" in out
    assert _shards(folder) == _shards(with_images)
    assert not list(folder.rglob("*.tmp")) and check_files(folder).passed
    assert main(["add-images", str(folder), "--images", str(root / "images")]) == 0
    assert "nothing changed" in capsys.readouterr().out


def test_validate_checks_the_crops_against_the_manifest(builds, tmp_path) -> None:
    _, _, _, _, with_images = builds
    folder = tmp_path / "ds"
    shutil.copytree(with_images, folder)
    manifest = json.loads((folder / "build_manifest.json").read_text())
    name = sorted(manifest["summary"]["image_column"]["splits"])[0]
    manifest["summary"]["image_column"]["splits"][name]["sha256"] = "0" * 64
    (folder / "build_manifest.json").write_text(json.dumps(manifest))
    problems = check_files(folder).problems
    assert any(p.startswith(f"{name}: crop checksum differs") for p in problems)


def test_zip_pool_and_dask_give_the_same_shards(builds, tmp_path) -> None:
    import zipfile

    _, root, _, plain, with_images = builds
    archive = tmp_path / "images.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((root / "images").iterdir()):
            zf.write(path, f"VG_100K/{path.name}")
    folder = tmp_path / "ds"
    shutil.copytree(plain, folder)
    add_images(folder, archive, workers=2)
    assert _shards(folder) == _shards(with_images)
    dask_folder = tmp_path / "dask"
    shutil.copytree(plain, dask_folder)
    add_images(dask_folder, archive, workers=2, engine="dask")
    assert _shards(dask_folder) == _shards(with_images)


def test_systematicity_with_images_loads_a_crop_per_row(builds, tmp_path) -> None:
    from datasets import load_dataset

    from crepe_datasets.builders.engines import InProcessEngine
    from crepe_datasets.builders.seen_build import build_seen_tables
    from crepe_datasets.builders.systematicity.build import (
        SystematicitySettings,
        build_systematicity,
    )

    vg, root, kinds, _, _ = builds
    corpus = require_shared("coco", "minyus_samples", "captions_val2014.json_samples.json")
    seen = tmp_path / "seen"
    build_seen_tables(f"coco:{corpus}", seen, InProcessEngine(), progress=False)
    settings = SystematicitySettings(
        vg=str(vg), out=str(tmp_path / "plain"), seen=str(seen), limit=LIMIT, progress=False
    )
    plain, _ = build_systematicity(settings)
    with_images, _ = build_systematicity(
        SystematicitySettings(**{**settings.__dict__, "out": str(tmp_path / "with"),
                                 "images": str(root / "images")})
    )  # fmt: skip
    folder = tmp_path / "added"
    shutil.copytree(plain, folder)
    add_images(folder, root / "images")
    assert _shards(folder) == _shards(with_images)
    ds = load_dataset(str(folder), "hn_comp", cache_dir=str(tmp_path / "hf"))
    ds = ds[sorted(ds)[0]]
    crops = [row["image"] for row in ds if kinds[row["image_id"]] not in ("missing", "truncated")]
    assert crops and all(c is not None and c.mode == "RGB" for c in crops)
    assert check_files(folder).passed

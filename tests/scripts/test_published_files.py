"""Every dataset built on this machine: safe --out, portable and private files, validate, publish.

One build of each dataset through the command line, on real samples of ../shared/data:
crepe-vg-regions and crepe-productivity (Visual Genome images 1-100), crepe-bindsplit (ARO
VG-Attribution against 300 real COCO val2017 captions) and crepe-bindsplit-holdout.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from crepe_datasets.scripts.cli import main
from tests.conftest import REPO_ROOT, require_shared

pytestmark = pytest.mark.slow  # builds every dataset of the toolkit


ABSOLUTE_PATH = re.compile(r"(?<![:/\w.])/[\w.-]+/")


def _kill_productivity_while_spooling(vg: Path, out: Path) -> list[str]:
    """Start a real build, SIGKILL it once its spool exists; return the leftovers it left."""
    argv = [sys.executable, "-m", "crepe_datasets", "build", "productivity", "--vg", str(vg),
            "--no-nli", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(
        argv, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.time() + 120
    while time.time() < deadline and not list(out.parent.glob(".crepe-spool-*")):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    vg_src = require_shared("visual_genome", "images_1-100")
    aro = require_shared("aro")
    coco = require_shared("coco", "captions_val2017.json")
    root = tmp_path_factory.mktemp("published")
    vg = root / "vg"
    vg.mkdir()
    for name in ("scene_graphs.json", "image_data.json", "region_descriptions.json"):
        shutil.copy(vg_src / name, vg / name)
    captions = [a["caption"].strip() for a in json.loads(coco.read_text())["annotations"][:300]]
    (root / "corpus.txt").write_text("\n".join(captions) + "\n")
    out = root / "out"
    out.mkdir()
    leftovers = _kill_productivity_while_spooling(vg, out / "crepe-productivity")
    runs = {
        "crepe-vg-regions": ["build", "vg-regions", "--vg", str(vg)],
        "crepe-productivity": ["build", "productivity", "--vg", str(vg), "--no-nli", "--limit", "3"],
        "crepe-bindsplit": ["build", "bindsplit", "--benchmark", "aro-vga", "--benchmark-path",
                            str(aro), "--training", f"text:{root / 'corpus.txt'}",
                            "--cache-dir", str(root / "cache")],
        "crepe-bindsplit-holdout": ["build", "bindsplit-holdout", "--attributes",
                                    "red,blue,green,white", "--objects", "dog,cat,horse,bird", "--k", "2"],
    }  # fmt: skip
    elapsed = {}
    old_umask = os.umask(0o022)
    try:
        for name, argv in runs.items():
            start = time.time()
            assert main([*argv, "--out", str(out / name)]) == 0, name
            elapsed[name] = time.time() - start
    finally:
        os.umask(old_umask)
    return {"root": root, "vg": vg, "out": out, "elapsed": elapsed, "leftovers": leftovers}


DATASETS = ["crepe-vg-regions", "crepe-productivity", "crepe-bindsplit", "crepe-bindsplit-holdout"]


@pytest.mark.parametrize("name", DATASETS)
def test_card_and_manifest_hold_no_path_and_no_user_name(built, name):
    folder = built["out"] / name
    user = getpass.getuser()
    for file in ("README.md", "build_manifest.json"):
        text = (folder / file).read_text()
        assert not ABSOLUTE_PATH.findall(text), (file, ABSOLUTE_PATH.findall(text)[:3])
        for private in (str(Path.home()), str(built["root"]), str(REPO_ROOT), ".cache"):
            assert private not in text, (file, private)
        assert not re.search(rf"\b{re.escape(user)}\b", text), (file, user)
    manifest = json.loads((folder / "build_manifest.json").read_text())
    assert all(
        "/" not in f["path"] or not f["path"].startswith(("/", ".")) for f in manifest["inputs"]
    )
    assert manifest["parameters"].get("out", name) == name


@pytest.mark.parametrize("name", DATASETS)
def test_modes_follow_the_umask_and_wall_time_counts_the_whole_command(built, name):
    folder = built["out"] / name
    for path in [folder, *folder.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o755 if path.is_dir() else 0o644), (path, oct(mode))
    wall = json.loads((folder / "build_manifest.json").read_text())["wall_time_s"]
    assert built["elapsed"][name] - 1.0 <= wall <= built["elapsed"][name]


def test_killed_build_leftovers_are_cleaned_by_the_next_run(built):
    assert any(n.startswith(".crepe-spool-") for n in built["leftovers"]), built["leftovers"]
    assert sorted(p.name for p in built["out"].iterdir()) == sorted(DATASETS)


@pytest.mark.parametrize("name", DATASETS)
def test_validate_dataset_passes_on_every_builder(built, name, capsys):
    assert main(["validate", "dataset", str(built["out"] / name)]) == 0
    printed = capsys.readouterr().out
    assert "files: passed" in printed and "invariants: passed" in printed


def test_out_rules_on_the_command_line(built, capsys):
    out, vg = built["out"], built["vg"]
    before = {p.name: p.read_bytes() for p in vg.iterdir()}
    base = ["build", "vg-regions", "--vg", str(vg)]
    assert main([*base, "--out", str(vg)]) == 2
    assert "is the input" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in vg.iterdir()} == before
    assert main([*base, "--out", str(out / "crepe-vg-regions")]) == 2
    assert "pass --overwrite" in capsys.readouterr().err
    (out.parent / "notes").mkdir(exist_ok=True)
    (out.parent / "notes" / "n.txt").write_text("mine")
    assert main([*base, "--out", str(out.parent / "notes"), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert "not a dataset built by crepe" in err and "Traceback" not in err
    assert (out.parent / "notes" / "n.txt").read_text() == "mine"
    for bad in ("", "."):
        assert main([*base, "--out", bad]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["parse", "--input", str(built["root"] / "corpus.txt"), "--out", str(out)]) == 2
    assert "is a folder" in capsys.readouterr().err
    old = (out / "crepe-vg-regions" / "build_manifest.json").read_text()
    assert main([*base, "--out", str(out / "crepe-vg-regions"), "--overwrite"]) == 0
    assert (out / "crepe-vg-regions" / "build_manifest.json").read_text() != old  # new started_at


def _copy(built, name, dst):
    return Path(shutil.copytree(built["out"] / name, built["root"] / dst))


def test_validate_catches_lost_rows_and_truncated_parquet(built, capsys):
    lost = _copy(built, "crepe-bindsplit", "lost-rows")
    shard = sorted((lost / "data" / "aro_vga").glob("unseen-*.parquet"))[0]
    table = pq.read_table(shard)
    pq.write_table(table.slice(0, table.num_rows - 7), shard)
    assert main(["validate", "dataset", str(lost)]) == 1
    printed = capsys.readouterr().out
    assert "files: FAILED" in printed and "changed after the build" in printed
    assert "but the manifest counts" in printed
    truncated = _copy(built, "crepe-bindsplit-holdout", "truncated")
    shard = sorted((truncated / "data" / "holdout").glob("*.parquet"))[0]
    shard.write_bytes(shard.read_bytes()[: shard.stat().st_size // 2])
    assert main(["validate", "dataset", str(truncated)]) == 1
    captured = capsys.readouterr()
    assert "not a readable parquet file (truncated or corrupted)" in captured.out
    assert "Traceback" not in captured.out + captured.err


def test_publish_dry_run_validates_and_lists_only_manifest_files(built, capsys):
    folder = _copy(built, "crepe-productivity", "to-publish")
    (folder / "notes.md").write_text("my notes, not part of the dataset")
    assert main(["publish", str(folder), "--repo", "me/prod", "--dry-run"]) == 0
    printed = capsys.readouterr().out
    manifest = json.loads((folder / "build_manifest.json").read_text())
    listed = len(manifest["outputs"]) + 2 + len(manifest["assets"])  # + README, manifest, plots
    assert "validation: passed" in printed and f"{listed} files" in printed
    from crepe_datasets.cards.publish import plan_release

    plan = plan_release(folder, "me/prod")
    assert "notes.md" not in plan.files and set(plan.files) == {
        "README.md", "build_manifest.json", *(o["path"] for o in manifest["outputs"]),
        *manifest["assets"],
    }  # fmt: skip
    (folder / ".env").write_text("HF_TOKEN=hf_xxx")
    assert main(["publish", str(folder), "--repo", "me/prod", "--dry-run"]) == 2
    assert "secrets-like files (.env)" in capsys.readouterr().err
    (folder / ".env").unlink()
    shard = next((folder / "data").rglob("*.parquet"))
    shard.write_bytes(shard.read_bytes()[:-100])
    assert main(["publish", str(folder), "--repo", "me/prod", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "failed validation" in err and "nothing was published" in err

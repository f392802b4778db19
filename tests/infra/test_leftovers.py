"""Leftovers of killed runs are cleaned when provably stale; new files follow the umask."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.leftovers import clean_stale, is_stale, owned_temp_dir
from crepe_datasets.infra.provenance import atomic_directory, write_text_atomic
from tests.conftest import REPO_ROOT

MAKE_TEMP = (
    "import sys; from crepe_datasets.infra.leftovers import owned_temp_dir, owned_temp_file; "
    "d = owned_temp_dir(sys.argv[1], '.ds.tmp-'); (d / 'part.parquet').write_text('x'); "
    "owned_temp_dir(sys.argv[1], '.crepe-spool-'); owned_temp_file(sys.argv[1], '.README.md.tmp-')"
)


def _leave_leftovers(folder) -> list[str]:
    """Run a real process that creates temporary names and exits without removing them."""
    subprocess.run([sys.executable, "-c", MAKE_TEMP, str(folder)], check=True, cwd=REPO_ROOT)
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_leftovers_of_a_dead_process_are_removed(tmp_path):
    names = _leave_leftovers(tmp_path)
    assert len(names) == 3 and all(is_stale(n) for n in names)
    (tmp_path / ".mine").mkdir()  # not ours: never touched
    (tmp_path / ".ds.tmp-abc").mkdir()  # an old-style name without an owner: cannot be proved stale
    live = owned_temp_dir(tmp_path, ".ds.tmp-")  # this process is alive
    removed = clean_stale(tmp_path)
    assert sorted(p.name for p in removed) == names
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([".mine", ".ds.tmp-abc", live.name])


def test_next_build_cleans_leftovers_beside_its_output(tmp_path):
    _leave_leftovers(tmp_path)
    with atomic_directory(tmp_path / "ds") as tmp:
        (tmp / "a.txt").write_text("new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_modes_follow_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        with atomic_directory(tmp_path / "ds") as tmp:
            write_text_atomic(tmp / "README.md", "card")
        folder_mode = stat.S_IMODE((tmp_path / "ds").stat().st_mode)
        file_mode = stat.S_IMODE((tmp_path / "ds" / "README.md").stat().st_mode)
    finally:
        os.umask(old)
    assert folder_mode == 0o777 & ~umask and file_mode == 0o666 & ~umask


def test_replacing_keeps_the_old_folder_until_the_new_one_is_complete(tmp_path):
    target = tmp_path / "ds"
    with atomic_directory(target) as tmp:
        (tmp / "v").write_text("1")
    with pytest.raises(RuntimeError), atomic_directory(target) as tmp:
        (tmp / "v").write_text("2")
        assert (target / "v").read_text() == "1"
        raise RuntimeError("killed half way")
    assert (target / "v").read_text() == "1"
    with atomic_directory(target) as tmp:
        (tmp / "v").write_text("3")
    assert (target / "v").read_text() == "3"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]


def test_a_file_is_never_renamed_away(tmp_path):
    (tmp_path / "ds").write_text("user file")
    with pytest.raises(CrepeInputError, match="is a file"), atomic_directory(tmp_path / "ds"):
        pass
    assert (tmp_path / "ds").read_text() == "user file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]

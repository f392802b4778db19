"""Temporary files and folders that name their owner, so that a later run can clean them up.

A build writes beside its ``--out`` (``.NAME.tmp-…`` folders and files, ``.NAME.old-…`` while
swapping, ``.crepe-spool-…`` scratch rows). A killed build leaves them behind. Each such name
carries the owning process id and a short hash of the host name::

    .crepe-productivity.tmp-4242-1a2b3c4d-x8k2m1

so the next run can prove that one is stale (same host, process gone) and remove it, while a
build running beside it (another process, or another host on a shared disk) is left alone.

New files and folders get the modes of the user's umask (0755 / 0644 under umask 022), not the
0700 / 0600 of :mod:`tempfile`.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import socket
import tempfile
from pathlib import Path

logger = logging.getLogger(__name__)

SPOOL_PREFIX = ".crepe-spool-"
_OWNED = re.compile(
    r"^(?:\.crepe-spool-|\..+\.(?:tmp|old)-)(?P<pid>\d+)-(?P<host>[0-9a-f]{8})-[A-Za-z0-9_]+$"
)


def host_tag() -> str:
    """Eight hex digits identifying this host (a hash: the host name itself is not written)."""
    return hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]


def owner_tag() -> str:
    """``<pid>-<host hash>``: the owner part of every temporary name."""
    return f"{os.getpid()}-{host_tag()}"


def current_umask() -> int:
    """The process umask (read from /proc where possible, so no thread sees it changed)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def normal_mode(path: str | os.PathLike) -> None:
    """Give ``path`` the mode a plain ``mkdir`` / ``open`` would: 0777 or 0666 minus the umask."""
    base = 0o777 if os.path.isdir(path) else 0o666
    os.chmod(path, base & ~current_umask())


def owned_temp_dir(parent: str | os.PathLike, prefix: str) -> Path:
    """A new folder ``<parent>/<prefix><pid>-<host>-<random>`` with normal modes."""
    path = Path(tempfile.mkdtemp(prefix=f"{prefix}{owner_tag()}-", dir=parent))
    normal_mode(path)
    return path


def owned_temp_file(parent: str | os.PathLike, prefix: str) -> Path:
    """A new empty file ``<parent>/<prefix><pid>-<host>-<random>`` with normal modes."""
    fd, name = tempfile.mkstemp(prefix=f"{prefix}{owner_tag()}-", dir=parent)
    os.close(fd)
    normal_mode(name)
    return Path(name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a process of another user holds this id
    return True


def is_stale(name: str) -> bool:
    """Whether a temporary name was left by a process of this host that no longer runs."""
    match = _OWNED.match(name)
    if match is None or match["host"] != host_tag():
        return False
    return not _alive(int(match["pid"]))


def clean_stale(parent: str | os.PathLike) -> list[Path]:
    """Remove the provably stale temporary files and folders in ``parent``; return them.

    Only names written by this module count, and only when their owning process (on this host)
    is gone; anything else, including leftovers of a build still running, is left alone.
    """
    folder = Path(parent)
    if not folder.is_dir():
        return []
    removed: list[Path] = []
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(".")]
    except OSError:
        return []
    for entry in entries:
        if not is_stale(entry.name):
            continue
        path = Path(entry.path)
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError as err:
            logger.warning("could not remove leftover %s of a killed run: %s", path, err)
            continue
        removed.append(path)
    if removed:
        logger.warning(
            "removed %d leftover(s) of earlier killed runs in %s: %s",
            len(removed),
            folder,
            ", ".join(p.name for p in removed),
        )
    return removed

"""Where records come from and where they go: drop accounting, checksums, atomic writes.

"Nothing lost silently": every stage that skips a record calls :meth:`DropLog.drop` with a
stage and a short snake_case reason; the counts end up in the build manifest and the card.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.leftovers import (
    clean_stale,
    normal_mode,
    owned_temp_dir,
    owned_temp_file,
)

MAX_EXAMPLES_PER_REASON = 3
_COMMAND_START: float | None = None


def mark_command_start(at: float | None = None) -> None:
    """Record when the running command started (``None`` forgets it); wall times count from it."""
    global _COMMAND_START
    _COMMAND_START = at


def command_start() -> float:
    """When the running command started, or now when no command is running (library use)."""
    return _COMMAND_START if _COMMAND_START is not None else time.time()


class DropLog:
    """Counts of dropped records by ``(stage, reason)``, with a few examples of each.

    Example:
        >>> drops = DropLog()
        >>> drops.drop("coco", "empty_caption", example="annotation 17")
        >>> drops.to_dict()["coco"]["empty_caption"]
        1
    """

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        self.examples: dict[tuple[str, str], list[str]] = {}
        self.repairs: Counter[tuple[str, str]] = Counter()

    def drop(self, stage: str, reason: str, example: str | None = None, n: int = 1) -> None:
        """Count ``n`` dropped records of ``stage`` for ``reason``; keep a short example."""
        key = (stage, reason)
        self.counts[key] += n
        if example is not None:
            bucket = self.examples.setdefault(key, [])
            if len(bucket) < MAX_EXAMPLES_PER_REASON:
                bucket.append(str(example)[:200])

    def repair(self, stage: str, reason: str, n: int = 1) -> None:
        """Count ``n`` records of ``stage`` that were kept after a repair (e.g. a clipped box).

        Repairs are reported beside the drops, never added to them.
        """
        self.repairs[(stage, reason)] += n

    def merge(self, other: DropLog) -> None:
        """Add every count and example of ``other`` to this log."""
        self.counts.update(other.counts)
        self.repairs.update(other.repairs)
        for key, examples in other.examples.items():
            bucket = self.examples.setdefault(key, [])
            bucket.extend(examples[: MAX_EXAMPLES_PER_REASON - len(bucket)])

    def total(self, stage: str | None = None) -> int:
        return sum(n for (s, _), n in self.counts.items() if stage is None or s == stage)

    def __len__(self) -> int:
        return self.total()

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{stage: {reason: count}}`` with sorted keys (stable in the manifest)."""
        out: dict[str, dict[str, int]] = {}
        for (stage, reason), n in sorted(self.counts.items()):
            out.setdefault(stage, {})[reason] = n
        return out

    def repairs_dict(self) -> dict[str, dict[str, int]]:
        """``{stage: {reason: count}}`` of repaired (kept) records."""
        out: dict[str, dict[str, int]] = {}
        for (stage, reason), n in sorted(self.repairs.items()):
            out.setdefault(stage, {})[reason] = n
        return out

    def examples_dict(self) -> dict[str, dict[str, list[str]]]:
        out: dict[str, dict[str, list[str]]] = {}
        for (stage, reason), ex in sorted(self.examples.items()):
            out.setdefault(stage, {})[reason] = list(ex)
        return out

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Mapping[str, int]],
        repairs: Mapping[str, Mapping[str, int]] | None = None,
    ) -> DropLog:
        log = cls()
        for stage, reasons in data.items():
            for reason, n in reasons.items():
                log.counts[(stage, reason)] += int(n)
        for stage, reasons in (repairs or {}).items():
            for reason, n in reasons.items():
                log.repairs[(stage, reason)] += int(n)
        return log

    def summary_lines(self) -> list[str]:
        """Human-readable lines, largest counts first."""
        return [f"{stage}: {reason} = {n:,}" for (stage, reason), n in self.counts.most_common()]


@dataclass(frozen=True)
class InputFile:
    """One input file of a build, identified by its content."""

    path: str
    bytes: int
    sha256: str

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "bytes": self.bytes, "sha256": self.sha256}


def cache_root(kind: str) -> Path:
    """Folder for a kind of reusable cache (``$CREPE_CACHE/<kind>``, else ``~/.cache/crepe/<kind>``)."""
    return Path(os.environ.get("CREPE_CACHE", Path.home() / ".cache" / "crepe")) / kind


def sha256_file(path: str | os.PathLike, chunk_size: int = 1 << 20) -> str:
    """Hex SHA-256 of a file, read in chunks (constant memory)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def describe_input(path: str | os.PathLike) -> InputFile:
    """Size and checksum of one input file."""
    p = Path(path)
    return InputFile(str(p), p.stat().st_size, sha256_file(p))


def describe_inputs(paths: Iterator[str | os.PathLike] | list) -> list[InputFile]:
    """Describe every file; folders are expanded to the files they contain, sorted."""
    out: list[InputFile] = []
    for path in paths:
        p = Path(path)
        if p.is_dir():
            out += [describe_input(f) for f in sorted(p.rglob("*")) if f.is_file()]
        elif p.exists():
            out.append(describe_input(p))
    return out


def combined_checksum(files: list[InputFile]) -> str:
    """One checksum over several inputs (their checksums in order), for cache keys."""
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.sha256.encode())
    return digest.hexdigest()


def write_json_atomic(path: str | os.PathLike, data: Any) -> None:
    """Write JSON to ``path`` through a temporary file and a rename (never half-written)."""
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_text_atomic(path, text)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it is renamed onto ``path``.

    Whatever is written to the temporary path (by any library) appears at ``path`` all at once,
    or not at all when the block raises. The file gets the umask's mode (0644 under umask 022),
    and its temporary name names its owner, so that a killed run's leftover can be cleaned.
    """
    target = Path(path)
    if target.is_dir():
        raise CrepeInputError(f"{target} is a folder; give the name of a file to write")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = owned_temp_file(target.parent, f".{target.name}.tmp-")
    try:
        yield tmp
        normal_mode(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write text to ``path`` through a temporary file in the same folder and a rename."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


@contextlib.contextmanager
def atomic_directory(target: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary sibling folder; on success it replaces ``target`` in one swap.

    The earlier ``target`` (if any) stays in place until the new folder is complete; the two are
    then exchanged atomically (``renameat2(RENAME_EXCHANGE)`` on Linux, two renames elsewhere)
    and the old one is removed. On error the temporary folder is removed and ``target`` is left
    as it was. Stale leftovers of killed runs beside ``target`` are removed first.

    Raises:
        CrepeInputError: when ``target`` is an existing file (never renamed away silently).
    """
    final = Path(target)
    if final.exists() and not final.is_dir():
        raise CrepeInputError(f"{final} is a file, not a folder; choose another --out")
    final.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(final.parent)
    tmp = owned_temp_dir(final.parent, f".{final.name}.tmp-")
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if not final.exists():
        os.replace(tmp, final)
    elif _exchange(tmp, final):
        shutil.rmtree(tmp, ignore_errors=True)  # tmp now holds the earlier folder
    else:
        old = owned_temp_dir(final.parent, f".{final.name}.old-")
        os.replace(final, old / final.name)
        os.replace(tmp, final)
        shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically with Linux's ``renameat2(RENAME_EXCHANGE)``; False if unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0

"""Where records come from and where they go: drop accounting, checksums, atomic writes.

"Nothing lost silently": every stage that skips a record calls :meth:`DropLog.drop` with a
stage and a short snake_case reason; the counts end up in the build manifest and the card.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_EXAMPLES_PER_REASON = 3


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
    or not at all when the block raises.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(fd)
    try:
        yield Path(tmp)
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
    """Yield a temporary sibling folder; on success it replaces ``target`` in one rename.

    On error the temporary folder is removed and ``target`` is left as it was.
    """
    final = Path(target)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.tmp-", dir=final.parent))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = None
    if final.exists():
        old = final.with_name(f".{final.name}.old-{os.getpid()}")
        os.replace(final, old)
    os.replace(tmp, final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)

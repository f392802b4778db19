"""Where a build's counter-image pool lay, and finding it again for ``crepe validate dataset``.

A build with a ``groups`` config records its pool in the manifest
(``summary.groups.pool.sources``): one entry per source, in the build's order (the ``--vg`` folder
first, then each ``--counter-pool``), with the path it was read from, its kind (``vg`` folder or
``factual`` CSV) and the SHA-256 of every file it read (the ``--vg`` folder's alias lists
included: they make the names canonical). :func:`resolve_pool` finds each source again: at the
recorded path, or at a path the user gives (``--counter-pool PATH``, repeatable) when the files
moved. A source is found where a path of its kind holds files with the recorded checksums, so a
moved or renamed copy is found and a changed one is refused. A published manifest holds no path
of the build machine (:mod:`crepe_datasets.cards.portable`): the recorded path is the source's
name, found when it lies in the current folder; elsewhere the user names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from crepe_datasets.builders.counter_images.pool import pool_sources, source_files
from crepe_datasets.generators.terms import Terms
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import describe_inputs


def _kind(path: Path) -> str:
    return "vg" if path.is_dir() else "factual"


def _files(path: Path, first: bool) -> list[Path]:
    return source_files(path) + (Terms().files(path) if first and path.is_dir() else [])


def describe_pool(vg: str, extra: Sequence[str]) -> list[dict[str, Any]]:
    """The pool's sources as the manifest records them (path, kind, SHA-256 of each file)."""
    out = []
    for i, (path, _) in enumerate(pool_sources(vg, list(extra))):
        files = _files(path, i == 0)
        sums = {f.name: d.sha256 for f, d in zip(files, describe_inputs(files), strict=True)}
        out.append({"path": str(path), "kind": _kind(path), "files": dict(sorted(sums.items()))})
    return out


def _checksums(path: Path, names: Sequence[str]) -> dict[str, str | None]:
    """SHA-256 of the recorded file ``names`` at ``path`` (a CSV: the file itself, renamed or
    not); ``None`` for a file that is not there."""
    files = [path / n for n in names] if path.is_dir() else [path]
    present = [f for f in files if f.is_file()]
    sums = {f.name: d.sha256 for f, d in zip(present, describe_inputs(present), strict=True)}
    return {n: sums.get(n if path.is_dir() else path.name) for n in names}


def resolve_pool(
    recorded: Sequence[Mapping[str, Any]], given: Sequence[str | Path], folder: str | Path
) -> tuple[str, list[str]]:
    """The ``--vg`` folder and the extra sources of a recorded pool, found on this machine.

    Args:
        recorded: the manifest's ``summary.groups.pool.sources``.
        given: paths the user named (``--counter-pool``, and ``validate dataset --vg``); each
            recorded source is looked for among them first (a path of its kind whose files have
            the recorded checksums), then at its recorded path.
        folder: the dataset folder (for the messages).

    Raises:
        CrepeInputError: a source is nowhere to be found, or its files differ from the
            build's (a given path that matches no recorded source counts as differing).
    """
    paths = [Path(p).expanduser().resolve() for p in given]
    for p in paths:
        if not p.exists():
            raise CrepeInputError(f"the counter pool source {p} does not exist.")
    used: set[Path] = set()
    found: list[str] = []
    for source in recorded:
        files: dict[str, str] = dict(source["files"])
        names = sorted(files) if source["kind"] == "vg" else [next(iter(files))]
        own = Path(source["path"])
        candidates = [p for p in paths if _kind(p) == source["kind"]]
        candidates += [own] if own.exists() and own not in candidates else []
        differing: tuple[Path, str] | None = None
        for cand in candidates:
            sums = _checksums(cand, names)
            bad = [n for n in names if sums[n] != files[n]]
            if not bad:
                found.append(str(cand))
                used.add(cand)
                break
            differing = differing or (cand, bad[0])
        else:
            if differing is not None:
                where, name = differing
                raise CrepeInputError(
                    f"the counter pool {where} differs from the one {folder} was built with "
                    f"({name}: not the SHA-256 its manifest records); give the pool it was "
                    "built from with --counter-pool PATH."
                )
            raise CrepeInputError(
                f"the counter pool {own} that {folder} was built with is not there (a "
                "manifest records its name, not where it lay); give where it lies with "
                "--counter-pool PATH (repeatable)."
            )
    extra = [p for p in paths if p not in used]
    if extra:
        raise CrepeInputError(
            f"{extra[0]} (given with --counter-pool or --vg) differs from every pool source "
            f"{folder} was built with (no file with the SHA-256 its manifest records)."
        )
    return found[0], found[1:]

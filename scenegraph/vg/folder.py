"""The Visual Genome folder a build reads: one clear sentence when it is not usable."""

from __future__ import annotations

import os
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError


def vg_files(folder: str | os.PathLike, *names: str, option: str = "--vg") -> list[Path]:
    """The files ``names`` inside the Visual Genome folder ``folder``, checked in that order.

    Raises:
        CrepeInputError: the folder does not exist, is a file, or lacks one of the files; the
            message says which, so that a mistyped path is not reported as a missing file.
    """
    p = Path(folder).expanduser()
    if not p.exists():
        raise CrepeInputError(
            f"{option} {p} does not exist; give the Visual Genome folder "
            f"(the one holding {', '.join(names)})."
        )
    if not p.is_dir():
        raise CrepeInputError(
            f"{option} {p} is a file, not a folder; give the Visual Genome folder holding it."
        )
    out = []
    for name in names:
        f = p / name
        if not f.is_file():
            raise CrepeInputError(
                f"{option} {p} has no {name}; give the Visual Genome folder holding it."
            )
        out.append(f)
    return out

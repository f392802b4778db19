"""Is an output path safe to write? One check for every command that writes.

Three kinds of output:

* ``dataset``: a folder replaced as a whole (every ``crepe build``). It may not exist yet, be
  empty, or hold a dataset this toolkit wrote (it has a ``build_manifest.json``), which is
  replaced only with ``overwrite``, and only when it holds nothing else (a ``.git`` of a Hub
  clone, the user's notes). Any other non-empty folder is refused, with or without
  ``overwrite``: it is not ours to delete.
* ``folder``: a folder that a command adds files to (``crepe evaluate`` results, ``crepe
  parse-corpus`` seen tables, ``crepe demo``). A ``recognise`` test says which non-empty
  folders the command may write into.
* ``file``: one file, replaced atomically (``crepe parse --out``, reports, JSON summaries).

For every kind: an empty name, ``.``, a folder where a file is expected (or the reverse), an
output equal to an input, a folder output inside an input (or holding one), and a place the
user cannot write are refused with one sentence naming the fix.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.leftovers import owned_temp_file

OutputKind = Literal["dataset", "folder", "file"]
MANIFEST_FILE = "build_manifest.json"
DATASET_ENTRIES = frozenset({MANIFEST_FILE, "README.md", "data", "assets"})
_SPEC = re.compile(r"^[a-z][a-z0-9_-]*:(?!//)")


def is_toolkit_dataset(folder: str | os.PathLike) -> bool:
    """Whether ``folder`` holds a dataset this toolkit wrote (a readable build manifest)."""
    path = Path(folder) / MANIFEST_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "dataset" in data and "builder" in data


def foreign_files(folder: str | os.PathLike) -> list[str]:
    """Entries of a dataset folder that a build does not write (e.g. ``.git``, notes), relative."""
    folder = Path(folder)
    out = [p.name for p in sorted(folder.iterdir()) if p.name not in DATASET_ENTRIES]
    data = folder / "data"
    if data.is_dir():
        out += [
            p.relative_to(folder).as_posix()
            for p in sorted(data.rglob("*"))
            if not p.is_dir() and p.suffix != ".parquet"
        ]
    return out


def input_paths(values: Iterable[object]) -> list[Path]:
    """Local paths named by input options: paths, ``KIND:PATH[#COLUMN]`` specs, globs, lists.

    Names that are not local paths (Hub repos, URLs) are left out.
    """
    out: list[Path] = []
    for value in values:
        if value is None:
            continue
        if isinstance(value, (list, tuple, set)):
            out += input_paths(value)
            continue
        text = str(value)
        for candidate in (text, _SPEC.sub("", text, count=1).split("#", 1)[0]):
            if "@" in candidate and not Path(candidate).exists():
                candidate = candidate.split("@", 1)[0]
            for part in (candidate, candidate.rsplit(":", 1)[0]):
                while part and any(c in part for c in "*?["):
                    part = os.path.dirname(part)
                if part and Path(part).exists():
                    out.append(Path(part).resolve())
                    break
            else:
                continue
            break
    return out


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def _probe(folder: Path, option: str, text: str) -> None:
    """Create ``folder`` if needed and write a probe file in it; refuse in one sentence if not."""
    ancestor = folder
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise CrepeInputError(f"{option} {text}: {ancestor} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        owned_temp_file(folder, ".crepe-write-probe.tmp-").unlink()
    except OSError as err:
        raise CrepeInputError(
            f"{option} {text}: cannot write in {folder} ({err.strerror or err}); choose a folder you can write to"
        ) from None


def check_output(
    path: str | os.PathLike,
    kind: OutputKind,
    *,
    inputs: Iterable[object] = (),
    overwrite: bool = False,
    option: str = "--out",
    recognise: Callable[[Path], bool] | None = None,
    what: str = "a dataset folder",
) -> Path:
    """Check that writing ``path`` cannot destroy anything it should not; return it as a Path.

    Args:
        path: the output as the user gave it (a string keeps ``''`` apart from ``'.'``).
        kind: ``dataset``, ``folder`` or ``file`` (see the module docstring).
        inputs: the command's input options (paths or ``KIND:PATH`` specs).
        overwrite: for ``dataset``: replace an earlier build of this toolkit.
        option: the option's name, for messages.
        recognise: for ``folder``: which non-empty folders the command may write into
            (None: any, because the command only adds new files).
        what: what the command writes there, for messages.

    Raises:
        CrepeInputError: naming the problem and the fix.
    """
    text = os.fspath(path)
    if not str(text).strip():
        raise CrepeInputError(f"{option} is empty; give the path of {what}")
    out = Path(text).expanduser()
    resolved = out.resolve()
    if resolved == Path.cwd().resolve() or _inside(Path.cwd().resolve(), resolved):
        raise CrepeInputError(
            f"{option} {text} is the current folder (or holds it); give {what} of its own, e.g. {option} out/NAME"
        )
    if kind == "file":
        if out.is_dir() or str(text).endswith(("/", os.sep)):
            raise CrepeInputError(f"{option} {text} is a folder; give the name of a file to write")
    elif out.exists() and not out.is_dir():
        raise CrepeInputError(
            f"{option} {text} is an existing file, not a folder; remove it or choose another {option}"
        )
    for source in input_paths(inputs):
        if resolved == source:
            raise CrepeInputError(
                f"{option} {text} is the input {source}; writing there would destroy it, choose another {option}"
            )
        if kind != "file" and _inside(resolved, source):
            raise CrepeInputError(
                f"{option} {text} is inside the input {source}; writing there could destroy the input, choose another {option}"
            )
        if kind != "file" and _inside(source, resolved):
            raise CrepeInputError(
                f"{option} {text} holds the input {source}; choose an {option} outside your inputs"
            )
    _probe(resolved if kind == "folder" else resolved.parent, option, text)
    if kind == "file" or not out.is_dir() or not any(out.iterdir()):
        return out
    if kind == "dataset":
        if not is_toolkit_dataset(out):
            raise CrepeInputError(
                f"{option} {text} is a non-empty folder that is not a dataset built by crepe; "
                f"it is left untouched: choose a new or empty {option}"
            )
        if not overwrite:
            raise CrepeInputError(
                f"{option} {text} holds a dataset built earlier; pass --overwrite to replace it "
                "(the old one is kept until the new one is complete)"
            )
        foreign = foreign_files(out)
        if foreign:
            raise CrepeInputError(
                f"{option} {text} holds a dataset built earlier but also files the build did not "
                f"write ({', '.join(foreign[:3])}); move them out first, or choose another {option}"
            )
    elif recognise is not None and not recognise(out):
        raise CrepeInputError(
            f"{option} {text} is a non-empty folder that does not hold {what}; choose a new or empty {option}"
        )
    return out

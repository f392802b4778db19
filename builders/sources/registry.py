"""A small typed registry of corpus formats: ``name -> reader``.

Each corpus module registers its reader with :func:`register_corpus`; :mod:`crepe_datasets.builders.sources.corpus`
looks formats up by the ``kind`` of a spec such as ``coco:/data/captions_train2014.json``.
Registering a name twice raises an error naming both entries; an unknown name raises a
:class:`~crepe_datasets.scenegraph.errors.CrepeInputError` listing the known ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from crepe_datasets.builders.sources.records import CaptionRecord
from crepe_datasets.scenegraph.errors import CrepeInputError
from crepe_datasets.scenegraph.provenance import DropLog

CorpusReader = Callable[[list[Path], DropLog, "str | None"], Iterator[CaptionRecord]]
FileResolver = Callable[[str], list[Path]]


@dataclass(frozen=True)
class CorpusFormat:
    """One registered corpus format.

    Attributes:
        name: The spec kind (``coco``, ``cc`` …).
        read: ``read(files, drops, option)`` yielding caption records.
        files: ``files(location)`` resolving the spec's location to existing files.
        option: What a ``#suffix`` of the location selects (a field or column), or ``None``
            when the format takes no option and ``#`` is part of the path.
        help: One line for error messages and ``--help``.
    """

    name: str
    read: CorpusReader
    files: FileResolver
    option: str | None
    help: str


_FORMATS: dict[str, CorpusFormat] = {}


def register_corpus(
    name: str, files: FileResolver, help: str, option: str | None = None
) -> Callable[[CorpusReader], CorpusReader]:
    """Decorator registering ``read`` under ``name``."""

    def decorate(read: CorpusReader) -> CorpusReader:
        if name in _FORMATS:
            old = _FORMATS[name].read
            raise ValueError(
                f"corpus format {name!r} registered twice: {old.__module__}.{old.__qualname__} "
                f"and {read.__module__}.{read.__qualname__}"
            )
        _FORMATS[name] = CorpusFormat(name, read, files, option, help)
        return read

    return decorate


def known_formats() -> dict[str, CorpusFormat]:
    """Every registered format, by name (sorted)."""
    return dict(sorted(_FORMATS.items()))


def get_format(name: str) -> CorpusFormat:
    """The format registered as ``name``, or an error listing the known names."""
    if name not in _FORMATS:
        known = "; ".join(f"{k} ({f.help})" for k, f in known_formats().items())
        raise CrepeInputError(f"unknown corpus kind {name!r}; known kinds are {known}.")
    return _FORMATS[name]


def single_file(location: str) -> list[Path]:
    """Resolver for formats that read exactly one file."""
    p = Path(location).expanduser()
    if not p.is_file():
        hint = "it is a folder, give a file" if p.is_dir() else "it does not exist"
        raise CrepeInputError(f"corpus file {p} cannot be read: {hint}.")
    return [p]

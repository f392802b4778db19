"""Small typed registries, ``name -> entry``, and the one of corpus formats.

:class:`Registry` is the one lookup the readers of this layer go through (lm-evaluation-harness
style): entries register themselves with a decorator; registering a name twice raises an error
naming both entries; an unknown name raises a
:class:`~crepe_datasets.infra.errors.CrepeInputError` listing the available ones. Instances:

* :data:`CORPORA`: corpus formats by spec kind (``coco:/data/captions_train2014.json``); each
  corpus module registers its reader with :func:`register_corpus`, and
  :mod:`crepe_datasets.sources.corpus` looks formats up.
* ``RELEASES`` (:mod:`crepe_datasets.sources.releases`): released benchmarks the evaluator reads.
* ``BENCHMARKS`` (:mod:`crepe_datasets.builders.bindsplit.benchmarks`): BindSplit's adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.records import CaptionRecord

T = TypeVar("T")


def _origin(function: Callable[..., Any]) -> str:
    return f"{function.__module__}.{function.__qualname__}"


class Registry(Generic[T]):
    """Entries of one kind by name, filled by decorators at import time.

    Args:
        noun: what a name names, for messages (``"corpus kind"``, ``"benchmark"``).
        plural: its plural (``"kinds"``, ``"benchmarks"``).
        describe: one line per entry for the list of available names.
        normalize: maps a name given by a user to the registered spelling.
    """

    def __init__(
        self,
        noun: str,
        plural: str,
        describe: Callable[[str, T], str],
        normalize: Callable[[str], str] = str.strip,
    ) -> None:
        self.noun, self.plural = noun, plural
        self._describe, self._normalize = describe, normalize
        self._entries: dict[str, tuple[T, str]] = {}

    def add(self, name: str, entry: T, origin: Callable[..., Any]) -> None:
        """Register ``entry`` (made from ``origin``, the decorated function) under ``name``.

        Raises:
            ValueError: when ``name`` is registered already; the message names both entries.
        """
        if name in self._entries:
            raise ValueError(
                f"{self.noun} {name!r} registered twice: {self._entries[name][1]} and "
                f"{_origin(origin)}"
            )
        self._entries[name] = (entry, _origin(origin))

    def known(self) -> dict[str, T]:
        """Every entry, by name (sorted)."""
        return {name: self._entries[name][0] for name in sorted(self._entries)}

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._normalize(name) in self._entries

    def get(self, name: str) -> T:
        """The entry registered as ``name``.

        Raises:
            CrepeInputError: when no entry has that name; the message lists the available ones.
        """
        key = self._normalize(name)
        if key not in self._entries:
            known = "; ".join(self._describe(k, e) for k, e in self.known().items())
            raise CrepeInputError(f"unknown {self.noun} {name!r}; known {self.plural} are {known}.")
        return self._entries[key][0]


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


CORPORA: Registry[CorpusFormat] = Registry(
    "corpus kind", "kinds", lambda name, f: f"{name} ({f.help})", lambda s: s.strip().lower()
)


def register_corpus(
    name: str, files: FileResolver, help: str, option: str | None = None
) -> Callable[[CorpusReader], CorpusReader]:
    """Decorator registering ``read`` under ``name`` in :data:`CORPORA`."""

    def decorate(read: CorpusReader) -> CorpusReader:
        CORPORA.add(name, CorpusFormat(name, read, files, option, help), read)
        return read

    return decorate


def known_formats() -> dict[str, CorpusFormat]:
    """Every registered corpus format, by name (sorted)."""
    return CORPORA.known()


def get_format(name: str) -> CorpusFormat:
    """The corpus format registered as ``name``, or an error listing the known names."""
    return CORPORA.get(name)


def single_file(location: str) -> list[Path]:
    """Resolver for formats that read exactly one file."""
    p = Path(location).expanduser()
    if not p.is_file():
        hint = "it is a folder, give a file" if p.is_dir() else "it does not exist"
        raise CrepeInputError(f"corpus file {p} cannot be read: {hint}.")
    return [p]

"""One entry point for training corpora: ``iter_corpus("coco:/data/captions_train2014.json", drops)``.

A spec is ``KIND:LOCATION[#OPTION]``:

=========  ==========================================  =============================
kind       location                                    option
=========  ==========================================  =============================
``coco``   a COCO captions JSON file                   --
``cc``     a CC-style TSV file (caption<TAB>url)       --
``laion``  a parquet file, folder or glob              caption column (``TEXT``)
``jsonl``  a JSON Lines file                           caption field (``caption``)
``text``   a text file, one caption per line           --
=========  ==========================================  =============================

Formats live in one module each and register themselves (:mod:`crepe_datasets.builders.sources.registry`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

# Importing the format modules registers them.
from crepe_datasets.builders.sources import cc_tsv, coco, jsonl, laion, text  # noqa: F401
from crepe_datasets.builders.sources.records import CaptionRecord
from crepe_datasets.builders.sources.registry import CorpusFormat, get_format, known_formats
from crepe_datasets.scenegraph.errors import CrepeInputError
from crepe_datasets.scenegraph.provenance import DropLog


def parse_spec(spec: str) -> tuple[CorpusFormat, str, str | None]:
    """Split a spec into its registered format, location and option.

    Raises:
        CrepeInputError: the spec has no ``KIND:`` prefix, or the kind is unknown.
    """
    kind, sep, rest = str(spec).partition(":")
    if not sep or not kind or not rest:
        kinds = ", ".join(known_formats())
        raise CrepeInputError(
            f"corpus spec {spec!r} must look like KIND:PATH (for example coco:captions.json); "
            f"kinds are {kinds}."
        )
    fmt = get_format(kind.strip().lower())
    option = None
    if fmt.option is not None and "#" in rest:
        rest, _, option = rest.rpartition("#")
        option = option.strip() or None
    return fmt, rest, option


def corpus_files(spec: str) -> list[Path]:
    """The existing input files a spec names (for the manifest's checksums), sorted."""
    fmt, location, _ = parse_spec(spec)
    return fmt.files(location)


def iter_corpus(spec: str, drops: DropLog) -> Iterator[CaptionRecord]:
    """Stream the caption records of a corpus spec; every skipped record lands in ``drops``.

    The spec is resolved before the first record is asked for, so a wrong kind or a missing
    file raises :class:`CrepeInputError` at the call.
    """
    fmt, location, option = parse_spec(spec)
    files = fmt.files(location)
    return fmt.read(files, drops, option)

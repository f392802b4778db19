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

Formats live in one module each and register themselves (:mod:`crepe_datasets.sources.registry`).

A corpus that yields no caption at all is an error, not an empty table: the message names the
likely cause from the reader's drop reasons (every row ``missing_column``: the wrong columns;
``invalid_utf8``: not UTF-8 text; ``caption_is_url``: swapped columns; nothing dropped: an empty
file). Text formats (``cc``, ``jsonl``, ``text``) refuse a binary file before reading it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.explain import explain_drops
from crepe_datasets.infra.provenance import DropLog

# Importing the format modules registers them.
from crepe_datasets.sources import cc_tsv, coco, jsonl, laion, text  # noqa: F401
from crepe_datasets.sources.caption_lines import looks_binary
from crepe_datasets.sources.records import CaptionRecord
from crepe_datasets.sources.registry import CorpusFormat, get_format, known_formats


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
    if fmt.name in TEXT_FORMATS:
        for f in files:
            if looks_binary(f):
                raise CrepeInputError(
                    f"corpus file {f} looks like a binary file (mostly undecodable bytes and "
                    f"NULs), not UTF-8 text; give a {fmt.help.split(',')[0]} file."
                )
    return _require_captions(fmt.read(files, drops, option), spec, files, drops)


#: Formats read as lines of UTF-8 text (checked for binary content before reading).
TEXT_FORMATS = frozenset({"cc", "jsonl", "text"})


def _require_captions(
    records: Iterator[CaptionRecord], spec: str, files: list[Path], drops: DropLog
) -> Iterator[CaptionRecord]:
    """Pass ``records`` through; raise when the corpus ended without a single caption."""
    before = DropLog()
    before.merge(drops)
    n = 0
    for record in records:
        n += 1
        yield record
    if n:
        return
    new = DropLog()
    for key, count in drops.counts.items():
        if count - before.counts.get(key, 0) > 0:
            new.counts[key] = count - before.counts.get(key, 0)
    if not new.counts and all(f.stat().st_size == 0 for f in files):
        raise CrepeInputError(f"corpus {spec!r} yielded no caption: the file is empty.")
    raise CrepeInputError(f"corpus {spec!r} yielded no caption; {explain_drops(new)}.")

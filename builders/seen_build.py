"""Run corpus parsing end to end: stream, clean, shard, parse on an engine, merge, write.

See :mod:`crepe_datasets.builders.seen_tables` for what the tables hold. Resuming: the output folder keeps
``shards/run.json`` (the corpus checksums and settings) and one ``shards/shard-NNNNNN.json``
per finished shard; a restarted run with the same inputs and settings re-reads the corpus
(cheap), skips the finished shards without parsing them, and parses only the rest.

The run record identifies a corpus by its kind, option and content (the files' checksums), not
by the path it was named with, so ``text:./c.txt``, ``text:/abs/c.txt`` and a symlink to it are
the same corpus. A run that fails on bad input marks its record ``failed``; a later run with a
corrected input then replaces that record and the shards of the broken input instead of
refusing the folder. A record with no finished shard never blocks a run either. Ctrl-C leaves
the record and the finished shards, so the next run resumes.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.builders.engines.base import Engine
from crepe_datasets.builders.seen_clean import MAX_CHARS, clean_caption
from crepe_datasets.builders.seen_tables import TABLES, ShardCounts, parse_shard_json
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import (
    DropLog,
    atomic_path,
    combined_checksum,
    describe_inputs,
    write_json_atomic,
    write_text_atomic,
)
from crepe_datasets.infra.version import __version__
from crepe_datasets.scenegraph.parser.rules import PARSER_VERSION
from crepe_datasets.sources.corpus import parse_spec

DEFAULT_SHARD_SIZE = 50_000


def _shard_path(folder: Path, k: int) -> Path:
    return folder / f"shard-{k:06d}.json"


#: Fields of the run record that must match for finished shards to be reused.
IDENTITY = ("kind", "option", "inputs_sha256", "shard_size", "max_chars", "parser_version", "model")


def _check_run(shards: Path, key: dict[str, Any]) -> None:
    """Refuse to mix shards of another corpus or other settings into this run.

    A record of a failed run, or one without any finished shard, is replaced (with the shards
    it left) instead of refusing the folder.
    """
    run_file = shards / "run.json"
    done = sorted(shards.glob("shard-*.json"))
    if run_file.exists():
        try:
            old = json.loads(run_file.read_text())
        except (OSError, ValueError):
            old = {}
        if "kind" not in old and isinstance(old.get("corpus"), str):  # a record of an older version
            with contextlib.suppress(CrepeInputError):
                fmt, _, option = parse_spec(old["corpus"])
                old.update(kind=fmt.name, option=option)
        differs = [f for f in IDENTITY if old.get(f) != key.get(f)]
        if not differs:
            if old.get("failed"):
                write_json_atomic(run_file, key)
            return
        if done and not old.get("failed"):
            raise CrepeInputError(
                f"{shards.parent} holds {len(done)} finished shard(s) of another corpus or other "
                f"settings ({', '.join(differs)} differ; {run_file}); delete that folder or "
                "choose another --out."
            )
        for f in done:
            f.unlink()
    write_json_atomic(run_file, key)


def _mark_failed(shards: Path, key: dict[str, Any], err: Exception) -> None:
    """Record that this run stopped on bad input, so that a corrected rerun is not refused."""
    write_json_atomic(shards / "run.json", {**key, "failed": str(err)[:500]})


def build_seen_tables(
    spec: str,
    out_dir: str | os.PathLike,
    engine: Engine,
    shard_size: int = DEFAULT_SHARD_SIZE,
    max_chars: int = MAX_CHARS,
    model: str | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Parse a corpus into seen tables in ``out_dir``; returns the manifest.

    Raises:
        CrepeInputError: bad spec, missing files, or an output folder of another run.
    """
    from tqdm import tqdm

    from crepe_datasets.sources.corpus import corpus_files, iter_corpus

    if shard_size < 1:
        raise CrepeInputError(f"--shard-size must be at least 1, got {shard_size}.")
    out = Path(out_dir)
    shards = out / "shards"
    shards.mkdir(parents=True, exist_ok=True)
    inputs = describe_inputs(corpus_files(spec))
    fmt, _, option = parse_spec(spec)
    key = {
        "corpus": spec,
        "kind": fmt.name,
        "option": option,
        "inputs_sha256": combined_checksum(inputs),
        "shard_size": shard_size,
        "max_chars": max_chars,
        "parser_version": PARSER_VERSION,
        "model": model,
    }
    _check_run(shards, key)

    drops, cleaning = DropLog(), Counter()
    stats = Counter()

    def stream() -> Iterator[tuple[int, list[str]]]:
        buf: list[str] = []
        k = 0
        for rec in iter_corpus(spec, drops):
            stats["records_read"] += 1
            text = clean_caption(rec.text, drops, cleaning, max_chars)
            if text is None:
                continue
            buf.append(text)
            if len(buf) == shard_size:
                yield k, buf
                k, buf = k + 1, []
        if buf:
            yield k, buf

    def todo() -> Iterator[tuple[int, list[str]]]:
        for k, texts in stream():
            if _shard_path(shards, k).exists():
                stats["shards_skipped"] += 1
                bar.update(len(texts))
                continue
            pending.append(k)
            yield k, texts

    pending: list[int] = []
    bar = tqdm(unit=" captions", unit_scale=True, disable=not progress, desc=f"parse {spec}")
    tasks = ((texts, model) for _, texts in todo())
    try:
        for result in engine.imap(parse_shard_json, tasks):
            k = pending.pop(0)
            write_text_atomic(_shard_path(shards, k), result)
            bar.update(json.loads(result)["captions"])
            stats["shards_parsed"] += 1
    except CrepeInputError as err:
        _mark_failed(shards, key, err)
        raise
    finally:
        bar.close()
    return _finish(out, shards, spec, inputs, engine, key, drops, cleaning, stats)


def _finish(
    out: Path,
    shards: Path,
    spec: str,
    inputs: list,
    engine: Engine,
    key: dict[str, Any],
    drops: DropLog,
    cleaning: Counter,
    stats: Counter,
) -> dict[str, Any]:
    total, meta, peak = ShardCounts(), {}, 0.0
    files = sorted(shards.glob("shard-*.json"))
    for f in files:
        data = json.loads(f.read_text())
        meta = data.get("meta", meta)
        peak = max(peak, float(meta.get("peak_rss_mb", 0.0)))
        total.merge(ShardCounts.from_json(data))
    tables = total.tables()
    for name in TABLES:
        with atomic_path(out / f"{name}.parquet") as tmp:
            tables[name].to_parquet(tmp, index=False)
    manifest = {
        "kind": "seen_tables",
        "toolkit_version": __version__,
        "corpus": spec,
        "inputs": [f.to_dict() for f in inputs],
        "parser_version": PARSER_VERSION,
        "spacy_model": meta.get("spacy_model"),
        "settings": {
            **engine.describe(),
            "shard_size": key["shard_size"],
            "max_chars": key["max_chars"],
        },
        "counts": {
            "records_read": stats["records_read"],
            "captions_parsed": total.captions,
            "unique_captions_parsed": total.unique,
            "duplicates_within_shard": total.captions - total.unique,
            "shards": len(files),
            "shards_skipped_on_resume": stats["shards_skipped"],
        },
        "cleaning": dict(sorted(cleaning.items())),
        "drops": drops.to_dict(),
        "drop_examples": drops.examples_dict(),
        "repairs": drops.repairs_dict(),
        "tables": {name: len(tables[name]) for name in TABLES},
        "resources": {"worker_peak_rss_mb": peak},
    }
    write_json_atomic(out / "manifest.json", manifest)
    return manifest

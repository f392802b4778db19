"""Where the seen tables of a systematicity build come from: a folder, or a corpus parsed now.

``--seen FOLDER`` reads a ``crepe parse-corpus`` folder. ``--training KIND:PATH`` parses the
corpus first, into ``<cache>/seen/<key>/`` where ``key`` hashes the corpus files' combined
SHA-256, the corpus spec, the parser version and the spaCy pipeline name (as BindSplit caches
its table): a second build with the same corpus parses nothing, and an interrupted one resumes
from its finished shards.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from crepe_datasets.builders.engines.base import Engine
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import cache_root, combined_checksum, describe_inputs
from crepe_datasets.scenegraph.seen import SeenTables, load_seen


def training_cache_folder(spec: str, model: str | None, cache_dir: str | None = None) -> Path:
    """The cache folder of a corpus spec's seen tables."""
    from crepe_datasets.scenegraph.parser.rules import PARSER_VERSION
    from crepe_datasets.sources.corpus import corpus_files

    checksum = combined_checksum(describe_inputs(corpus_files(spec)))
    raw = "|".join([checksum, spec.split(":", 1)[0].lower(), PARSER_VERSION, model or "default"])
    key = hashlib.sha256(raw.encode()).hexdigest()[:20]
    root = Path(cache_dir).expanduser() if cache_dir else cache_root("seen")
    return root / key


def resolve_seen(
    seen: str | None,
    training: str | None,
    engine: Engine,
    min_count: int,
    model: str | None = None,
    cache_dir: str | None = None,
    progress: bool = True,
) -> tuple[SeenTables, dict]:
    """The seen tables, and how they were obtained (for the manifest)."""
    from crepe_datasets.builders.seen_build import build_seen_tables

    if seen:
        return load_seen(seen, min_count), {"source": "seen folder", "from_cache": None}
    assert training is not None
    folder = training_cache_folder(training, model, cache_dir)
    cached = (folder / "manifest.json").is_file()
    if cached:
        try:
            return load_seen(folder, min_count), {"source": "training", "from_cache": True}
        except Exception:  # an unfinished or stale cache entry: parse again (resumes shards)
            cached = False
    manifest = build_seen_tables(training, folder, engine, model=model, progress=progress)
    if not manifest["counts"]["captions_parsed"]:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
        dropped = sum(n for reasons in manifest["drops"].values() for n in reasons.values())
        raise CrepeInputError(
            f"training corpus {training!r} parsed to no caption ({manifest['counts']['records_read']:,} "
            f"records read, {dropped:,} dropped); check the file and its KIND: prefix."
        )
    info = {"source": "training", "from_cache": False, "cache_folder": str(folder)}
    info["parse_corpus"] = json.loads(json.dumps(manifest["counts"]))
    return load_seen(folder, min_count), info

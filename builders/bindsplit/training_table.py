"""The training-side binding table (SPEC §4.1), built from any corpus and cached by checksum.

``build_training_table("coco:captions_train2014.json")`` streams the corpus with
:func:`crepe_datasets.sources.corpus.iter_corpus`, parses each *distinct* caption once (duplicates
count with their multiplicity) with batched ``nlp.pipe``, extracts bindings with
:mod:`crepe_datasets.builders.bindsplit.extract`, and sums them into rows
``(attr, obj_lemma, perfect_count, close_count)`` sorted by ``(attr, obj_lemma)``.

The table is written as parquet to ``<cache_dir>/table-<key>.parquet`` with a JSON sidecar,
where ``key`` hashes the corpus files' checksums (:func:`crepe_datasets.infra.provenance.combined_checksum`),
the spec's kind and option, :data:`~crepe_datasets.builders.bindsplit.extract.EXTRACTOR_VERSION` and the spaCy
pipeline version. A second build with the same inputs reads the cache and parses nothing.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.builders.bindsplit.extract import (
    EXTRACTOR_VERSION,
    extract_many,
    load_extractor_nlp,
)
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import (
    DropLog,
    atomic_path,
    cache_root,
    combined_checksum,
    describe_inputs,
    write_json_atomic,
)

COLUMNS = ("attr", "obj_lemma", "perfect_count", "close_count")


@dataclass
class TrainingTable:
    """Binding counts of a training corpus plus where they came from.

    Attributes:
        counts: ``{(attr, obj_lemma): (perfect_count, close_count)}``.
        spec: The corpus spec it was built from.
        checksum: Combined SHA-256 of the corpus files.
        info: Statistics and provenance (captions, distinct captions, rows, model, timing …).
        drops: Records the corpus readers skipped (empty when read from the cache).
    """

    counts: dict[tuple[str, str], tuple[int, int]]
    spec: str
    checksum: str
    info: dict[str, Any] = field(default_factory=dict)
    drops: DropLog = field(default_factory=DropLog)

    def lookup(self, attr: str, obj: str) -> tuple[int, int]:
        """``(perfect_count, close_count)`` of a binding; ``(0, 0)`` when absent."""
        return self.counts.get((attr, obj), (0, 0))

    def __len__(self) -> int:
        return len(self.counts)


def aggregate(
    bindings_per_text: Iterable[tuple[list, int]],
) -> dict[tuple[str, str], tuple[int, int]]:
    """Sum ``(bindings, multiplicity)`` pairs into ``{(attr, obj): (perfect, close)}``."""
    perfect: Counter[tuple[str, str]] = Counter()
    close: Counter[tuple[str, str]] = Counter()
    for bindings, times in bindings_per_text:
        for b in bindings:
            (perfect if b.kind == "perfect" else close)[(b.attr, b.obj)] += times
    keys = set(perfect) | set(close)
    return {k: (perfect[k], close[k]) for k in sorted(keys)}


def count_captions(spec: str, drops: DropLog) -> tuple[Counter[str], int]:
    """Distinct caption texts of a corpus with their multiplicity, and the total count."""
    from crepe_datasets.sources.corpus import iter_corpus

    texts: Counter[str] = Counter()
    total = 0
    for record in iter_corpus(spec, drops):
        texts[record.text] += 1
        total += 1
    return texts, total


def cache_key(spec: str, checksum: str, model_version: str) -> str:
    """Cache key of a table: corpus content, spec kind/option, extractor and model versions."""
    kind, _, rest = spec.partition(":")
    option = rest.rpartition("#")[2] if "#" in rest else ""
    raw = "|".join([checksum, kind.lower(), option, EXTRACTOR_VERSION, model_version])
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def write_table(path: Path, counts: dict[tuple[str, str], tuple[int, int]]) -> None:
    """Write the table as parquet, sorted by ``(attr, obj_lemma)``, atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    keys = sorted(counts)
    table = pa.table(
        {
            "attr": [k[0] for k in keys],
            "obj_lemma": [k[1] for k in keys],
            "perfect_count": pa.array([counts[k][0] for k in keys], pa.int64()),
            "close_count": pa.array([counts[k][1] for k in keys], pa.int64()),
        }
    )
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def read_table(path: Path) -> dict[tuple[str, str], tuple[int, int]]:
    """Read a table written by :func:`write_table`."""
    import pyarrow.parquet as pq

    data = pq.read_table(path, columns=list(COLUMNS)).to_pydict()
    return {
        (a, o): (int(p), int(c))
        for a, o, p, c in zip(
            data["attr"], data["obj_lemma"], data["perfect_count"], data["close_count"], strict=True
        )
    }


def build_training_table(
    spec: str,
    *,
    cache_dir: str | Path | None = None,
    nlp: Any = None,
    batch_size: int = 512,
    progress: bool = True,
) -> TrainingTable:
    """The binding table of a corpus spec, from the cache when the inputs are unchanged.

    Args:
        spec: A corpus spec such as ``coco:captions_train2014.json`` (see :mod:`crepe_datasets.sources.corpus`).
        cache_dir: Cache folder; ``$CREPE_CACHE/bindsplit`` or ``~/.cache/crepe/bindsplit`` by default.
        nlp: A loaded spaCy pipeline; the extractor's default one when ``None``.
        batch_size: Texts per ``nlp.pipe`` batch.
        progress: Show a progress bar while parsing.

    Raises:
        CrepeInputError: the spec is wrong, or the corpus yields no caption at all.
    """
    from crepe_datasets.infra.resources import spacy_model_version
    from crepe_datasets.sources.corpus import corpus_files

    files = describe_inputs(corpus_files(spec))
    checksum = combined_checksum(files)
    nlp = nlp if nlp is not None else load_extractor_nlp()
    model = spacy_model_version(nlp)
    cache = Path(cache_dir).expanduser() if cache_dir else cache_root("bindsplit")
    key = cache_key(spec, checksum, model)
    table_path, info_path = cache / f"table-{key}.parquet", cache / f"table-{key}.json"
    if table_path.is_file() and info_path.is_file():
        info = json.loads(info_path.read_text(encoding="utf-8"))
        drops = DropLog.from_dict(info.get("drops", {}))
        info.update(from_cache=True, cache_path=str(table_path))
        return TrainingTable(read_table(table_path), spec, checksum, info, drops)

    started = time.perf_counter()
    drops = DropLog()
    texts, total = count_captions(spec, drops)
    if not texts:
        raise CrepeInputError(
            f"training corpus {spec!r} yielded no caption ({drops.total():,} records dropped); "
            "check the file and its format, or give another --training spec."
        )
    unique = sorted(texts)
    parsed = extract_many(nlp, _progress(unique, progress), batch_size=batch_size)
    counts = aggregate(
        (bindings, texts[text]) for text, bindings in zip(unique, parsed, strict=True)
    )
    seconds = time.perf_counter() - started
    info = {
        "spec": spec,
        "checksum": checksum,
        "files": [f.to_dict() for f in files],
        "captions": total,
        "distinct_captions": len(unique),
        "rows": len(counts),
        "perfect_total": sum(p for p, _ in counts.values()),
        "close_total": sum(c for _, c in counts.values()),
        "extractor_version": EXTRACTOR_VERSION,
        "spacy_model": model,
        "seconds": round(seconds, 3),
        "captions_per_s": round(total / seconds, 1) if seconds else None,
        "drops": drops.to_dict(),
    }
    write_table(table_path, counts)
    write_json_atomic(info_path, info)
    info.update(from_cache=False, cache_path=str(table_path))
    return TrainingTable(counts, spec, checksum, info, drops)


def _progress(items: list[str], enabled: bool) -> Iterable[str]:
    if not enabled:
        return items
    from tqdm import tqdm

    return tqdm(items, desc="parsing training captions", unit="cap", mininterval=1.0)


def table_summary(table: TrainingTable) -> dict[str, Any]:
    """The provenance fields that go into the manifest and the summary JSON."""
    keys = (
        "captions",
        "distinct_captions",
        "rows",
        "perfect_total",
        "close_total",
        "extractor_version",
    )
    out = {k: table.info.get(k) for k in keys}
    out.update(spec=table.spec, checksum=table.checksum, spacy_model=table.info.get("spacy_model"))
    out.update(
        from_cache=table.info.get("from_cache", False), cache_path=table.info.get("cache_path")
    )
    return out


__all__ = ["COLUMNS", "TrainingTable", "build_training_table", "table_summary"]

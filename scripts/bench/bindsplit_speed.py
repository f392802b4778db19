"""BindSplit speed: training-table extraction vs the raw spaCy pipeline, and a full VG-A build.

Run: ``.venv/bin/python scripts/bench/bindsplit_speed.py [--captions 4000] [--skip-build]``

1. The first N distinct COCO val2017 captions are written to a text corpus; on exactly those
   captions the script times, in the same run:
   (a) the raw spaCy pipeline, all default pipes (``nlp.pipe``, docs consumed, nothing else);
   (b) the raw spaCy pipeline with the pipes the extractor excludes (ner, lemmatizer);
   (c) :func:`build_training_table` end to end (read, de-duplicate, parse, extract, aggregate,
       write parquet) with an empty cache, then again from the cache.
2. ``crepe build bindsplit`` for ARO VG-A against the full COCO val2017 captions, with a cold
   cache (every caption parsed) and a warm cache (table read back).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data"
COCO = SHARED / "coco" / "captions_val2017.json"
ARO = SHARED / "aro"


def timed(label: str, n: int, fn) -> float:
    start = time.perf_counter()
    fn()
    seconds = time.perf_counter() - start
    print(f"  {label:<52} {seconds:7.2f} s  {n / seconds:8.1f} captions/s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--captions", type=int, default=4000)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()

    from crepe_datasets.builders.bindsplit.build import BindSplitSettings, build_bindsplit
    from crepe_datasets.builders.bindsplit.extract import EXCLUDED_PIPES
    from crepe_datasets.builders.bindsplit.training_table import build_training_table
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.infra.resources import load_spacy
    from crepe_datasets.sources.corpus import iter_corpus

    texts = list(dict.fromkeys(r.text for r in iter_corpus(f"coco:{COCO}", DropLog())))[
        : args.captions
    ]
    n = len(texts)
    full = load_spacy()
    trimmed = load_spacy(exclude=EXCLUDED_PIPES)
    list(trimmed.pipe(texts[:200]))  # warm-up
    print(f"== {n:,} distinct COCO val2017 captions, one process ==")
    raw_full = timed(
        f"raw spaCy, all pipes {full.pipe_names}", n, lambda: list(full.pipe(texts, batch_size=512))
    )
    raw_trim = timed(
        f"raw spaCy, without {list(EXCLUDED_PIPES)}",
        n,
        lambda: list(trimmed.pipe(texts, batch_size=512)),
    )
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "captions.txt"
        corpus.write_text("\n".join(texts) + "\n")
        spec = f"text:{corpus}"
        ours = timed(
            "training table, cold cache",
            n,
            lambda: build_training_table(spec, cache_dir=tmp, nlp=trimmed, progress=False),
        )
        timed(
            "training table, from cache",
            n,
            lambda: build_training_table(spec, cache_dir=tmp, nlp=trimmed, progress=False),
        )
    print(
        f"  extraction speed / raw spaCy (all pipes) = {raw_full / ours:.2f}x; / raw spaCy (same pipes) = {raw_trim / ours:.2f}x"
    )

    if args.skip_build:
        return
    print("== crepe build bindsplit: ARO VG-A vs full COCO val2017 (25,014 captions) ==")
    with tempfile.TemporaryDirectory() as tmp:
        for label in ("cold cache", "warm cache"):
            settings = BindSplitSettings(
                [("aro-vga", str(ARO))],
                f"coco:{COCO}",
                f"{tmp}/out",
                cache_dir=f"{tmp}/cache",
                progress=False,
            )
            start = time.perf_counter()
            _, manifest = build_bindsplit(settings)
            seconds = time.perf_counter() - start
            aro = manifest.summary["benchmarks"]["aro_vga"]
            print(
                f"  total build, {label:<10} {seconds:7.2f} s  ({aro['samples']:,} samples, {aro['excluded']:,} excluded)"
            )


if __name__ == "__main__":
    main()

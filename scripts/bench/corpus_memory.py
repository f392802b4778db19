"""Benchmark: peak memory of `crepe parse-corpus` on a 1,000,000-caption corpus.

The corpus is built from the real samples in ``../shared/data`` (CC3M validation TSV, the
LAION-like parquet, COCO val2017 captions): ``--base`` real captions are drawn (seeded), and
1,000,000 records are written by repeating them, a share of them perturbed (a colour or size
word inserted before a random word, or the article changed), which gives about
``base × (1 + 2 × perturb × repeats)`` distinct captions; web corpora repeat captions a lot, and
exact duplicates within a shard are parsed once, which is what keeps this run to minutes.
The file is a plain text corpus (``text:`` spec).

Measured, in the same run:

* ours (first, so that ``ru_maxrss`` of the children is ours alone):
  ``crepe parse-corpus --workers 2 --shard-size 250000`` in a subprocess; peak RSS of the
  main process (``ru_maxrss`` of that child) and of each worker (reported by the workers into
  the manifest, ``resources.worker_peak_rss_mb``);
* baseline: an unsharded reader that holds the whole corpus in memory (a list of all 1,000,000
  captions plus their exact-duplicate set), as a parser without shards must.

Usage: ``.venv/bin/python scripts/bench/corpus_memory.py [--records 1000000] [--base 6000]``.
Exits 1 when a worker peaks at 1.5 GiB or more.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
WORDS = "red blue green white black small large old young wooden metal striped".split()


def real_captions() -> list[str]:
    import pandas as pd

    out = [
        line.split("\t")[0]
        for line in (SHARED / "cc3m" / "Validation_GCC-1.1.0-Validation.tsv")
        .read_text()
        .splitlines()
    ]
    out += [
        str(t)
        for t in pd.read_parquet(SHARED / "laion_like" / "test_10000.parquet")["TEXT"].dropna()
    ]
    coco = json.loads((SHARED / "coco" / "captions_val2017.json").read_text())
    out += [a["caption"] for a in coco["annotations"]]
    return [" ".join(c.split()) for c in out if c and c.strip()]


def perturb(text: str, rng: random.Random) -> str:
    words = text.split()
    if rng.random() < 0.5 and words[0].lower() in ("a", "the"):
        words[0] = "the" if words[0].lower() == "a" else "a"
    else:
        words.insert(rng.randrange(len(words) + 1), rng.choice(WORDS))
    return " ".join(words)


def write_corpus(path: Path, records: int, base: int, share: float, seed: int) -> int:
    rng = random.Random(seed)
    pool = rng.sample(real_captions(), base)
    distinct: set[int] = set()
    with path.open("w", encoding="utf-8") as f:
        for _ in range(records):
            text = rng.choice(pool)
            if rng.random() < share:
                text = perturb(text, rng)
            distinct.add(hash(text))
            f.write(text.replace("\n", " ") + "\n")
    return len(distinct)


BASELINE = """
import resource, sys
texts = [line.rstrip("\\n") for line in open(sys.argv[1], encoding="utf-8")]
unique = set(texts)
print(len(texts), len(unique), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--base", type=int, default=6000, help="real captions drawn from the samples")
    ap.add_argument("--perturb", type=float, default=0.004, help="share of records perturbed")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--shard-size", type=int, default=250_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="crepe-mem-") as tmp:
        corpus = Path(tmp) / "corpus.txt"
        t = time.time()
        distinct = write_corpus(corpus, args.records, args.base, args.perturb, args.seed)
        print(
            f"corpus: {args.records:,} records, {distinct:,} distinct captions, "
            f"{corpus.stat().st_size / 2**20:.0f} MiB ({time.time() - t:.0f} s to write)"
        )

        t = time.time()
        cmd = [
            sys.executable,
            "-m",
            "crepe_datasets.scripts.cli",
            "parse-corpus",
            "--corpus",
            f"text:{corpus}",
            "--out",
            str(Path(tmp) / "seen"),
            "--workers",
            str(args.workers),
            "--shard-size",
            str(args.shard_size),
            "--quiet",
        ]
        run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        wall = time.time() - t
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            return 1
        main_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        manifest = json.loads((Path(tmp) / "seen" / "manifest.json").read_text())
        worker = manifest["resources"]["worker_peak_rss_mb"]
        c = manifest["counts"]
        print(
            f"ours: crepe parse-corpus --workers {args.workers} --shard-size {args.shard_size:,}: "
            f"{wall:.0f} s wall, {c['captions_parsed']:,} captions ({c['unique_captions_parsed']:,} parsed), "
            f"{c['shards']} shards"
        )
        print(
            f"  peak RSS: largest process (main or worker) {main_rss:.0f} MiB; "
            f"worker peak {worker:.0f} MiB (limit 1536 MiB)"
        )
        print(f"  tables: {manifest['tables']}")
        out = subprocess.run(
            [sys.executable, "-c", BASELINE, str(corpus)],
            capture_output=True,
            text=True,
            check=True,
        )
        n, uniq, base_rss = out.stdout.split()
        print(
            f"baseline (whole corpus in memory, {int(n):,} captions, {int(uniq):,} unique): peak RSS {float(base_rss):.0f} MiB"
        )

    return 0 if worker < 1536 else 1


if __name__ == "__main__":
    sys.exit(main())

"""What the file checks add to `crepe validate dataset`, beside the row checks it always ran.

Run: ``.venv/bin/python scripts/bench/validate_speed.py [--repeat 3]``

Builds crepe-bindsplit for ARO VG-Attribution (28,748 samples, ../shared/data/aro) against the
first 2,000 COCO val2017 captions into a temporary folder, then times, in the same run and on
the same folder (best of ``--repeat``):

(a) baseline: what `validate dataset` did before: read every table, row invariants, shortcut audit;
(b) the new file checks alone: every listed parquet's size, SHA-256 and footer, row counts,
    unlisted files, the card's configs;
(c) the whole new `validate_dataset` (b then a).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data"


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from crepe_datasets.builders.bindsplit.build import BindSplitSettings, build_bindsplit
    from crepe_datasets.generators.balance.shortcuts import audit_rows
    from crepe_datasets.validation.dataset import validate_dataset
    from crepe_datasets.validation.files import check_files
    from crepe_datasets.validation.invariants import check_rows, read_tables

    def old_validate(folder: Path) -> None:
        tables = read_tables(folder)
        check_rows(tables)
        audit_rows({c: t for c, t in tables.items() if c != "training_table"})

    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.txt"
        annotations = json.loads((SHARED / "coco" / "captions_val2017.json").read_text())
        corpus.write_text(
            "\n".join(a["caption"].strip() for a in annotations["annotations"][:2000])
        )
        out = Path(tmp) / "crepe-bindsplit"
        settings = BindSplitSettings(
            [("aro-vga", str(SHARED / "aro"))], f"text:{corpus}", str(out), str(Path(tmp) / "cache"),
            progress=False,
        )  # fmt: skip
        build_bindsplit(settings)
        files = sorted((out / "data").rglob("*.parquet"))
        size = sum(f.stat().st_size for f in files)
        rows = check_files(out).rows
        print(
            f"== crepe-bindsplit: {len(files)} parquet files, {size / 1e6:.1f} MB, {rows:,} rows =="
        )
        print("   (2 shared CPU cores, loaded by other jobs: compare only figures of this run)")
        old = best_of(args.repeat, lambda: old_validate(out))
        new_files = best_of(args.repeat, lambda: check_files(out))
        whole = best_of(args.repeat, lambda: validate_dataset(out))
        print(f"  (a) baseline: read tables + invariants + audit   {old:7.3f} s")
        print(f"  (b) file checks alone (sha256, footers, counts)  {new_files:7.3f} s")
        print(
            f"  (c) new validate_dataset (b + a)                 {whole:7.3f} s  ({whole / old:.2f}x baseline)"
        )


if __name__ == "__main__":
    main()

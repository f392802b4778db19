"""Rebuild the parser's noun-modifier lexicon from FACTUAL's training rows.

    .venv/bin/python -m crepe_datasets.scripts.learn_modifier_roles \
        [--factual ../shared/data/factual/factual_sg] [--out scenegraph/parser/data/modifier_roles.json]

It reads only the ``rest`` slice of ``factual_sg.csv`` (:func:`crepe_datasets.validation.factual.
factual_slices`): never ``random/dev.csv`` (kept to measure the lexicon on captions it did not
learn from), ``random/test.csv`` or the held-out slice. The file records its source, the slice,
the thresholds and the row count, and is written byte-identically for the same input.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from crepe_datasets.infra.provenance import atomic_path
from crepe_datasets.scenegraph.parser.modifier_lexicon import LEXICON_PATH
from crepe_datasets.validation.factual import factual_slices
from crepe_datasets.validation.modifier_roles import learn_modifier_roles

DEFAULT_FACTUAL = Path(__file__).resolve().parents[1].parent / "shared/data/factual/factual_sg"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--factual", default=str(DEFAULT_FACTUAL), help="FACTUAL's factual_sg folder")
    ap.add_argument("--out", default=str(LEXICON_PATH))
    ap.add_argument("--min-support", type=int, default=5)
    ap.add_argument("--min-share", type=float, default=0.6)
    args = ap.parse_args(argv)
    folder = Path(args.factual)
    source, dev = folder / "factual_sg.csv", folder / "random" / "dev.csv"
    rows = factual_slices(source, [dev, dev.with_name("test.csv")])["rest"]
    lexicon = learn_modifier_roles(rows, args.min_support, args.min_share)
    record = {
        "learned_from": "FACTUAL factual_sg.csv, rest slice (not dev, test or held-out)",
        "source_sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
        "rows": len(rows),
        "min_support": args.min_support,
        "min_share": args.min_share,
        **lexicon,
    }
    with atomic_path(Path(args.out)) as tmp:
        tmp.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(
        f"{len(lexicon['modifiers'])} modifiers and {len(lexicon['pairs'])} pairs "
        f"learned from {len(rows):,} rows -> {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

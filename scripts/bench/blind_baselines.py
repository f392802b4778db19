"""Blind (text-only) baselines: CREPE's released productivity sets beside our build.

For every negative type and complexity, prints the expected R@1 of each baseline that never
sees the image (:mod:`crepe_datasets.generators.balance.blind`: word frequency, a word-bigram LM,
formatting cues, the negation cue) beside chance, for CREPE's release
(``../shared/data/crepe_release``) and for a crepe-productivity folder (built here from the 100
real Visual Genome images first when it does not exist). The LM is trained on the CC3M
validation captions (held out: our generator's LM is trained on COCO captions); ``--lm-corpus
coco`` also shows the generator's own LM, which the refinement balanced against.

    .venv/bin/python scripts/bench/blind_baselines.py [--ours DIR] [--release DIR] [--lm-corpus coco]

Exit status 1 when our hn_atom or hn_swap exceed chance + 0.05 in some complexity.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from crepe_datasets.generators.balance.blind import (  # noqa: E402
    COLUMNS,
    MIN_ROWS,
    TARGETS,
    BlindAuditor,
    BlindResult,
    counted_baselines,
)
from crepe_datasets.scripts.bench.crepe_release_shortcut import (  # noqa: E402
    ensure_ours,
    release_vs_ours_parser,
)

TYPES = {"atom": "hn_atom", "swap": "hn_swap", "negate": "hn_negate"}


def release_sets(folder: Path) -> dict[str, dict[int, list[list[str]]]]:
    """``{type: {n: [[caption, *negatives], …]}}`` of CREPE's release."""
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.sources.crepe_release import read_crepe_release

    sets: dict[str, dict[int, list[list[str]]]] = defaultdict(lambda: defaultdict(list))
    for sample in read_crepe_release(folder, DropLog()):
        sets[sample.meta["negative_type"]][sample.meta["n"] or 0].append(
            [sample.caption, *sample.negatives]
        )
    return sets


def our_sets(folder: Path) -> dict[str, dict[int, list[list[str]]]]:
    from crepe_datasets.validation.invariants import read_tables

    out: dict[str, dict[int, list[list[str]]]] = {}
    for config, splits in read_tables(folder).items():
        kind = next((t for t, c in TYPES.items() if c == config), None)
        if kind is None:
            continue
        out[kind] = {
            int(split.rsplit("_", 1)[-1]): [[r["caption"], *r["hard_negatives"]] for r in rows]
            for split, rows in splits.items()
        }
    return out


def _row(label: str, n: str, r: BlindResult, config: str) -> tuple[str, bool]:
    summary = r.summary()
    ok = r.verdict(counted_baselines(config))[2]
    cells = " ".join(f"{summary.get(key, float('nan')):>8.3f}" for key, _ in COLUMNS)
    mark = "ok" if ok else ">"
    if r.rows < MIN_ROWS:
        mark += f" (< {MIN_ROWS} rows)"
    return f"{label:<8} {n:>4} {r.rows:>6} {r.chance:>6.3f} {cells}  {mark}", ok


def table(title: str, sets: dict[str, dict[int, list[list[str]]]], auditor: BlindAuditor) -> bool:
    print(f"\n{title}")
    print(
        f"{'type':<8} {'n':>4} {'rows':>6} {'chance':>6} "
        + " ".join(f"{label:>8}" for _, label in COLUMNS)
    )
    all_ok = True
    for kind in TYPES:
        pooled = BlindResult()
        for n in sorted(sets.get(kind, {})):
            r = BlindResult()
            for texts in sets[kind][n]:
                auditor.add(r, texts)
            pooled.merge(r)
            line, ok = _row(kind, str(n), r, TYPES[kind])
            all_ok &= ok or TYPES[kind] not in TARGETS
            print(line)
        if pooled.rows:
            print(_row(kind, "all", pooled, TYPES[kind])[0])
    return all_ok


def main() -> int:
    parser = release_vs_ours_parser(__doc__.splitlines()[0])
    parser.add_argument("--lm-corpus", default=None, help="'coco' (generator's LM) or a path")
    args = parser.parse_args()
    ensure_ours(args.ours, args.vg)
    corpus = args.lm_corpus
    if corpus == "coco":
        from crepe_datasets.generators.balance.frequency_lm import DEFAULT_COUNTS

        corpus = DEFAULT_COUNTS
    start = time.perf_counter()
    auditor = BlindAuditor(corpus)
    print(f"LM: {auditor.lm.describe()}")
    print("expected R@1 (ties shared); '>' marks a value above chance + 0.05")
    table(f"CREPE release ({args.release})", release_sets(args.release), auditor)
    ok = table(f"ours ({args.ours})", our_sets(args.ours), auditor)
    print(
        f"\nours: every blind baseline within chance + 0.05 on {', '.join(TARGETS)} at every "
        f"complexity: {'yes' if ok else 'NO'}   ({time.perf_counter() - start:.1f} s)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

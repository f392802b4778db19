"""Formatting shortcuts: CREPE's released productivity sets vs our crepe-productivity build.

Reads ../shared/data/crepe_release (``prod_hard_negatives/<type>/…_complexity_<n>.csv``) and a
dataset folder built by ``crepe build productivity`` (built here first if it does not exist),
and prints, side by side, the best text-only formatting baseline (R@1, ties broken at random)
and chance for every negative type. Also prints the "pick the lower-case caption" baseline.

    .venv/bin/python scripts/bench/crepe_release_shortcut.py [--release DIR] [--ours DIR]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from crepe_datasets.generators.balance.shortcuts import audit_sets  # noqa: E402

OUR_CONFIG = {"atom": "hn_atom", "swap": "hn_swap", "negate": "hn_negate"}


def release_sets(folder: Path) -> dict[str, list[list[str]]]:
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.sources.crepe_release import read_crepe_release

    sets: dict[str, list[list[str]]] = defaultdict(list)
    drops = DropLog()
    for sample in read_crepe_release(folder, drops):
        sets[sample.meta["negative_type"]].append([sample.caption, *sample.negatives])
    if drops.total():
        print(f"(release rows skipped by the reader: {drops.to_dict()})")
    return sets


def our_sets(folder: Path) -> dict[str, list[list[str]]]:
    from crepe_datasets.validation.invariants import read_tables

    tables = read_tables(folder)
    return {
        config: [[r["caption"], *r["hard_negatives"]] for rows in splits.values() for r in rows]
        for config, splits in tables.items()
        if config != "raw"
    }


def release_vs_ours_parser(description: str) -> argparse.ArgumentParser:
    """Options shared by the benchmarks that set CREPE's release beside our productivity build."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--release", type=Path, default=ROOT.parent / "shared/data/crepe_release")
    parser.add_argument("--ours", type=Path, default=ROOT / "out/crepe-productivity")
    parser.add_argument(
        "--vg", type=Path, default=ROOT.parent / "shared/data/visual_genome/images_1-100"
    )
    return parser


def ensure_ours(ours: Path, vg: Path) -> None:
    """Build our productivity dataset at ``ours`` from ``vg`` unless it is there already."""
    if (ours / "data").is_dir():
        return
    from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity

    print(f"building {ours} from {vg} (template captions, no NLI, seed 0)…")
    build_productivity(ProductivitySettings(vg=str(vg), out=str(ours), progress=False))


def main() -> int:
    args = release_vs_ours_parser(__doc__.splitlines()[0]).parse_args()
    ensure_ours(args.ours, args.vg)
    release, ours = release_sets(args.release), our_sets(args.ours)
    print(f"\n{'':<8} | {'CREPE release':^44} | {'ours (' + args.ours.name + ')':^44}")
    head = f"{'rows':>6} {'chance':>7} {'lowercase':>9} {'best':>6} {'baseline':<13}"
    print(f"{'type':<8} | {head} | {head}")
    ok = True
    for kind, config in [*OUR_CONFIG.items(), ("all", "hn_all")]:
        cells = []
        for sets in (release.get(kind), ours.get(config)):
            if not sets:
                cells.append(f"{'—':^44}")
                continue
            audit = audit_sets(sets)
            name, best = audit.best
            lower = audit.baselines["max_all_lower"]
            cells.append(
                f"{audit.rows:>6} {audit.chance:>7.1%} {lower:>9.1%} {best:>6.1%} {name:<13}"
            )
            if sets is ours.get(config):
                ok &= audit.passed
        print(f"{kind:<8} | {cells[0]} | {cells[1]}")
    print(f"\nours within chance + 5 points on every config: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

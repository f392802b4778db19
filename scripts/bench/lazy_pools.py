"""How much rendering a lazy choice of negatives could save in crepe-productivity (issue 13, part 6).

    .venv/bin/python scripts/bench/lazy_pools.py [--images 100] [--seed 0]

A productivity build renders, checks and scores every candidate negative of an item (up to
``k + spare`` = 12 per refined type, 8 for HN-NEG), because the adversarial refinement
(:mod:`crepe_datasets.generators.balance.refine`) picks the ``k`` negatives of a set from its
whole pool. This script measures, on the real Visual Genome sample (the build's own chunk
steps, chunks of 64 images, template captions, no NLI), how many of those candidates a lazy
pipeline would still have to render:

* baseline: the candidates rendered into each refined pool now (sets with at least ``k``);
* lazy prefix: the shortest prefix of the pool (in generation order) that already holds an
  allowed choice with cost 0 (exactly the target number above the positive under both
  scorers) — rendering could stop there, at the price of a different (earlier) choice than the
  whole pool's;
* exact: sets whose whole-pool choice is the first ``k`` candidates — the only case in which
  stopping early is sure to give the same dataset (the lexicographically first choice of any
  larger pool could start with a candidate not yet rendered);
* HN-NEG (not refined): candidates rendered now, against those needed to reach ``k`` valid.

With ``--speed`` it also times the build's chunk task (warm: the second of two passes over the
sample) with the default pools and with no spare candidates at all (``spare_negatives=0``:
pools of ``k``, nothing left to choose) in the same run: an upper bound of what any smaller
pool could gain.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SAMPLE = ROOT.parent / "shared/data/visual_genome/images_1-100"


def _prefix_needed(states: list, k: int, target: int, balance) -> int:
    """Length of the shortest prefix holding an allowed cost-0 choice (the pool's, if none)."""
    from crepe_datasets.generators.balance.refine import _choices

    for m in range(k, len(states) + 1):
        groups: dict = defaultdict(list)
        for i, st in enumerate(states[:m]):
            groups[st].append(i)
        keys = tuple(sorted(groups, reverse=True))
        counts, above, first, last = _choices(keys, tuple(min(k, len(groups[x])) for x in keys), k)
        cost = np.abs(above[:, 0] - target) + np.abs(above[:, 1] - target)
        if len(counts) and (balance.fits_rows(first, last, k) & (cost == 0)).any():
            return m
    return len(states)


def measure(images: int, seed: int) -> Counter:
    from crepe_datasets.builders.productivity.build import ProductivitySettings
    from crepe_datasets.builders.productivity.chunks import worker_state
    from crepe_datasets.builders.productivity.clean import clean_graph
    from crepe_datasets.builders.productivity.items import (
        drop_other_captions,
        render_items,
        sample_items,
    )
    from crepe_datasets.generators.balance.refine import Balance, _state, choose_balanced
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    s = ProductivitySettings(vg=str(SAMPLE), out="unused", seed=seed, progress=False)
    state = worker_state(s)
    k, drops, out = s.negatives_per_type, DropLog(), Counter()
    infos = read_image_data(SAMPLE / "image_data.json", drops)
    graphs = list(iter_scene_graphs(SAMPLE / "scene_graphs.json", drops, infos))[:images]
    for start in range(0, len(graphs), s.chunk_images):
        items = []
        for g in graphs[start : start + s.chunk_images]:
            g = clean_graph(g, drops)
            items += sample_items(g, "x.jpg", range(s.min_n, s.max_n + 1), s.seed, s.walks,
                                  k + s.spare_negatives, lambda n: "template", drops,
                                  ranker=state["ranker"])  # fmt: skip
        rendered = render_items(items, state["writers"], drops)
        drop_other_captions(rendered, drops)
        balances: dict = defaultdict(Balance)
        scorers = state["scorers"][:2]
        for r in rendered:
            out["negate_rendered"] += sum(c.type == "negate" for c in r.item.candidates)
            out["negate_needed"] += _negate_needed(r, state["writers"]["template"], k)
            for t in ("atom", "swap"):
                pool = [neg for neg in r.negatives if neg.type == t]
                if len(pool) < k:
                    continue
                balance = balances[(t, r.item.n)]
                base = [fn(r.caption) for fn in scorers]
                states = [
                    tuple(_state(fn(n.text), b) for fn, b in zip(scorers, base, strict=True))
                    for n in pool
                ]
                target = balance.seen % (k + 1)
                out[f"{t}_sets"] += 1
                out[f"{t}_rendered"] += len(pool)
                out[f"{t}_prefix"] += _prefix_needed(states, k, target, balance)
                chosen = choose_balanced(states, k, target, balance)
                out[f"{t}_first_k"] += chosen == list(range(k))
    return out


def _negate_needed(r, writer, k: int) -> int:
    """HN-NEG candidates of a rendered item rendered until ``k`` of them were kept (all of them
    if fewer were kept): each candidate written again, matched in order to the kept texts."""
    from crepe_datasets.generators.captions import match_format, negate_caption_text

    cands = [c for c in r.item.candidates if c.type == "negate"]
    kept = [neg.text for neg in r.negatives if neg.type == "negate"]
    if len(kept) < k:
        return len(cands)
    found: set[str] = set()
    for i, c in enumerate(cands):
        if c.caption_level:
            text = negate_caption_text(r.caption)
        else:
            text = writer.write([c.graph])[0].caption
        if text is not None and match_format(text, r.caption) in kept:
            found.add(match_format(text, r.caption))
        if len(found) == k:
            return i + 1
    return len(cands)


def speed(spares: list[int], images: int) -> None:
    """Warm images/s of the chunk task with each number of spare candidates, one run."""
    import time

    from crepe_datasets.builders.productivity.build import ProductivitySettings
    from crepe_datasets.builders.productivity.chunks import process_chunk
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    infos = read_image_data(SAMPLE / "image_data.json", DropLog())
    graphs = list(iter_scene_graphs(SAMPLE / "scene_graphs.json", DropLog(), infos))[:images]
    records = [(g.to_dict(), infos[str(g.image_id)].file_name) for g in graphs]
    print(f"\nchunk task, {images} images, warm (second pass), template captions, no NLI")
    for spare in spares:
        s = ProductivitySettings(
            vg=str(SAMPLE), out="unused", spare_negatives=spare, progress=False
        )
        for _ in range(2):
            start = time.perf_counter()
            rows = 0
            for i in range(0, len(records), s.chunk_images):
                result = process_chunk(s, records[i : i + s.chunk_images])
                rows += sum(len(rec["configs"]) for rec in result["items"])
            seconds = time.perf_counter() - start
        print(f"spare candidates {spare}: {images / seconds:6.1f} images/s ({rows:,} rows)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed", action="store_true", help="also time spare = 7 and 0")
    args = parser.parse_args()
    c = measure(args.images, args.seed)
    print(f"{args.images} images of {SAMPLE.name}, seed {args.seed}, chunks of 64")
    print(
        f"{'type':<8} {'sets':>6} {'rendered now':>13} {'lazy prefix':>12} {'saved':>7} {'choice = first k':>17}"
    )
    for t in ("atom", "swap"):
        now, lazy = c[f"{t}_rendered"], c[f"{t}_prefix"]
        print(f"{t:<8} {c[t + '_sets']:>6,} {now:>13,} {lazy:>12,} {1 - lazy / max(now, 1):>7.1%} "
              f"{c[t + '_first_k']:>17,}")  # fmt: skip
    now, lazy = c["negate_rendered"], c["negate_needed"]
    print(f"{'negate':<8} {'':>6} {now:>13,} {lazy:>12,} {1 - lazy / max(now, 1):>7.1%}")
    if args.speed:
        speed([7, 0, 7, 0], args.images)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

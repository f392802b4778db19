"""Caption scores on COCO val2017 leave-one-out, checked against an independent BLEU (sacrebleu).

Run: ``.venv/bin/python scripts/bench/caption_scores_loo.py [--images 5000] [--no-meteor]``

Each image's first caption is scored as the prediction against its other captions (5,000
images, 20,014 references). Printed in the same run:

1. every score of ``crepe evaluate-captions`` (pycocoevalcap: BLEU-1..4, METEOR, ROUGE-L, CIDEr);
2. the baseline: BLEU-1..4 recomputed by ``sacrebleu`` on the same PTB-tokenised text, with the
   difference in BLEU points (the acceptance bound is 0.5 for BLEU-4);
3. the time of each: the PTB tokenizer, pycocoevalcap's BLEU and sacrebleu's BLEU on the same
   tokens, METEOR, ROUGE-L, CIDEr.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

COCO = ROOT.parent / "shared" / "data" / "coco" / "captions_val2017.json"


def main() -> int:
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    from crepe_datasets.evaluator.caption_check import (
        independent_bleu,
        leave_one_out,
        tokenized_pair,
    )
    from crepe_datasets.evaluator.caption_scores import _meteor

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--captions", type=Path, default=COCO)
    parser.add_argument("--images", type=int, default=None, help="Use only the first N images.")
    parser.add_argument("--no-meteor", action="store_true")
    args = parser.parse_args()

    refs, cands = leave_one_out(args.captions)
    if args.images:
        keep = sorted(cands)[: args.images]
        refs, cands = {i: refs[i] for i in keep}, {i: cands[i] for i in keep}
    print(f"{args.captions.name}: {len(cands):,} images, {sum(map(len, refs.values())):,} references "
          "(prediction = each image's first caption); the machine is shared, times are indicative")  # fmt: skip
    times: dict[str, float] = {}
    start = time.perf_counter()
    gts, res_one = tokenized_pair(refs, cands)
    times["PTB tokenizer (Java)"] = time.perf_counter() - start
    res = {i: [c] for i, c in res_one.items()}
    scores: dict[str, float] = {}
    start = time.perf_counter()
    with contextlib.redirect_stdout(None):
        bleu, _ = Bleu(4).compute_score(gts, res, verbose=0)
    times["BLEU-1..4 pycocoevalcap"] = time.perf_counter() - start
    scores.update({f"BLEU-{n + 1}": bleu[n] for n in range(4)})
    start = time.perf_counter()
    baseline = independent_bleu(gts, res_one)
    times["BLEU-1..4 sacrebleu (baseline)"] = time.perf_counter() - start
    if not args.no_meteor:
        start = time.perf_counter()
        scores["METEOR"], _ = _meteor(gts, res)
        times["METEOR (Java)"] = time.perf_counter() - start
    for name, scorer in (("ROUGE-L", Rouge()), ("CIDEr", Cider())):
        start = time.perf_counter()
        scores[name], _ = scorer.compute_score(gts, res)
        times[name] = time.perf_counter() - start

    print(f"\n{'metric':<10}{'pycocoevalcap':>15}{'sacrebleu':>12}{'difference':>12}")
    worst = 0.0
    for name, value in scores.items():
        other = baseline.get(name)
        diff = "" if other is None else f"{100 * (value - other):+12.4f}"
        other_s = "" if other is None else f"{100 * other:12.2f}"
        print(f"{name:<10}{100 * value:15.2f}{other_s:>12}{diff:>12}")
        if other is not None:
            worst = max(worst, abs(100 * (value - other)))
    print("\n(scores × 100; difference in BLEU points)")
    print(f"\n{'step':<34}{'seconds':>9}")
    for name, seconds in times.items():
        print(f"{name:<34}{seconds:9.2f}")
    bleu4 = abs(100 * (scores["BLEU-4"] - baseline["BLEU-4"]))
    verdict = "PASS" if bleu4 <= 0.5 else "FAIL"
    print(
        f"\nBLEU-4 agreement: |Δ| = {bleu4:.4f} points (bound 0.5): {verdict}; largest BLEU |Δ| {worst:.4f}"
    )
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())

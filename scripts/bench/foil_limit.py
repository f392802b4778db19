"""How broad a grand-hypernym may be before object foils come from the parent instead.

    .venv/bin/python scripts/bench/foil_limit.py [--limits 500,1000,2000] [--baseline-checkout DIR]

Held-out data for :data:`crepe_datasets.generators.negatives.senses.MAX_SUBTREE`: the most
captioned single-word Visual Genome object names of the synset table of all of Visual Genome
(``object_synsets.json``) that are *not* names of the evaluation images (``images_1-100``),
each with its VG synset. For each limit: how many co-hyponym foils the names get, how many
names get one, and the share of foils whose Wu-Palmer similarity to every noun sense of the
name is below 0.7 and 0.75 (the foil read in its most frequent sense), and of foils whose first
sense is in a lexicographer file of none of the name's senses. ``--baseline-checkout DIR`` also
prints the same figures for another checkout's code (e.g. one before ``senses.py``), in a
subprocess, in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("CREPE_SHARED_DATA", ROOT.parent / "shared" / "data"))
VG = SHARED / "visual_genome" / "images_1-100"
N_NAMES = 300


def held_out_names() -> dict[str, str]:
    """``name -> VG synset`` of the most captioned names outside the evaluation images."""
    from crepe_datasets.generators.balance.frequency_lm import DEFAULT_COUNTS, load_counts
    from crepe_datasets.scenegraph.lexicon import normalize_object

    counts = load_counts(str(DEFAULT_COUNTS))["unigrams"]
    images = json.loads((VG / "objects.json").read_text())
    evaluated = {normalize_object(n) for im in images for o in im["objects"] for n in o["names"]}
    held: dict[str, str] = {}
    for name, synset in json.loads((VG / "object_synsets.json").read_text()).items():
        name = normalize_object(name)
        if name.isalpha() and name not in evaluated and counts.get(name, 0) >= 20:
            held.setdefault(name, synset)
    return {n: held[n] for n in sorted(held, key=lambda n: -counts[n])[:N_NAMES]}


def cohyponyms(name: str, synset: str) -> list[str]:
    """The co-hyponym foils of this checkout's code that are caption words."""
    from crepe_datasets.generators.negatives import foils

    if hasattr(foils, "_grandchildren"):  # the code before senses.py
        found = foils.synset_cohyponyms(synset) or foils.ranked_cohyponyms(name, "n")
    else:
        found = foils.ranked_cohyponyms(name, synset)
    return [f for f in found if f != name and foils.in_captions(f)]


def measure(names: dict[str, str]) -> str:
    from crepe_datasets.infra.resources import wordnet

    wn = wordnet()
    total = with_foils = far70 = far75 = other = 0
    for name, synset in names.items():
        found = cohyponyms(name, synset)
        with_foils += bool(found)
        own = wn.synsets(name, "n")
        for foil in found:
            first = wn.synsets(foil, "n")[0]
            best = max((o.wup_similarity(first) or 0) for o in own)
            total += 1
            far70 += best < 0.7
            far75 += best < 0.75
            other += first.lexname() not in {o.lexname() for o in own}
    n = max(total, 1)
    return (
        f"foils {total:5,}  names with a foil {with_foils:3}/{len(names)}  "
        f"WuP<0.7 {far70 / n:5.1%}  WuP<0.75 {far75 / n:5.1%}  other kind {other / n:5.1%}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", default="500,1000,1500,2000,3000,1000000000")
    parser.add_argument("--baseline-checkout", default=None)
    parser.add_argument("--only-current", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd() if args.only_current else str(ROOT))
    names = held_out_names()
    if args.only_current:
        print(f"  {measure(names)}")
        return 0
    print(f"{len(names)} held-out Visual Genome object names (not in images_1-100)")
    from crepe_datasets.generators.negatives import foils, senses

    for limit in (int(x) for x in args.limits.split(",")):
        senses.MAX_SUBTREE = limit
        senses.broad.cache_clear()
        foils.ranked_cohyponyms.cache_clear()
        print(f"MAX_SUBTREE {limit:>13,}: {measure(names)}")
    if args.baseline_checkout:
        print(f"baseline checkout {args.baseline_checkout}:")
        env = dict(os.environ, PYTHONPATH=args.baseline_checkout, CREPE_SHARED_DATA=str(SHARED))
        script = [sys.executable, str(Path(__file__).resolve()), "--only-current"]
        subprocess.run(script, env=env, cwd=args.baseline_checkout, check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Which words the HN-ATOM foils of built datasets are: caption words, and antonyms of which sense.

    .venv/bin/python scripts/bench/foil_words.py BUILD [BUILD ...]

For each crepe-productivity folder (run it on a build of the code before a foil change and on
one after, same images and seed), over every object or attribute an HN-ATOM negative replaced:
how many foils no COCO val2017 caption uses (the word counts the plausibility ranker ships),
and how many are antonyms of a word's second sense but not of its first ("graceful" for
"wooden"), with the most frequent of each.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from crepe_datasets.generators.filters.frequency_lm import DEFAULT_COUNTS, load_counts  # noqa: E402
from crepe_datasets.scenegraph.lexicon import antonyms  # noqa: E402


def replaced(build: Path):
    """(original, foil) of every HN-ATOM object or attribute replacement in ``build``."""
    for path in sorted((build / "data" / "hn_atom").glob("*.parquet")):
        columns = ["subgraph", "negative_rules", "negative_subgraphs"]
        for row in pq.read_table(path, columns=columns).to_pylist():
            objects = {o["id"]: o for o in json.loads(row["subgraph"])["objects"]}
            for graph in row["negative_subgraphs"]:
                for oid, name, attributes in json.loads(graph)["o"]:
                    o = objects[oid]
                    if name != o["name"]:
                        yield o["name"], name
                    for a, b in zip(o["attributes"], attributes, strict=False):
                        if a != b:
                            yield a, b


def main(builds: list[str]) -> int:
    counts = load_counts(str(DEFAULT_COUNTS))["unigrams"]
    for build in builds:
        pairs = list(replaced(Path(build)))
        absent = Counter(p for p in pairs if any(counts.get(w, 0) == 0 for w in p[1].split()))
        second = Counter(
            p for p in pairs if p[1] in antonyms(p[0], "a") and p[1] not in antonyms(p[0], "a", 1)
        )
        n = len(pairs)
        print(f"{build}: {n:,} foils")
        print(f"  in no COCO caption: {sum(absent.values()):,} ({sum(absent.values()) / n:.1%})"
              f"  e.g. {', '.join(f'{a}->{b}' for (a, b), _ in absent.most_common(8))}")  # fmt: skip
        print(f"  antonym of a second sense only: {sum(second.values()):,}"
              f"  e.g. {', '.join(f'{a}->{b}' for (a, b), _ in second.most_common(8))}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

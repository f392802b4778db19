"""Which words the HN-ATOM foils of built datasets are: caption words, and antonyms of which sense.

    .venv/bin/python scripts/bench/foil_words.py BUILD [BUILD ...]

For each crepe-productivity folder (run it on a build of the code before a foil change and on
one after, same images and seed), over every object or attribute an HN-ATOM negative replaced:
how many foils no COCO val2017 caption uses (the word counts the plausibility ranker ships),
and how many are antonyms of a word's second sense but not of its first ("graceful" for
"wooden"), with the most frequent of each.

For the object foils (issue 13, wrong-sense and generic foils): how many read, in their most
frequent WordNet sense, as far from the object (Wu-Palmer similarity below 0.7 to every noun
sense of the original: "building" -> "system"), how many are another kind of thing (the
foil's first sense in a lexicographer file of none of the object's noun senses: "glass" ->
"food"), how many are mass nouns replacing
a count noun ("balconies" -> "equipments"), and a fixed sample of (object, foil) pairs. With
two builds (before, after), also how many ``hn_atom`` rows (same image, caption and complexity)
have other negatives in the second.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from crepe_datasets.generators.balance.frequency_lm import DEFAULT_COUNTS, load_counts  # noqa: E402
from crepe_datasets.scenegraph.lexicon import antonyms  # noqa: E402


def replaced(build: Path, objects_only: bool = False):
    """(original, foil) of every HN-ATOM object or attribute replacement in ``build`` (with the
    object's synset as a third item when ``objects_only``)."""
    for path in sorted((build / "data" / "hn_atom").glob("*.parquet")):
        columns = ["subgraph", "negative_rules", "negative_subgraphs"]
        for row in pq.read_table(path, columns=columns).to_pylist():
            objects = {o["id"]: o for o in json.loads(row["subgraph"])["objects"]}
            for graph in row["negative_subgraphs"]:
                for oid, name, attributes in json.loads(graph)["o"]:
                    o = objects[oid]
                    if name != o["name"]:
                        yield (
                            (o["name"], name, o.get("synset"))
                            if objects_only
                            else (o["name"], name)
                        )
                    if objects_only:
                        continue
                    for a, b in zip(o["attributes"], attributes, strict=False):
                        if a != b:
                            yield a, b


def object_report(build: Path) -> None:
    """Far, other-kind and mass-noun object foils of ``build``, and a sample."""
    from crepe_datasets.generators.negatives.senses import is_mass
    from crepe_datasets.infra.resources import wordnet

    wn = wordnet()
    pairs = list(replaced(build, objects_only=True))
    far = Counter()
    kind = Counter()
    mass = Counter()
    for name, foil, _ in pairs:
        own = wn.synsets(name.replace(" ", "_"), "n")
        first = wn.synsets(foil.replace(" ", "_"), "n")
        if not own or not first:
            continue
        if max((o.wup_similarity(first[0]) or 0) for o in own) < 0.7:
            far[(name, foil)] += 1
        if first[0].lexname() not in {o.lexname() for o in own}:
            kind[(name, foil)] += 1
        if is_mass(foil) and not is_mass(name):
            mass[(name, foil)] += 1
    n = max(len(pairs), 1)
    for label, c in (("Wu-Palmer < 0.7 to every sense", far), ("another kind (lexicographer file)", kind),
                     ("mass noun for a count noun", mass)):  # fmt: skip
        print(f"  object foils {label}: {sum(c.values()):,} of {len(pairs):,}"
              f" ({sum(c.values()) / n:.1%})  e.g. {', '.join(f'{a}->{b}' for (a, b), _ in c.most_common(8))}")  # fmt: skip
    distinct = sorted({(a, b) for a, b, _ in pairs})
    sample = random.Random(0).sample(distinct, min(25, len(distinct)))
    print(f"  sample of {len(sample)} of {len(distinct):,} distinct object->foil pairs: "
          + ", ".join(f"{a}->{b}" for a, b in sorted(sample)))  # fmt: skip


def atom_sets(build: Path) -> dict[tuple, tuple]:
    """``(complexity file, image, caption) -> negatives`` of every ``hn_atom`` row."""
    out = {}
    for path in sorted((build / "data" / "hn_atom").glob("*.parquet")):
        columns = ["image_id", "caption", "hard_negatives"]
        for row in pq.read_table(path, columns=columns).to_pylist():
            key = (path.name.split("-")[0], row["image_id"], row["caption"])
            out[key] = tuple(row["hard_negatives"])
    return out


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
        object_report(Path(build))
    if len(builds) == 2:
        before, after = atom_sets(Path(builds[0])), atom_sets(Path(builds[1]))
        same = [k for k in before if k in after]
        changed = sum(before[k] != after[k] for k in same)
        print(f"hn_atom rows: {len(before):,} -> {len(after):,}; in both: {len(same):,},"
              f" with other negatives: {changed:,}; only before: {len(before) - len(same):,},"
              f" only after: {len(after) - len(same):,}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Grammatical number in the texts of built crepe-productivity folders.

    .venv/bin/python scripts/bench/caption_number.py BUILD [BUILD ...]

For each folder (run it on a build of the code before a change and on one after, same images
and seed), over the distinct captions and negatives of every config: how many write "a", "an"
or "another" right before a plural object name of the row's graph ("a people", "another jeans"), and how many write a
singular object name of the row's graph before "are"/"were" or a plural one before "is"/"was"
("table are on floor"). Plurality is :func:`crepe_datasets.scenegraph.lexicon.is_plural_name`.

It also reads crepe-systematicity folders (the row's ``scene_graph`` and its
``negative_graphs``, whose foils are names of the negatives: "the furniture are green" in an
HN-COMP negative of "the curtains are green"), and prints the counts per config there.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from crepe_datasets.scenegraph.lexicon import is_plural_name  # noqa: E402

WRONG_VERB = {False: ("are", "were"), True: ("is", "was")}


def _graph_names(row: dict) -> set[str]:
    if row.get("subgraph") is not None:  # crepe-productivity
        return {o["name"] for o in json.loads(row["subgraph"] or "{}").get("objects", [])}
    graphs = [row.get("scene_graph") or "{}", *(row.get("negative_graphs") or [])]
    return {o[1] for g in graphs for o in json.loads(g).get("o", [])}


def texts_and_names(build: Path, config: str = "*"):
    """(text, object names of its row's graphs) for every distinct text of the folder."""
    seen: set[str] = set()
    wanted = ("caption", "hard_negatives", "subgraph", "scene_graph", "negative_graphs")
    for path in sorted((build / "data").glob(f"{config}/*.parquet")):
        table = pq.read_table(path)
        columns = [c for c in wanted if c in table.column_names]
        for row in table.select(columns).to_pylist():
            names = _graph_names(row)
            for text in [row.get("caption") or "", *(row.get("hard_negatives") or [])]:
                if text and text not in seen:
                    seen.add(text)
                    yield text, names


def count(build: Path, config: str = "*") -> tuple[int, Counter, Counter]:
    """Distinct texts, article errors and verb-number errors of ``build``'s ``config``."""
    n, articles, verbs = 0, Counter(), Counter()
    for text, names in texts_and_names(build, config):
        n += 1
        for name in names:
            if is_plural_name(name):
                for m in re.finditer(rf"\b(?:a|an|another) {re.escape(name)}\b", text):
                    articles[m.group(0)] += 1
            for verb in WRONG_VERB[is_plural_name(name)]:
                hits = len(re.findall(rf"\b{re.escape(name)} {verb}\b", text))
                if hits:
                    verbs[f"{name} {verb}"] += hits
    return n, articles, verbs


def main(builds: list[str]) -> int:
    for build in builds:
        path = Path(build)
        systematicity = (path / "data" / "hn_comp").is_dir()
        configs = ["*"] + (
            sorted(p.name for p in (path / "data").iterdir()) if systematicity else []
        )
        for config in configs:
            n, articles, verbs = count(path, config)
            label = build if config == "*" else f"  {config}"
            print(f"{label}: {n:,} distinct texts")
            print(f"  a/an/another + plural name: {sum(articles.values()):,}"
                  f"  e.g. {', '.join(k for k, _ in articles.most_common(6))}")  # fmt: skip
            print(f"  name + verb of the other number: {sum(verbs.values()):,}"
                  f"  e.g. {', '.join(k for k, _ in verbs.most_common(6))}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

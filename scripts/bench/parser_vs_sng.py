"""Benchmark: our caption parser beside ``scenegraphparser`` (sng_parser) on FACTUAL dev.

In one run, on the same captions (default: ``../shared/data/factual/factual_sg/random/dev.csv``):

* quality of both parsers (P/R/F1 of objects, attribute pairs, relation atoms, triplets, exact
  graph rate; :mod:`crepe_datasets.validation.parser_scores`, identical normalisation for both);
* speed per process, captions/s: our :class:`CaptionParser` (``nlp.pipe``, unused pipes
  excluded, ``attribute_ruler`` replaced by :mod:`crepe_datasets.scenegraph.parser.attribute_rules`),
  sng_parser (its own ``nlp(text)`` per caption on the same loaded pipeline, passed
  explicitly), and the raw spaCy pipeline alone through ``nlp.pipe``: with the pipes that give
  the tags, POS and dependencies our rules read (the issue's ceiling), with those pipes less the
  ``attribute_ruler`` (the neural pipes only: the strict floor of our own cost), and with every
  pipe;
* our parser on 1 and on 2 local worker processes (each loads the model once; timing starts
  when every worker is ready).

* attribute and triplet P/R/F1 of our parser on the three fixed slices of FACTUAL
  (:func:`crepe_datasets.validation.factual.factual_slices`): ``dev`` (``random/dev.csv``, the
  rows the rules were developed on), ``rest`` (the other rows of ``factual_sg.csv`` that the
  rules may be tuned on) and ``heldout`` (a fixed 20% of ``factual_sg.csv`` by caption hash,
  never tuned on and whose errors are never printed: only its totals are); with
  ``--baseline-checkout DIR``, the same figures for the parser of another checkout of this
  repository (for example the previous rules), run in a subprocess on the same captions.

Every timing is the best of ``--repeats`` runs after one warm-up run (WordNet caches warm).
Usage: ``.venv/bin/python scripts/bench/parser_vs_sng.py [--gold CSV] [--factual CSV]
[--repeats 3] [--no-workers] [--no-slices] [--baseline-checkout DIR]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from crepe_datasets.infra.resources import SPACY_MODELS, load_spacy, spacy_model_version  # noqa: E402
from crepe_datasets.scenegraph.parser import CaptionParser  # noqa: E402
from crepe_datasets.scenegraph.parser.rules import NUMBER_WORDS, UNUSED_PIPES  # noqa: E402
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject  # noqa: E402
from crepe_datasets.validation.factual import GoldGraph, factual_slices, read_factual  # noqa: E402
from crepe_datasets.validation.parser_scores import (  # noqa: E402
    CaptionTuples,
    ParserScores,
    score,
    score_graphs,
)

FACTUAL_SG = ROOT.parent / "shared" / "data" / "factual" / "factual_sg"
DEFAULT_GOLD = FACTUAL_SG / "random" / "dev.csv"
DEFAULT_FACTUAL = FACTUAL_SG / "factual_sg.csv"
#: Parses captions (JSON list on stdin) with the checkout it runs in; JSON records on stdout.
CHECKOUT_PARSE = """
import json, sys
from crepe_datasets.scenegraph.parser import CaptionParser
out = []
for g in CaptionParser().parse(json.load(sys.stdin)):
    by_id = g.object_by_id()
    out.append([[o.name for o in g.objects], [[o.name, a] for o in g.objects for a in o.attributes],
                [[by_id[r.subject].name, r.predicate, by_id[r.object].name]
                 for r in g.relationships if r.subject in by_id and r.object in by_id]])
json.dump(out, sys.stdout)
"""


def sng_to_graph(out: dict) -> SceneGraph:
    """sng_parser's output as a SceneGraph: lemma heads, amod/nummod modifiers, lemma relations."""
    objects = []
    for k, e in enumerate(out["entities"]):
        attrs = []
        for m in e["modifiers"]:
            if m["dep"] == "amod":
                attrs.append(m["span"].lower())
            elif m["dep"] == "nummod":
                attrs.append(NUMBER_WORDS.get(m["span"].lower(), m["span"].lower()))
        objects.append(SGObject(k, e["lemma_head"].lower(), tuple(attrs)))
    rels = [
        Relationship(r["subject"], r["lemma_relation"].lower(), r["object"])
        for r in out["relations"]
    ]
    return SceneGraph(objects, rels)


def best_rates(n: int, fns: dict, repeats: int) -> dict[str, tuple[float, float]]:
    """Captions/s of each function: (wall clock, CPU time of this process), best of ``repeats``.

    The functions run interleaved (A, B, C, A, B, C, ...) so that load from other processes on
    a shared machine hits all of them alike; CPU time is the steadier measure there.
    """
    for fn in fns.values():
        fn()  # warm-up
    best = {k: [float("inf"), float("inf")] for k in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            w, c = time.perf_counter(), time.process_time()
            fn()
            best[name][0] = min(best[name][0], time.perf_counter() - w)
            best[name][1] = min(best[name][1], time.process_time() - c)
    return {k: (n / v[0], n / v[1]) for k, v in best.items()}


_WORKER: CaptionParser | None = None


def _init_worker() -> None:
    global _WORKER
    _WORKER = CaptionParser()
    _WORKER.parse(["a warm up caption with a dog on a red couch"])


def _parse_chunk(texts: list[str]) -> int:
    assert _WORKER is not None
    return len(_WORKER.parse(texts))


def _ready(_: int) -> int:
    time.sleep(0.2)
    return 1


def workers_rate(texts: list[str], workers: int, repeats: int) -> float:
    """Captions/s of ``workers`` processes, each parsing an equal share in 64-caption chunks."""
    chunks = [texts[i : i + 64] for i in range(0, len(texts), 64)]
    with mp.get_context("spawn").Pool(workers, initializer=_init_worker) as pool:
        pool.map(_ready, range(workers * 2), chunksize=1)  # every worker loaded
        pool.map(_parse_chunk, chunks, chunksize=1)  # warm-up (WordNet caches)
        best = float("inf")
        for _ in range(repeats):
            t = time.perf_counter()
            pool.map(_parse_chunk, chunks, chunksize=1)
            best = min(best, time.perf_counter() - t)
    return len(texts) / best


def checkout_scores(checkout: Path, gold: list[GoldGraph]) -> ParserScores:
    """Scores of the parser of another checkout of this repository on ``gold`` (a subprocess)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, "-c", CHECKOUT_PARSE],
        input=json.dumps([g.caption for g in gold]),
        capture_output=True,
        text=True,
        cwd=checkout,
        env=env,
        check=True,
    )
    preds = [CaptionTuples.build(*record) for record in json.loads(done.stdout)]
    return score(preds, [CaptionTuples.from_gold(g) for g in gold], [g.caption for g in gold])


def slice_report(ours: CaptionParser, factual: str, dev: str, baseline: str | None) -> None:
    """Attribute and triplet P/R/F1 on dev, rest and heldout (totals only, never errors)."""
    slices = factual_slices(factual, [dev, Path(dev).with_name("test.csv")])
    slices["dev"] = read_factual(dev)  # the dev split as published (same captions)
    parsers = {"ours": lambda gold: score_graphs(ours.parse([g.caption for g in gold]), gold)}
    if baseline:
        parsers[f"baseline ({baseline})"] = lambda gold: checkout_scores(Path(baseline), gold)
    print(f"\nFACTUAL slices of {factual} (held-out: errors never printed)")
    print(
        f"  {'parser':28}{'slice':9}{'rows':>7}  {'attr P':>7}{'R':>7}{'F1':>7}  {'trip P':>7}{'R':>7}{'F1':>7}"
    )
    for name, run in parsers.items():
        for part in ("dev", "rest", "heldout"):
            gold = slices[part]
            cats = run(gold).categories
            a, t = cats["attributes"], cats["triplets"]
            print(
                f"  {name:28}{part:9}{len(gold):7d}  {a.precision:7.3f}{a.recall:7.3f}{a.f1:7.3f}"
                f"  {t.precision:7.3f}{t.recall:7.3f}{t.f1:7.3f}"
            )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gold", default=str(DEFAULT_GOLD))
    ap.add_argument("--factual", default=str(DEFAULT_FACTUAL), help="factual_sg.csv (slices)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-workers", action="store_true", help="skip the 1 vs 2 worker run")
    ap.add_argument("--no-slices", action="store_true", help="skip the dev/rest/heldout scores")
    ap.add_argument("--baseline-checkout", help="another checkout whose parser to score too")
    args = ap.parse_args()

    import sng_parser

    gold = read_factual(args.gold)
    captions = [g.caption for g in gold]
    ours = CaptionParser()
    full = load_spacy()  # the default pipeline, every pipe
    sng = sng_parser.Parser("spacy", model=str(full.path) if full.path else SPACY_MODELS[-1])
    sng.unwrapped.nlp = full  # the very same loaded pipeline object, explicitly
    print(f"gold: {args.gold} ({len(captions)} captions); spaCy {spacy_model_version(full)}")
    print(f"our pipes: {ours.nlp.pipe_names}; full pipes: {full.pipe_names}\n")

    our_graphs = ours.parse(captions)
    sng_graphs = [sng_to_graph(sng.parse(c)) for c in captions]
    our_scores, sng_scores = score_graphs(our_graphs, gold), score_graphs(sng_graphs, gold)
    print(our_scores.table("ours (crepe rules)"))
    print()
    print(sng_scores.table("scenegraphparser (sng_parser)"))

    n, r = len(captions), args.repeats
    unused = [p for p in ours.nlp.pipe_names if p in UNUSED_PIPES]
    neural = [*unused, "attribute_ruler"]
    annotating = [p for p in ours.nlp.pipe_names if p not in unused]
    rates = best_rates(
        n,
        {
            "raw spaCy, tag+POS+dep pipes": lambda: list(
                ours.nlp.pipe(captions, batch_size=256, disable=unused)
            ),
            "raw spaCy, without attribute_ruler": lambda: list(
                ours.nlp.pipe(captions, batch_size=256, disable=neural)
            ),
            "ours (CaptionParser.parse)": lambda: ours.parse(captions, batch_size=256),
            "raw spaCy, all pipes": lambda: list(full.pipe(captions, batch_size=256)),
            "sng_parser (Parser.parse)": lambda: [sng.parse(c) for c in captions],
        },
        r,
    )
    print(f"\nspeed, captions/s per process (best of {r}, interleaved, after a warm-up)")
    print(f"  tag+POS+dep pipes: {annotating}; ours runs them without attribute_ruler,")
    print(
        "  whose POS/TAG/DEP it reproduces exactly (crepe_datasets.scenegraph.parser.attribute_rules)"
    )
    print(f"  {'':36}{'wall':>8}{'cpu':>8}")
    for name, (wall, cpu) in rates.items():
        print(f"  {name:36}{wall:8.0f}{cpu:8.0f}")
    raw, our = rates["raw spaCy, tag+POS+dep pipes"], rates["ours (CaptionParser.parse)"]
    bare = rates["raw spaCy, without attribute_ruler"]
    sng_r, full_r = rates["sng_parser (Parser.parse)"], rates["raw spaCy, all pipes"]
    print(
        f"  ours / raw (tag+POS+dep):         {our[0] / raw[0]:.2f}x wall, {our[1] / raw[1]:.2f}x cpu"
    )
    print(
        f"  ours / raw (no attribute_ruler):  {our[0] / bare[0]:.2f}x wall, {our[1] / bare[1]:.2f}x cpu"
    )
    print(
        f"  sng / raw (all pipes):            {sng_r[0] / full_r[0]:.2f}x wall, "
        f"{sng_r[1] / full_r[1]:.2f}x cpu"
    )
    if not args.no_slices:
        slice_report(ours, args.factual, args.gold, args.baseline_checkout)
    if not args.no_workers:
        texts = captions * 4
        one = workers_rate(texts, 1, r)
        two = workers_rate(texts, 2, r)
        print(
            f"\nlocal workers ({len(texts)} captions): 1 worker {one:.0f}/s, 2 workers {two:.0f}/s "
            f"= {two / one:.2f}x (cpus: {mp.cpu_count()})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One chunk of images → rows: the engine task of a productivity build (issue 13, part 6).

The parent process streams Visual Genome and cuts it into chunks of ``chunk_images`` images;
:func:`run_chunk` does everything else for one chunk — clean the graphs, sample walks and
regions, generate and render negatives, drop texts equal to other captions and (with ``--nli``)
entailed ones, refine the choice of negatives, and assemble the rows — on any engine of
:mod:`crepe_datasets.builders.engines` (in-process, a local pool, Dask), exactly as
``parse-corpus`` parses its shards. Each worker builds its caption writers, NLI filter and
rankers once (:func:`worker_state`) and keeps them for the chunks that follow.

A chunk result holds its rows as compact item records
(:func:`crepe_datasets.builders.productivity.rows.item_record`: each base row and negative once,
not once per config), which the parent expands with :func:`chunk_rows`.

Resuming: each finished chunk's result is written atomically as ``chunk-NNNNNN.json.gz`` into
the run's chunk folder (beside ``run.json``, the input checksums and settings); a restarted
build with the same inputs and settings reads those instead of recomputing them. The result of
a chunk depends only on its images and the settings (seeds are per image, the refinement's
balance per chunk), so the dataset is the same whatever the engine and the number of workers.
"""

from __future__ import annotations

import contextlib
import gc
import gzip
import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crepe_datasets.builders.productivity.clean import clean_graph
from crepe_datasets.builders.productivity.items import (
    add_candidates,
    drop_entailed,
    drop_other_captions,
    render_items,
    sample_walk_items,
)
from crepe_datasets.builders.productivity.rows import item_record, record_rows, split_name
from crepe_datasets.builders.productivity.sampler import MIN_N
from crepe_datasets.generators.balance.attestation import PairAttestation
from crepe_datasets.generators.balance.refine import (
    RefineState,
    RefineStats,
    default_scorers,
    finish,
    refine,
)
from crepe_datasets.generators.negatives.foil_balance import (
    DEFAULT_SPLIT_CAP,
    FoilLedger,
    positive_atoms,
)
from crepe_datasets.generators.negatives.joint_balance import PAIR_KINDS, graph_features
from crepe_datasets.infra.provenance import DropLog, atomic_path
from crepe_datasets.scenegraph.types import Description, SceneGraph

#: A chunk's record of one image: its graph dict, its image file and its descriptions (as
#: :meth:`~crepe_datasets.scenegraph.types.Description.to_list` lists).
Record = tuple[dict[str, Any], str, list[list[Any]]]

# The layout of a chunk result; part of a run's key (``run.json``), so a resumed build never
# reads chunks written in another layout. 2: rows as compact item records (:func:`item_record`);
# 3: negatives chosen with the attestation judge (a chunk of 2 holds other choices); 4: foils
# checked against the images' descriptions and the objects' aliases.
CHUNK_FORMAT = 4

_STATE: dict[str, dict[str, Any]] = {}


def make_writers(s: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """Caption writers of a build (template, and an LLM with ``--llm``) and their names."""
    from crepe_datasets.generators.captions.template import TemplateCaptionWriter

    writers: dict[str, Any] = {"template": TemplateCaptionWriter()}
    models: dict[str, str] = {"caption_writer": "template"}
    if s.llm:
        from crepe_datasets.generators.captions.llm import LLMCaptionWriter, parse_llm_spec

        cache = (
            Path(s.llm_cache)
            if s.llm_cache
            else Path(s.out).resolve().parent / ".crepe_cache" / "llm"
        )
        writers["llm"] = LLMCaptionWriter(
            parse_llm_spec(s.llm), base_url=s.llm_base_url, cache_dir=cache
        )
        models["caption_writer"] = (
            f"template (n={s.min_n}) + llm {s.llm} at {s.llm_base_url or 'default URL'}"
        )
    return writers, models


def make_rankers(s: Any, models: dict[str, str]) -> tuple[Any, list[Any]]:
    """The foil ranker (masked LM with ``--mlm``, else word frequency + n-gram LM) and the
    blind scorers of the adversarial refinement (always the no-download ones)."""
    from crepe_datasets.generators.balance.frequency_lm import FrequencyLMRanker

    lm = FrequencyLMRanker(s.lm_corpus)
    ranker: Any = lm
    if s.mlm:
        from crepe_datasets.generators.filters.plausibility import PlausibilityRanker

        ranker = PlausibilityRanker(s.mlm)
    models["foil_ranker"] = json.dumps(ranker.describe(), sort_keys=True)
    if s.refine:
        models["refinement_scorers"] = json.dumps(lm.describe(), sort_keys=True)
    return ranker, default_scorers(lm)


def worker_state(s: Any) -> dict[str, Any]:
    """Writers, NLI filter, rankers and model names of these settings, built once per process."""
    key = json.dumps({k: v for k, v in vars(s).items() if k != "progress"}, sort_keys=True)
    state = _STATE.get(key)
    if state is None:
        writers, models = make_writers(s)
        entailed = None
        if s.nli:
            from crepe_datasets.generators.filters.entailment import EntailmentFilter

            entailed, models["nli"] = EntailmentFilter(s.nli).entailed, s.nli
        ranker, scorers = make_rankers(s, models)
        state = {"writers": writers, "models": models, "entailed": entailed, "settled": False}
        state.update(ranker=ranker, scorers=scorers)
        _STATE.clear()
        _STATE[key] = state
        gc.collect()
        gc.freeze()  # WordNet, the LM counts, the sense index: never garbage, never scanned again
    return state


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused for one chunk (reference counting still frees
    almost everything). A chunk allocates ~10^6 short-lived objects that stay alive until its
    rows are assembled, so generation scans found nothing to free yet took a fifth of the
    time; the collector runs again, as usual, after the chunk."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def settle(state: dict[str, Any]) -> None:
    """After a process's first chunk: collect, then freeze what is left (once per process).

    WordNet, spaCy and the lexicon tables load lazily during the first chunk, after
    :func:`worker_state`'s freeze: left in the oldest generation, the ~10^6 objects they bring
    would be scanned again by every full collection (about 0.6 s each, every few chunks).
    Frozen, they are never scanned; reference counting still frees them as usual."""
    if not state.get("settled", True):
        state["settled"] = True
        gc.collect()
        gc.freeze()


def chunk_path(folder: Path, index: int) -> Path:
    return folder / f"chunk-{index:06d}.json.gz"


def process_chunk(s: Any, records: list[Record]) -> dict[str, Any]:
    """The rows, counts and drops of one chunk of records."""
    with paused_gc():
        return _process_chunk(s, records)


def _process_chunk(s: Any, records: list[Record]) -> dict[str, Any]:
    state = worker_state(s)
    writers = state["writers"]
    drops, stats = DropLog(), RefineStats()
    complexities = list(range(s.min_n, s.max_n + 1))
    k = s.negatives_per_type

    def writer_for(n: int) -> str:
        return "llm" if "llm" in writers and n > MIN_N else "template"

    graphs = [(clean_graph(SceneGraph.from_dict(graph), drops), f) for graph, f, _ in records]
    said = [[Description.from_list(d) for d in texts] for _, _, texts in records]
    walked = [
        (g, sample_walk_items(g, f, complexities, s.seed, s.walks, writer_for, drops))
        for g, f in graphs
    ]
    refine_state = RefineState(one_atom=s.one_atom_sets)
    if s.refine:  # how often the chunk's other images state each pair: a third judge
        refine_state.attestation = PairAttestation((g.image_id, g) for g, _ in graphs)
    vocab = None
    if s.refine and s.foil_cap is not None:  # the walks are known: so are the positives' words
        positives = Counter(
            a for _, items in walked for it in items for a in positive_atoms(it.graph)
        )
        ledger = FoilLedger.for_positives(s.foil_cap, s.foil_rate, positives)
        # a one-atom set needs five foils of one word: the split's limit would cost a third of
        # them (docs/benchmarks.md, "A word the split has not replaced")
        split_cap = None if s.one_atom_sets else DEFAULT_SPLIT_CAP
        refine_state.ledgers = {n: ledger.for_split(split_cap) for n in complexities}
        refine_state.joint = {}
        vocab = Counter((a.type, a.text) for g, _ in graphs for a in g.atoms())
        vocab.update(  # and the pairs the positives form, for foils that form them too
            f
            for _, items in walked
            for it in items
            for f in graph_features(it.graph)
            if f[0] in PAIR_KINDS
        )
    rendered: list = []
    for (g, items), descriptions in zip(walked, said, strict=True):  # image by image, so
        add_candidates(  # each image's foils see the ledger so far
            items,
            g,
            s.seed,
            k + s.spare_negatives,
            drops,
            ranker=state["ranker"],
            ledgers=refine_state.ledgers,
            vocab=vocab,
            forecast=k,
            same_atom=k if s.one_atom_sets else 0,
            descriptions=descriptions,
            need=s.min_negatives,
        )
        done = render_items(items, writers, drops)
        drop_other_captions(done, drops)
        if state["entailed"] is not None:
            drop_entailed(done, state["entailed"], drops)
        if s.refine:
            refine(done, state["scorers"], k, stats, drops=drops, state=refine_state)
        rendered += done
    if s.refine:
        finish(refine_state, stats)
    generated: dict[str, Counter] = defaultdict(Counter)
    for r in rendered:
        generated[split_name(r.item.n)].update(neg.type for neg in r.negatives)
    return {
        "images": len(records),
        "items": [item_record(r, k, drops, s.min_negatives) for r in rendered],
        "generated": {sp: dict(c) for sp, c in generated.items()},
        "refine": stats.to_dict(),
        "drops": drops.to_dict(),
        "repairs": drops.repairs_dict(),
        "examples": drops.examples_dict(),
    }


def run_chunk(
    settings: dict[str, Any],
    index: int,
    records: list[Record] | None,
    folder: str,
) -> str:
    """Engine task: process a chunk (unless its result is already on disk); return its path."""
    from crepe_datasets.builders.productivity.build import ProductivitySettings

    path = chunk_path(Path(folder), index)
    if records is not None and not path.exists():
        # the collector stays paused until the result is text and freed: re-enabled with the
        # result alive, it would scan (and promote) every object of the result first
        with paused_gc():
            result = process_chunk(ProductivitySettings(**settings), records)
            data = json.dumps(result, sort_keys=True, ensure_ascii=False).encode("utf-8")
            del result
        settle(worker_state(ProductivitySettings(**settings)))
        with atomic_path(path) as tmp, gzip.GzipFile(tmp, "wb", mtime=0, compresslevel=3) as f:
            f.write(data)
    return str(path)


def read_chunk(path: str | Path) -> dict[str, Any]:
    """A chunk result written by :func:`run_chunk`."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def chunk_rows(result: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(config, split, row)`` of every row of a chunk result, in the build's order (item by
    item: ``raw``, then each hard-negative config the item enters)."""
    for record in result["items"]:
        split = split_name(record["row"]["n"])
        for config, row in record_rows(record):
            yield config, split, row


def merge_drops(log: DropLog, result: dict[str, Any]) -> None:
    """Add a chunk result's drops, repairs and examples to ``log``."""
    part = DropLog.from_dict(result["drops"], result["repairs"])
    for stage, reasons in result["examples"].items():
        for reason, examples in reasons.items():
            part.examples[(stage, reason)] = list(examples)
    log.merge(part)

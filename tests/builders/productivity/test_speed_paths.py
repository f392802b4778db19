"""The fast paths of the productivity pipeline (issue 13, part 6) give what the plain ones gave.

Each optimisation replaced a computation by a cheaper one with the same result; these tests
compare the two on real Visual Genome graphs, walks and their negative candidates.
"""

from __future__ import annotations

import gc
import itertools
import random

import pytest

from crepe_datasets.builders.productivity.build import prepare_graph
from crepe_datasets.builders.productivity.chunks import paused_gc
from crepe_datasets.builders.productivity.items import sample_items
from crepe_datasets.builders.productivity.sampler import _Walk, sample_walks, walk_rng
from crepe_datasets.generators.balance.refine import _count_matrix
from crepe_datasets.generators.captions.coverage import missing_atoms
from crepe_datasets.generators.captions.template import template_caption
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Atom, SceneGraph
from tests.conftest import require_shared


def _real_graphs(start: int, stop: int) -> list[SceneGraph]:
    folder = require_shared("visual_genome", "images_1-100")
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    drops = DropLog()
    infos = read_image_data(folder / "image_data.json", drops)
    graphs = iter_scene_graphs(folder / "scene_graphs.json", drops, infos)
    return [prepare_graph(g, drops) for g in itertools.islice(graphs, start, stop)]


def _item_graphs(start: int, stop: int, seed: int):
    """(ground-truth graph, graph) for each sampled item's graph and its graph-level candidates."""
    for g in _real_graphs(start, stop):
        items = sample_items(g, "x.jpg", range(4, 13), seed, 2, 12, lambda n: "template", DropLog())
        for item in items:
            for graph in [item.graph, *(c.graph for c in item.candidates if not c.caption_level)]:
                yield item.graph, graph


def _plain_missing_atoms(caption: str, graph: SceneGraph) -> list[Atom]:
    """The coverage check as it was: one atom object per occurrence, checked in turn."""
    from crepe_datasets.generators.captions.coverage import (
        ARTICLES,
        _atom_words,
        _covered,
        _forms,
        _orders,
        words,
    )

    caption_words = words(caption)
    padded = " " + " ".join(caption_words) + " "
    caption_forms = [_forms(w) for w in caption_words if w not in ARTICLES]
    positions: dict[str, list[int]] = {}
    for i, forms in enumerate(caption_forms):
        for form in forms:
            positions.setdefault(form, []).append(i)
    out: list[Atom] = []
    for atom in graph.atoms():
        atom_words = _atom_words(atom.text)
        if atom in out or not atom_words:
            continue
        if f" {' '.join(atom_words)} " in padded and not ARTICLES.issuperset(atom_words):
            continue
        if not any(_covered(list(w), positions, caption_forms) for w in _orders(atom_words)):
            out.append(atom)
    return out


def _compositions(k: int, caps: list[int]) -> list[tuple[int, ...]]:
    """The product tuples under ``caps`` that sum to ``k``, in product order."""
    return [c for c in itertools.product(*(range(x + 1) for x in caps)) if sum(c) == k]


def test_count_matrix_rows_are_the_product_tuples_that_sum_to_k():
    rng = random.Random(0)
    for _ in range(500):
        caps = [rng.randint(0, 5) for _ in range(rng.randint(0, 7))]
        k = rng.randint(0, 6)
        rows = _count_matrix(tuple(caps), k)
        assert rows.shape == (len(_compositions(k, caps)), len(caps))
        assert [tuple(r) for r in rows.tolist()] == _compositions(k, caps)


def test_complexity_counts_atoms_and_shared_walk_facts_give_the_same_walks():
    # images 51-80: not the images the optimisations were profiled on first
    for g in _real_graphs(50, 80):
        assert g.complexity() == len(g.atoms())
        for n in (4, 7, 12):
            shared = sample_walks(g, n, 3, 3)
            if shared[0].reason == "graph_smaller_than_n":
                continue
            alone = [_Walk(g, n, walk_rng(3, g.image_id, n, k)).run() for k in range(3)]
            assert [r.graph.to_json() if r.graph else r.reason for r in shared] == [
                r.graph.to_json() if r.graph else r.reason for r in alone
            ]


def test_coverage_fast_path_agrees_on_captions_and_negatives():
    checked = 0
    for truth, graph in _item_graphs(60, 75, seed=0):
        # also against another graph's caption, where atoms are missing
        for caption in (template_caption(graph), template_caption(truth)):
            assert missing_atoms(caption, graph) == _plain_missing_atoms(caption, graph)
            checked += 1
    assert checked > 1000


def test_paused_gc_restores_the_collector():
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def _plain_template_caption(graph: SceneGraph) -> str:
    """The template caption as it was written: components, then a scan per part."""
    from crepe_datasets.generators.captions import template as t

    by_id = graph.object_by_id()
    order = {o.id: i for i, o in enumerate(graph.objects)}
    comps = sorted(graph.components(), key=lambda comp: min(order[i] for i in comp))
    mentions, texts = t._Mentions(), []
    for ids in comps:
        members = sorted(ids, key=order.__getitem__)
        rels = [r for r in graph.relationships if r.subject in ids and r.object in ids]
        text = t._part_text(members, graph, by_id, mentions, rels)
        if texts:
            text = t._with_article(text, t._first_named(members, rels, by_id).name)
        texts.append(text)
    return " and ".join(texts)


def test_template_parts_in_one_pass_write_the_same_captions():
    checked = 0
    for _, graph in _item_graphs(80, 100, seed=1):
        assert template_caption(graph) == _plain_template_caption(graph)
        checked += 1
    assert checked > 1000


def _plain_choose_balanced(states, k, target, balance):
    """The balanced choice as it was: every composition tried, in product order."""
    from collections import defaultdict

    groups = defaultdict(list)
    for i, st in enumerate(states):
        groups[st].append(i)
    keys = sorted(groups, reverse=True)
    best = None
    for counts in _compositions(k, [min(k, len(groups[key])) for key in keys]):
        picked = [(key, n) for key, n in zip(keys, counts, strict=True) if n]
        above = [sum(n for key, n in picked if key[s] >= 0) for s in (0, 1)]
        cost = sum(abs(a - target) for a in above)
        ties = [sum(n for key, n in picked if key[s] == 0) for s in (0, 1)]
        first = [0.0 if any(key[s] > 0 for key, _ in picked) else 1 / (1 + ties[s]) for s in (0, 1)]
        last = [0.0 if any(key[s] < 0 for key, _ in picked) else 1 / (1 + ties[s]) for s in (0, 1)]
        if not balance.fits(first, last, k):
            continue
        chosen = sorted(i for key, n in picked for i in groups[key][:n])
        if best is None or (cost, chosen) < (best[0], best[1]):
            best = (cost, chosen, first, last)
    if best is None:
        return None
    balance.add(best[2], best[3])
    return best[1]


@pytest.mark.slow
def test_cached_balanced_choice_is_the_plain_enumeration():
    from crepe_datasets.generators.balance.refine import Balance, choose_balanced

    rng = random.Random(7)
    fast, plain = Balance(), Balance()
    for c in range(3000):
        states = [
            (rng.choice((-1, 0, 1)), rng.choice((-1, 0, 1))) for _ in range(rng.randint(5, 12))
        ]
        target = c % 6
        assert choose_balanced(states, 5, target, fast) == _plain_choose_balanced(
            states, 5, target, plain
        )
        assert (fast.seen, fast.first, fast.last) == (plain.seen, plain.first, plain.last)


def test_atoms_covered_by_construction_are_found_by_the_coverage_check():
    from crepe_datasets.generators.captions.template import covered_by_construction

    skipped = checked = 0
    for g in _real_graphs(20, 40):
        items = sample_items(g, "x.jpg", range(4, 13), 2, 2, 12, lambda n: "template", DropLog())
        for item in items:
            for graph in [item.graph, *(c.graph for c in item.candidates if not c.caption_level)]:
                checked += 1
                if covered_by_construction(graph):
                    skipped += 1
                    assert missing_atoms(template_caption(graph), graph) == []
    assert skipped > 1000 and skipped < checked  # negated atoms still go through the check


def test_compact_json_is_json_dumps_of_the_compact_data():
    import json

    from crepe_datasets.generators.negatives import _compact_data, compact_json
    from crepe_datasets.scenegraph.types import Relationship, SGObject

    def plain(graph: SceneGraph) -> str:
        return json.dumps(_compact_data(graph), separators=(",", ":"), ensure_ascii=False)

    checked = 0
    for g in _real_graphs(40, 55):
        items = sample_items(g, "x.jpg", range(4, 13), 4, 2, 12, lambda n: "template", DropLog())
        for item in items:
            for graph in [item.graph, *(c.graph for c in item.candidates)]:
                assert compact_json(graph) == plain(graph)
                checked += 1
    assert checked > 1000
    odd = SceneGraph(
        [SGObject(1, 'say "hi"\\', ("caf\u00e9", "tab\there")), SGObject(2, "x\u2028y")],
        [Relationship(1, "next\nto", 2), Relationship(2, "on", 9)],
    )
    assert compact_json(odd) == plain(odd)


def test_broken_reason_fast_form_agrees_on_real_texts_and_every_rule():
    from crepe_datasets.generators.captions.phrases import broken_reason, plain_broken_reason

    reasons = set()
    for g in _real_graphs(0, 20):
        items = sample_items(g, "x.jpg", range(4, 13), 5, 2, 12, lambda n: "template", DropLog())
        for item in items:
            for graph in [item.graph, *(c.graph for c in item.candidates if not c.caption_level)]:
                text = template_caption(graph)
                for variant in (text, text.replace(" the ", " the the ", 1), "a " + text):
                    reason = broken_reason(variant)
                    assert reason == plain_broken_reason(variant)
                    reasons.add(reason)
    assert reasons == {None, "doubled_article", "repeated_word", "wrong_article"}


def _plain_rows(rendered, k, min_k, drops):
    """Rows per (config, split) as ``add_rows`` wrote them before compact item records: the
    base row, then one full row per hard-negative config with enough negatives of its types."""
    from crepe_datasets.builders.productivity.rows import (
        HN_CONFIGS,
        base_row,
        first_per_type,
        split_name,
    )

    out = []
    for r in rendered:
        base = base_row(r)
        out.append(("raw", split_name(r.item.n), base))
        by_type = first_per_type(r, k)
        for config, types in HN_CONFIGS.items():
            if any(len(by_type.get(t, [])) < min_k for t in types):
                drops.drop("productivity_configs", f"{config}_fewer_than_{min_k}_negatives")
                continue
            chosen = [neg for t in types for neg in by_type[t]]
            row = dict(base)
            row["hard_negatives"] = [neg.text for neg in chosen]
            row["negative_types"] = [neg.type for neg in chosen]
            row["negative_rules"] = [neg.rule for neg in chosen]
            row["negative_subgraphs"] = [neg.graph for neg in chosen]
            out.append((config, split_name(r.item.n), row))
    return out


def test_compact_chunk_records_give_back_every_row():
    """A chunk result's item records (read back through JSON, as the parent reads them) expand
    to the same rows, in the same order, with the same config drops, for full and smaller sets."""
    import json

    from crepe_datasets.builders.productivity.chunks import chunk_rows
    from crepe_datasets.builders.productivity.items import render_items
    from crepe_datasets.builders.productivity.rows import item_record
    from crepe_datasets.generators.balance.refine import RefineStats, refine
    from crepe_datasets.generators.captions.template import TemplateCaptionWriter

    items = []
    for g in _real_graphs(60, 80):
        items += sample_items(g, "x.jpg", range(4, 13), 3, 2, 12, lambda n: "template", DropLog())
    rendered = render_items(items, {"template": TemplateCaptionWriter()}, DropLog())
    refine(rendered, [lambda t: len(t), lambda t: -t.count("a")], 5, RefineStats())
    for min_k in (5, 1):
        plain_drops, drops = DropLog(), DropLog()
        expected = _plain_rows(rendered, 5, min_k, plain_drops)
        result = {"items": [item_record(r, 5, drops, min_k) for r in rendered]}
        got = list(chunk_rows(json.loads(json.dumps(result))))
        assert [list(x) for x in got] == json.loads(json.dumps(expected))
        assert [list(row) for _, _, row in got] == [list(row) for _, _, row in expected]
        assert drops.to_dict() == plain_drops.to_dict()
        assert {c for c, _, _ in got} == {"raw", "hn_atom", "hn_swap", "hn_negate", "hn_all"}


def test_graph_check_leaves_no_reference_cycles():
    """``GraphIndex.holds`` (run on every candidate) leaves nothing for the cyclic collector,
    which would otherwise keep each image's index alive until the end of its chunk."""
    from crepe_datasets.generators.negatives.graphs import GraphIndex

    checked = 0
    with paused_gc():
        gc.collect()
        for g in _real_graphs(0, 10):
            index = GraphIndex(g)
            items = sample_items(g, "x.jpg", range(4, 13), 0, 2, 12, lambda n: "t", DropLog())
            for item in items:
                assert index.holds(item.graph)
                checked += 1 + sum(index.holds(c.graph) for c in item.candidates)
        assert checked > 100
        assert gc.collect() == 0


def _plain_rebalance(sets, balance, max_passes=4):
    """The joint revision as it was: every candidate's delta, every set visited in every pass,
    each swap scored as the change of the difference of two deltas."""

    def difference(add, remove):
        out = dict(add)
        for f, d in remove.items():
            out[f] = out.get(f, 0) - d
        return {f: d for f, d in out.items() if d}

    swaps = 0
    for _ in range(max_passes):
        changed = 0
        for s in sets:
            for slot, i in enumerate(s.chosen):
                taken = set(s.chosen)
                others = frozenset().union(*(s.exclusive[c] for c in s.chosen if c != i))
                best, best_gain = None, -1e-9
                for j, state in enumerate(s.states):
                    if j in taken or state != s.states[i] or s.exclusive[j] & others:
                        continue
                    gain = balance.change(difference(s.deltas[j], s.deltas[i]))
                    if gain < best_gain:
                        best, best_gain = j, gain
                if best is not None:
                    balance.add(s.deltas[i], -1)
                    balance.add(s.deltas[best])
                    s.chosen[slot] = best
                    changed += 1
        swaps += changed
        if not changed:
            break
    for s in sets:
        s.chosen.sort()
    return swaps


@pytest.mark.slow
def test_joint_revision_fast_paths_make_the_plain_swaps_on_real_chunks():
    """Lazy feature deltas, swaps scored without building differences, and sets skipped while
    nothing they touch has changed: the same swaps as the plain revision, on the joint sets of
    real VG images chosen as a build chooses them (foil ledger, blind scorers)."""
    import copy
    from collections import Counter

    from crepe_datasets.builders.productivity.build import ProductivitySettings
    from crepe_datasets.builders.productivity.chunks import worker_state
    from crepe_datasets.builders.productivity.items import (
        add_candidates,
        drop_other_captions,
        render_items,
        sample_walk_items,
    )
    from crepe_datasets.generators.balance.refine import (
        RefineState,
        RefineStats,
        _negative_graph,
        refine,
    )
    from crepe_datasets.generators.negatives.foil_balance import FoilLedger, positive_atoms
    from crepe_datasets.generators.negatives.joint_balance import (
        FeatureBalance,
        JointSet,
        feature_delta,
        graph_features,
        rebalance,
    )

    s = ProductivitySettings(vg="unused", out="unused", progress=False)
    state = worker_state(s)
    k = s.negatives_per_type
    swaps_seen = skipped_deltas = 0
    for start in (0, 40):
        drops = DropLog()
        walked = []
        for g in _real_graphs(start, start + 40):
            walked.append((g, sample_walk_items(g, "x.jpg", range(4, 13), 0, 3, lambda n: "template", drops)))  # fmt: skip
        positives = Counter(a for _, items in walked for it in items for a in positive_atoms(it.graph))  # fmt: skip
        ledger = FoilLedger.for_positives(s.foil_cap, s.foil_rate, positives)
        rs = RefineState(ledgers={n: ledger.for_split() for n in range(4, 13)})
        rs.joint = {}
        for g, items in walked:
            add_candidates(items, g, 0, k + s.spare_negatives, drops, state["ranker"], rs.ledgers)
            done = render_items(items, state["writers"], drops)
            drop_other_captions(done, drops)
            refine(done, state["scorers"], k, RefineStats(), drops=drops, state=rs)
        for joint in rs.joint.values():
            plain_sets = []
            for r, pool, js in joint.sets:
                positive = graph_features(r.item.graph)
                full = [feature_delta(positive, _negative_graph(neg)) for neg in pool]
                assert all(d is None or d == e for d, e in zip(js.deltas, full, strict=True))
                skipped_deltas += sum(d is None for d in js.deltas)
                plain_sets.append(JointSet(js.states, full, js.exclusive, list(js.chosen)))
            bounded = Counter(joint.balance.bounded)  # the chunk's total, which splits share
            plain = FeatureBalance(joint.balance.k, bound=joint.balance.bound, bounded=bounded)
            plain.occurrences = Counter(joint.balance.occurrences)
            plain.surplus = copy.copy(joint.balance.surplus)
            expected = _plain_rebalance(plain_sets, plain)
            assert rebalance([js for _, _, js in joint.sets], joint.balance) == expected
            assert [js.chosen for _, _, js in joint.sets] == [p.chosen for p in plain_sets]
            assert +joint.balance.surplus == +plain.surplus
            swaps_seen += expected
    assert swaps_seen > 20 and skipped_deltas > 0


def test_giving_up_unfillable_sets_leaves_every_row(monkeypatch):
    """HN-SWAP and HN-NEG give up an item as soon as it cannot reach ``min_negatives``, and
    HN-ATOM candidates too few for a set are not rendered
    (:func:`~crepe_datasets.generators.negatives.out_of_reach`): a chunk's rows are the same
    as when every candidate is checked and rendered, with fewer texts rendered."""
    from crepe_datasets.builders.productivity import chunks
    from crepe_datasets.builders.productivity.build import ProductivitySettings
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs, read_image_data

    folder = require_shared("visual_genome", "images_1-100")
    infos = read_image_data(folder / "image_data.json", DropLog())
    graphs = itertools.islice(iter_scene_graphs(folder / "scene_graphs.json", DropLog(), infos), 24)
    records = [(g.to_dict(), f"{g.image_id}.jpg", []) for g in graphs]
    s = ProductivitySettings(vg="unused", out="unused", progress=False)
    given_up = chunks.process_chunk(s, records)
    real = chunks.add_candidates
    monkeypatch.setattr(chunks, "add_candidates", lambda *a, **kw: real(*a, **{**kw, "need": 0}))
    checked = chunks.process_chunk(s, records)
    assert given_up["items"] == checked["items"]
    stage = given_up["drops"]["productivity_negative_checks"]
    assert min(stage[f"{t}_set_out_of_reach"] for t in ("atom", "swap", "negate")) > 0
    rendered = [
        sum(n for split in r["generated"].values() for n in split.values())
        for r in (given_up, checked)
    ]
    assert rendered[0] < rendered[1]

"""The balanced choice of systematicity negatives keeps one balance per type and split."""

from __future__ import annotations

import random
from collections import Counter

from crepe_datasets.builders.systematicity.negatives import AttestedFoils, Pending, Refiner
from crepe_datasets.generators.negatives.comp import TextNegative
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import SceneGraph, SGObject
from tests.builders.counter_images.conftest import pool_index  # noqa: F401 (fixture)


def _sets(n: int, seed: int) -> list[list[tuple[int, int]]]:
    rng = random.Random(seed)
    return [[(rng.choice((-1, 0, 1)), rng.choice((-1, 0, 1))) for _ in range(16)] for _ in range(n)]


def test_each_split_is_balanced_on_its_own() -> None:
    seen, unseen = _sets(12, 0), _sets(12, 1)
    mixed, separate = Refiner(), Refiner()
    alone = Refiner()
    for a, b in zip(seen, unseen, strict=True):
        mixed.pick("atom", a, 4, DropLog(), "k")
        mixed.pick("atom", b, 4, DropLog(), "k")
        separate.pick("atom", a, 4, DropLog(), "k", "seen_compounds")
        chosen = separate.pick("atom", b, 4, DropLog(), "k", "unseen_compounds")
        # the unseen split's choice does not depend on the seen split's sets
        assert chosen == alone.pick("atom", b, 4, DropLog(), "k", "unseen_compounds")
    assert set(separate.balances) == {"atom/seen_compounds", "atom/unseen_compounds"}
    assert (
        separate.balances["atom/unseen_compounds"].seen
        == alone.balances["atom/unseen_compounds"].seen
    )
    assert set(mixed.balances) == {"atom/"}


def test_a_dropped_set_is_taken_back_from_its_ledger() -> None:
    refiner = Refiner()
    kept, dropped = (
        Pending("0:1:1", "a red chair", set(), "seen_compounds"),
        Pending("0:1:2", "a red couch", set(), "seen_compounds"),
    )
    kept.atoms = Counter({("attribute", "red"): 1, ("object", "chair"): 1})
    dropped.atoms = Counter({("attribute", "red"): 1, ("object", "couch"): 1})
    refiner.expect([kept, dropped])
    ledger = refiner.ledgers["seen_compounds"]
    assert ledger.bound("object", "couch") == ledger.cap + ledger.rate
    refiner.forget("atom", dropped)
    # "couch" is in no kept positive any more: a foil "couch" gets only the cap
    assert ledger.bound("object", "couch") == ledger.cap
    assert ledger.seen == kept.atoms


def _chair(attribute: str) -> SceneGraph:
    return SceneGraph([SGObject(0, "chair", (attribute,))], [])


def _chair_set(caption_colour: str, *colours: str) -> tuple[Pending, list[TextNegative]]:
    """A caption of image 4, "a <colour> chair", and its HN-ATOM candidates, one per colour."""
    p = Pending("0:4:1947", f"a {caption_colour} chair", set(), "unseen_compounds")
    p.image_id, p.graph = "4", _chair(caption_colour)
    cands = [
        TextNegative("atom", "atom:attribute", f"a {c} chair", _chair(c), (c,)) for c in colours
    ]
    return p, cands


def test_attested_foils_are_those_a_pool_region_states(pool_index) -> None:  # noqa: F811
    index, _, _ = pool_index
    attested = AttestedFoils(index)
    p, (red, odd) = _chair_set("purple", "red", "ribbed")
    assert attested(p, red) and not attested(p, odd)
    assert (attested.asked, attested.found) == (2, 1)


def test_a_negative_a_description_of_the_image_states_is_refused() -> None:
    from crepe_datasets.builders.systematicity.negatives import _described, _words

    # VG image 30: "slightly open beige curtains" makes "the curtains are beige" possibly true
    described = [_words("slightly open beige curtains"), _words("a white wall")]
    graph = SceneGraph([SGObject(0, "curtain", ("beige",))], [])
    beige = TextNegative(
        "atom", "atom:attribute", "the curtains are beige", graph, ("beige",),
        ("attribute", "white", "beige"),
    )  # fmt: skip
    assert _described(beige, described)
    red = SceneGraph([SGObject(0, "curtain", ("red",))], [])
    exchange = ("attribute", "white", "red")
    red_text = TextNegative(
        "atom", "atom:attribute", "the curtains are red", red, ("red",), exchange
    )
    assert not _described(red_text, described)


def test_a_description_states_a_count_in_words() -> None:
    from crepe_datasets.builders.systematicity.negatives import _described, _words

    # VG image 35: "two chairs are in the picture" makes "there are two chairs in the picture"
    # (the object foil of "there are two desks …") true; the parser writes the count as "2"
    described = [_words("two chairs are in the picture"), _words("books are on one desk")]
    chairs = _one_object_negative("there are two chairs in the picture", "chair", ("2",), "desk")
    benches = _one_object_negative("there are two benches in the picture", "bench", ("2",), "desk")
    assert _described(chairs, described) and not _described(benches, described)


def _one_object_negative(
    text: str, name: str, attributes: tuple[str, ...], truth: str, foil: str | None = None
) -> TextNegative:
    """A negative whose graph is one object; ``foil`` an attribute foil (default: the object's
    name replaced ``truth``)."""
    graph = SceneGraph([SGObject(0, name, attributes)], [])
    if foil is None:
        return TextNegative("atom", "atom:object", text, graph, (name,), ("object", truth, name))
    exchange = ("attribute", truth, foil)
    return TextNegative("atom", "atom:attribute", text, graph, (foil,), exchange)


def test_a_description_names_the_object_by_a_synonym() -> None:
    """VG image 91: "large black leather sofa" makes "the couch is black leather" possibly true
    (annotators disagree on its colour); a multi-word name needs all its words."""
    from crepe_datasets.builders.systematicity.negatives import _described, _words

    described = [_words("large black leather sofa"), _words("a red stop sign")]
    couch = _one_object_negative(
        "couch is black leather", "couch", ("black", "leather"), "brown", "black"
    )
    assert _described(couch, described)
    red = _one_object_negative("the stop sign is red", "stop sign", ("red",), "white", "red")
    assert _described(red, described)
    blue = _one_object_negative("the stop sign is blue", "stop sign", ("blue",), "white", "blue")
    assert not _described(blue, described)


def test_a_third_judge_compares_what_other_images_state(pool_index) -> None:  # noqa: F811
    """HN-ATOM candidates carry a third mark: whether a human graph of another image states
    their compounds, against the caption (so that chosen foils are as attested as truths)."""
    from crepe_datasets.builders.systematicity.negatives import _with_stated

    index, _, _ = pool_index
    attested = AttestedFoils(index)
    p, cands = _chair_set("red", "ribbed", "white")
    assert attested.states([("ao", "red", "chair")], "4")
    marks = _with_stated([(1, 0), (0, -1)], p, cands, attested)
    assert marks == [(1, 0, -1), (0, -1, 0)]
    # the mark compares how many other images state each text, ties within a factor of ~2
    n = {c: index.images_stating([("ao", c, "chair")], "4") for c in ("red", "ribbed", "white")}
    assert n["ribbed"] == 0 < n["red"]
    assert 0.5 <= (n["white"] + 1) / (n["red"] + 1) <= 2
    mark = _with_stated([(0, 0)], *_chair_set("ribbed", "red"), attested)[0][2]
    assert mark == (1 if n["red"] >= 2 else 0)  # "ribbed chair" is said of no other image


def test_an_object_after_a_noun_the_graph_left_out_gets_no_object_foil() -> None:
    """VG: "the carpet rug is black" is parsed as a black rug; a foil of "rug" would write "the
    carpet skirt is black". A colour or a preposition before the name modifies nothing."""
    from crepe_datasets.builders.systematicity.negatives import _modified
    from crepe_datasets.generators.negatives.foils import noun_only
    from crepe_datasets.generators.negatives.surface import word_before

    assert word_before("the carpet rug is black", "rug") == "carpet"
    assert word_before("a rug", "rug") == "a" and word_before("rug on rug", "rug") is None
    assert noun_only("carpet") and noun_only("coffee")
    assert not noun_only("black") and not noun_only("wooden") and not noun_only("on")
    assert _modified("the carpet rug is black", "rug", {"black"})
    assert not _modified("the black rug is soft", "rug", {"black", "soft"})
    assert not _modified("a wood table", "table", {"wood"})  # the graph's own attribute
    assert not _modified("a man sitting at table", "table", set())


def test_a_set_without_a_balanced_choice_waits_uncounted() -> None:
    """``pick(..., wait=True)`` leaves a set that fits no balance yet uncounted (``choose``
    tries it again once the later sets have widened chance's share); ``give_up`` counts it."""
    refiner, drops = Refiner(), DropLog()
    above = [(1, 1)] * 6  # every candidate above the caption: the caption would be last
    assert refiner.pick("atom", above, 4, drops, "k", "s", wait=True) is None
    assert refiner.stats.counts["atom"]["sets"] == 0 and not drops.counts
    refiner.give_up("atom", len(above), drops, "k")
    counts = refiner.stats.counts["atom"]
    assert (counts["sets"], counts["sets_without_balanced_choice"], counts["discarded"]) == (
        1,
        1,
        6,
    )
    assert drops.counts[("systematicity_refinement", "atom_no_balanced_choice")] == 6


class _Scores:
    """A ranker of fixed scores (unknown texts: 0)."""

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores

    def rank(self, texts: list[str]) -> list[float]:
        return [self.scores.get(t, 0.0) for t in texts]


def test_a_set_that_fits_no_balance_is_kept_once_later_sets_widen_it() -> None:
    """The first set's candidates all score above its caption, so taking it first would rank
    the caption last beyond chance's share; it waits, and is kept after the batch's balanced
    sets (the budget is over the sets kept, not over those seen so far)."""
    from crepe_datasets.builders.systematicity.negatives import choose

    colours = ("red", "blue", "green", "white", "black", "brown", "pink")
    scores: dict[str, float] = {}
    pending = []
    for n, name in enumerate(("chair", "table", "lamp", "couch", "bed", "door")):
        p = Pending(f"0:{n}:1", f"a red {name}", set(), "unseen_compounds")
        p.image_id, p.graph = str(n), _chair("red")
        cands = []
        for colour in colours[1:]:
            text = f"a {colour} {name}"
            cands.append(TextNegative("atom", "atom:attribute", text, _chair(colour), (colour,)))
            # set 0: every candidate far above its caption; the others: half above, half below
            scores[text] = (
                5.0 if n == 0 else (1.0 if colour in ("blue", "white", "brown") else -1.0)
            )
        p.candidates = {"atom": cands}
        pending.append(p)
    refiner, drops = Refiner(foil_cap=None), DropLog()
    choose(pending, _Scores(scores), drops, refiner=refiner)
    assert len(pending[0].chosen["atom"]) == 4  # kept after the others
    counts = refiner.stats.counts["atom"]
    assert counts["sets"] == 6 and not counts["sets_without_balanced_choice"]
    assert counts["sets_kept_after_waiting"] == 1
    alone = Pending("0:0:1", pending[0].caption, set(), "unseen_compounds")
    alone.image_id, alone.graph, alone.candidates = "0", pending[0].graph, pending[0].candidates
    single = Refiner(foil_cap=None)
    choose([alone], _Scores(scores), DropLog(), refiner=single)
    assert not alone.chosen["atom"] and single.stats.counts["atom"]["sets_without_balanced_choice"]


def test_a_description_holds_a_colour_by_a_shade_it_meets() -> None:
    """VG image 30: "wide ginger curtains" (ginger: orange-brown) makes "the curtains are
    orange" possibly true, not "the curtains are blue"."""
    from crepe_datasets.builders.systematicity.negatives import _described, _words

    described = [_words("wide ginger curtains"), _words("a white wall")]
    orange = _one_object_negative(
        "the curtains are orange", "curtain", ("orange",), "beige", "orange"
    )
    blue = _one_object_negative("the curtains are blue", "curtain", ("blue",), "beige", "blue")
    assert _described(orange, described) and not _described(blue, described)

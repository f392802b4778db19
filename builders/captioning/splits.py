"""Split rules of the captioning configs: pure functions from image ids and scores to splits.

Every function returns ``{image_id: split}`` covering each given image exactly once. Random
draws use ``random.Random(f"{seed}:{purpose}")`` over the ids in their given order, so the same
inputs and seed give the same splits.

Sizes: the paper holds out 5,000 images per test/validation split beside 82,783 training images
(97,783 in all). For smaller inputs each held-out split gets the same share,
``min(5000, round(N × 5000 / 97,783))`` images (at least 1), unless a size is given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError

PAPER_TEST_SIZE = 5_000
PAPER_TRAIN_IMAGES = 82_783
PAPER_TOTAL = PAPER_TRAIN_IMAGES + 3 * PAPER_TEST_SIZE
SIZE_RULE = (
    "min(5000, round(N × 5000 / 97,783)) images per held-out split (N = images in the input)"
)


def scaled_size(n_images: int, size: int | None = None) -> int:
    """Images per held-out split for ``n_images`` inputs (``size`` when given).

    Raises:
        CrepeInputError: the held-out splits would leave no training image.
    """
    out = (
        size
        if size is not None
        else min(PAPER_TEST_SIZE, max(1, round(n_images * PAPER_TEST_SIZE / PAPER_TOTAL)))
    )
    if out < 1 or 3 * out >= n_images:
        raise CrepeInputError(
            f"--split-size {out} is too large for {n_images:,} images: three held-out splits of "
            "that size must leave training images; give a smaller --split-size."
        )
    return out


def _rng(seed: int, purpose: str) -> random.Random:
    return random.Random(f"{seed}:{purpose}")


def _draw(pool: list[str], k: int, rng: random.Random) -> list[str]:
    """``k`` ids drawn without replacement (fewer when the pool is smaller), in pool order."""
    chosen = set(rng.sample(pool, min(k, len(pool))))
    return [i for i in pool if i in chosen]


def by_score(
    ids: Sequence[str],
    score: Mapping[str, float],
    size: int,
    seed: int,
    names: tuple[str, str | None],
    purpose: str,
) -> dict[str, str]:
    """Productivity splits: the ``size`` highest scores → ``names[0]``; then ``names[1]``.

    ``names[1]`` is the ``size`` lowest scores when it ends in ``low_density``, otherwise
    ``size`` random others (``test_base``); then ``size`` random others → ``validation``, the
    rest → ``train``. Ties are broken by a seeded random key.
    """
    rng = _rng(seed, purpose)
    tie = {i: rng.random() for i in ids}
    ranked = sorted(ids, key=lambda i: (-score[i], tie[i]))
    out = {i: names[0] for i in ranked[:size]}
    rest = [i for i in ids if i not in out]
    second, low = names[1], bool(names[1] and names[1].endswith("low_density"))
    if second and low:
        out.update({i: second for i in ranked[::-1][:size]})
    elif second:
        out.update({i: second for i in _draw(rest, size, rng)})
    rest = [i for i in ids if i not in out]
    out.update({i: "validation" for i in _draw(rest, size, rng)})
    out.update({i: "train" for i in ids if i not in out})
    return out


def systematicity(
    ids: Sequence[str],
    present: Mapping[str, list[str]],
    noun_present: Mapping[str, set[str]],
    pair_ids: Sequence[str],
    size: int,
    seed: int,
    co_occur: Mapping[str, set[str]] | None = None,
) -> tuple[dict[str, str], dict[str, str], dict[str, dict[str, int]]]:
    """Systematicity splits; returns ``(split of each id, pair each no-comb image balances, stats)``.

    ``test_comb``: every image whose captions bind a held-out pair. ``test_no_comb``: per pair,
    as many images as ``test_comb`` has for it, none binding any held-out pair and none with a
    caption holding both constituents of that pair (``co_occur``: image → pair ids), drawn first
    from images that name the pair's noun, then from the others. ``validation``: ``size`` random
    pair-free images; ``train``: the rest (no held-out pair).
    """
    co_occur = co_occur or {}
    rng = _rng(seed, "systematicity")
    out = {i: "test_comb" for i in ids if present.get(i)}
    balances: dict[str, str] = {}
    stats: dict[str, dict[str, int]] = {}
    for pid in pair_ids:
        need = sum(1 for i in ids if pid in present.get(i, ()))
        free = [i for i in ids if i not in out and pid not in co_occur.get(i, ())]
        with_noun = [i for i in free if pid in noun_present.get(i, ())]
        chosen = _draw(with_noun, need, rng)
        if len(chosen) < need:
            taken = set(chosen)
            chosen += _draw([i for i in free if i not in taken], need - len(chosen), rng)
        for i in chosen:
            out[i], balances[i] = "test_no_comb", pid
        stats[pid] = {
            "test_comb": need,
            "test_no_comb": len(chosen),
            "test_no_comb_with_noun": sum(1 for i in chosen if pid in noun_present.get(i, ())),
        }
    rest = [i for i in ids if i not in out]
    out.update({i: "validation" for i in _draw(rest, size, rng)})
    out.update({i: "train" for i in ids if i not in out})
    return out, balances, stats


def substitutivity(uses: Mapping[str, dict[str, set[str]]], ids: Sequence[str]) -> dict[str, str]:
    """Substitutivity splits from ``{image: {canonical: words used}}``.

    ``test_both``: for some group, the captions use the canonical word and a synonym;
    ``test_synonym``: some group is named only by synonyms; ``test_canonical``: only canonical
    words; ``train``: no word of any group.
    """
    out: dict[str, str] = {}
    for i in ids:
        groups = uses.get(i, {})
        kinds = {
            "both"
            if canon in words and len(words) > 1
            else "canonical"
            if canon in words
            else "synonym"
            for canon, words in groups.items()
            if words
        }
        for kind in ("both", "synonym", "canonical"):
            if kind in kinds:
                out[i] = f"test_{kind}"
                break
        else:
            out[i] = "train"
    return out


def check_partition(ids: Sequence[str], assignment: Mapping[str, Any]) -> None:
    """Raise when an image is missing from, or foreign to, a split assignment."""
    if set(ids) != set(assignment) or len(ids) != len(set(ids)):
        raise AssertionError("split assignment does not cover every image exactly once")

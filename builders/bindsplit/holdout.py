"""Controlled k×k hold-out over an attribute × object grid (SPEC §4.7, PUG:SPARE style).

A *grid sample* shows two objects with one attribute each: the positive caption binds
``(A1,O1), (A2,O2)``, the swapped negative ``(A2,O1), (A1,O2)``. A hold-out draws, with
``random.Random(seed)``, ``k`` attributes and ``k`` objects; their ``k²`` bindings are the
**held-out block**. Then:

* ``train`` — samples none of whose four bindings is held out (the block never appears in
  training text, positive or negative);
* test samples are those with at least one held-out binding, kept only when the positive and the
  negative hold the *same number* of held-out bindings (so both have equally many seen
  bindings); others are dropped with reason ``unbalanced``. One held-out binding per caption →
  ``partially_unseen``, two → ``fully_unseen``;
* ``fully_seen`` — a seeded share (``seen_test_fraction``) of the block-free samples, taken out
  of ``train``.

The block is accepted only when every held-out attribute and every held-out object still occurs
in some ``train`` positive (with another partner); otherwise the next draw of the same generator
is tried (up to :data:`MAX_DRAWS`). The block and the seed are returned for the manifest.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog

MAX_DRAWS = 100
SPLITS = ("train", "fully_seen", "partially_unseen", "fully_unseen")
GRID_COLUMNS = ("attr_1", "obj_1", "attr_2", "obj_2")


@dataclass(frozen=True)
class GridSample:
    """Two attribute–object pairs shown together (see the module docstring)."""

    id: str
    attr_1: str
    obj_1: str
    attr_2: str
    obj_2: str
    image_file: str | None = None
    caption: str | None = None
    negative: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def positive_bindings(self) -> tuple[tuple[str, str], tuple[str, str]]:
        return (self.attr_1, self.obj_1), (self.attr_2, self.obj_2)

    @property
    def negative_bindings(self) -> tuple[tuple[str, str], tuple[str, str]]:
        return (self.attr_2, self.obj_1), (self.attr_1, self.obj_2)


@dataclass(frozen=True)
class HoldoutBlock:
    """The held-out attributes and objects (sorted), and the seed that drew them."""

    attributes: tuple[str, ...]
    objects: tuple[str, ...]
    seed: int

    def held(self, binding: tuple[str, str]) -> bool:
        return binding[0] in self.attributes and binding[1] in self.objects

    def to_dict(self) -> dict[str, Any]:
        return {
            "attributes": list(self.attributes),
            "objects": list(self.objects),
            "seed": self.seed,
        }


def make_grid(attributes: Sequence[str], objects: Sequence[str]) -> list[GridSample]:
    """Every sample ``(A1,O1),(A2,O2)`` with ``A1 ≠ A2`` and ``O1 ≠ O2``, in a fixed order."""
    out = []
    for o1 in objects:
        for o2 in objects:
            for a1 in attributes:
                for a2 in attributes:
                    if o1 != o2 and a1 != a2:
                        out.append(GridSample(f"{a1}_{o1}__{a2}_{o2}", a1, o1, a2, o2))
    return out


def grid_from_rows(
    rows: Iterable[dict[str, Any]], drops: DropLog, stage: str = "holdout"
) -> list[GridSample]:
    """Grid samples from table rows with ``attr_1, obj_1, attr_2, obj_2`` (+ ``id``, ``image_file``,
    ``caption``, ``negative_caption``); rows missing a grid column are dropped (``missing_column``)."""
    out = []
    for index, row in enumerate(rows):
        values = [str(row.get(c) or "").strip().lower() for c in GRID_COLUMNS]
        if not all(values):
            drops.drop(stage, "missing_column", f"row {index}: {row}")
            continue
        rid = str(row.get("id") or index)
        out.append(GridSample(rid, *values, row.get("image_file") or None, row.get("caption") or None,
                              row.get("negative_caption") or None))  # fmt: skip
    return out


def draw_block(
    attributes: Sequence[str], objects: Sequence[str], k: int, rng: random.Random, seed: int
) -> HoldoutBlock:
    """One random k×k block; k must leave at least one attribute and one object outside it."""
    if not 0 < k < min(len(attributes), len(objects)):
        raise CrepeInputError(
            f"k={k} must be between 1 and {min(len(attributes), len(objects)) - 1}: the grid has "
            f"{len(attributes)} attributes and {len(objects)} objects and each held-out one must appear elsewhere."
        )
    return HoldoutBlock(
        tuple(sorted(rng.sample(attributes, k))), tuple(sorted(rng.sample(objects, k))), seed
    )


def split_samples(
    samples: Sequence[GridSample], block: HoldoutBlock, drops: DropLog
) -> dict[str, list[GridSample]]:
    """``train`` (block-free) and the two unseen test splits; ``fully_seen`` is filled later."""
    out: dict[str, list[GridSample]] = {s: [] for s in SPLITS}
    for s in samples:
        n_pos = sum(block.held(b) for b in s.positive_bindings)
        n_neg = sum(block.held(b) for b in s.negative_bindings)
        if n_pos == n_neg == 0:
            out["train"].append(s)
        elif n_pos != n_neg:
            drops.drop("holdout", "unbalanced", f"{s.id}: {n_pos} vs {n_neg} held-out bindings")
        else:
            out["partially_unseen" if n_pos == 1 else "fully_unseen"].append(s)
    return out


def covers_block(train: Sequence[GridSample], block: HoldoutBlock) -> bool:
    """Whether every held-out attribute and object occurs in some training positive."""
    attrs = {a for s in train for a, _ in s.positive_bindings}
    objs = {o for s in train for _, o in s.positive_bindings}
    return set(block.attributes) <= attrs and set(block.objects) <= objs


def build_holdout(
    samples: Sequence[GridSample],
    k: int,
    seed: int,
    seen_test_fraction: float = 0.2,
    drops: DropLog | None = None,
) -> tuple[HoldoutBlock, dict[str, list[GridSample]]]:
    """Draw a valid block for ``seed`` and split ``samples`` (see the module docstring).

    Raises:
        CrepeInputError: when ``k`` is too large or no draw keeps every held-out item elsewhere.
    """
    if not samples:
        raise CrepeInputError(
            "the hold-out grid holds no sample; give a table with attr_1, obj_1, attr_2, obj_2."
        )
    attributes = sorted({a for s in samples for a in (s.attr_1, s.attr_2)})
    objects = sorted({o for s in samples for o in (s.obj_1, s.obj_2)})
    rng = random.Random(seed)
    for _ in range(MAX_DRAWS):
        block = draw_block(attributes, objects, k, rng, seed)
        trial = DropLog()
        splits = split_samples(samples, block, trial)
        if covers_block(splits["train"], block) and (
            splits["partially_unseen"] or splits["fully_unseen"]
        ):
            break
    else:
        raise CrepeInputError(
            f"no {k}x{k} block of this grid keeps every held-out attribute and object in training."
        )
    if drops is not None:
        drops.merge(trial)
    train = list(splits["train"])
    rng.shuffle(train)
    n_seen = round(len(train) * seen_test_fraction)
    order = {id(s): i for i, s in enumerate(samples)}
    splits["fully_seen"] = sorted(train[:n_seen], key=lambda s: order[id(s)])
    splits["train"] = sorted(train[n_seen:], key=lambda s: order[id(s)])
    return block, splits


def sample_row(s: GridSample, block: HoldoutBlock) -> dict[str, Any]:
    """One dataset row (binary task) of a grid sample."""
    caption = s.caption or f"the {s.attr_1} {s.obj_1} and the {s.attr_2} {s.obj_2}"
    negative = s.negative or f"the {s.attr_2} {s.obj_1} and the {s.attr_1} {s.obj_2}"
    return {
        "id": s.id,
        "caption": caption,
        "hard_negatives": [negative],
        "image_file": s.image_file,
        "bbox": None,
        "attr_1": s.attr_1,
        "obj_1": s.obj_1,
        "attr_2": s.attr_2,
        "obj_2": s.obj_2,
        "held_out_positive": sum(block.held(b) for b in s.positive_bindings),
        "held_out_negative": sum(block.held(b) for b in s.negative_bindings),
    }

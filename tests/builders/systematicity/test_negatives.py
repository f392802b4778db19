"""The balanced choice of systematicity negatives keeps one balance per type and split."""

from __future__ import annotations

import random

from crepe_datasets.builders.systematicity.negatives import Refiner
from crepe_datasets.infra.provenance import DropLog


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

"""The ``groups`` and ``groups_comp`` configs of a crepe-systematicity build (``--counter-pool``).

:func:`add_groups` runs after the ``hn_atom`` rows are final (:mod:`.config`): for every HN-ATOM
negative of a region's caption, a counter-region (:mod:`.groups`); the manifest records the pool,
the yields per split, the unmatched negatives by reason and the independent re-verification of
every group (:mod:`crepe_datasets.validation.counter_groups`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from crepe_datasets.builders.counter_images.config import add_groups_config
from crepe_datasets.cards.manifest import BuildManifest

CARD_TEXT = (
    "`groups` is our extension (Winoground-style, not part of the CREPE paper): for each HN-ATOM "
    "negative of `hn_atom`, a counter-region of another Visual Genome image where the negative is "
    "true and the caption false, found in an inverted index of human-annotated graphs (the "
    "`--vg` folder's scene graphs and region graphs, and each `--counter-pool` source such as "
    "FACTUAL). The negative's every atom and compound must be annotated there (names "
    "lemmatised, Visual Genome aliases and first-sense WordNet synonyms), the caption must not "
    "hold there even with broad synonyms, and the replaced atom must be absent (object) or "
    "contradicted (the object carries the foil, not the original attribute); among matches one is "
    "chosen by seed, preferring a region of similar size. Rows hold two images (id, box, file) "
    "and two captions, each true of one image only, so a scorer that ignores the image wins no "
    "group. Yields per split: {yields}."
)


COMP_CARD_TEXT = (
    '`groups_comp` does the same for each HN-COMP negative of `hn_comp` ("a blue car and a pink '
    'toy" for "a pink car"): a counter-region where both of the negative\'s compounds are '
    "annotated and the caption does not hold even with broad synonyms (its compound split over "
    "two objects there), by the same rule. Yields per split: {yields}."
)


def add_groups(
    vg: str, pools: Sequence[str], tables: dict, infos: Mapping[str, Any], manifest: BuildManifest,
    scratch: Path, seed: int, cache_dir: str | None = None, comp: bool = False,
) -> Any:  # fmt: skip
    """Add the ``groups`` config (``comp``: ``groups_comp``, from ``hn_comp``) to ``tables`` and
    ``manifest``; return its features.

    Rows are spooled to disk under ``scratch`` (the build's temporary folder).
    """
    text = COMP_CARD_TEXT if comp else CARD_TEXT
    return add_groups_config(
        vg, pools, tables, infos, manifest, scratch, seed, text, cache_dir, comp=comp
    )

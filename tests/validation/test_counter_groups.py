"""The independent re-check of ``groups`` rows: the scene-level and own-image checks, on groups
made from captions of the VG sample and counter-regions of the real pool (VG 1-100 + FACTUAL)."""

from __future__ import annotations

from typing import Any

from crepe_datasets.builders.counter_images.groups import group_row
from crepe_datasets.builders.counter_images.index import PoolLookup
from crepe_datasets.builders.counter_images.match import CounterMatch, find_counter
from crepe_datasets.generators.negatives import from_compact
from crepe_datasets.validation.counter_groups import check_groups
from tests.builders.counter_images.conftest import pool_index  # noqa: F401 - the fixture


def _row(image_id: str, caption: str, graph: str, negative: str, negative_graph: str) -> dict:
    """An ``hn_atom`` row of one negative (a region description of the VG sample)."""
    return {
        "image_id": image_id, "image_file": f"{image_id}.jpg", "bbox": [0.0, 0.0, 10.0, 10.0],
        "region_id": "1", "caption": caption, "scene_graph": graph,
        "hard_negatives": [negative], "negative_graphs": [negative_graph],
        "negative_types": ["atom"], "negative_rules": ["atom:attribute_cohyponym"],
        "split": "seen_compounds",
    }  # fmt: skip


def _group(index: Any, row: dict, image_id: str, scope: str | None = None) -> dict:
    """The group of ``row``'s negative with a counter-region found as for image ``image_id``."""
    m = find_counter(
        index, from_compact(row["scene_graph"]), from_compact(row["negative_graphs"][0]),
        image_id, None, "0:test", scope=scope,
    )  # fmt: skip
    assert isinstance(m, CounterMatch)
    return group_row(row, 0, m, scope)


CHAIR = _row(
    "4", "chair is purple in color", '{"o":[[0,"chair",["purple"]]],"r":[]}',
    "chair is yellow in color", '{"o":[[0,"chair",["yellow"]]],"r":[]}',
)  # fmt: skip
RUG = _row(
    "30", "there is a grey rug", '{"o":[[0,"rug",["grey"]]],"r":[]}',
    "there is a grey skirt", '{"o":[[0,"skirt",["grey"]]],"r":[]}',
)  # fmt: skip
CARPET = _row(
    "42", "the carpet rug is black", '{"o":[[0,"rug",["black"]]],"r":[]}',
    "the carpet rug is grey", '{"o":[[0,"rug",["grey"]]],"r":[]}',
)  # fmt: skip


def _check(index: Any, rows: list[dict], pool: bool = True):
    tables = {"seen_compounds": rows}
    lookup = PoolLookup(index, tables) if pool else None
    return check_groups(tables, index.terms, lookup)


def test_a_valid_group_passes(pool_index) -> None:  # noqa: F811
    index, _, _ = pool_index
    report = _check(index, [_group(index, CHAIR, "4")])
    assert report.passed and report.rows == 1 and not report.skipped


def test_scene_level_caption_on_a_region_fails(pool_index) -> None:  # noqa: F811
    """ "there is a grey rug" against one FACTUAL region: nothing shows it false of that image."""
    index, _, _ = pool_index
    row = _group(index, RUG, "30")  # found as the rule did before the scope was checked
    assert row["image_1_source"] == "factual"
    report = _check(index, [row])
    assert report.violations == {("groups", "scene_level_caption_on_region"): 1}


def test_negative_true_of_its_own_image_fails(pool_index) -> None:  # noqa: F811
    """VG image 42 has a black and a dark grey carpet: "the carpet rug is grey" is true there."""
    index, _, _ = pool_index
    row = _group(index, CARPET, "not image 42")  # the match rule's own check left out
    report = _check(index, [row])
    assert report.violations == {("groups", "negative_false_in_own_image"): 1}
    # without the pool the check cannot be made, and says so
    blind = _check(index, [row], pool=False)
    assert blind.passed
    assert blind.skipped["negative_false_in_own_image (no pool)"] == 1


HAIR = _row(
    "3", "the woman has blond hair", '{"o":[[0,"hair",["blond"]]],"r":[]}',
    "the woman has dark hair", '{"o":[[0,"hair",["dark"]]],"r":[]}',
)  # fmt: skip


def test_every_pool_region_of_the_own_image_is_read(pool_index) -> None:  # noqa: F811
    """VG image 3's scene graph gives no hair colour, but its FACTUAL row 'dark-haired woman
    sitting at desk' does: "the woman has dark hair" may be true there."""
    index, _, _ = pool_index
    row = _group(index, HAIR, "3")
    assert row["image_1_id"] != "3"
    tables = {"seen_compounds": [row]}
    lookup = PoolLookup(index, tables)
    assert {r.source for r in lookup.image("3")} == {"vg_image", "factual"}
    assert check_groups(tables, index.terms, lookup).passed  # the scene graph alone
    report = check_groups(tables, index.terms, lookup, own=lookup.image)
    assert report.violations == {("groups", "negative_false_in_own_image"): 1}

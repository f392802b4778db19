"""Released benchmarks: one registry gives the evaluator and ``crepe audit`` their readers."""

from __future__ import annotations

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.releases import get_release, known_releases, register_release
from tests.conftest import require_shared


def test_the_evaluated_releases_are_registered():
    releases = known_releases()
    assert list(releases) == ["aro-vga", "aro-vgr", "bivlc", "crepe-release", "sugarcrepe"]
    assert {k: (r.name, r.task) for k, r in releases.items()} == {
        "aro-vga": ("aro", "binary"), "aro-vgr": ("aro", "binary"), "bivlc": ("bivlc", "group"),
        "crepe-release": ("crepe-release", "retrieval"), "sugarcrepe": ("sugarcrepe", "binary"),
    }  # fmt: skip


def test_unknown_and_duplicate_kinds():
    with pytest.raises(
        CrepeInputError, match=r"unknown benchmark release 'winoground'.*aro-vga \("
    ):
        get_release("winoground")
    with pytest.raises(ValueError, match=r"registered twice: .*releases\._bivlc and "):
        register_release("bivlc", "x", "group", "dup", lambda s: ("x", "test"))(lambda p, d: [])


def test_aro_lists_and_sugarcrepe_are_read_and_placed():
    drops = DropLog()
    aro = get_release("aro-vgr")
    samples = list(aro.read(str(require_shared("aro", "rel-original-true.json")), drops))
    assert len(samples) > 20_000 and {aro.place(s) for s in samples} == {("vg_relation", "test")}
    sugar = get_release("sugarcrepe")
    samples = list(sugar.read(str(require_shared("sugarcrepe")), drops))
    assert {sugar.place(s)[0] for s in samples} == {
        "add_att", "add_obj", "replace_att", "replace_obj", "replace_rel", "swap_att", "swap_obj",
    }  # fmt: skip

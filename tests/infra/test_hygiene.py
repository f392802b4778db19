"""Input hygiene: control/invisible characters and invalid UTF-8, in the shared step and in VG."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.infra.hygiene import clean_text, scrub, unclean_reason
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.visual_genome import (
    iter_objects,
    iter_regions,
    iter_scene_graphs,
    read_image_data,
)
from tests.conftest import require_shared


@pytest.mark.parametrize(
    ("raw", "clean", "repairs"),
    [
        ("a beautiful dog", "a beautiful dog", set()),
        ("l\x00amp post", "lamp post", {"control_chars"}),
        ("d\x00o\x00g\x00", "dog", {"control_chars"}),  # UTF-16 read as UTF-8
        ("red\u200b car", "red car", {"invisible_chars"}),
        ("\ufeffsoft\u00adware\u2060", "software", {"invisible_chars"}),
        ("tab\there\nand\u00a0there", "tab here and there", set()),
        ("esc\x1b[31m red", "esc[31m red", {"control_chars"}),
    ],
)
def test_scrub_removes_and_reports(raw, clean, repairs):
    text, reason, found = scrub(raw)
    assert (text, reason, set(found)) == (clean, None, repairs)
    assert unclean_reason(text) is None


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("M\ufffdscara", "invalid_utf8"),
        ("bad \udcff byte", "invalid_utf8"),
        ("\u200b\x00", "empty_after_cleaning"),
    ],
)
def test_unusable_text_is_dropped_with_a_reason(raw, reason):
    drops = DropLog()
    assert clean_text(raw, drops, "coco", "ann 1") is None
    assert drops.to_dict() == {"coco": {reason: 1}}


def test_overlong_text_is_dropped_and_unclean_text_is_recognised():
    drops = DropLog()
    assert clean_text("dog " * 300_000, drops, "text", "line 3") is None
    assert drops.to_dict() == {"text": {"text_too_long": 1}}
    assert unclean_reason("a\x00b") == "control_chars"
    assert unclean_reason("two\nlines") == "control_chars"
    assert unclean_reason("zero\u200bwidth") == "invisible_chars"
    assert unclean_reason("no\u00a0break space") is None


def _vg(*parts):
    return require_shared("visual_genome", "images_1-100", *parts)


def _poison(text: str) -> str:
    return text[:1] + "\x00" + text[1:] + "\u200b"


def test_scene_graph_names_are_cleaned_and_counted(tmp_path):
    records = json.loads(_vg("scene_graphs.json").read_text())[:20]
    for rec in records:
        for obj in rec["objects"]:
            obj["names"] = [_poison(n) for n in obj["names"]]
            obj["attributes"] = [_poison(a) for a in obj.get("attributes", [])]
        for rel in rec["relationships"]:
            rel["predicate"] = _poison(rel["predicate"])
    bad = tmp_path / "scene_graphs.json"
    bad.write_text(json.dumps(records))
    images = read_image_data(_vg("image_data.json"))
    clean = list(iter_scene_graphs(_vg("scene_graphs.json"), DropLog(), images))[:20]
    drops = DropLog()
    cleaned = list(iter_scene_graphs(bad, drops, images))
    assert [g.to_json() for g in cleaned] == [g.to_json() for g in clean]
    for g in cleaned:
        for atom in g.atoms():
            assert atom.text.isprintable(), atom
    repairs = drops.repairs_dict()["vg_scene_graphs"]
    assert repairs["control_chars"] > 0 and repairs["invisible_chars"] > 0


def test_repeated_image_ids_are_dropped_not_duplicated(tmp_path):
    first = json.loads(_vg("scene_graphs.json").read_text())[0]
    bad = tmp_path / "scene_graphs.json"
    bad.write_text(json.dumps([first] * 10))
    drops = DropLog()
    graphs = list(iter_scene_graphs(bad, drops))
    assert len(graphs) == 1
    assert drops.to_dict()["vg_scene_graphs"]["image_duplicate_id"] == 9
    objects = json.loads(_vg("objects.json").read_text())[:3]
    (tmp_path / "objects.json").write_text(json.dumps(objects + objects))
    drops = DropLog()
    assert len(list(iter_objects(tmp_path / "objects.json", drops))) == 3
    assert drops.to_dict()["vg_objects"]["image_duplicate_id"] == 3


def test_region_phrases_and_image_data(tmp_path):
    records = json.loads(_vg("region_descriptions.json").read_text())[:5]
    for rec in records:
        for region in rec["regions"]:
            region["phrase"] = _poison(region["phrase"])
        rec["regions"][0]["phrase"] = "caf\ufffd on the corner"
    bad = tmp_path / "region_descriptions.json"
    bad.write_text(json.dumps(records + records[:2]))
    drops = DropLog()
    regions = list(iter_regions(bad, drops))
    assert all(r.phrase.isprintable() and "\u200b" not in r.phrase for r in regions)
    counts = drops.to_dict()["vg_regions"]
    assert counts == {"invalid_utf8": 5, "image_duplicate_id": 2}
    assert len(regions) == sum(len(r["regions"]) for r in records) - 5
    infos = json.loads(_vg("image_data.json").read_text())[:4]
    (tmp_path / "image_data.json").write_text(json.dumps(infos + infos[:1]))
    drops = DropLog()
    assert len(read_image_data(tmp_path / "image_data.json", drops)) == 4
    assert drops.to_dict() == {"vg_image_data": {"duplicate_image_id": 1}}


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda o: o.update(x=float("nan")), "object_bad_box"),
        (lambda o: o.update(w=float("inf")), "object_bad_box"),
        (lambda o: o.update(y=str(o["y"])), "object_bad_box"),
        (lambda o: o.update(names=[None]), "object_missing_name"),
        (lambda o: o.update(names=["\u200b"]), "empty_after_cleaning"),
    ],
)
def test_bad_objects_are_counted_by_cause(tmp_path, mutate, reason):
    records = json.loads(_vg("scene_graphs.json").read_text())[:3]
    for rec in records:
        for obj in rec["objects"]:
            mutate(obj)
    bad = tmp_path / "scene_graphs.json"
    bad.write_text(json.dumps(records))
    drops = DropLog()
    assert list(iter_scene_graphs(bad, drops)) == []
    n_objects = sum(len(r["objects"]) for r in records)
    assert drops.to_dict()["vg_scene_graphs"][reason] == n_objects


def test_string_image_ids_are_cleaned_or_dropped(tmp_path):
    records = json.loads(_vg("scene_graphs.json").read_text())[:3]
    records[0]["image_id"] = "1\ufffd"  # undecodable: dropped
    records[1]["image_id"] = " 2\x00 "  # control character: removed
    records[2]["image_id"] = "  "  # blank: no id
    bad = tmp_path / "scene_graphs.json"
    bad.write_text(json.dumps(records))
    drops = DropLog()
    assert [g.image_id for g in iter_scene_graphs(bad, drops)] == ["2"]
    assert drops.to_dict() == {"vg_scene_graphs": {"invalid_utf8": 1, "image_missing_id": 1}}

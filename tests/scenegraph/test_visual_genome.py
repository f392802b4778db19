from __future__ import annotations

import json

import pytest

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, normalize_name
from crepe_datasets.scenegraph.visual_genome import (
    ImageInfo,
    iter_attributes,
    iter_objects,
    iter_regions,
    iter_relationships,
    iter_scene_graphs,
    read_aliases,
    read_image_data,
    read_synsets,
)
from tests.conftest import require_shared


def _vg(*parts):
    return require_shared("visual_genome", "images_1-100", *parts)


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _unique_attrs(values):
    out = []
    for v in values or ():
        n = normalize_name(v)
        if n and n not in out:
            out.append(n)
    return out


def test_scene_graphs_counts_match_the_file():
    path = _vg("scene_graphs.json")
    raw = _load(path)
    drops = DropLog()
    graphs = list(iter_scene_graphs(path, drops, image_data=_vg("image_data.json")))
    assert len(drops) == 0
    assert [g.image_id for g in graphs] == [str(r["image_id"]) for r in raw]
    assert sum(len(g.objects) for g in graphs) == sum(len(r["objects"]) for r in raw) == 3_671
    assert sum(len(g.relationships) for g in graphs) == sum(len(r["relationships"]) for r in raw)
    n_attrs = sum(len(_unique_attrs(o.get("attributes"))) for r in raw for o in r["objects"])
    assert sum(len(o.attributes) for g in graphs for o in g.objects) == n_attrs
    g, r = graphs[0], raw[0]
    assert (g.width, g.height) == (800, 600)
    o = r["objects"][0]
    assert g.objects[0].id == o["object_id"] and g.objects[0].name == normalize_name(o["names"][0])
    assert g.objects[0].box == Box(o["x"], o["y"], o["w"], o["h"])
    assert g.relationships[0].predicate == "on"  # "ON" normalised


def test_per_type_files_and_versions():
    checks = [
        (iter_objects, "objects.json", "objects"),
        (iter_objects, "v1.0/objects.json", "objects"),
        (iter_objects, "v1.2/objects.json", "objects"),
        (iter_attributes, "attributes.json", "attributes"),
        (iter_attributes, "v1.0/attributes.json", "attributes"),
    ]
    sizes = read_image_data(_vg("image_data.json"))
    for reader, name, key in checks:
        raw = _load(_vg(*name.split("/")))
        drops = DropLog()
        graphs = list(reader(_vg(*name.split("/")), drops, sizes))
        stage = f"vg_{key}"
        assert sum(len(g.objects) for g in graphs) == sum(len(r[key]) for r in raw), name
        assert len(graphs) + drops.counts[(stage, "image_empty")] == len(raw), name
        assert set(drops.to_dict().get(stage, {})) <= {"image_empty"}, name
    for name in ("relationships.json", "v1.0/relationships.json", "v1.2/relationships.json"):
        raw = _load(_vg(*name.split("/")))
        graphs = list(iter_relationships(_vg(*name.split("/")), DropLog()))
        assert sum(len(g.relationships) for g in graphs) == sum(
            len(r["relationships"]) for r in raw
        )


def test_regions_image_data_aliases_synsets():
    raw = _load(_vg("region_descriptions.json"))
    sizes = read_image_data(_vg("image_data.json"))
    drops = DropLog()
    regions = list(iter_regions(_vg("region_descriptions.json"), drops, sizes))
    assert len(regions) == sum(len(r["regions"]) for r in raw) == 7_278
    outside = sum(
        1
        for r in raw
        for g in r["regions"]
        if not Box(g["x"], g["y"], g["width"], g["height"]).inside(*sizes[str(g["image_id"])].size)
    )
    assert drops.to_dict() == {}
    assert drops.repairs_dict() == {"vg_regions": {"region_box_clipped": outside}}
    assert all(r.box.inside(*sizes[r.image_id].size) for r in regions)
    v10 = list(iter_regions(_vg("v1.0", "region_descriptions.json"), DropLog()))
    assert v10[0].image_id == "1" and v10[0].region_id == 1382

    raw_images = _load(_vg("image_data.json"))
    assert len(sizes) == len(raw_images) == 100
    info = sizes["1"]
    assert info.file_name == raw_images[0]["url"].rsplit("/", 1)[-1] == "1.jpg"
    assert read_image_data(_vg("v1.0", "image_data.json"))["1"].size == (800, 600)

    aliases = read_aliases(_vg("relationship_alias.txt"))
    assert aliases["next to"] == "near" and aliases["near"] == "near"
    first_line = _vg("object_alias.txt").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert aliases and read_aliases(_vg("object_alias.txt"))[first_line[1]] == first_line[0]
    assert len(read_synsets(_vg("object_synsets.json"))) == len(_load(_vg("object_synsets.json")))
    assert read_synsets(_vg("synsets.json"))["horse.n.01"].startswith("solid-hoofed")


def _write(tmp_path, records, name="scene_graphs.json"):
    path = tmp_path / name
    path.write_text(json.dumps(records))
    return path


def test_malformed_records_are_counted(tmp_path):
    obj = {
        "object_id": 1,
        "names": ["Dog "],
        "x": 0,
        "y": 0,
        "w": 10,
        "h": 10,
        "attributes": ["Brown", "brown", 3],
    }
    records = [
        {
            "image_id": 1,
            "objects": [
                obj,
                dict(obj, object_id=2, x=95, w=10, attributes=[]),  # partly outside: clipped
                dict(obj, object_id=3, x=200),  # wholly outside: dropped
                dict(obj, object_id=4, w=0),  # degenerate
                dict(obj, object_id=1),  # duplicate id
                {"object_id": 5, "names": [], "x": 0, "y": 0, "w": 1, "h": 1},
                {"object_id": 6, "names": ["cat"], "x": "0", "y": 0, "w": 1, "h": 1},
                {"names": ["cat"]},
            ],
            "relationships": [
                {"subject_id": 1, "object_id": 2, "predicate": "NEXT TO"},
                {"subject_id": 1, "object_id": 3, "predicate": "near"},
                {"subject_id": 1, "object_id": 2, "predicate": "  "},
                {"subject_id": "1", "object_id": 2, "predicate": "on"},
            ],
        },
        {"image_id": 2, "objects": []},
        {"objects": []},
        {"image_id": 3, "objects": "nope"},
        7,
    ]
    path = _write(tmp_path, records)
    sizes = {"1": ImageInfo("1", 100, 100), "2": ImageInfo("2", 50, 50)}
    drops = DropLog()
    graphs = list(iter_scene_graphs(path, drops, image_data=sizes))
    assert len(graphs) == 1
    g = graphs[0]
    assert [(o.id, o.name, o.attributes) for o in g.objects] == [
        (1, "dog", ("brown",)),
        (2, "dog", ()),
    ]
    assert g.objects[1].box == Box(95, 0, 5, 10)
    assert [(r.subject, r.predicate, r.object) for r in g.relationships] == [(1, "next to", 2)]
    assert drops.to_dict()["vg_scene_graphs"] == {
        "attribute_not_a_string": 2,
        "image_bad_objects": 1,
        "image_missing_id": 1,
        "image_no_objects": 1,
        "image_not_an_object": 1,
        "image_size_unknown": 1,
        "object_bad_box": 1,
        "object_bad_id": 1,
        "object_degenerate_box": 1,
        "object_duplicate_id": 1,
        "object_missing_name": 1,
        "object_outside_image": 1,
        "relationship_bad_ids": 1,
        "relationship_empty_predicate": 1,
        "relationship_missing_object": 1,
    }
    assert drops.repairs_dict() == {"vg_scene_graphs": {"object_box_clipped": 1}}


def test_v12_top_level_attributes_are_merged(tmp_path):
    records = [
        {
            "image_id": 9,
            "objects": [{"object_id": 1, "name": "car", "x": 0, "y": 0, "width": 5, "height": 5}],
            "attributes": [
                {"attribute_id": 1, "attribute": {"object_id": 1, "attributes": ["Red", "shiny"]}},
                {"attribute_id": 2, "attribute": {"object_id": 99, "attributes": ["x"]}},
            ],
            "relationships": [],
        }
    ]
    drops = DropLog()
    (g,) = list(iter_scene_graphs(_write(tmp_path, records), drops))
    assert g.objects[0].attributes == ("red", "shiny") and g.width is None
    assert drops.to_dict() == {"vg_scene_graphs": {"attribute_missing_object": 1}}


def test_truncated_file_raises_after_the_good_records(tmp_path):
    text = _vg("scene_graphs.json").read_text(encoding="utf-8")
    path = tmp_path / "scene_graphs.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    stream = iter_scene_graphs(path, DropLog())
    assert next(stream).image_id == "1"  # streamed, not loaded whole
    with pytest.raises(
        CrepeInputError, match=r"scene_graphs\.json is not valid JSON near character [\d,]+ of"
    ):
        list(stream)
    (tmp_path / "r.json").write_text('{"regions": []}')
    with pytest.raises(CrepeInputError, match="must hold a JSON list"):
        list(iter_regions(tmp_path / "r.json", DropLog()))


def test_bad_regions_and_image_data(tmp_path):
    regions = [
        {
            "id": 1,
            "regions": [
                {
                    "region_id": 1,
                    "image_id": 1,
                    "phrase": " a dog ",
                    "x": 0,
                    "y": 0,
                    "width": 5,
                    "height": 5,
                },
                {
                    "region_id": 2,
                    "image_id": 1,
                    "phrase": "",
                    "x": 0,
                    "y": 0,
                    "width": 5,
                    "height": 5,
                },
                {"region_id": 3, "image_id": 1, "x": 0, "y": 0, "width": 5, "height": 5},
                {
                    "region_id": 4,
                    "image_id": 1,
                    "phrase": "x",
                    "x": 0,
                    "y": 0,
                    "width": -5,
                    "height": 5,
                },
                {"id": "5", "phrase": "x"},
            ],
        },
        {"id": 2},
    ]
    drops = DropLog()
    out = list(iter_regions(_write(tmp_path, regions, "region_descriptions.json"), drops))
    assert [(r.region_id, r.image_id, r.phrase) for r in out] == [(1, "1", "a dog")]
    assert drops.to_dict()["vg_regions"] == {
        "region_empty_phrase": 1, "region_missing_phrase": 1, "region_degenerate_box": 1,
        "region_bad_id": 1, "image_bad_regions": 1,
    }  # fmt: skip
    images = _write(
        tmp_path,
        [{"image_id": 1, "width": 10, "height": 10}, {"image_id": 2, "width": "x"}],
        "im.json",
    )
    with pytest.raises(CrepeInputError, match="bad_size"):
        read_image_data(images)
    drops = DropLog()
    assert list(read_image_data(images, drops)) == ["1"]
    assert drops.to_dict() == {"vg_image_data": {"bad_size": 1}}

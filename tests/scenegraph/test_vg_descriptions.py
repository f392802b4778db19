"""The texts people wrote of each Visual Genome image, handed out beside its scene graph, and
the other names of an object's box."""

from __future__ import annotations

import json

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Box, Description, SceneGraph
from crepe_datasets.scenegraph.vg.descriptions import QA_STAGE, ImageDescriptions, iter_qa_texts
from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs
from tests.conftest import require_shared


def _vg():
    return require_shared("visual_genome", "images_1-100")


def test_each_image_gets_its_regions_then_its_questions():
    vg = _vg()
    regions = {
        r["id"]: r["regions"] for r in json.loads((vg / "region_descriptions.json").read_text())
    }
    qas = {r["id"]: r["qas"] for r in json.loads((vg / "question_answers.json").read_text())}
    texts = ImageDescriptions(vg, DropLog())
    assert [f.name for f in texts.files] == ["region_descriptions.json", "question_answers.json"]
    for g in iter_scene_graphs(vg / "scene_graphs.json", DropLog()):
        i = int(g.image_id)
        got = texts.take(g.image_id)
        boxed = [d for d in got if d.box is not None]
        assert [d.text for d in boxed] == [r["phrase"].strip() for r in regions[i]]
        assert [d.text for d in got[len(boxed) :]] == [
            f"{q['question'].strip()} {q['answer'].strip()}" for q in qas.get(i, [])
        ]
    first = ImageDescriptions(vg, DropLog()).take(1)
    assert first[0] == Description("the clock is green in colour", Box(421, 57, 82, 139))
    assert first[-1] == Description("What color is the clock? Green.")


def test_images_asked_out_of_file_order_get_their_own_texts():
    vg = _vg()
    in_order = ImageDescriptions(vg, DropLog())
    expected = {i: in_order.take(i) for i in (1, 2, 3)}
    shuffled = ImageDescriptions(vg, DropLog())
    assert shuffled.take(3) == expected[3]
    assert shuffled.take(1) == expected[1] and shuffled.take(2) == expected[2]
    assert shuffled.take(999_999) == []  # no such image: nothing, once the files are read


def test_a_folder_without_the_files_gives_no_texts(tmp_path):
    texts = ImageDescriptions(tmp_path, DropLog())
    assert texts.files == [] and texts.take(1) == []


def test_malformed_questions_are_counted(tmp_path):
    path = tmp_path / "question_answers.json"
    path.write_text(
        json.dumps(
            [
                {"id": 1, "qas": [{"question": "What color?", "answer": "Red.", "image_id": 1}]},
                {"id": 2, "qas": "nope"},
                "nope",
                {"id": 3, "qas": [7, {"question": "Where?"}]},
            ]
        )
    )
    drops = DropLog()
    assert list(iter_qa_texts(path, drops)) == [("1", Description("What color? Red."))]
    assert drops.counts[(QA_STAGE, "image_bad_qas")] == 1
    assert drops.counts[(QA_STAGE, "image_not_an_object")] == 1
    assert drops.counts[(QA_STAGE, "qa_not_an_object")] == 1
    assert drops.counts[(QA_STAGE, "qa_missing_text")] == 1


def test_an_object_keeps_the_other_names_of_its_box():
    """Image 40's chair is annotated "chair" / "couch" / "sofa": the object is written "chair"
    and keeps the other two, through serialisation too; an object with one name has none."""
    g = next(
        g for g in iter_scene_graphs(_vg() / "scene_graphs.json", DropLog()) if g.image_id == "40"
    )
    chair = g.object_by_id()[1025176]
    assert (chair.name, chair.aliases) == ("chair", ("couch", "sofa"))
    back = SceneGraph.from_dict(g.to_dict())
    assert back.object_by_id()[1025176].aliases == ("couch", "sofa")
    plain = next(o for o in g.to_dict()["objects"] if o["id"] == 5902)
    assert "aliases" not in plain

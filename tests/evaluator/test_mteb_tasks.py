"""Our datasets in mteb's own evaluation: task metadata, ``mteb.evaluate`` end to end with mteb's
CLIP wrapper loading a tiny random local model, and the same per-set scores as ``crepe evaluate``."""

from __future__ import annotations

import shutil

import pytest

from crepe_datasets.builders.add_images import add_images
from crepe_datasets.evaluator.records import read_records
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scripts.cli import main

mteb = pytest.importorskip("mteb")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def with_crops(demo, tmp_path_factory):
    dataset, images, _ = demo
    folder = tmp_path_factory.mktemp("mteb") / "demo"
    shutil.copytree(dataset, folder)
    add_images(folder, images)
    return folder


def test_tasks_have_full_metadata(with_crops, demo) -> None:
    from mteb.abstasks.image.image_text_pair_classification import (
        AbsTaskImageTextPairClassification,
    )

    from crepe_datasets.evaluator.mteb_tasks import mteb_tasks

    tasks = {t.metadata.name: t for t in mteb_tasks(with_crops)}
    # retrieval and binary configs; raw retrieval and group (2 images) are not pair tasks
    assert set(tasks) == {
        "demo-eval-bind",
        "demo-eval-hn_all",
        "demo-eval-hn_atom",
        "demo-eval-syst",
    }
    meta = tasks["demo-eval-hn_atom"].metadata
    assert isinstance(tasks["demo-eval-hn_atom"], AbsTaskImageTextPairClassification)
    assert (meta.type, meta.category, meta.main_score) == ("Compositionality", "i2t", "text_acc")
    assert meta.eval_splits == ["complexity_4", "complexity_5"] and meta.license == "cc-by-4.0"
    assert meta.reference and meta.bibtex_citation and meta.description and meta.date
    assert meta.dataset["revision"].startswith("manifest-")
    with pytest.raises(CrepeInputError, match="no retrieval or binary config 'pairs'"):
        mteb_tasks(with_crops, ["pairs"])
    no_crops = mteb_tasks(demo[0], ["hn_atom"])[0]
    with pytest.raises(CrepeInputError, match="crepe add-images"):
        no_crops.load_data()


def test_mteb_evaluate_equals_crepe_evaluate(
    with_crops, tiny_models, tmp_path, monkeypatch
) -> None:
    from crepe_datasets.evaluator.mteb_tasks import mteb_tasks

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hf = tiny_models[1]
    # mteb's own CLIP wrapper (AutoModel + AutoProcessor), pointed at the local tiny model
    meta = mteb.get_model_meta("openai/clip-vit-base-patch32")
    model = meta.model_copy(update={"name": str(hf), "revision": "local", "embed_dim": 16})
    tasks = mteb_tasks(with_crops)
    result = mteb.evaluate(model.load_model(device="cpu"), tasks=tasks, cache=None,
                           show_progress_bar=False)  # fmt: skip
    ours_args = ["evaluate", "--model", f"hf:{hf}", "--dataset", str(with_crops), "--device", "cpu",
                 "--out", str(tmp_path / "r"), "--no-cache", "--bootstrap", "20"]  # fmt: skip
    assert main(ours_args) == 0
    records = {(r.config, r.split): r for r in read_records(tmp_path / "r")}
    compared = 0
    for task_result in result.task_results:
        config = task_result.task_name.removeprefix("demo-eval-")
        for split, scores in task_result.scores.items():
            record = records[(config, split)]
            main_metric = "R@1" if record.task == "retrieval" else "accuracy"
            ours = record.metrics[record.key(main_metric)]
            ties = record.metrics[record.key("ties")]
            assert ties == 0  # so text_acc (ties go to the positive) must equal R@1 exactly
            assert scores[0]["text_acc"] == pytest.approx(ours, abs=1e-6), (config, split)
            assert scores[0]["main_score"] == scores[0]["text_acc"]
            assert record.n == record.metrics[record.key("n")]
            compared += 1
    assert compared == 2 + 2 + 2 + 3
    assert all(not d for t in tasks for d in t.dropped.values())


def test_export_mteb_lists_the_tasks(with_crops, tmp_path, capsys) -> None:
    import json

    out = tmp_path / "tasks.json"
    assert main(["export", "mteb", str(with_crops), "--config", "hn_atom", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "demo-eval-hn_atom: Compositionality (i2t), main score text_acc" in printed
    tasks = json.loads(out.read_text())["tasks"]
    assert [t["name"] for t in tasks] == ["demo-eval-hn_atom"]
    assert tasks[0]["eval_splits"] == ["complexity_4", "complexity_5"]
    assert main(["export", "mteb", str(with_crops), "--config", "raw"]) == 2  # a user error

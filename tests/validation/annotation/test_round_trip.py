"""The whole loop on the productivity build of the 100 real Visual Genome images, against a
real Label Studio server: sample → push → two annotators submit through the API → pull →
report → card; then a rebuild from the same inputs keeps the verification."""

from __future__ import annotations

import json
import logging
import shutil
import warnings
from collections import Counter

import pytest

from crepe_datasets.scripts.cli import main
from crepe_datasets.validation.annotation.agreement import cohen_kappa, wilson_interval
from crepe_datasets.validation.annotation.report import majority
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # a real Label Studio server and the productivity build


VG = ("visual_genome", "images_1-100")


def _build(vg, out) -> None:
    args = ["build", "productivity", "--vg", str(vg), "--no-nli", "--seed", "0", "--out", str(out)]
    assert main([*args, "--overwrite"] if out.exists() else args) == 0


def _judge(annotator: int, item: dict) -> str:
    """A fixed, item-dependent judgement per annotator, with some disagreement and 'unsure'."""
    if item["kind"] == "caption":
        return "no" if annotator == 1 and item["row"] % 5 == 0 else "yes"
    if item["negative_type"] == "swap" and item["row"] % 2 == 0:
        return "no" if annotator == 0 or item["row"] % 4 == 0 else "unsure"
    return "yes" if (item["row"] + annotator) % 6 else "no"


@pytest.fixture(scope="module")
def round_trip(label_studio, productivity_build, tmp_path_factory):
    from label_studio_sdk import LabelStudio

    vg = require_shared(*VG)
    root = tmp_path_factory.mktemp("annotate")
    dataset, sample = root / "crepe-productivity", root / "ann" / "prod-v1"
    shutil.copytree(productivity_build, dataset)  # this test rebuilds and reports into its copy
    sample_args = [
        "--per-stratum",
        "1",
        "--by",
        "config,complexity",
        "--seed",
        "0",
        "--vg",
        str(vg),
    ]
    assert main(["annotate", "sample", str(dataset), *sample_args, "--out", str(sample)]) == 0
    assert (
        main(["annotate", "sample", str(dataset), *sample_args, "--out", str(root / "again")]) == 0
    )
    server = ["--label-studio", label_studio.url, "--token", label_studio.token]
    assert main(["annotate", "push", str(sample), *server]) == 0
    state = json.loads((sample / "label_studio.json").read_text())
    items = {
        json.loads(line)["item_id"]: json.loads(line)
        for line in (sample / "items.jsonl").read_text().splitlines()
    }
    submitted = {}
    for a, token in enumerate(label_studio.annotator_tokens):
        client = LabelStudio(base_url=label_studio.url, api_key=token)
        user = client.users.whoami().id
        for item_id, task_id in sorted(state["tasks"].items()):
            label = _judge(a, items[item_id])
            result = [{"from_name": "judgement", "to_name": "text", "type": "choices",
                       "value": {"choices": [label]}}]  # fmt: skip
            client.annotations.create(id=task_id, result=result)
            submitted[(item_id, f"ls-user-{user}")] = label
    assert main(["annotate", "pull", str(sample), *server]) == 0
    return {"dataset": dataset, "sample": sample, "root": root, "items": items,
            "state": state, "submitted": submitted, "vg": vg}  # fmt: skip


def test_sample_is_stratified_and_reproducible(round_trip):
    items, sample = round_trip["items"], round_trip["sample"]
    strata = Counter((i["config"], i["complexity"]) for i in items.values())
    # one item per config and complexity that has rows (hn_negate and hn_all have none at the
    # lowest complexities: too few valid negations there)
    counts = json.loads((round_trip["dataset"] / "build_manifest.json").read_text())["counts"]
    filled = {(c, s) for c, splits in counts.items() for s, n in splits.items() if n}
    assert len(strata) == len(filled) >= 30 and set(strata.values()) == {1}
    assert {i["kind"] for i in items.values() if i["config"] == "raw"} == {"caption"}
    assert {i["kind"] for i in items.values() if i["config"] != "raw"} == {"negative"}
    again = round_trip["root"] / "again" / "items.jsonl"
    assert again.read_text() == (sample / "items.jsonl").read_text()
    first = next(iter(items.values()))
    assert first["image"].startswith("https://") and 0 < first["region"]["width"] <= 100


def test_push_made_one_task_per_item_with_the_region(round_trip, label_studio):
    from label_studio_sdk import LabelStudio

    state = round_trip["state"]
    assert set(state["tasks"]) == set(round_trip["items"])
    client = LabelStudio(base_url=label_studio.url, api_key=label_studio.token)
    task = client.tasks.get(next(iter(state["tasks"].values())))
    assert task.data["text"] and task.data["image"].startswith("https://")


def test_every_annotation_came_back(round_trip):
    lines = (round_trip["sample"] / "judgements.jsonl").read_text().splitlines()
    pulled = {(j["item_id"], j["annotator"]): j["label"] for j in map(json.loads, lines)}
    assert pulled == round_trip["submitted"]
    assert len(pulled) == 2 * len(round_trip["items"])
    assert len(list((round_trip["sample"] / "exports").glob("label-studio-p*.json"))) == 1


def test_report_goes_into_manifest_and_card(round_trip):
    dataset, sample, submitted = (
        round_trip["dataset"],
        round_trip["sample"],
        round_trip["submitted"],
    )
    assert (
        main(["annotate", "report", str(sample), "--dataset", str(dataset), "--bootstrap", "200"])
        == 0
    )
    hv = json.loads((dataset / "build_manifest.json").read_text())["human_verification"]
    assert hv["status"] == "current" and hv["annotators"] == 2
    assert hv["judged_items"] == len(round_trip["items"])
    # Independent recomputation of the negative rate and the two-annotator κ.
    by_item: dict[str, list[str]] = {}
    for (item_id, _), label in sorted(submitted.items()):
        by_item.setdefault(item_id, []).append(label)
    negatives = [v for k, v in by_item.items() if round_trip["items"][k]["kind"] == "negative"]
    majorities = [majority(v) for v in negatives]
    yes, no = majorities.count("yes"), majorities.count("no")
    got = hv["kinds"]["negative"]
    assert (got["yes"], got["no"]) == (yes, no)
    assert got["rate"] == pytest.approx(yes / (yes + no), abs=1e-4)
    assert got["low"] == pytest.approx(wilson_interval(yes, yes + no)[0], abs=1e-4)
    kappa = got["agreement"]["cohen_kappa"]
    assert kappa["value"] == pytest.approx(cohen_kappa(negatives), abs=1e-4)
    assert kappa["low"] <= kappa["value"] <= kappa["high"]
    card = (dataset / "README.md").read_text()
    assert "## Human verification" in card and "Krippendorff's α" in card
    assert "![Human verification](assets/human_verification.png)" in card
    for plot in ("human_verification", "rows_per_split", "drops_by_reason"):
        assert (dataset / "assets" / f"{plot}.png").stat().st_size > 1000


def test_load_dataset_is_silent(round_trip, caplog):
    from datasets import load_dataset

    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING):
        warnings.simplefilter("always")
        ds = load_dataset(str(round_trip["dataset"]), "hn_swap", split="complexity_7")
    assert len(ds) > 0
    messages = [r.getMessage() for r in caplog.records] + [str(w.message) for w in caught]
    assert not [m for m in messages if "dataset_info" in m], messages


def test_rebuild_keeps_verification_when_rows_are_unchanged(round_trip):
    dataset = round_trip["dataset"]
    before = json.loads((dataset / "build_manifest.json").read_text())["human_verification"]
    _build(round_trip["vg"], dataset)
    after = json.loads((dataset / "build_manifest.json").read_text())
    assert after["human_verification"]["status"] == "current"
    assert after["human_verification"]["kinds"] == before["kinds"]
    assert "assets/human_verification.png" in after["assets"]
    assert "## Human verification" in (dataset / "README.md").read_text()


def test_bad_server_and_token_are_one_sentence(round_trip, label_studio, capsys, tmp_path):
    sample = tmp_path / "copy"
    shutil.copytree(round_trip["sample"], sample)
    (sample / "label_studio.json").unlink()
    assert (
        main(
            [
                "annotate",
                "push",
                str(sample),
                "--label-studio",
                "http://127.0.0.1:9",
                "--token",
                "x",
            ]
        )
        == 2
    )
    assert "cannot reach Label Studio at http://127.0.0.1:9" in capsys.readouterr().err
    bad = ["--label-studio", label_studio.url, "--token", "not-a-token"]
    assert main(["annotate", "push", str(sample), *bad]) == 2
    assert "refused the token" in capsys.readouterr().err
    assert main(["annotate", "pull", str(round_trip["sample"]), *bad]) == 2
    err = capsys.readouterr().err
    assert "refused the token" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("drop_annotations", "items have no annotation yet"),
        ("unknown_task", "is not one of this sample's"),
        ("third_label", "which is not one of yes, no, unsure"),
    ],
)
def test_bad_export_is_one_sentence_and_nothing_is_lost(
    round_trip, capsys, tmp_path, damage, message
):
    sample = round_trip["sample"]
    before = (sample / "judgements.jsonl").read_bytes()
    export = json.loads(next((sample / "exports").glob("label-studio-p*.json")).read_text())
    if damage == "drop_annotations":
        export[0]["annotations"] = []
    elif damage == "unknown_task":
        export[0]["data"]["item_id"] = "raw/complexity_99/0"
    else:
        export[0]["annotations"][0]["result"][0]["value"]["choices"] = ["maybe"]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    assert main(["annotate", "pull", str(sample), "--export", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert (sample / "judgements.jsonl").read_bytes() == before


def test_cancelled_annotations_are_counted(round_trip, capsys, tmp_path):
    sample = tmp_path / "copy"
    shutil.copytree(round_trip["sample"], sample)
    export = json.loads(next((sample / "exports").glob("label-studio-p*.json")).read_text())
    export[0]["annotations"][0]["was_cancelled"] = True
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    kept = len(list((sample / "exports").glob("file-*.json")))
    assert main(["annotate", "pull", str(sample), "--export", str(path)]) == 0
    out = capsys.readouterr().out
    assert "skipped 1 (cancelled_annotation)" in out and "0 new, 0 changed" in out
    assert len(list((sample / "exports").glob("file-*.json"))) == kept + 1  # raw export kept

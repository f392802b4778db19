"""Caption scores: COCO leave-one-out against sacrebleu, pair Recall@K, `crepe evaluate-captions`."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.builders.captioning.concepts import parse_facts
from crepe_datasets.builders.captioning.pairs import load_pairs
from crepe_datasets.evaluator.caption_check import independent_bleu, leave_one_out, tokenized_pair
from crepe_datasets.evaluator.caption_scores import coco_scores, pair_recall
from crepe_datasets.evaluator.records import read_records
from crepe_datasets.scripts.cli import main
from tests.builders.captioning.helpers import built_dataset
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # COCO scores (Java METEOR) and the caption parser


@pytest.fixture(scope="module")
def loo():
    return leave_one_out(require_shared("coco", "captions_val2017.json"))


def test_leave_one_out_bleu4_agrees_with_sacrebleu(loo) -> None:
    refs, cands = loo
    assert len(cands) == 5000 and sum(map(len, refs.values())) == 25_014 - 5000
    scores, per_image = coco_scores(refs, cands, meteor=False)
    baseline = independent_bleu(*tokenized_pair(refs, cands))
    assert abs(100 * (scores["BLEU-4"] - baseline["BLEU-4"])) <= 0.5
    assert abs(100 * (scores["BLEU-1"] - baseline["BLEU-1"])) <= 0.5
    assert 0.15 < scores["BLEU-4"] < 0.25 and 0.6 < scores["CIDEr"] < 1.2  # human-level on COCO
    assert len(per_image["CIDEr"]) == 5000


def test_meteor_runs_through_java(loo) -> None:
    refs, cands = loo
    keep = sorted(cands)[:60]
    scores, _ = coco_scores({i: refs[i] for i in keep}, {i: cands[i] for i in keep})
    assert 0.1 < scores["METEOR"] < 0.5


def test_pair_recall_counts_the_first_k_captions() -> None:
    pairs = {p.id: p for p in load_pairs()}
    generated = {
        "1": parse_facts(["A cat on a bed.", "A black cat on a bed."]),
        "2": parse_facts(["A red bus in the street."]),
    }
    overall, per_pair = pair_recall(
        [("1", "black_cat"), ("2", "red_bus"), ("2", "blue_bus")], generated, pairs, 3
    )
    assert overall == {"R@1": 1 / 3, "R@2": 2 / 3, "R@3": 2 / 3}
    assert per_pair["black_cat"]["R@1"] == 0 and per_pair["black_cat"]["R@2"] == 1


def _write(path, lines):
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_evaluate_captions_end_to_end(tmp_path, capsys) -> None:
    folder, _, _ = built_dataset()
    rows = {}
    for f in sorted((folder / "data" / "systematicity").glob("test_comb-*.parquet")):
        import pyarrow.parquet as pq

        rows.update({r["image_id"]: r for r in pq.read_table(f).to_pylist()})
    ids = sorted(rows)
    # every test_comb image but the last two: its own 2nd..5th captions as 4 predictions
    preds = _write(
        tmp_path / "model.jsonl",
        [{"image_id": int(i), "captions": rows[i]["captions"][1:5]} for i in ids[:-2]],
    )
    out = tmp_path / "results"
    assert (
        main(
            [
                "evaluate-captions",
                "--dataset",
                f"{folder}:systematicity",
                "--predictions",
                str(preds),
                "--split",
                "test_comb",
                "--no-meteor",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert (
        f"scoring {len(ids) - 2:,} of {len(ids):,} images (2 without a prediction)" in captured.err
    )
    (record,) = read_records(out)
    assert record.n == len(ids) - 2 and record.drops == {"predictions": {"missing_prediction": 2}}
    assert record.main_metric == "CIDEr" and record.metrics[record.key("CIDEr")] > 0.5
    r_at = [record.metrics[record.key(f"pair_R@{k}")] for k in range(1, 6)]
    assert r_at == sorted(r_at) and 0 < r_at[0] <= r_at[-1] <= 1
    assert any("/pair=" in key for key in record.metrics)
    assert main(["report", str(out)]) == 0
    assert "pair_R@1" in (out / "report.md").read_text()


def test_bad_predictions_fail_in_one_line(tmp_path, capsys) -> None:
    folder, _, _ = built_dataset()
    spec = f"{folder}:systematicity"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    unknown = _write(tmp_path / "unknown.jsonl", [{"image_id": 999_999_999, "caption": "a cat"}])
    blank = _write(tmp_path / "blank.jsonl", [{"image_id": 1, "captions": [""]}])
    for path, message in (
        (empty, "holds no prediction"),
        (unknown, "not in"),
        (blank, "empty caption"),
    ):
        capsys.readouterr()
        assert (
            main(
                [
                    "evaluate-captions",
                    "--dataset",
                    spec,
                    "--predictions",
                    str(path),
                    "--out",
                    str(tmp_path / "r"),
                ]
            )
            == 2
        )
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], err

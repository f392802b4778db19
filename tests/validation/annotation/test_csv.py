"""The spreadsheet route: export a sheet, fill it, import it, report (real productivity build)."""

from __future__ import annotations

import csv
import json

import pytest

from crepe_datasets.scripts.cli import main
from tests.conftest import require_shared

pytestmark = pytest.mark.slow  # the productivity build of the 100 VG images


@pytest.fixture
def sample(productivity_build, tmp_path):
    vg = require_shared("visual_genome", "images_1-100")
    out = tmp_path / "ann"
    args = ["annotate", "sample", str(productivity_build), "--per-stratum", "3", "--by",
            "negative_type,complexity", "--kinds", "negative", "--vg", str(vg), "--seed", "1"]  # fmt: skip
    assert main([*args, "--out", str(out)]) == 0
    return out


def _fill(path, label_for):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for n, row in enumerate(rows):
        row["label"] = label_for(n, row)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def test_sheet_round_trip_and_report(sample, productivity_build, tmp_path):
    sheet = tmp_path / "sheet.csv"
    assert (
        main(
            ["annotate", "export-csv", str(sample), "--out", str(sheet), "--annotators", "ann,bob"]
        )
        == 0
    )
    items = (sample / "items.jsonl").read_text().splitlines()
    # 3 items per negative type and complexity with rows of that type's config
    counts = json.loads((productivity_build / "build_manifest.json").read_text())["counts"]
    filled = [n for t in ("atom", "swap", "negate") for n in counts[f"hn_{t}"].values() if n]
    assert len(items) == 3 * len(filled) >= 60
    rows = _fill(sheet, lambda n, row: "no" if row["annotator"] == "bob" and n % 9 == 0 else "Yes")
    assert len(rows) == 2 * len(items)
    assert main(["annotate", "import-csv", str(sample), str(sheet)]) == 0
    lines = (sample / "judgements.jsonl").read_text().splitlines()
    assert len(lines) == len(rows) and {json.loads(x)["label"] for x in lines} == {"yes", "no"}
    assert main(["annotate", "report", str(sample), "--dataset", "unused", "--no-card"]) == 2
    dataset = json.loads((sample / "sample.json").read_text())["dataset_path"]
    assert main(["annotate", "report", str(sample), "--dataset", dataset, "--no-card"]) == 0
    report = json.loads((sample / "report.json").read_text())
    strata = {(s["negative_type"], s["complexity"]) for s in report["strata"]}
    assert len(strata) == len(filled) and report["annotators"] == 2


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda n, row: "yes" if n else "", "rows have no label yet"),
        (lambda n, row: "yes" if n else "maybe", "line 2 has the label 'maybe'"),
    ],
)
def test_bad_sheet_is_one_sentence(sample, tmp_path, capsys, edit, message):
    sheet = tmp_path / "sheet.csv"
    assert (
        main(["annotate", "export-csv", str(sample), "--out", str(sheet), "--annotators", "a"]) == 0
    )
    _fill(sheet, edit)
    assert main(["annotate", "import-csv", str(sample), str(sheet)]) == 2
    assert message in capsys.readouterr().err
    assert not (sample / "judgements.jsonl").exists()


def test_unknown_item_in_sheet(sample, tmp_path, capsys):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("item_id,annotator,label\nraw/complexity_4/999,a,yes\n")
    assert main(["annotate", "import-csv", str(sample), str(sheet)]) == 2
    assert "item 'raw/complexity_4/999' is not in this sample" in capsys.readouterr().err

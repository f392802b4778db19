"""A verification survives a rebuild with the same rows, and is marked stale otherwise."""

from __future__ import annotations

import json

from crepe_datasets.builders.writer import write_dataset
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo, ConfigInfo, TaskSpec
from crepe_datasets.cards.verification import read_rows, row_hash

ROWS = [
    {"caption": f"a red car {i}", "image_file": f"{i}.jpg", "bbox": [0.0, 0.0, 9.0, 9.0]}
    for i in range(4)
]


def _write(folder, rows):
    manifest = BuildManifest(
        "toy", "1.0.0", "tests", CardInfo("Toy", "s"),
        configs={"raw": ConfigInfo("raw", "d", TaskSpec(type="raw_retrieval", negatives_column=None))},
    )  # fmt: skip
    return write_dataset(folder, {"raw": {"test": rows}}, manifest)


def _verify(folder):
    """What `crepe annotate report` leaves in a manifest (the parts a rebuild looks at)."""
    path = folder / "build_manifest.json"
    data = json.loads(path.read_text())
    rows = read_rows(folder, "raw", "test", [1, 3])
    data["human_verification"] = {
        "rows": {f"raw/test/{i}": row_hash(r) for i, r in rows.items()},
        "status": "current", "kinds": {}, "strata": [], "by": [], "judged_items": 2,
        "annotators": 2, "judgements": 4, "reported_at": "2026-01-01T00:00:00Z",
    }  # fmt: skip
    path.write_text(json.dumps(data))


def test_same_rows_keep_it_changed_rows_make_it_stale(tmp_path):
    folder = _write(tmp_path / "toy", ROWS)
    _verify(folder)
    _write(folder, ROWS)
    hv = json.loads((folder / "build_manifest.json").read_text())["human_verification"]
    assert hv["status"] == "current" and hv["changed_rows"] == 0
    assert "## Human verification" in (folder / "README.md").read_text()

    changed = [dict(r) for r in ROWS]
    changed[3]["caption"] = "a blue car"
    _write(folder, changed)
    hv = json.loads((folder / "build_manifest.json").read_text())["human_verification"]
    assert hv["status"] == "stale" and hv["changed_examples"] == ["raw/test/3"]
    assert "**Stale:** 1 of the verified rows changed" in (folder / "README.md").read_text()


def test_card_plots_are_byte_identical_across_builds(tmp_path):
    a, b = _write(tmp_path / "a", ROWS), _write(tmp_path / "b", ROWS)
    plot = "assets/rows_per_split.png"
    assert (a / plot).read_bytes() == (b / plot).read_bytes()


def test_card_tables_are_not_json(tmp_path):
    folder = _write(tmp_path / "toy", ROWS)
    data = json.loads((folder / "build_manifest.json").read_text())
    data["summary"] = {"per_n": {"complexity_10": {"atom": 3}, "complexity_4": {"atom": 1}}}
    from crepe_datasets.cards.render import render_card

    card = render_card(BuildManifest.from_dict(data))
    assert "| complexity_4 | 1 |" in card and card.index("complexity_4 |") < card.index(
        "complexity_10 |"
    )
    assert '{"' not in card.split("## Build summary")[1].split("## Sources")[0]
    assert "![Rows per split](assets/rows_per_split.png)" in card

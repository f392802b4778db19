"""A small end-to-end build through the `crepe build bindsplit` command, opened with load_dataset."""

from __future__ import annotations

import json

import pytest
from datasets import load_dataset

from crepe_datasets.builders.bindsplit.summary import PAPER, BenchmarkStats, BindSplitSummary
from crepe_datasets.scripts.cli import main
from tests.conftest import assert_validate_reruns_the_build

CORPUS = [
    "A red car parked near a blue bus.",
    "The black dog sleeps.",
    "A brown dog on the grass.",
    "Two small white cats on a sofa.",
    "A white plate with a red apple.",
]
ARO_TRUE = [
    "the red car and the blue bus",  # red car P, blue bus P / blue car N, red bus N -> amb_perfect_none
    "the black dog and the brown dog",  # self-swap: all perfect -> definitely_seen
    "the green tree and the pink sky",  # -> definitely_unseen
    "the small cat and the white sofa",  # small cat C ... -> amb_close_none
    "the long sleeved shirt and the man",  # excluded
]
ARO_FALSE = [
    "the blue car and the red bus",
    "the brown dog and the black dog",
    "the pink tree and the green sky",
    "the white cat and the small sofa",
    "the man shirt and the long sleeved man",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("bindsplit")
    (root / "corpus.txt").write_text("\n".join(CORPUS) + "\n")
    aro = root / "aro"
    aro.mkdir()
    (aro / "att-original-true.json").write_text(json.dumps(ARO_TRUE))
    (aro / "att-original-false.json").write_text(json.dumps(ARO_FALSE))
    sugar = root / "sugarcrepe"
    sugar.mkdir()
    rows = {
        "0": {"filename": "000000000001.jpg", "caption": "A white plate with a red apple.",
              "negative_caption": "A red plate with a white apple."},
        "1": {"filename": "000000000002.jpg", "caption": "The dog is running.", "negative_caption": "The cat is running."},
    }  # fmt: skip
    (sugar / "swap_att.json").write_text(json.dumps(rows))
    (root / "bivlc.csv").write_text(
        'caption,negative_caption,type,subtype\n"A black dog sleeps.","A brown dog sleeps.",replace,att\n'
    )
    out, summary = root / "ds", root / "summary.json"
    argv = ["build", "bindsplit", "--benchmark", "aro-vga", "--benchmark-path", str(aro),
            "--benchmark", "sugarcrepe-swap-att", "--benchmark-path", str(sugar),
            "--benchmark", "bivlc", "--benchmark-path", str(root / "bivlc.csv"),
            "--training", f"text:{root / 'corpus.txt'}", "--out", str(out),
            "--summary-json", str(summary), "--cache-dir", str(root / "cache")]  # fmt: skip
    assert main(argv) == 0
    return out, json.loads(summary.read_text())


def test_aro_config_splits_and_columns(built) -> None:
    out, summary = built
    seen = load_dataset(str(out), "aro_vga", split="seen")
    assert seen["caption"] == ["the black dog and the brown dog"]
    row = seen[0]
    assert row["bucket"] == "definitely_seen" and row["hard_negatives"] == [
        "the brown dog and the black dog"
    ]
    assert [b["label"] for b in row["pos_bindings"]] == ["perfect", "perfect"]
    mixed = load_dataset(str(out), "aro_vga", split="mixed")
    assert sorted(mixed["bucket"]) == ["amb_close_none", "amb_perfect_none"]
    unseen = load_dataset(str(out), "aro_vga", split="unseen")
    assert unseen["neg_labels"] == [["none", "none"]]
    aro = summary["benchmarks"]["aro_vga"]
    assert aro["samples"] == 4 and aro["excluded"] == 1
    assert aro["collapsed"] == {"seen": 1, "mixed": 2, "unseen": 1}
    full = aro["asymmetry"]["in_table"]["full"]
    assert (full["positive"]["rate"], full["negative"]["rate"]) == (0.5, 0.25)


def test_other_configs_manifest_and_card(built) -> None:
    out, summary = built
    sc = load_dataset(str(out), "sugarcrepe_swap_att", split="mixed")
    assert len(sc) == 1 and sc[0]["binding_form"] == "swap"
    assert sc[0]["image_file"] == "000000000001.jpg" and sc[0]["bucket"] == "amb_perfect_none"
    assert summary["benchmarks"]["sugarcrepe_swap_att"]["empty_splits"] == ["seen", "unseen"]
    assert summary["benchmarks"]["sugarcrepe_swap_att"]["exclusions"] == {
        "bindsplit_sugarcrepe_swap_att": {"no_binding": 1}
    }
    bivlc = load_dataset(str(out), "bivlc", split="seen")
    assert bivlc[0]["caption_0"] == "A black dog sleeps." and bivlc[0]["subset"] == "replace_att"
    table = load_dataset(str(out), "training_table", split="train")
    assert {"attr": "red", "obj_lemma": "car", "perfect_count": 1, "close_count": 0} in list(table)
    manifest = json.loads((out / "build_manifest.json").read_text())
    assert manifest["configs"]["bivlc"]["task"]["type"] == "group"
    assert manifest["configs"]["aro_vga"]["task"]["type"] == "binary"
    assert manifest["counts"]["aro_vga"] == {"seen": 1, "mixed": 2, "unseen": 1}
    assert manifest["drops"]["bindsplit_aro_vga"] == {"neither_matches": 1}
    card = (out / "README.md").read_text()
    assert summary["training_table"]["checksum"] in card
    # BindSplitSummary.to_dict gives the summary back, in the build's order: benchmarks as given,
    # ``paper`` only for a benchmark with published figures, ``empty_splits`` last
    tail = ("excluded", "source_drops", "exclusions", "paper", "empty_splits")
    typed = BindSplitSummary(
        summary["training_table"],
        [
            (c, BenchmarkStats({k: v for k, v in b.items() if k not in tail}, *map(b.get, tail)))
            for c, b in summary["benchmarks"].items()
        ],
    ).to_dict()
    assert typed == summary and list(typed) == [
        "training_table",
        "benchmarks",
    ]
    assert list(typed["benchmarks"]["aro_vga"])[-5:] == list(tail)
    assert list(typed["benchmarks"]["sugarcrepe_swap_att"])[-4:] == [*tail[:3], tail[4]]
    assert typed["benchmarks"]["aro_vga"]["paper"] == PAPER["aro_vga"]


def test_cli_errors(tmp_path, capsys) -> None:
    base = ["build", "bindsplit", "--training", "text:x.txt", "--out", str(tmp_path / "o")]
    assert main([*base, "--benchmark", "winoground", "--benchmark-path", "."]) == 2
    assert "known benchmarks are aro-vga" in capsys.readouterr().err
    assert (
        main([*base, "--benchmark", "aro-vga", "--benchmark", "bivlc", "--benchmark-path", "."])
        == 2
    )
    assert "--benchmark-path" in capsys.readouterr().err


def test_validate_knows_the_build_records_no_check(built) -> None:
    out, _ = built
    assert assert_validate_reruns_the_build(out) == {}

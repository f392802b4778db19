"""crepe-systematicity end to end on real data: splits re-derived, negatives, determinism, loading."""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from crepe_datasets.generators.balance.shortcuts import audit_rows
from crepe_datasets.scenegraph.seen import SPLITS, load_seen, split_of
from crepe_datasets.validation.invariants import check_rows, read_tables
from crepe_datasets.validation.systematicity import check_tables

pytestmark = pytest.mark.slow  # builds systematicity on 30 VG images


def test_every_row_satisfies_its_split(small_build, seen_folder: Path) -> None:
    _, folder, manifest = small_build
    tables = read_tables(folder)
    seen = load_seen(seen_folder)
    assert set(tables) == {"raw", "hn_atom", "hn_comp", "hn_comp_matched"}
    rows = 0
    for splits in tables.values():
        for split, items in splits.items():
            for row in items:
                rows += 1
                # re-derive the split from the row's lists and the tables, by hand
                unseen_a = [a for a in row["atoms"] if a not in seen.atoms]
                unseen_c = [c for c in row["compounds"] if c not in seen.compounds]
                assert unseen_a == row["unseen_atoms"] and unseen_c == row["unseen_compounds"]
                assert split_of(unseen_a, unseen_c) == split == row["split"]
                if split == "seen_compounds":
                    assert all(c in seen.compounds for c in row["compounds"])
                if split == "unseen_compounds":
                    assert all(a in seen.atoms for a in row["atoms"]) and unseen_c
                assert len(row["atoms"]) >= 1 and len(row["compounds"]) >= 1
    assert rows == sum(n for s in manifest.counts.values() for n in s.values())
    report = check_tables(tables, seen)
    assert report.passed, report.to_dict()
    assert sum(len(tables["raw"].get(s, [])) for s in SPLITS) > 50


def test_negatives_and_retrieval_sets(small_build) -> None:
    _, folder, _ = small_build
    tables = read_tables(folder)
    captions: dict[str, set[str]] = {}
    for rows in tables["raw"].values():
        for row in rows:
            captions.setdefault(row["image_id"], set()).add(row["caption"])
    for config, size in (("hn_atom", 4), ("hn_comp", 6)):
        assert set(tables[config]) <= {"seen_compounds", "unseen_compounds"}
        rows = [r for rs in tables[config].values() for r in rs]
        assert rows, config
        for row in rows:
            assert len(row["hard_negatives"]) == size == len(set(row["hard_negatives"]))
            assert row["n_compounds"] == 1
            assert not set(row["hard_negatives"]) & captions[row["image_id"]]
            if config == "hn_comp":
                for text, foils in zip(row["hard_negatives"], row["negative_foils"], strict=True):
                    assert len(foils) == 2 and " and " in text
    assert check_rows(tables).passed
    assert audit_rows({c: t for c, t in tables.items() if c != "raw"}).passed


def test_manifest_card_and_loading(small_build) -> None:
    from datasets import load_dataset

    _, folder, manifest = small_build
    corpus = manifest.summary["training_corpus"]
    assert corpus["corpus"].startswith("coco:") and len(corpus["corpus_sha256"]) == 64
    assert corpus["seen_atoms"] > 0 and corpus["table_rows"]["atoms"] > 0
    assert any(f.path.endswith("captions_val2014.json_samples.json") for f in manifest.inputs)
    quality = manifest.validation["parser_factual"]
    assert 0 < quality["triplets"]["precision"] <= 1 and 0 < quality["triplets"]["recall"] <= 1
    card = (folder / "README.md").read_text()
    assert "triplet precision" in card and "ao:<attribute>|<object>" in card
    assert corpus["corpus_sha256"][:16] in card
    assert manifest.drops.to_dict()["systematicity_texts"]["region_too_small"] > 0
    ds = load_dataset(str(folder), "hn_comp", split="seen_compounds")
    assert len(ds) == manifest.counts["hn_comp"]["seen_compounds"]
    assert json.loads((folder / "build_manifest.json").read_text())["dataset"] == (
        "crepe-systematicity"
    )


def test_same_inputs_same_bytes(small_build, tmp_path: Path) -> None:
    from crepe_datasets.builders.systematicity.build import build_systematicity

    settings, folder, _ = small_build
    again, _ = build_systematicity(replace(settings, out=str(tmp_path / "again")))
    first = sorted(p.relative_to(folder) for p in (folder / "data").rglob("*.parquet"))
    assert first == sorted(p.relative_to(again) for p in (again / "data").rglob("*.parquet"))
    for rel in first:
        assert (folder / rel).read_bytes() == (again / rel).read_bytes(), rel


@pytest.mark.slow
def test_mlm_ranker_and_nli_filter_are_wired(tmp_path: Path, seen_folder: Path) -> None:
    """``--mlm`` and ``--nli`` with tiny random models (no download): recorded, and they run."""
    from crepe_datasets.builders.systematicity.build import (
        SystematicitySettings,
        build_systematicity,
    )
    from tests.conftest import require_shared
    from tests.generators.filters.tiny_models import one_thread, save_tiny_mlm, save_tiny_nli

    settings = SystematicitySettings(
        vg=str(require_shared("visual_genome", "images_1-100")),
        out=str(tmp_path / "ds"),
        seen=str(seen_folder),
        mlm=str(save_tiny_mlm(tmp_path / "mlm")),
        nli=str(save_tiny_nli(tmp_path / "nli")),
        limit=6,
        progress=False,
    )
    with contextlib.contextmanager(one_thread)():
        folder, manifest = build_systematicity(settings)
    assert manifest.models["nli"] == settings.nli
    assert manifest.summary["plausibility_ranker"]["model"].startswith(settings.mlm)
    assert "masked LM" in (folder / "README.md").read_text()
    assert manifest.validation["systematicity_checks"]["passed"]

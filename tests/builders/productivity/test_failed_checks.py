"""A productivity build that fails its shortcut audit writes nothing unless allowed, then says so.

The build: Visual Genome images 1-2 (real sample), n = 4..5, LLM captions from a local
chat-completions server and a tiny NLI model. With so few rows the HN-SWAP set fails the
formatting-shortcut audit (min_n_punct R@1 0.25 against chance 0.167): before issue 11 this
build printed "formatting shortcuts: FAILED" and wrote the dataset as if it were good.
"""

from __future__ import annotations

import json

import pytest

from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity
from crepe_datasets.scenegraph.errors import FailedChecksError
from tests.builders.productivity.test_build_llm_nli import server  # noqa: F401  (fixture)
from tests.conftest import require_shared
from tests.generators.filters.tiny_models import save_tiny_nli

pytestmark = pytest.mark.slow


def test_failed_audit_stops_the_build_unless_allowed(server, tmp_path):  # noqa: F811
    vg = require_shared("visual_genome", "images_1-100")
    settings = ProductivitySettings(
        vg=str(vg), out=str(tmp_path / "ds"), limit=2, min_n=4, max_n=5, progress=False,
        llm="openai:test-model", llm_base_url=server.url, llm_cache=str(tmp_path / "cache"),
        nli=str(save_tiny_nli(tmp_path / "nli")),
    )  # fmt: skip
    with pytest.raises(
        FailedChecksError, match=r"shortcuts FAILED \(hn_swap: .*--allow-failed-checks"
    ):
        build_productivity(settings)
    assert not (tmp_path / "ds").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no spool, no temp folder
    settings.allow_failed_checks = True
    folder, manifest = build_productivity(settings)
    failed = json.loads((folder / "build_manifest.json").read_text())["validation"]["failed_checks"]
    assert failed == manifest.validation["failed_checks"] and failed[0].startswith(
        "shortcuts FAILED (hn_swap:"
    )
    body = (folder / "README.md").read_text().split("---\n", 2)[2]
    assert body.lstrip().startswith(
        "# CREPE productivity\n\n> **Warning: this dataset FAILED its checks**"
    )
    assert f"> - {failed[0]}" in body

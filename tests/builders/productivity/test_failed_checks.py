"""A productivity build that fails its shortcut audit writes nothing unless allowed, then says so.

The build: Visual Genome images 1-2 (real sample), n = 4..5, LLM captions from a local
chat-completions server and a tiny NLI model. The generators now balance the formatting cues,
so the audit is made strict (a negative margin: every text-only baseline at chance or above
fails) to make the real audit of a real build fail: before issue 11 such a build printed
"formatting shortcuts: FAILED" and wrote the dataset as if it were good.
"""

from __future__ import annotations

import json

import pytest

from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity
from crepe_datasets.generators.balance import blind, shortcuts
from crepe_datasets.infra.errors import FailedChecksError
from tests.builders.productivity.test_build_llm_nli import server  # noqa: F401  (fixture)
from tests.conftest import require_shared
from tests.generators.filters.tiny_models import save_tiny_nli

pytestmark = pytest.mark.slow


def test_failed_audit_stops_the_build_unless_allowed(server, tmp_path, monkeypatch):  # noqa: F811
    # only the formatting audit is made strict: the blind baselines, imported above, keep theirs
    assert blind.MARGIN == 0.05
    monkeypatch.setattr(shortcuts, "MARGIN", -1.0)
    vg = require_shared("visual_genome", "images_1-100")
    settings = ProductivitySettings(
        vg=str(vg), out=str(tmp_path / "ds"), limit=2, min_n=4, max_n=5, progress=False,
        llm="openai:test-model", llm_base_url=server.url, llm_cache=str(tmp_path / "cache"),
        nli=str(save_tiny_nli(tmp_path / "nli")),
    )  # fmt: skip
    with pytest.raises(
        FailedChecksError, match=r"shortcuts FAILED \(hn_\w+: .*--allow-failed-checks"
    ):
        build_productivity(settings)
    assert not (tmp_path / "ds").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no spool, no temp folder
    settings.allow_failed_checks = True
    folder, manifest = build_productivity(settings)
    failed = json.loads((folder / "build_manifest.json").read_text())["validation"]["failed_checks"]
    assert failed == manifest.validation["failed_checks"] and failed[0].startswith(
        "shortcuts FAILED (hn_"
    )
    body = (folder / "README.md").read_text().split("---\n", 2)[2]
    assert body.lstrip().startswith(
        "# CREPE productivity\n\n> **Warning: this dataset FAILED its checks**"
    )
    assert f"> - {failed[0]}" in body

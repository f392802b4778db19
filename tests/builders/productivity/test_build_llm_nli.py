"""The build with an LLM (a local chat-completions server) and an NLI model (tiny, random)."""

from __future__ import annotations

import json

import pytest

from crepe_datasets.builders.productivity.build import ProductivitySettings, build_productivity
from tests.conftest import require_shared
from tests.generators.captions.test_llm import ChatServer, faithful_caption
from tests.generators.filters.tiny_models import save_tiny_nli

pytestmark = pytest.mark.slow


@pytest.fixture
def server():
    srv = ChatServer(lambda body, n: (200, faithful_caption(body), 0.0, {}))
    srv.thread.start()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()


def test_llm_captions_for_n_above_4_and_nli_filter(server, tmp_path):
    vg = require_shared("visual_genome", "images_1-100")
    nli = save_tiny_nli(tmp_path / "nli")
    settings = ProductivitySettings(
        vg=str(vg), out=str(tmp_path / "ds"), limit=2, min_n=4, max_n=5, progress=False,
        llm="openai:test-model", llm_base_url=server.url, llm_cache=str(tmp_path / "cache"), nli=str(nli),
        allow_failed_checks=True,  # so few rows can fail the shortcut audit (tests/.../test_failed_checks.py)
    )  # fmt: skip
    folder, _manifest = build_productivity(settings)
    data = json.loads((folder / "build_manifest.json").read_text())
    assert (
        data["models"]["nli"] == nli.name  # a local model path is published by its name only
        and "llm openai:test-model" in data["models"]["caption_writer"]
    )
    usage = data["summary"]["llm_usage"]
    assert usage["requests"] == server.calls > 0 and usage["prompt_tokens"] > 0
    assert data["validation"]["invariants"]["passed"], data["validation"]["invariants"]
    import pyarrow.parquet as pq

    raw = {
        n: pq.read_table(
            folder / "data" / "raw" / f"complexity_{n}-00000-of-00001.parquet"
        ).to_pylist()
        for n in (4, 5)
    }
    assert raw[4] and {r["caption_writer"] for r in raw[4]} == {"template"}
    assert raw[5] and {r["caption_writer"] for r in raw[5]} == {"llm"}
    assert "LLM" in (folder / "README.md").read_text()
    # A rebuild is served from the cache: no new request.
    calls = server.calls
    build_productivity(ProductivitySettings(**{**settings.__dict__, "out": str(tmp_path / "ds2")}))
    assert server.calls == calls

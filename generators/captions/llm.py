"""LLM captions for productivity subgraphs (SPEC §3.3), through any OpenAI-compatible server.

:class:`LLMCaptionWriter` sends the prompt of :mod:`crepe_datasets.generators.captions.prompts` to
``/v1/chat/completions`` with the ``openai`` client (``base_url`` picks the server: OpenAI, vLLM,
llama.cpp, Ollama, …) and keeps only captions that mention every atom of their subgraph.

* **Cache**: every raw answer is stored as one JSON file named by
  ``sha256(model + full request)`` under ``cache_dir`` (written atomically), so a rebuild with
  the same model, prompt and parameters makes no request at all. Failed requests are not cached.
  The coverage check runs on cached answers too, so a stricter check needs no new requests.
* **Robustness** (:mod:`crepe_datasets.generators.captions.chat`): rate limits (429), server errors (5xx),
  timeouts and dropped connections are retried with exponential backoff (``Retry-After``
  honoured, capped); at most ``concurrency`` requests are in flight at once. A wrong model
  name, key or URL raises one clear error.
* **Accounting**: :attr:`LLMCaptionWriter.usage` gives requests, cache hits, retries, token
  counts and rejections by reason for the build manifest.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from crepe_datasets.generators.captions.chat import AnswerCache, ChatClient, cache_key
from crepe_datasets.generators.captions.coverage import missing_atoms
from crepe_datasets.generators.captions.prompts import (
    build_messages,
    fewshot_checksum,
    suffixed_names,
)
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scenegraph.types import SceneGraph

PROVIDERS = ("openai",)
QUOTES = "\"'“”‘’`"
USAGE_COUNTS = (
    "requests",
    "retries",
    "cache_hits",
    "accepted",
    "prompt_tokens",
    "completion_tokens",
    "cached_prompt_tokens",
    "cached_completion_tokens",
)


@dataclass(frozen=True)
class CaptionResult:
    """The outcome for one subgraph.

    ``caption`` is ``None`` when rejected or failed; ``reason`` is then a snake_case drop reason
    (``missing_atom``, ``leaked_name_suffix``, ``empty_caption``, ``truncated``,
    ``request_rejected``, ``request_failed``). ``rejected_text`` keeps a rejected generation
    for the drop log's examples.
    """

    caption: str | None
    reason: str | None
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    rejected_text: str | None = None


def parse_llm_spec(spec: str) -> str:
    """Model name of an ``--llm`` value ``PROVIDER:MODEL`` (only ``openai`` is a provider).

    Example:
        >>> parse_llm_spec("openai:Qwen/Qwen2.5-7B-Instruct")
        'Qwen/Qwen2.5-7B-Instruct'

    Raises:
        CrepeInputError: for an unknown provider or an empty model name.
    """
    provider, sep, model = str(spec).partition(":")
    if not sep or provider.strip().lower() not in PROVIDERS or not model.strip():
        raise CrepeInputError(
            f"--llm {spec!r} is not PROVIDER:MODEL with a known provider; use openai:MODEL "
            "(any OpenAI-compatible server, chosen with --llm-base-url)."
        )
    return model.strip()


class LLMCaptionWriter:
    """Writes captions of subgraphs with a chat model; see the module docstring.

    Args:
        model: the model name the server knows (``parse_llm_spec("openai:MODEL")``).
        base_url: the server's OpenAI-compatible base URL (``None``: ``$OPENAI_BASE_URL`` or OpenAI).
        api_key: the key (``None``: ``$OPENAI_API_KEY``, else ``"EMPTY"`` for local servers).
        cache_dir: folder of cached answers (``None``: no cache).
        concurrency: the most requests in flight at once.
        timeout: seconds before one request is abandoned (and retried).
        max_retries: retries per request after the first attempt.
        temperature: sampling temperature (0 = greedy).
        seed: sampling seed sent to the server (``None``: not sent).
        max_tokens: the longest caption, in tokens.
        backoff: first retry delay in seconds; it doubles with every retry.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        cache_dir: Path | None = None,
        concurrency: int = 8,
        timeout: float = 60,
        max_retries: int = 5,
        temperature: float = 0.0,
        seed: int | None = 0,
        max_tokens: int = 96,
        backoff: float = 1.0,
    ) -> None:
        self.model = model
        self.concurrency = max(1, int(concurrency))
        self.temperature = temperature
        self.seed = seed
        self.max_tokens = max_tokens
        self.cache = AnswerCache(cache_dir)
        self.client = ChatClient(base_url, api_key, timeout, max_retries, backoff)
        self._lock = threading.Lock()
        self._stats: Counter[str] = Counter()
        self._rejections: Counter[str] = Counter()

    # ------------------------------------------------------------------ public
    def write(self, graphs: list[SceneGraph]) -> list[CaptionResult]:
        """Captions for ``graphs``, in the same order (a progress bar shows the requests).

        Graphs that give the same prompt (same names, attributes and relations) are asked
        once; their repeats count as cache hits.
        """
        from tqdm import tqdm

        requests = [self._request(g) for g in graphs]
        keys = [cache_key(r) for r in requests]
        first: dict[str, int] = {}
        for i, key in enumerate(keys):
            first.setdefault(key, i)
        answers: dict[str, CaptionResult] = {}
        with (
            ThreadPoolExecutor(max_workers=self.concurrency) as pool,
            tqdm(total=len(first), desc="LLM captions", unit="prompt", disable=None) as bar,
        ):
            futures = {
                pool.submit(self._one, graphs[i], requests[i], key): key for key, i in first.items()
            }
            try:
                for future in as_completed(futures):
                    answers[futures[future]] = future.result()
                    bar.update(1)
            except BaseException:
                # Ctrl-C or an error: drop the prompts not yet sent instead of sending them all
                # before the pool closes (answers received so far are in the cache).
                pool.shutdown(wait=False, cancel_futures=True)
                raise
        return [
            answers[key] if first[key] == i else self._finish(replace(answers[key], cached=True))
            for i, key in enumerate(keys)
        ]

    @property
    def usage(self) -> dict[str, Any]:
        """Requests, cache hits, retries, tokens and rejections so far (for the manifest)."""
        with self._lock:
            stats = dict(self._stats) | self.client.snapshot()
            rejections = dict(sorted(self._rejections.items()))
        out: dict[str, Any] = {"model": self.model}
        out.update({k: stats.get(k, 0) for k in USAGE_COUNTS})
        out["rejected"] = rejections
        out["params"] = self._params()
        out["fewshot_sha256"] = fewshot_checksum()
        return out

    # ---------------------------------------------------------------- internals
    def _params(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens}

    def _request(self, graph: SceneGraph) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": build_messages(graph)}
        body.update({k: v for k, v in self._params().items() if v is not None})
        return body

    def _one(self, graph: SceneGraph, request: dict[str, Any], key: str) -> CaptionResult:
        answer = self.cache.get(key)
        cached = answer is not None
        if answer is None:
            answer = self.client.complete(request)
            if "error" in answer:
                return self._finish(CaptionResult(None, answer["error"], 0, 0, False))
            self.cache.put(key, answer)
        prompt, completion = (
            int(answer.get("prompt_tokens", 0)),
            int(answer.get("completion_tokens", 0)),
        )
        text, reason = self._judge(answer, graph)
        if reason is not None:
            return self._finish(
                CaptionResult(None, reason, prompt, completion, cached, text or None)
            )
        return self._finish(CaptionResult(text, None, prompt, completion, cached))

    def _judge(self, answer: dict[str, Any], graph: SceneGraph) -> tuple[str, str | None]:
        text = clean_caption(answer.get("content") or "")
        if not text:
            return text, "empty_caption"
        if answer.get("finish_reason") == "length":
            return text, "truncated"
        lowered = text.lower()
        if any(re.search(rf"\b{re.escape(n)}\b", lowered) for n in suffixed_names(graph)):
            return text, "leaked_name_suffix"
        if missing_atoms(text, graph):
            return text, "missing_atom"
        return text, None

    def _finish(self, result: CaptionResult) -> CaptionResult:
        with self._lock:
            prefix = "cached_" if result.cached else ""
            self._stats[f"{prefix}prompt_tokens"] += result.prompt_tokens
            self._stats[f"{prefix}completion_tokens"] += result.completion_tokens
            self._stats["cache_hits"] += int(result.cached)
            if result.reason is None:
                self._stats["accepted"] += 1
            else:
                self._rejections[result.reason] += 1
        return result


def clean_caption(text: str) -> str:
    """The caption in a generation, in the house style of the template captions.

    The first non-empty line, without surrounding quotes, a "Caption:" label, repeated spaces
    or a final period, starting in lower case (unless the first word is an acronym) so that
    LLM and template captions share one format (no capitalisation or punctuation shortcut).
    """
    for line in str(text).splitlines():
        line = line.strip().strip(QUOTES).strip()
        if line.lower().startswith("caption:"):
            line = line[len("caption:") :].strip().strip(QUOTES).strip()
        line = " ".join(line.split()).rstrip(".").rstrip()
        if line:
            first = line.split(" ", 1)[0]
            return line if first.isupper() and len(first) > 1 else line[0].lower() + line[1:]
    return ""

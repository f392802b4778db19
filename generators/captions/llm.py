"""LLM captions for productivity subgraphs (SPEC §3.3), through any OpenAI-compatible server.

:class:`LLMCaptionWriter` sends the prompt of :mod:`generators.captions.prompts` to
``/v1/chat/completions`` with the ``openai`` client (``base_url`` picks the server: OpenAI, vLLM,
llama.cpp, Ollama, …) and keeps only captions that mention every atom of their subgraph.

* **Cache**: every raw answer is stored as one JSON file named by
  ``sha256(model + full request)`` under ``cache_dir`` (written atomically), so a rebuild with
  the same model, prompt and parameters makes no request at all. Failed requests are not cached.
  The coverage check runs on cached answers too, so a stricter check needs no new requests.
* **Robustness**: rate limits (429), server errors (5xx), timeouts and dropped connections are
  retried with exponential backoff (``Retry-After`` honoured, capped); at most ``concurrency``
  requests are in flight at once. A wrong model name, key or URL raises one clear error.
* **Accounting**: :attr:`LLMCaptionWriter.usage` gives requests, cache hits, retries, token
  counts and rejections by reason for the build manifest.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.captions.prompts import build_messages, fewshot_checksum, suffixed_names
from scenegraph.errors import CrepeInputError
from scenegraph.provenance import write_json_atomic
from scenegraph.types import SceneGraph

PROVIDERS = ("openai",)
QUOTES = "\"'“”‘’`"
MAX_BACKOFF_S = 20.0
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


def missing_atoms_check(caption: str, graph: SceneGraph) -> list[Any]:
    """The atoms of ``graph`` that ``caption`` omits (the shared coverage check when present)."""
    try:
        from generators.captions.coverage import missing_atoms
    except ImportError:  # NOTE(5b): coverage.py not written yet; remove this fallback then.
        from generators.captions._coverage_fallback import missing_atoms
    return list(missing_atoms(caption, graph))


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
        import openai

        self.model = model
        self.base_url = base_url
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.concurrency = max(1, int(concurrency))
        self.max_retries = max(0, int(max_retries))
        self.temperature = temperature
        self.seed = seed
        self.max_tokens = max_tokens
        self.backoff = backoff
        self._openai = openai
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",
            timeout=timeout,
            max_retries=0,  # retries are ours: counted, with backoff we control
        )
        self._lock = threading.Lock()
        self._stats: Counter[str] = Counter()
        self._rejections: Counter[str] = Counter()

    # ------------------------------------------------------------------ public
    def write(self, graphs: list[SceneGraph]) -> list[CaptionResult]:
        """Captions for ``graphs``, in the same order (a progress bar shows the requests)."""
        from tqdm import tqdm

        results: list[CaptionResult | None] = [None] * len(graphs)
        with (
            ThreadPoolExecutor(max_workers=self.concurrency) as pool,
            tqdm(total=len(graphs), desc="LLM captions", unit="graph", disable=None) as bar,
        ):
            futures = {pool.submit(self._one, g): i for i, g in enumerate(graphs)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                bar.update(1)
        return [r for r in results if r is not None]

    @property
    def usage(self) -> dict[str, Any]:
        """Requests, cache hits, retries, tokens and rejections so far (for the manifest)."""
        with self._lock:
            stats = dict(self._stats)
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

    @staticmethod
    def cache_key(request: dict[str, Any]) -> str:
        """sha256 of the model and the full request (messages and sampling parameters)."""
        text = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(f"{request['model']}\n{text}".encode()).hexdigest()

    def _cache_path(self, key: str) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / key[:2] / f"{key}.json"

    def _one(self, graph: SceneGraph) -> CaptionResult:
        request = self._request(graph)
        path = self._cache_path(self.cache_key(request))
        answer, cached = None, False
        if path is not None and path.is_file():
            try:
                answer, cached = json.loads(path.read_text(encoding="utf-8")), True
            except (OSError, json.JSONDecodeError):
                answer = None  # a damaged entry is simply asked again
        if answer is None:
            answer = self._call(request)
            if "error" in answer:
                return self._finish(CaptionResult(None, answer["error"], 0, 0, False))
            if path is not None:
                write_json_atomic(path, answer)
        prompt, completion = int(answer.get("prompt_tokens", 0)), int(answer.get("completion_tokens", 0))
        text, reason = self._judge(answer, graph)
        if reason is not None:
            return self._finish(CaptionResult(None, reason, prompt, completion, cached, text or None))
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
        if missing_atoms_check(text, graph):
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

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        """One chat completion with retries; a plain dict, or ``{"error": reason}``."""
        errors = self._openai
        retryable = (
            errors.RateLimitError,
            errors.InternalServerError,
            errors.APITimeoutError,
            errors.APIConnectionError,
        )
        fatal = (errors.AuthenticationError, errors.PermissionDeniedError, errors.NotFoundError)
        for attempt in range(self.max_retries + 1):
            self._count("requests")
            try:
                response = self._client.chat.completions.create(**request)
            except fatal as exc:
                raise CrepeInputError(
                    f"the LLM server at {self.base_url or 'the default OpenAI URL'} refused model "
                    f"{self.model!r} ({type(exc).__name__}); check --llm, --llm-base-url and "
                    "OPENAI_API_KEY."
                ) from exc
            except retryable as exc:
                if attempt == self.max_retries:
                    if isinstance(exc, errors.APIConnectionError) and not isinstance(
                        exc, errors.APITimeoutError
                    ):
                        raise CrepeInputError(
                            f"cannot reach the LLM server at {self.base_url or 'the default URL'} "
                            f"after {attempt + 1} attempts; check --llm-base-url."
                        ) from exc
                    return {"error": "request_failed"}
                self._count("retries")
                time.sleep(self._delay(attempt, exc))
                continue
            except errors.APIStatusError:
                return {"error": "request_rejected"}  # 400/422: this prompt only
            choice = response.choices[0] if response.choices else None
            usage = response.usage
            return {
                "content": choice.message.content if choice is not None else "",
                "finish_reason": choice.finish_reason if choice is not None else None,
                "prompt_tokens": getattr(usage, "prompt_tokens", 0) or 0,
                "completion_tokens": getattr(usage, "completion_tokens", 0) or 0,
                "model": getattr(response, "model", None),
            }
        return {"error": "request_failed"}  # pragma: no cover (loop always returns)

    def _delay(self, attempt: int, exc: Exception) -> float:
        delay = self.backoff * (2**attempt)
        response = getattr(exc, "response", None)
        retry_after = response.headers.get("retry-after") if response is not None else None
        if retry_after:
            try:
                delay = max(delay, float(retry_after))
            except ValueError:
                pass
        return min(delay, MAX_BACKOFF_S)

    def _count(self, key: str) -> None:
        with self._lock:
            self._stats[key] += 1


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

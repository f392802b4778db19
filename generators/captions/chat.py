"""Transport of the LLM writer: one chat completion with retries, and the on-disk answer cache.

* :class:`ChatClient` wraps ``openai.OpenAI`` (any OpenAI-compatible ``base_url``). Rate limits
  (429), server errors (5xx), timeouts and dropped connections are retried with exponential
  backoff (``Retry-After`` honoured, capped at :data:`MAX_BACKOFF_S`). A refused model, key or
  URL (401/403/404), or a server that cannot be reached at all, raises one clear
  :class:`CrepeInputError`; a request the server rejects (400/422) fails that prompt only.
* :class:`AnswerCache` keeps one JSON file per request, named by :func:`cache_key`, written
  atomically; failed requests are never stored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError, MissingResourceError
from crepe_datasets.infra.provenance import write_json_atomic

MAX_BACKOFF_S = 20.0


def cache_key(request: dict[str, Any]) -> str:
    """sha256 of the model and the full request (messages and sampling parameters)."""
    text = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"{request['model']}\n{text}".encode()).hexdigest()


class AnswerCache:
    """Raw answers by cache key: ``<folder>/<key[:2]>/<key>.json`` (``folder=None``: no cache)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = Path(folder) if folder is not None else None

    def get(self, key: str) -> dict[str, Any] | None:
        if self.folder is None:
            return None
        path = self.folder / key[:2] / f"{key}.json"
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None  # absent or damaged: asked again

    def put(self, key: str, answer: dict[str, Any]) -> None:
        if self.folder is not None:
            write_json_atomic(self.folder / key[:2] / f"{key}.json", answer)


class ChatClient:
    """Chat completions with counted retries; see the module docstring.

    Args:
        base_url: the server's base URL (``None``: ``$OPENAI_BASE_URL`` or OpenAI's).
        api_key: the key (``None``: ``$OPENAI_API_KEY``, else ``"EMPTY"`` for local servers).
        timeout: seconds before one attempt is abandoned.
        max_retries: retries after the first attempt.
        backoff: first retry delay in seconds; it doubles with every retry.
    """

    def __init__(
        self,
        base_url: str | None,
        api_key: str | None,
        timeout: float,
        max_retries: int,
        backoff: float,
    ) -> None:
        try:
            import openai
        except ImportError as exc:
            raise MissingResourceError(
                "LLM captions need the openai client: pip install 'crepe-datasets[models]'."
            ) from exc
        self.errors = openai
        self.where = base_url or os.environ.get("OPENAI_BASE_URL") or "the default OpenAI URL"
        self.max_retries = max(0, int(max_retries))
        self.backoff = backoff
        self.client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",
            timeout=timeout,
            max_retries=0,  # retries are ours: counted, with a backoff we control
        )
        self.counts: Counter[str] = Counter()
        self._lock = threading.Lock()

    def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """One answer as a plain dict (content, finish_reason, token counts), or ``{"error": …}``."""
        e = self.errors
        retryable = (
            e.RateLimitError,
            e.InternalServerError,
            e.APITimeoutError,
            e.APIConnectionError,
        )
        fatal = (e.AuthenticationError, e.PermissionDeniedError, e.NotFoundError)
        for attempt in range(self.max_retries + 1):
            self._count("requests")
            try:
                response = self.client.chat.completions.create(**request)
            except fatal as exc:
                raise CrepeInputError(
                    f"the LLM server at {self.where} refused model {request['model']!r} "
                    f"({type(exc).__name__}); check --llm, --llm-base-url and OPENAI_API_KEY."
                ) from exc
            except retryable as exc:
                if attempt < self.max_retries:
                    self._count("retries")
                    time.sleep(self._delay(attempt, exc))
                    continue
                if isinstance(exc, e.APIConnectionError) and not isinstance(exc, e.APITimeoutError):
                    raise CrepeInputError(
                        f"cannot reach the LLM server at {self.where} after {attempt + 1} "
                        "attempts; check --llm-base-url and that the server is running."
                    ) from exc
                return {"error": "request_failed"}
            except e.APIStatusError:
                return {"error": "request_rejected"}  # 400/422: this prompt only
            return _plain(response)
        return {"error": "request_failed"}  # pragma: no cover (the loop always returns)

    def _delay(self, attempt: int, exc: Exception) -> float:
        delay = self.backoff * (2**attempt)
        response = getattr(exc, "response", None)
        retry_after = response.headers.get("retry-after") if response is not None else None
        if retry_after:
            with contextlib.suppress(ValueError):
                delay = max(delay, float(retry_after))
        return min(delay, MAX_BACKOFF_S)

    def snapshot(self) -> dict[str, int]:
        """Requests and retries so far."""
        with self._lock:
            return dict(self.counts)

    def _count(self, key: str) -> None:
        with self._lock:
            self.counts[key] += 1


def _plain(response: Any) -> dict[str, Any]:
    choice = response.choices[0] if response.choices else None
    usage = response.usage
    return {
        "content": choice.message.content if choice is not None else "",
        "finish_reason": choice.finish_reason if choice is not None else None,
        "prompt_tokens": int(getattr(usage, "prompt_tokens", 0) or 0),
        "completion_tokens": int(getattr(usage, "completion_tokens", 0) or 0),
        "model": getattr(response, "model", None),
    }

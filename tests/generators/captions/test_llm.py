"""LLMCaptionWriter against a real local HTTP server speaking the chat-completions protocol."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from crepe_datasets.generators.captions.llm import LLMCaptionWriter, clean_caption, parse_llm_spec
from crepe_datasets.generators.captions.prompts import EXAMPLES_PER_PROMPT, graph_text, load_fewshot
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

# A reply is (status, content or error message, seconds to wait first, extra headers).
Reply = tuple[int, str, float, dict[str, str]]


def faithful_caption(body: dict[str, Any]) -> str:
    """A caption naming every listed object and relation (suffix digits dropped)."""
    query = body["messages"][-1]["content"]
    objects, relations = (line.split(": ", 1)[1] for line in query.splitlines())
    parts = objects.split("; ") + ([] if relations == "none" else relations.split("; "))
    return re.sub(r"([a-z])\d+\b", r"\1", ", ".join(parts))


class ChatServer:
    """``POST /v1/chat/completions`` on 127.0.0.1; ``reply(body, n)`` decides each answer."""

    def __init__(self, reply: Callable[[dict[str, Any], int], Reply]) -> None:
        self.reply = reply
        self.bodies: list[dict[str, Any]] = []
        self.active = 0
        self.peak = 0
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length))
                with server.lock:
                    server.bodies.append(body)
                    n = len(server.bodies)
                    server.active += 1
                    server.peak = max(server.peak, server.active)
                try:
                    status, text, wait, headers = server.reply(body, n)
                    time.sleep(wait)
                    if status == 200 and self.path == "/v1/chat/completions":
                        payload = {
                            "id": f"chatcmpl-{n}",
                            "object": "chat.completion",
                            "created": 0,
                            "model": body["model"],
                            "choices": [
                                {
                                    "index": 0,
                                    "message": {"role": "assistant", "content": text},
                                    "finish_reason": "stop",
                                }
                            ],
                            "usage": {
                                "prompt_tokens": 100 + n,
                                "completion_tokens": 10,
                                "total_tokens": 110 + n,
                            },
                        }
                    else:
                        status = status if status != 200 else 404
                        payload = {"error": {"message": text, "type": "test", "code": status}}
                    data = json.dumps(payload).encode()
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                finally:
                    with server.lock:
                        server.active -= 1

            def log_message(self, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # the client gave up on a slow answer (timeout tests)

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def calls(self) -> int:
        return len(self.bodies)


@pytest.fixture
def serve() -> Iterator[Callable[..., ChatServer]]:
    started: list[ChatServer] = []

    def start(reply: Callable[[dict[str, Any], int], Reply] | None = None) -> ChatServer:
        server = ChatServer(reply or (lambda body, n: (200, faithful_caption(body), 0.0, {})))
        server.thread.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.httpd.shutdown()
        server.httpd.server_close()


def graph(*objects: tuple[str, tuple[str, ...]], rels: tuple = ()) -> SceneGraph:
    objs = [SGObject(i, name, attrs) for i, (name, attrs) in enumerate(objects)]
    return SceneGraph(objs, [Relationship(s, p, o) for s, p, o in rels], image_id="1")


MAN_HAT = graph(("man", ("tall",)), ("hat", ("black",)), ("dog", ()), rels=((0, "wearing", 1),))
WINDOWS = graph(
    ("window", ("open",)), ("window", ("closed",)), ("wall", ("brick",)), rels=((0, "above", 1),)
)
CAT = graph(("cat", ("orange", "fluffy")), ("couch", ("red",)), rels=((0, "sitting on", 1),))


def writer(server: ChatServer, tmp_path, **kwargs: Any) -> LLMCaptionWriter:
    options = {"cache_dir": tmp_path / "cache", "backoff": 0.01, "timeout": 5.0}
    options.update(kwargs)
    return LLMCaptionWriter("test-model", base_url=server.url, **options)


def test_captions_returned_then_served_from_cache(serve, tmp_path) -> None:
    server = serve()
    first = writer(server, tmp_path).write([MAN_HAT, WINDOWS, CAT])
    assert [r.caption for r in first] == [
        "tall man, black hat, dog, man wearing hat",
        "open window, closed window, brick wall, window above window",
        "orange, fluffy cat, red couch, cat sitting on couch",
    ]
    assert all(r.reason is None and not r.cached for r in first)
    assert server.calls == 3

    again = writer(server, tmp_path)
    second = again.write([MAN_HAT, WINDOWS, CAT])
    assert server.calls == 3  # not one more request
    assert [r.caption for r in second] == [r.caption for r in first]
    assert all(r.cached for r in second)
    assert again.usage["requests"] == 0 and again.usage["cache_hits"] == 3
    assert again.usage["cached_prompt_tokens"] == sum(r.prompt_tokens for r in first)


def test_request_carries_the_spec_prompt(serve, tmp_path) -> None:
    server = serve()
    writer(server, tmp_path, seed=7, temperature=0.0).write([WINDOWS])
    body = server.bodies[0]
    assert body["model"] == "test-model" and body["seed"] == 7 and body["temperature"] == 0.0
    messages = body["messages"]
    assert messages[0]["role"] == "system"
    assert len(messages) == 2 + 2 * EXAMPLES_PER_PROMPT
    assert messages[-1]["content"] == (
        "Objects: open window1; closed window2; brick wall\nRelations: window1 above window2"
    )
    examples = load_fewshot(WINDOWS.complexity())
    assert messages[1]["content"] == graph_text(examples[0].graph)
    assert messages[2] == {"role": "assistant", "content": examples[0].caption}


def test_token_counts_are_aggregated(serve, tmp_path) -> None:
    server = serve()
    w = writer(server, tmp_path, concurrency=1)
    results = w.write([MAN_HAT, CAT])
    assert sorted(r.prompt_tokens for r in results) == [101, 102]
    assert [r.completion_tokens for r in results] == [10, 10]
    usage = w.usage
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (203, 20)
    assert usage["accepted"] == 2 and usage["requests"] == 2 and usage["rejected"] == {}
    assert usage["model"] == "test-model" and len(usage["fewshot_sha256"]) == 64
    assert w.write([]) == [] and w.usage["requests"] == 2


def test_caption_omitting_an_atom_is_rejected(serve, tmp_path) -> None:
    server = serve(lambda body, n: (200, "A tall man wearing a hat.", 0.0, {}))
    w = writer(server, tmp_path)
    (result,) = w.write([MAN_HAT])
    assert result.caption is None and result.reason == "missing_atom"
    assert result.rejected_text == "a tall man wearing a hat"
    assert w.usage["rejected"] == {"missing_atom": 1} and w.usage["accepted"] == 0


def test_numbered_name_in_caption_is_rejected(serve, tmp_path) -> None:
    reply = "an open window1 above a closed window2 and a brick wall"
    server = serve(lambda body, n: (200, reply, 0.0, {}))
    (result,) = writer(server, tmp_path).write([WINDOWS])
    assert result.reason == "leaked_name_suffix"


@pytest.mark.parametrize("status", [500, 429])
def test_retried_after_server_error_and_rate_limit(serve, tmp_path, status) -> None:
    def reply(body: dict[str, Any], n: int) -> Reply:
        if n == 1:
            return (status, "busy", 0.0, {"retry-after": "0"})
        return (200, faithful_caption(body), 0.0, {})

    server = serve(reply)
    w = writer(server, tmp_path)
    (result,) = w.write([CAT])
    assert result.caption == "orange, fluffy cat, red couch, cat sitting on couch"
    assert server.calls == 2
    assert w.usage["retries"] == 1 and w.usage["requests"] == 2


def test_gives_up_after_max_retries(serve, tmp_path) -> None:
    server = serve(lambda body, n: (503, "down", 0.0, {}))
    w = writer(server, tmp_path, max_retries=2)
    (result,) = w.write([CAT])
    assert result.caption is None and result.reason == "request_failed"
    assert server.calls == 3
    assert not list((tmp_path / "cache").rglob("*.json"))  # failures are not cached


def test_slow_answer_times_out_and_is_retried(serve, tmp_path) -> None:
    def reply(body: dict[str, Any], n: int) -> Reply:
        return (200, faithful_caption(body), 1.5 if n == 1 else 0.0, {})

    server = serve(reply)
    w = writer(server, tmp_path, timeout=0.3)
    started = time.monotonic()
    (result,) = w.write([MAN_HAT])
    assert result.reason is None and w.usage["retries"] == 1
    assert time.monotonic() - started < 1.4  # did not wait for the slow answer


def test_timeouts_on_every_attempt_fail_the_item(serve, tmp_path) -> None:
    server = serve(lambda body, n: (200, faithful_caption(body), 1.0, {}))
    (result,) = writer(server, tmp_path, timeout=0.2, max_retries=1).write([MAN_HAT])
    assert result.reason == "request_failed" and server.calls == 2


def test_concurrency_limit_is_respected(serve, tmp_path) -> None:
    server = serve(lambda body, n: (200, faithful_caption(body), 0.15, {}))
    names = ["apple", "ball", "cup", "desk", "egg", "fork", "lamp", "mug", "pen"]
    graphs = [graph((name, ("red",)), ("box", ())) for name in names]
    results = writer(server, tmp_path, concurrency=3).write(graphs)
    assert server.peak == 3  # parallel, but never more than 3 in flight
    assert [r.caption for r in results] == [f"red {name}, box" for name in names]


def test_unknown_model_is_a_clear_error(serve, tmp_path) -> None:
    server = serve(lambda body, n: (404, "model not found", 0.0, {}))
    with pytest.raises(CrepeInputError, match="refused model 'test-model'"):
        writer(server, tmp_path).write([CAT])


def test_bad_request_drops_only_that_item(serve, tmp_path) -> None:
    server = serve(lambda body, n: (400, "prompt too long", 0.0, {}))
    (result,) = writer(server, tmp_path).write([CAT])
    assert result.reason == "request_rejected" and server.calls == 1


def test_unreachable_server_is_a_clear_error(tmp_path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again before the request
    w = LLMCaptionWriter("m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0)
    with pytest.raises(CrepeInputError, match="cannot reach the LLM server"):
        w.write([CAT])


def test_parse_llm_spec() -> None:
    assert parse_llm_spec("openai:gpt-4o-mini") == "gpt-4o-mini"
    assert parse_llm_spec("openai:llama3.1:8b") == "llama3.1:8b"
    for bad in ("anthropic:claude", "gpt-4o", "openai:"):
        with pytest.raises(CrepeInputError, match="openai:MODEL"):
            parse_llm_spec(bad)


def test_clean_caption_house_style() -> None:
    assert clean_caption('Caption: "A man on a horse."\nmore') == "a man on a horse"
    assert clean_caption("TV on a wooden stand.") == "TV on a wooden stand"
    assert clean_caption("  \n ") == ""


def test_identical_prompts_are_asked_once(serve, tmp_path) -> None:
    server = serve()
    twin = graph(("man", ("tall",)), ("hat", ("black",)), ("dog", ()), rels=((0, "wearing", 1),))
    twin.image_id = "2"  # another image, same names: same prompt
    w = writer(server, tmp_path, cache_dir=None)
    results = w.write([MAN_HAT, CAT, twin])
    assert server.calls == 2
    assert results[2].caption == results[0].caption and results[2].cached
    assert w.usage["cache_hits"] == 1 and w.usage["accepted"] == 3

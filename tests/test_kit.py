"""The target kit: offline transports put exactly one request on the wire and serve recordings; the rules agree with the judges."""

from __future__ import annotations

import asyncio
from itertools import product
from typing import Any

import anthropic
import openai
import pytest

from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.target import TargetError
from harness.invariants import run_invariants
from harness.kit import (
    CAPTURED_STATUS,
    OfflineWire,
    final_result,
    is_streamed,
    minted_id_notes,
    recorded_model,
    require_openrouter_chat,
    sent_id,
    stop_reason,
    usage,
)
from harness.kit.worker import WorkerTarget
from harness.model import StopReason, TextPart, ToolCallPart, UserMessage
from harness.params import CallParams
from harness.providers.replay import parser_for, replay_exchange
from tests.support.cassettes import cassette_cases, model_calls


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_render_captures_one_openai_request() -> None:
    wire = OfflineWire().capture()
    client = openai.AsyncOpenAI(
        api_key="k", http_client=wire.httpx2_client()
    )  # default retries: 400 is not retried
    with pytest.raises(openai.BadRequestError):
        _run(client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}]))
    request = wire.only_request()
    assert request.url.endswith("/chat/completions") and request.method == "POST"
    assert wire.only_body() == {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert "authorization" in request.headers


def test_render_captures_one_anthropic_request_over_httpx2() -> None:
    wire = OfflineWire().capture()
    client = anthropic.AsyncAnthropic(api_key="k", http_client=wire.httpx2_client())
    with pytest.raises(anthropic.BadRequestError) as raised:
        _run(client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}]))
    assert raised.value.status_code == CAPTURED_STATUS
    assert wire.only_body()["messages"] == [{"role": "user", "content": "hi"}]


def _recorded_chat_stream() -> Exchange:
    (exchange, *_) = [
        e
        for p, path in cassette_cases()
        if p == "openai-chat"
        for e in model_calls(p, path)
        if b"data:" in e.body
    ]
    return exchange


@pytest.mark.parametrize("chunk_size", [None, 1, 7, (5, 40, 41, 300)])
def test_replay_serves_the_recording_to_the_sdk_in_chunks(chunk_size: Chunking) -> None:
    exchange = _recorded_chat_stream()
    wire = OfflineWire().serve(exchange, chunk_size)
    client = openai.AsyncOpenAI(api_key="k", http_client=wire.httpx2_client(), max_retries=0)

    async def text() -> str:
        stream = await client.chat.completions.create(model="m", messages=[], stream=True)
        return "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])

    expected = replay_exchange(parser_for("openai-chat", exchange), exchange, None).message
    assert _run(text()) == "".join(p.text for p in expected.parts if isinstance(p, TextPart))
    assert len(wire.requests) == 1


def test_replay_drops_the_encoding_headers() -> None:
    headers = {"Content-Encoding": ["gzip"], "content-length": ["9"], "x-request-id": ["r1"]}
    wire = OfflineWire().serve(Exchange("POST", "https://x/v1/messages", {}, 200, headers, b'{"a": 1}'))
    response = _run(wire.httpx_client().post("https://x/v1/messages", json={}))
    assert response.headers.get("content-encoding") is None and response.headers["x-request-id"] == "r1"
    assert response.json() == {"a": 1}


STOPS: tuple[StopReason | None, ...] = (None, "stop", "length", "tool_use", "error")


@pytest.mark.parametrize(
    ("provider_stop", "calls", "failed"), list(product(STOPS, [False, True], [False, True]))
)
def test_final_result_passes_the_judges_stop_reason_rule(
    provider_stop: StopReason | None, calls: bool, failed: bool
) -> None:
    parts: list[Any] = [TextPart(text="t")]
    if calls:
        parts.append(ToolCallPart(call_id="c1", tool_name="f", arguments_json="{}"))
    result = final_result(parts, provider_stop=provider_stop, usage=None, errors=["boom"] if failed else [])
    message = result.message
    assert message.usage is not None and message.stop_reason is not None
    assert (message.stop_reason == "error") == (
        failed or provider_stop in (None, "error")
    )  # None: never said
    assert (message.stop_reason == "error") == bool(result.errors)  # an error always says why
    history = [UserMessage(parts=[TextPart(text="q")]), message]
    i3 = [  # only I3 is read: the others are not run
        v
        for v in run_invariants(history, CallParams(), invariants=["I3"]).violations
        if v.invariant == "I3" and v.kind == "policy"
    ]
    lie = provider_stop == "tool_use" and not calls and not failed  # passed on, not repaired: I3 says so
    assert bool(i3) == lie, i3


def test_stop_reason_rule() -> None:
    assert stop_reason("stop", has_tool_calls=True) == "tool_use"
    assert stop_reason(None, has_tool_calls=False) == "stop"
    assert stop_reason("length", has_tool_calls=True) == "length"
    assert stop_reason("stop", has_tool_calls=False, failed=True) == "error"
    assert stop_reason("stop", has_tool_calls=False, failed=True, aborted=True) == "aborted"


def test_usage_keeps_none_for_what_the_provider_did_not_say() -> None:
    u = usage(None, 5, cached_input_tokens=0)
    assert (u.input_tokens, u.output_tokens, u.cached_input_tokens, u.total_tokens) == (0, 5, 0, None)


def test_ids_are_kept_only_when_sent() -> None:
    exchange = Exchange("POST", "https://x", {}, 200, {}, b'{"id":"resp_1","call":"call_9"}')
    assert sent_id("resp_1", exchange) == "resp_1" and sent_id("resp_2", exchange) is None
    assert sent_id(None, exchange) is None
    parts: list[Any] = [
        ToolCallPart(call_id="call_9", tool_name="f", arguments_json="{}"),
        ToolCallPart(call_id="minted_1", tool_name="g", arguments_json="{}"),
    ]
    (note,) = minted_id_notes(parts, exchange)
    assert "minted_1" in note and "'g'" in note


@pytest.mark.parametrize(
    ("content_type", "body", "streamed"),
    [
        ("text/event-stream; charset=utf-8", b'{"a":1}', True),
        ("", b"\n event: message_start\n", True),
        ("application/octet-stream", b"event: message_start\n", True),
        ("", b": keep-alive\n\n", True),
        ("", b'data: {"id":"c1"}\n\n', True),
        ("application/json", b'{"data": 1}', False),
        ("", b"", False),
    ],
)
def test_is_streamed_by_content_type_else_first_bytes(content_type: str, body: bytes, streamed: bool) -> None:
    headers = {"Content-Type": [content_type]} if content_type else {}
    assert is_streamed(Exchange("POST", "https://x", {}, 200, headers, body)) is streamed


def test_recorded_model_from_the_gemini_url_else_the_body() -> None:
    url = (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    )
    gemini = Exchange("POST", url, {"contents": []}, 200)
    assert recorded_model("gemini", gemini) == "gemini-2.5-pro"
    assert recorded_model("openai-chat", gemini) is None  # the URL rule is Gemini's alone
    chat = Exchange("POST", "https://api.openai.com/v1/chat/completions", {"model": "gpt-4.1"}, 200)
    assert recorded_model("openai-chat", chat) == "gpt-4.1"
    assert recorded_model("openai-chat", Exchange("POST", "https://x", {"model": 3}, 200)) is None
    assert recorded_model("anthropic", Exchange("POST", "https://x", None, 200)) is None


def test_openrouter_recordings_of_the_responses_endpoint_are_refused_with_the_bridges_message() -> None:
    responses = Exchange("POST", "https://openrouter.ai/api/v1/responses", {}, 200)
    with pytest.raises(NotImplementedError, match=r"^app reads chat only, not openai-responses$"):
        require_openrouter_chat("openrouter", responses, "app reads chat only, not {wire}")
    chat = Exchange("POST", "https://openrouter.ai/api/v1/chat/completions", {}, 200)
    require_openrouter_chat("openrouter", chat, "{wire}")
    require_openrouter_chat("openai-responses", responses, "{wire}")  # only OpenRouter's recordings


def test_locate_without_an_environment_is_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HARNESS_KIT_TEST_PYTHON", raising=False)
    with pytest.raises(TargetError, match=r"^install the library$"):
        WorkerTarget.locate(
            "nowhere",
            "harness.targets.reference:TARGET",
            python_env_var="HARNESS_KIT_TEST_PYTHON",
            module="harness_kit_test_no_such_module",
            venv=".venv-harness-kit-test-no-such-venv",
            install_hint="install the library",
        )


def test_locate_starts_the_worker_in_the_interpreter_that_has_the_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HARNESS_KIT_TEST_PYTHON", raising=False)
    target = WorkerTarget.locate(
        "reference-in-a-worker",
        "harness.targets.reference:TARGET",
        python_env_var="HARNESS_KIT_TEST_PYTHON",
        module="harness",  # this interpreter has it
        venv=".venv-harness-kit-test-no-such-venv",
        install_hint="install the library",
        lacks=frozenset({"warnings"}),
    )
    assert (target.name, target.lacks) == ("reference-in-a-worker", frozenset({"warnings"}))
    assert "anthropic" in target.providers()

"""Record against a real HTTP server on 127.0.0.1 serving the committed recordings, then replay offline.

The fake provider sends each SSE event as its own HTTP chunk; ``harness record``
builds, sends, streams, scrubs and writes exactly as it would against the live API.
Replaying what it wrote must give the same final messages, items, events and errors
as replaying the source cassette directly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from harness.contract.routing import route
from harness.contract.wires import PROVIDER_WIRES
from harness.providers.replay import Exchange, replay_file, result_to_json
from harness.record.endpoints import NOT_RECORDABLE
from harness.record.fakeserver import FakeProvider, split_events
from tests.support.cassettes import case_id, cassette_cases, model_calls
from tests.support.record import CASSETTES, key_env, run_record, write_history


def _recordable(provider: str, path: Path) -> bool:
    """``harness record`` speaks each provider's first wire (OpenRouter: Chat Completions); a
    cassette of OpenRouter's /responses endpoint cannot be re-recorded through it."""
    if provider in NOT_RECORDABLE:
        return False  # tests/test_record_endpoints.py: one line, exit 2
    wire = PROVIDER_WIRES[provider][0]
    return all((r := route(e.method, e.uri)) is None or r.wire == wire for e in model_calls(provider, path))


CASES = [c for c in cassette_cases() if _recordable(*c)]
#: Under harness-deep every bundled cassette is recorded again; by default each provider's two
#: with the most model calls (ties: the bigger file), so every endpoint and framing, the longest
#: loops and the largest bodies still go through the recorder.
DEEP = (settings.default.max_examples if settings.default else 0) >= 5000


def _sampled(cases: list[tuple[str, Path]]) -> list[tuple[str, Path]]:
    if DEEP:
        return cases
    kept: list[tuple[str, Path]] = []
    for provider in dict.fromkeys(name for name, _ in cases):
        mine = [path for name, path in cases if name == provider]
        mine.sort(key=lambda path: (-len(model_calls(provider, path)), -path.stat().st_size, path.name))
        kept += [(provider, path) for path in sorted(mine[:2])]
    return kept


RECORDED_AGAIN = _sampled(CASES)


def _results(path: Path, provider: str) -> list[dict[str, Any]]:
    return [result_to_json(r) for r in replay_file(path, provider)]


@pytest.mark.parametrize(("provider", "path"), RECORDED_AGAIN, ids=[case_id(c) for c in RECORDED_AGAIN])
def test_recording_from_loopback_replays_like_the_source(provider: str, path: Path, tmp_path: Path) -> None:
    calls = model_calls(provider, path)
    history = write_history(tmp_path)
    recorded: list[Path] = []
    served = 0
    while served < len(calls):  # a run stops at a response without tool calls; the next run resumes there
        out = tmp_path / f"run{len(recorded)}.yaml"
        with FakeProvider(calls[served:], lifetime=20) as fake:
            result = run_record(
                provider, history, out, fake.base_url, key_env(provider), "--turns", str(len(calls) - served)
            )
            assert result.exit_code == 0, result.stderr
            streamed = [c for c in calls[served:] if b"data:" in c.body[:200]]
            assert all(n > 1 for n in fake.chunks_sent[: len(streamed)]), "SSE events must be separate chunks"
            served += len(fake.requests)
        recorded.append(out)
    # the server is stopped: everything below is offline
    replayed = [r for out in recorded for r in _results(out, provider)]
    assert replayed == _results(path, provider)


def test_turns_continue_with_scripted_tool_results(tmp_path: Path) -> None:
    provider = "anthropic"
    calls = model_calls(
        provider, CASSETTES / provider / "llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml"
    )
    tool_results = tmp_path / "tools.json"
    tool_results.write_text(json.dumps({"pelican_name_generator": {"name": "Percy"}}), encoding="utf-8")
    with FakeProvider(calls) as fake:
        result = run_record(
            provider,
            write_history(tmp_path),
            tmp_path / "out.yaml",
            fake.base_url,
            key_env(provider),
            "--turns",
            "5",
            "--tool-results",
            str(tool_results),
        )
        requests = [json.loads(r.body) for r in fake.requests]
    assert result.exit_code == 0, result.stderr
    assert len(requests) == 2  # the second response has no tool calls: the loop stops before turn 5
    first, second = requests
    assert second["messages"][: len(first["messages"])] == first["messages"]  # I9: only appended
    results = second["messages"][-1]["content"]
    assert [r["tool_use_id"] for r in results] == [
        "toolu_011ouQLPrqhKSuFJtuJrpaUX",
        "toolu_01NtJRxGhJcEQ4axN1FzHayX",
    ]
    assert {r["content"][0]["text"] for r in results} == {'{"name": "Percy"}'}


@pytest.mark.parametrize(
    ("provider", "path_end", "auth_header"),
    [
        ("anthropic", "/v1/messages", "x-api-key"),
        ("gemini", "/v1beta/models/gemini-2.5-flash:streamGenerateContent", "x-goog-api-key"),
        ("openai-chat", "/v1/chat/completions", "authorization"),
        ("openai-responses", "/v1/responses", "authorization"),
        ("openrouter", "/api/v1/chat/completions", "authorization"),
    ],
)
def test_requests_reach_the_provider_endpoint(
    provider: str, path_end: str, auth_header: str, tmp_path: Path
) -> None:
    source = next(p for prov, p in CASES if prov == provider)
    base = {"gemini": "/v1beta", "openai-chat": "/v1", "openai-responses": "/v1", "openrouter": "/api/v1"}
    with FakeProvider(model_calls(provider, source)[:1]) as fake:
        result = run_record(
            provider,
            write_history(tmp_path),
            tmp_path / "o.yaml",
            fake.base_url + base.get(provider, ""),
            key_env(provider),
        )
    assert result.exit_code == 0, result.stderr
    (request,) = fake.requests
    assert request.path == path_end
    assert request.headers[auth_header].endswith(next(iter(key_env(provider).values())))
    if provider == "gemini":
        assert request.query == {"alt": "sse"}
    if provider == "anthropic":
        assert request.headers["anthropic-version"] == "2023-06-01"


def test_fake_provider_stops_by_itself_and_rejects_other_paths() -> None:
    import httpx

    with FakeProvider([]) as serving:
        assert httpx.get(serving.base_url + "/v1/models").status_code == 404
        assert httpx.post(serving.base_url + "/v1/messages", content=b"{}").status_code == 410  # nothing left
    # One nobody stops: its lifetime ends it (a worker idled two seconds for this before).
    fake = FakeProvider([], lifetime=0.2).start()
    assert fake.stopped.wait(10)
    with pytest.raises(httpx.TransportError):
        httpx.get(fake.base_url + "/v1/models", timeout=1)


def test_split_events_keeps_every_byte() -> None:
    body = b"event: a\ndata: 1\n\nevent: b\r\ndata: 2\r\n\r\ndata: tail"
    pieces = split_events(body)
    assert b"".join(pieces) == body
    assert len(pieces) == 3
    assert Exchange("POST", "/v1/messages", None, 200).is_model_call


def test_http_error_is_one_line_exit_1_and_writes_nothing(tmp_path: Path) -> None:
    error = b'{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}'
    rejected = Exchange("POST", "/v1/messages", None, 400, {"content-type": ["application/json"]}, error)
    out = tmp_path / "o.yaml"
    with FakeProvider([rejected]) as fake:
        result = run_record("anthropic", write_history(tmp_path), out, fake.base_url, key_env("anthropic"))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        f"harness: anthropic: POST {fake.base_url}/v1/messages: HTTP 400 Bad Request: max_tokens: too large"
    )
    assert not out.exists() and list(tmp_path.glob(".o.yaml*")) == []

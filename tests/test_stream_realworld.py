"""Real-world streams: gateways, proxies, several responses in one capture, and no silent endings.

Recordings (provenance in cassettes/PROVENANCE.md and each cassette's ``provenance`` block):

- ``openrouter/pai__or_gptoss20b_responses_raw_cot.yaml``: OpenRouter's ``/responses``
  endpoint (Responses wire), recorded by pydantic-ai; the Chat parser made it an empty
  ``stop`` message.
- ``openai-responses/vercelai__github-copilot-id-rotation.1.yaml``: GitHub Copilot's
  ``/responses``, which gives every event of one item a fresh item id (and rotates the
  response id); keyed by id, its pieces became many parts.
- ``openai-responses/vercelai__openai-reasoning-encrypted-content.1.yaml``: four responses
  back to back in one body (an AI SDK multi-step fixture); they merged into one message.

Streams built here are labelled synthetic: recorded bodies joined, cut or extended.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from harness.cli.main import app
from harness.contract.providers import CHAT_DIALECTS
from harness.contract.wires import PROVIDER_WIRES, WIRE_TITLES, sniff_wire, split_responses
from harness.crosscheck import PROVIDERS as ALL_PROVIDERS
from harness.crosscheck import RecordedCall, crosscheck
from harness.providers import get_parser
from harness.providers.replay import ReplayInputError, load_exchanges, replay_file, result_to_json
from harness.stream.base import CallResult
from harness.stream.drive import parse_bytes
from tests.support.cassettes import CASSETTES, cassette_cases, recorded_calls_of

#: Providers with streams in the bundled cassettes (the dialects' are in traffic/pydantic-ai-more/,
#: replayed by tests/test_dialects_traffic.py).
PROVIDERS = tuple(p for p in ALL_PROVIDERS if p not in CHAT_DIALECTS)

runner = CliRunner()

COPILOT = CASSETTES / "openai-responses" / "vercelai__github-copilot-id-rotation.1.yaml"
OPENROUTER_RESPONSES = CASSETTES / "openrouter" / "pai__or_gptoss20b_responses_raw_cot.yaml"
MULTI = CASSETTES / "openai-responses" / "vercelai__openai-reasoning-encrypted-content.1.yaml"


def _streams(provider: str) -> list[RecordedCall]:
    """The provider's recorded streamed calls in its own (first) wire format, longest first.

    A dialect's calls are judged on their wire (``RecordedCall.provider`` is ``openai-chat``),
    but they are its own recordings, so they are its streams here. A stream that ended in an
    error event (Groq's tool_use_failed) has no terminal event to build these synthetic cases on."""
    wire = PROVIDER_WIRES[provider][0]
    calls = [
        c
        for c in recorded_calls_of(provider).values()
        if (c.provider == provider or provider in CHAT_DIALECTS)
        and not c.body.lstrip().startswith((b"{", b"["))
        and sniff_wire(c.body) == wire
        and not _parse(provider, c.body).errors
    ]
    return sorted(calls, key=lambda c: (-len(c.body), c.id))


def _events(body: bytes) -> list[bytes]:
    return [e for e in body.replace(b"\r\n", b"\n").split(b"\n\n") if e.strip() and not e.startswith(b":")]


def _join(events: list[bytes]) -> bytes:
    return b"".join(e + b"\n\n" for e in events)


def _parse(provider: str, body: bytes) -> CallResult:
    return parse_bytes(get_parser(provider), body)


def _messages(results: list[CallResult]) -> list[dict[str, object]]:
    return [r.message.model_dump(mode="json") for r in results]


# ---------------------------------------------------------------- OpenRouter's two wire formats


def test_openrouter_responses_endpoint_replays_as_responses() -> None:
    (result,) = replay_file(OPENROUTER_RESPONSES, "openrouter")
    kinds = [p.type for p in result.message.parts]
    assert kinds == ["thinking_text", "text"] and result.message.stop_reason == "stop"
    assert not result.errors
    assert result.message.response_id and result.message.response_id.startswith("gen-")


def test_openrouter_responses_body_without_url_is_told_by_its_events(tmp_path: Path) -> None:
    """A raw body (no request URL): the wire comes from the events, for --provider openrouter or none."""
    (exchange,) = [e for e in load_exchanges(OPENROUTER_RESPONSES, None) if e.is_model_call]
    raw = tmp_path / "openrouter-responses.sse"
    raw.write_bytes(exchange.body)
    expected = _messages(replay_file(OPENROUTER_RESPONSES, "openrouter"))
    assert _messages(replay_file(raw, "openrouter")) == expected
    inferred = _messages(replay_file(raw, None))  # no URL: the Responses wire, replayed as openai-responses
    assert inferred == expected


def test_the_chat_parser_on_responses_events_is_an_error_not_an_empty_stop() -> None:
    """What used to happen (the Chat parser handed a Responses stream) now names the protocol."""
    (exchange,) = [e for e in load_exchanges(OPENROUTER_RESPONSES, None) if e.is_model_call]
    result = _parse("openrouter", exchange.body)
    assert result.message.stop_reason == "error"
    assert any("these are OpenAI Responses events" in e.error_message for e in result.errors)


# ---------------------------------------------------------------- id-rotating proxies


def _derotated(body: bytes) -> bytes:
    """The same stream with every item id set to its output_index's first id and one response id."""
    firsts: dict[int, str] = {}
    response_id: str | None = None
    out: list[bytes] = []
    for event in _events(body):
        name, _, data = event.decode().partition("data: ")
        payload = json.loads(data)
        index = payload.get("output_index")
        if isinstance(payload.get("item"), dict):
            payload["item"]["id"] = firsts.setdefault(index, payload["item"]["id"])
        elif "item_id" in payload:
            payload["item_id"] = firsts.setdefault(index, payload["item_id"])
        if isinstance(payload.get("response"), dict):
            response_id = response_id or payload["response"]["id"]
            payload["response"]["id"] = response_id
            for n, item in enumerate(payload["response"].get("output") or ()):
                item["id"] = firsts.get(n, item["id"])
        out.append(f"{name}data: {json.dumps(payload, ensure_ascii=False)}".encode())
    return _join(out)


def test_rotating_item_ids_give_one_part_per_item() -> None:
    (result,) = replay_file(COPILOT, "openai-responses")
    assert [p.type for p in result.message.parts] == ["thinking_text", "text"]
    assert result.message.stop_reason == "stop" and not result.errors
    assert any("rotates ids" in n for n in result.notes)


def test_rotating_item_ids_read_like_the_same_stream_without_rotation() -> None:
    """Keyed by output_index, the rotation changes nothing but the (rotated) response id; and the
    de-rotated stream agrees with the official SDK, which refuses the rotated one outright."""
    (exchange,) = [e for e in load_exchanges(COPILOT, None) if e.is_model_call]
    rotated, plain = (
        _parse("openai-responses", exchange.body),
        _parse("openai-responses", _derotated(exchange.body)),
    )
    assert rotated.message.parts == plain.message.parts
    assert (rotated.message.usage, rotated.message.stop_reason) == (
        plain.message.usage,
        plain.message.stop_reason,
    )
    assert not any("rotates ids" in n for n in plain.notes)
    verdict = crosscheck("openai-responses", _derotated(exchange.body))
    assert verdict.ok, str(verdict)


# ---------------------------------------------------------------- several responses in one capture


def test_a_body_with_four_responses_replays_as_four() -> None:
    results = replay_file(MULTI, "openai-responses")
    ids = [r.message.response_id for r in results]
    assert len(results) == 4 and len(set(ids)) == 4
    assert [r.message.stop_reason for r in results] == ["tool_use", "tool_use", "tool_use", "stop"]
    assert all(sum(p.type == "tool_call" for p in r.message.parts) <= 1 for r in results)


def _two_responses(provider: str) -> tuple[RecordedCall, RecordedCall]:
    calls = _streams(provider)
    ids = {c.id: _parse(provider, c.body).message.response_id for c in calls}
    for first in calls:
        for second in calls:
            if ids[first.id] and ids[second.id] and ids[first.id] != ids[second.id]:
                return first, second
    raise AssertionError(f"{provider}: no two recorded responses with distinct ids")


#: Providers with bundled SSE streams in their own wire (the synthetic cases below are built from them).
#: Not Bedrock (binary AWS event-stream frames, not SSE events: its framing is tested in
#: tests/providers/bedrock/test_bedrock.py), nor a provider whose bundled responses are all non-streamed JSON
#: (mistral, cerebras, huggingface: no streamed recording of theirs exists in the source).
RECORDED_PROVIDERS = sorted(
    {name for name, _ in cassette_cases() if PROVIDER_WIRES[name][0] != "bedrock-converse" and _streams(name)}
)


def _has_two_responses(provider: str) -> bool:
    try:
        _two_responses(provider)
    except AssertionError:
        return False
    return True


#: Of those, the providers with two recorded streams of distinct responses to join.
TWO_RESPONSE_PROVIDERS = [p for p in RECORDED_PROVIDERS if _has_two_responses(p)]


@pytest.mark.parametrize("provider", TWO_RESPONSE_PROVIDERS)
def test_two_responses_back_to_back_split_into_two(provider: str, tmp_path: Path) -> None:
    """Synthetic: two recorded responses of the provider joined into one body."""
    first, second = _two_responses(provider)
    joined = tmp_path / "two.sse"
    joined.write_bytes(_join(_events(first.body)) + _join(_events(second.body)))
    results = replay_file(joined, provider)
    assert _messages(results) == _messages([_parse(provider, first.body), _parse(provider, second.body)])
    wire = PROVIDER_WIRES[provider][0]
    assert len(split_responses(wire, first.body)) == 1  # a single response is never split


# ---------------------------------------------------------------- no silent endings, per provider


@pytest.mark.parametrize("provider", RECORDED_PROVIDERS)
def test_events_after_the_terminal_event_are_skipped_not_merged(provider: str) -> None:
    """Synthetic: a content event of the stream repeated after its terminal event."""
    call = _streams(provider)[0]
    events = _events(call.body)
    full = _parse(provider, call.body)
    content = next(e for e in events[len(events) // 2 :] if re.search(rb"delta|parts|choices", e))
    late = _parse(provider, _join([*events, content]))
    assert late.message == full.message and late.errors == full.errors
    assert any("after the terminal event" in n for n in late.notes)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    "body",
    [b"", b'data: {"hello": "world"}\n\n', b"data: [1, 2]\n\n"],
    ids=["empty", "unknown-object", "array"],
)
def test_no_recognisable_event_ends_as_error(provider: str, body: bytes) -> None:
    result = _parse(provider, body)
    assert result.message.stop_reason == "error"
    assert result.errors and all(e.error_message.startswith(f"{provider}: ") for e in result.errors)
    if body != b"data: [1, 2]\n\n":  # an array: some parsers already say "not a JSON object"
        assert any(
            ("no recognisable" in e.error_message or "empty stream" in e.error_message) for e in result.errors
        )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_stream_of_another_protocol_ends_as_error_naming_it(provider: str) -> None:
    for other in [*RECORDED_PROVIDERS, "bedrock"]:  # Bedrock's binary frames too (cassettes/bedrock/)
        wire = PROVIDER_WIRES[other][0]
        if wire in PROVIDER_WIRES[provider]:
            continue
        body = _streams(other)[0].body
        result = _parse(provider, body)
        assert result.message.stop_reason == "error", other
        assert any(f"these are {WIRE_TITLES[wire]} events" in e.error_message for e in result.errors), (
            other,
            result.errors,
        )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_contradicting_provider_is_refused_in_one_line(provider: str) -> None:
    for name, path in cassette_cases():
        if PROVIDER_WIRES[provider][0] in PROVIDER_WIRES[name] or name == provider:
            continue
        with pytest.raises(ReplayInputError) as caught:
            replay_file(path, provider)
        message = str(caught.value)
        assert (
            "\n" not in message
            and f"--provider {provider}:" in message
            and "replay with --provider" in message
        )
        result = runner.invoke(app, ["replay", str(path), "--provider", provider])
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and "replay with --provider" in result.stderr
        return
    pytest.fail(f"no cassette contradicts {provider}")


# ---------------------------------------------------------------- provider inferred


@pytest.mark.parametrize(
    ("provider", "path"), cassette_cases(), ids=[f"{c[0]}-{c[1].stem}" for c in cassette_cases()]
)
def test_without_provider_every_cassette_replays_as_with_it(provider: str, path: Path) -> None:
    given = [result_to_json(r) for r in replay_file(path, provider)]
    assert [result_to_json(r) for r in replay_file(path, None)] == given


def test_the_cli_infers_the_provider_and_says_so() -> None:
    result = runner.invoke(app, ["replay", str(OPENROUTER_RESPONSES)])
    assert result.exit_code == 0, result.stderr
    assert "note: replayed as openrouter (OpenAI Responses)" in result.stderr
    assert json.loads(result.stdout)[0]["message"]["stop_reason"] == "stop"


def test_a_bare_bedrock_body_is_recognised_by_its_frames(tmp_path: Path) -> None:
    """A Bedrock stream saved without its request (binary AWS event-stream frames) replays as bedrock;
    the same bytes with a corrupted prelude checksum are not taken for a frame."""
    body = _streams("bedrock")[0].body
    raw = tmp_path / "converse.bin"
    raw.write_bytes(body)
    result = runner.invoke(app, ["replay", str(raw)])
    assert result.exit_code == 0, result.stderr
    assert "note: replayed as bedrock (AWS Bedrock Converse)" in result.stderr
    assert sniff_wire(body[:8] + bytes(4) + body[12:]) is None


def test_a_body_with_nothing_recognisable_and_no_provider_is_refused(tmp_path: Path) -> None:
    raw = tmp_path / "noise.sse"
    raw.write_bytes(b'data: {"hello": "world"}\n\n')
    result = runner.invoke(app, ["replay", str(raw)])
    assert result.exit_code == 2 and "pass --provider" in result.stderr


def test_chunk_files_replay_without_provider_like_their_cassettes(tmp_path: Path) -> None:
    """Each converted AI SDK fixture, turned back into its ``.chunks.txt`` form (one data payload
    per line, no ``event:`` lines), replays without --provider exactly as its cassette does."""
    converted = [(p, c) for p, c in cassette_cases() if "converted:" in c.read_text(encoding="utf-8")]
    assert len(converted) >= 5
    for provider, path in converted:
        (exchange,) = [e for e in load_exchanges(path, provider) if e.is_model_call]
        lines = [e.decode().split("data: ", 1)[1] for e in _events(exchange.body)]
        chunks = tmp_path / f"{path.stem}.chunks.txt"
        chunks.write_text("\n".join(lines) + "\n", encoding="utf-8")
        expected = [result_to_json(r) for r in replay_file(path, provider)]
        assert [result_to_json(r) for r in replay_file(chunks, None)] == expected, path.name


@pytest.mark.parametrize(
    ("provider", "reason_event"),
    [
        ("anthropic", rb'"type": ?"message_delta"'),
        ("openai-chat", rb'"finish_reason": ?"'),
        ("openrouter", rb'"finish_reason": ?"'),
    ],
)
def test_a_terminal_event_without_a_stop_reason_is_no_normal_stop(provider: str, reason_event: bytes) -> None:
    """Synthetic: a recorded stream without the event that carries the stop reason, its terminal
    event (message_stop / [DONE]) kept. Only the provider's own stop reason may give ``stop``."""
    call = next(c for c in _streams(provider) if re.search(rb"message_stop|\[DONE\]", c.body))
    events = [e for e in _events(call.body) if not re.search(reason_event, e)]
    assert len(events) < len(_events(call.body))
    result = _parse(provider, _join(events))
    assert result.message.stop_reason == "error"
    assert any("stop reason" in e.error_message or "truncated" in e.error_message for e in result.errors)

"""The OpenAI-compatible dialects on their recordings (traffic/pydantic-ai-more/, see its SOURCES.md).

Calibration: every request these APIs accepted passes every reject check, and every 4xx is caught
by a check or classified. Replay: every model response of the folder gives exactly one final
assistant message through the dialect's parser (routed by host), reasoning fields included.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.contract.exchange import Exchange
from harness.contract.providers import CHAT_DIALECTS
from harness.contract.routing import route
from harness.emit import emit_stream, representable
from harness.model import is_provider_executed
from harness.providers import get_parser
from harness.providers.replay import load_exchanges, replay_file
from harness.stream.drive import parse_bytes
from harness.traffic.calibrate import Calibration, calibrate

FOLDER = Path(__file__).resolve().parent.parent / "traffic" / "pydantic-ai-more"


def _routes_to_a_dialect(path: Path) -> bool:
    return any(
        (found := route(e.method, e.uri)) is not None and found.provider in CHAT_DIALECTS
        for e in load_exchanges(path, None)
    )


#: The folder also holds the Bedrock issue's cassettes (Bedrock, Vertex AI): only files with a call
#: routed to a dialect are these tests' (every dialect keeps its recordings: see the calibration test).
FILES = [p for p in sorted(FOLDER.glob("*.yaml")) if _routes_to_a_dialect(p)]


@pytest.fixture(scope="module")
def result() -> Calibration:
    return calibrate([FOLDER])


@pytest.mark.parametrize("provider", CHAT_DIALECTS)
def test_every_accepted_request_passes_and_every_rejection_is_explained(
    result: Calibration, provider: str
) -> None:
    summary = result.summary(provider)
    assert summary["accepted"] > 0, f"no recording of {provider}: the check would run on nothing"
    assert summary["accepted_pass"] == summary["accepted"], [str(f) for f in result.failures]
    assert summary["unexplained"] == 0, [str(r) for r in result.rejections if r.provider == provider]


def test_the_recorded_rejections_are_the_ones_expected(result: Calibration) -> None:
    verdicts = {
        (Path(r.where).name.split("#")[0], r.verdict, r.by)
        for r in result.rejections
        if r.provider in CHAT_DIALECTS
    }
    assert verdicts == {
        (
            "models__test_deepseek_responses__test_deepseek_responses_rejects_interleaved_function_calls.yaml",
            "caught",
            ("rule:deepseek-responses-output-before-message",),
        ),
        ("models__test_groq__test_tool_use_failed_error.yaml", "classified", ()),
        ("models__test_groq__test_tool_use_failed_error_with_text.yaml", "classified", ()),
    }


def _dialect_calls(path: Path) -> list[Exchange]:
    return [
        e
        for e in load_exchanges(path, None)
        if (found := route(e.method, e.uri)) is not None and found.provider in CHAT_DIALECTS
    ]


def _model_calls(path: Path) -> int:
    return len(_dialect_calls(path))


@pytest.mark.parametrize("path", FILES, ids=[p.stem[:80] for p in FILES])
def test_replay_gives_one_message_per_response(path: Path) -> None:
    results = replay_file(path, None)
    assert len(results) == _model_calls(path) > 0
    for r in results:
        assert r.message.role == "assistant" and r.message.stop_reason is not None
        assert (r.message.stop_reason == "error") == bool(r.errors)


@pytest.mark.parametrize(
    ("name", "field"),
    [
        (
            "cassettes__test_thinking_wire_contract__test_reasoning_wire_contract[groq-gpt-oss-thinking-high].yaml",
            "reasoning",
        ),
        ("models__test_cerebras__test_cerebras_zai_reasoning_replayed_as_think_tags.yaml", "reasoning"),
        ("models__test_deepseek__test_deepseek_model_thinking_stream.yaml", "reasoning_content"),
        ("models__test_zai__test_zai_preserved_thinking_round_trip.yaml", "reasoning_content"),
    ],
)
def test_each_dialects_reasoning_field_becomes_thinking(name: str, field: str) -> None:
    results = replay_file(FOLDER / name, None)
    assert re.search(rf"\b{field}\b", (FOLDER / name).read_text(encoding="utf-8"))  # the dialect's field
    for r in results:
        thinking = [p for p in r.message.parts if p.type == "thinking_text"]
        assert thinking and all(p.text for p in thinking), r.message


@pytest.mark.parametrize("path", FILES, ids=[p.stem[:80] for p in FILES])
def test_every_recorded_message_re_emits_to_itself(path: Path) -> None:
    """The dialect's emitter covers what the real API sent: each final message round-trips."""
    for exchange, result in zip(_dialect_calls(path), replay_file(path, None), strict=True):
        found = route(exchange.method, exchange.uri)
        assert found is not None
        if found.wire != "openai-chat" or exchange.status != 200 or result.errors:
            continue  # DeepSeek's Responses endpoint, rejections, a stream's error event: not re-emitted
        # Groq's executed tools and their search results (server tool parts, sources) are read by
        # the parser (tests/providers/groq/) but not streamed by the dialect emitter: the rest
        # of the message must still re-emit to itself.
        kept = [p for p in result.message.parts if not is_provider_executed(p)]
        message = result.message.model_copy(update={"parts": kept})
        assert representable(found.provider, message) is None
        again = parse_bytes(
            get_parser(found.provider),
            emit_stream(found.provider, message, response_id=message.response_id or "r"),
        )
        assert again.message == message

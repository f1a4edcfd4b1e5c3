"""Groq's stream on its bundled recordings: a stream that ends without ``[DONE]``.

The recording (vercel/ai's ``groq-tool-call.chunks.txt``, cassettes/PROVENANCE.md) was filed under
openai-chat once: its ``x_groq`` object is Groq's, not OpenAI's.
"""

from __future__ import annotations

from harness.providers import get_parser
from harness.stream.drive import parse_bytes
from tests.support.cassettes import recorded_calls_of

RECORDINGS = {call_id: call.body for call_id, call in recorded_calls_of("groq").items()}


def test_stream_without_done_is_complete_after_finish_reason_and_usage() -> None:
    result = parse_bytes(get_parser("groq"), RECORDINGS["groq-vercelai__groq-llama33-tool-call-0"])
    assert result.errors == []
    assert result.message.stop_reason == "tool_use"


def test_executed_tools_are_server_tool_parts_with_their_search_results_as_sources() -> None:
    """Groq's compound models stream ``executed_tools`` in pieces by index: the call first (its
    arguments), then its output and search results (shape of
    traffic/pydantic-ai-more/models__test_groq__test_groq_model_web_search_tool_stream.yaml)."""
    import json
    from typing import Any

    from harness.model import ServerToolCallPart, ServerToolResultPart, SourcePart, TextPart

    def chunk(delta: dict[str, object], finish: str | None = None) -> str:
        body = {"id": "c1", "object": "chat.completion.chunk", "model": "groq/compound",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
        return f"data: {json.dumps(body)}\n\n"

    first: dict[str, Any] = {
        "index": 0,
        "type": "search",
        "arguments": '{"query": "weather"}',
        "search_results": {"results": []},
    }
    found: dict[str, Any] = {
        "title": "SF weather",
        "url": "https://w.example/sf",
        "content": "foggy",
        "score": 0.9,
    }
    second: dict[str, Any] = {**first, "output": "foggy", "search_results": {"results": [found]}}
    usage: dict[str, Any] = {"id": "c1", "object": "chat.completion.chunk", "model": "groq/compound", "choices": [],
             "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}}  # fmt: skip
    body = "".join(
        [
            chunk({"role": "assistant", "executed_tools": [first]}),
            chunk({"executed_tools": [second]}),
            chunk({"content": "It is foggy."}),
            chunk({}, "stop"),
            f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n",
        ]
    ).encode()
    parts = parse_bytes(get_parser("groq"), body).message.parts
    assert parts == [
        ServerToolCallPart(
            call_id="executed_tools[0]", tool_name="search", provider="groq",
            input_json='{"query": "weather"}', raw=second,
        ),
        ServerToolResultPart(call_id="executed_tools[0]", tool_name="search", provider="groq", status="success"),
        SourcePart(source_type="search_result", url="https://w.example/sf", title="SF weather",
                   provider="groq", raw=found),
        TextPart(text="It is foggy."),
    ]  # fmt: skip

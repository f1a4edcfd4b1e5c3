"""Issue 34: every recorded response holding a provider-executed tool or a citation replays into parts.

The census (``harness.crosscheck.census``) walks every bundled recording (``cassettes/``,
``traffic/``): for each response whose own JSON holds a server tool call, its result, a source
(citation, annotation, grounding chunk, search result) or a generated image, replay must yield as
many parts of that family, and where the official SDK accumulates the same bytes its provider parts
must agree with ours. Recordings lack some shapes (Cohere's streamed ``citation-start``, Bedrock
citations, Perplexity-style ``search_results``): those are labelled synthetic streams below, written
from each provider's documented format. A block no parser turns into a part is a named note.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from harness.crosscheck.bedrock import botocore_accumulate, project
from harness.crosscheck.census import FAMILIES, Row, census, counted, expected, render
from harness.model import ServerToolCallPart, ServerToolResultPart, SourcePart, TextPart
from harness.providers import get_parser
from harness.stream.drive import parse_bytes
from harness.stream.sse import SSEEvent
from tests.support.eventstream import event_frame

ROOT = Path(__file__).resolve().parents[1]

#: Responses the official SDK raises on (no accumulation to compare), by where, with why.
SDK_REFUSES = {
    "traffic/pydantic-ai/models__test_openrouter__test_openrouter_web_search_annotations_stream.yaml#0": (
        # OpenRouter streams its url_citation annotations without an ``index``; the openai SDK's
        # generic list merge requires one ("Expected list delta entry to have an `index` key").
        "RuntimeError: Expected list delta entry to have an `index` key"
    ),
}


@functools.cache
def _rows() -> tuple[Row, ...]:
    return tuple(census([ROOT / "cassettes", ROOT / "traffic"]))


def _where(row: Row) -> str:
    return str(Path(row.where).relative_to(ROOT)) if row.where.startswith(str(ROOT)) else row.where


def test_every_recorded_server_tool_and_citation_replays_as_parts() -> None:
    lost = [
        f"{_where(r)}: " + ", ".join(f"{f} {r.held[f]} held, {r.got[f]} replayed" for f in FAMILIES)
        for r in _rows()
        if not r.has_parts
    ]
    assert lost == []


def test_the_official_sdk_agrees_on_every_recorded_provider_part() -> None:
    disagree = {_where(r): r.sdk for r in _rows() if r.sdk}
    assert disagree == {}
    refused = {_where(r): r.sdk_refused for r in _rows() if r.sdk_refused is not None}
    assert sorted(refused) == sorted(SDK_REFUSES)
    for where, reason in refused.items():
        assert reason is not None and reason.startswith(SDK_REFUSES[where])


def test_the_census_reaches_every_family_it_names() -> None:
    """The bundled traffic holds server tools and citations of these providers (a census that found
    none would pass the tests above vacuously)."""
    rows = _rows()
    providers = {r.provider for r in rows}
    assert {"anthropic", "bedrock", "cohere", "gemini", "groq", "openai-responses", "openrouter"} <= providers
    for family in FAMILIES:
        assert sum(r.held[family] for r in rows) > 0, family
    assert sum(r.sdk is not None for r in rows) > 0.8 * len([r for r in rows if r.provider != "cohere"])
    assert render(list(rows)).count("\n") == len(providers) + 2


# ---------------------------------------------------------------- labelled synthetic streams


def _sse(*payloads: dict[str, Any], events: bool = True) -> bytes:
    return b"".join(
        (f"event: {p['type']}\n" if events else "").encode() + f"data: {json.dumps(p)}\n\n".encode()
        for p in payloads
    )


#: SYNTHETIC: a Cohere v2 stream with one citation, from the documented events
#: (https://docs.cohere.com/v2/docs/streaming, "citation-start" sample event; cohere SDK
#: ``CitationStartEvent``): no recording of a streamed Cohere citation was found.
COHERE_CITED = _sse(
    {"type": "message-start", "id": "r1", "delta": {"message": {"role": "assistant", "citations": []}}},
    {"type": "content-start", "index": 0, "delta": {"message": {"content": {"type": "text", "text": ""}}}},
    {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": "Yes, we offer gym "}}}},
    {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": "memberships."}}}},
    {
        "type": "citation-start",
        "index": 0,
        "delta": {
            "message": {
                "citations": {
                    "start": 14,
                    "end": 29,
                    "text": "gym memberships",
                    "sources": [
                        {"type": "document", "id": "doc:1", "document": {"id": "doc:1", "text": "gym"}}
                    ],
                    "type": "TEXT_CONTENT",
                    "content_index": 0,
                }
            }
        },
    },
    {"type": "citation-end", "index": 0},
    {"type": "content-end", "index": 0},
    {"type": "message-end", "delta": {"finish_reason": "COMPLETE", "usage": {"tokens": {"input_tokens": 3}}}},
)


def test_cohere_streamed_citation_is_a_source_after_its_text() -> None:
    result = parse_bytes(get_parser("cohere"), COHERE_CITED)
    assert result.errors == []
    text, source = result.message.parts
    assert isinstance(text, TextPart) and text.text == "Yes, we offer gym memberships."
    assert isinstance(source, SourcePart)
    assert (source.source_type, source.id, source.cited_text, source.start_index, source.end_index) == (
        "document",
        "doc:1",
        "gym memberships",
        14,
        29,
    )
    raw: Any = source.raw
    assert source.provider == "cohere" and raw["sources"][0]["id"] == "doc:1"
    assert counted(result) == expected("cohere-v2", COHERE_CITED)


def test_cohere_plan_citation_follows_the_tool_plan() -> None:
    """A ``PLAN`` citation cites the tool plan, not the answer (cohere SDK ``Citation.type``)."""
    body: dict[str, Any] = {
        "id": "r2",
        "finish_reason": "TOOL_CALL",
        "message": {
            "role": "assistant",
            "tool_plan": "Paris is sunny; I will check Rome.",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "w", "arguments": "{}"}}],
            "citations": [{"start": 0, "end": 5, "text": "Paris", "type": "PLAN", "sources": []}],
        },
    }
    parser = get_parser("cohere")()
    parser.feed_response(body)
    parts = parser.finish().message.parts
    assert [p.type for p in parts] == ["text", "source", "tool_call"]


def _bedrock(*frames: tuple[str, dict[str, Any]]) -> bytes:
    return b"".join(event_frame(name, payload) for name, payload in frames)


_WEB_CITATION = {
    "title": "Python history",
    "source": "https://example.com/doc",
    "sourceContent": [{"text": "Guido created Python"}],
    "location": {"web": {"url": "https://example.com/doc", "domain": "example.com"}},
}
#: SYNTHETIC: a ConverseStream with a web citation, from botocore's bedrock-runtime service model
#: (``ContentBlockDelta.citation``: ``CitationsDelta`` with ``title``, ``source``, ``sourceContent``,
#: ``location``): no recording of a Bedrock citation was found.
BEDROCK_CITED = _bedrock(
    ("messageStart", {"role": "assistant"}),
    ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "Guido created it."}}),
    ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"citation": _WEB_CITATION}}),
    ("contentBlockStop", {"contentBlockIndex": 0}),
    ("messageStop", {"stopReason": "end_turn"}),
    ("metadata", {"usage": {"inputTokens": 3, "outputTokens": 4, "totalTokens": 7}}),
)


def test_bedrock_streamed_citation_is_a_source_and_botocore_agrees() -> None:
    result = parse_bytes(get_parser("bedrock"), BEDROCK_CITED, 7)
    assert result.errors == []
    text, source = result.message.parts
    assert isinstance(text, TextPart) and isinstance(source, SourcePart)
    assert (source.source_type, source.url, source.title, source.cited_text) == (
        "url",
        "https://example.com/doc",
        "Python history",
        "Guido created Python",
    )
    sdk = botocore_accumulate(BEDROCK_CITED)
    assert project(result.message) == [p for b in sdk["blocks"] for p in b["pieces"]]
    assert counted(result) == expected("bedrock-converse", BEDROCK_CITED)


def test_bedrock_citations_content_block_is_its_text_and_sources() -> None:
    """SYNTHETIC: a Converse body's ``citationsContent`` block (service model ``CitationsContentBlock``)."""
    cited = {"content": [{"text": "Guido created Python."}], "citations": [_WEB_CITATION]}
    document = {**_WEB_CITATION, "location": {"documentChar": {"documentIndex": 0, "start": 3, "end": 9}}}
    second = {"content": [{"text": " See the doc."}], "citations": [document]}
    content: list[Any] = [{"citationsContent": cited}, {"citationsContent": second}]
    body: dict[str, Any] = {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
    }
    parser = get_parser("bedrock")()
    parser.feed_response(body)
    parts = parser.finish().message.parts
    assert [p.type for p in parts] == ["text", "source", "text", "source"]
    last = parts[3]
    assert isinstance(last, SourcePart)
    assert (last.source_type, last.id, last.start_index, last.end_index) == ("document", "0", 3, 9)
    assert counted(parser.finish()) == expected("bedrock-converse", json.dumps(body).encode())


def test_bedrock_system_tool_is_never_a_client_tool_call() -> None:
    """Recorded: Nova's code interpreter (``toolUse`` with ``type: server_tool_use``) and its
    assistant-side ``toolResult``, non-streamed and streamed, are server tool parts with the
    block the next request sends back byte-exact."""
    where = ROOT / "traffic/pydantic-ai-more"
    rows = census(
        [
            where / "models__test_bedrock__test_bedrock_model_with_code_execution_tool.yaml",
            where / "models__test_bedrock__test_bedrock_model_code_execution_tool_stream.yaml",
        ],
        sdk=False,
    )
    assert len(rows) == 3 and all(r.has_parts and r.held["call"] == 1 for r in rows)
    from harness.providers.replay import replay_file

    for result in replay_file(
        where / "models__test_bedrock__test_bedrock_model_with_code_execution_tool.yaml", None
    ):
        call, done, client = result.message.parts
        assert isinstance(call, ServerToolCallPart) and call.tool_name == "nova_code_interpreter"
        assert isinstance(done, ServerToolResultPart) and done.call_id == call.call_id
        block: Any = call.raw
        assert block["toolUse"]["type"] == "server_tool_use"
        assert client.type == "tool_call" and client.tool_name == "final_result"


#: SYNTHETIC: Perplexity-style Chat chunks (https://docs.perplexity.ai/api-reference/chat-completions:
#: ``search_results`` with title, url, date, and ``citations`` URLs, repeated on every chunk).
PERPLEXITY = (
    _sse(
        *[
            {
                "id": "p1",
                "object": "chat.completion.chunk",
                "model": "sonar",
                "citations": ["https://a.example", "https://b.example"],
                "search_results": [
                    {"title": "A", "url": "https://a.example", "date": "2025-01-01"},
                    {"title": "B", "url": "https://b.example"},
                ],
                "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": finish}],
            }
            for text, finish in (("Answer [1]", None), (" and [2].", "stop"))
        ],
        events=False,
    )
    + b"data: [DONE]\n\n"
)


@pytest.mark.parametrize("provider", ["openrouter", "openai-chat"])
def test_chat_search_results_are_sources_once(provider: str) -> None:
    result = parse_bytes(get_parser(provider), PERPLEXITY)
    sources = [p for p in result.message.parts if isinstance(p, SourcePart)]
    assert [(s.source_type, s.url, s.title) for s in sources] == [
        ("search_result", "https://a.example", "A"),
        ("search_result", "https://b.example", "B"),
    ]
    assert result.message.parts[0] == TextPart(text="Answer [1] and [2].")
    assert counted(result) == expected("openai-chat", PERPLEXITY)


# ---------------------------------------------------------------- nothing skipped silently


def test_a_grounding_without_chunks_is_named() -> None:
    """Recorded shape (traffic/pydantic-ai/models__google__test_structured_output__
    test_auto_output_mode_with_builtin_tools_falls_back.yaml): queries and an entry point, no chunk."""
    parser = get_parser("gemini")()
    candidate: dict[str, Any] = {
        "content": {"role": "model", "parts": [{"text": "Mexico City"}]},
        "finishReason": "STOP",
        "groundingMetadata": {"webSearchQueries": ["largest city"], "searchEntryPoint": {}},
    }
    parser.feed_response({"candidates": [candidate], "responseId": "g"})
    result = parser.finish()
    assert [p.type for p in result.message.parts] == ["text"]
    assert any("groundingMetadata" in n and "no source part" in n for n in result.notes)


@pytest.mark.parametrize(
    ("provider", "event"),
    [
        (
            "anthropic",
            {"type": "content_block_start", "index": 0, "content_block": {"type": "novel_tool_block"}},
        ),
        (
            "openai-responses",
            {"type": "response.output_item.done", "item": {"type": "novel_call", "id": "x"}},
        ),
    ],
)
def test_an_unknown_server_block_is_named(provider: str, event: dict[str, Any]) -> None:
    parser = get_parser(provider)()
    parser.feed(SSEEvent(event["type"], json.dumps(event)))
    result = parser.finish()
    assert any("novel_" in n and "skipped" in n for n in result.notes), result.notes


def test_an_unknown_bedrock_block_start_is_named() -> None:
    body = _bedrock(
        ("messageStart", {"role": "assistant"}),
        ("contentBlockStart", {"contentBlockIndex": 0, "start": {"image": {"format": "png"}}}),
        ("contentBlockStop", {"contentBlockIndex": 0}),
        ("messageStop", {"stopReason": "end_turn"}),
        ("metadata", {"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}}),
    )
    result = parse_bytes(get_parser("bedrock"), body)
    assert any("contentBlockStart ['image'] skipped" in n for n in result.notes), result.notes

"""Tools added mid-conversation, programmatic tool calling, MCP approvals, image generation calls and
Chat annotations (issue 34): read off a request, sent back exactly to their provider, degraded with
a named warning elsewhere, and a target that loses them fails a named invariant."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import JsonValue

from harness.codec import dumps_history, loads_history
from harness.contract.rendered import Rendered
from harness.importer import import_request
from harness.invariants.registry import run_invariants
from harness.model import (
    AddedTool,
    AssistantMessage,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    SystemMessage,
    TextPart,
    ToolCallPart,
    UserMessage,
)
from harness.params import CallParams, ToolSpec
from harness.scenarios import load_scenarios
from harness.strategies import tool_addition_messages
from harness.targets import get_target

REFERENCE = get_target("reference")
NATIVE_ADDITIONS = {"anthropic", "openai-responses"}
_SCHEMA: dict[str, JsonValue] = {
    "type": "object",
    "properties": {"order_id": {"type": "string"}},
    "required": ["order_id"],
}

ANTHROPIC_ADDITION: dict[str, Any] = {
    "model": "claude-opus-4-8",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Load refunds, then look up A-4417."}]},
        {
            "role": "system",
            "content": [
                {"type": "tool_addition", "tool": {"type": "tool_reference", "name": "lookup_refund_policy"}},
                {
                    "type": "tool_addition",
                    "tool": {
                        "type": "tool_definition",
                        "definition": {"name": "get_time", "description": "Now.", "input_schema": _SCHEMA},
                    },
                },
            ],
        },
    ],
    "tools": [{"name": "lookup_refund_policy", "input_schema": _SCHEMA, "defer_loading": True}],
}

RESPONSES_ADDITION: dict[str, Any] = {
    "model": "gpt-5.4",
    "input": [
        {
            "role": "user",
            "content": [{"type": "input_text", "text": "Find the refund tool."}],
            "type": "message",
        },
        {
            "type": "additional_tools",
            "role": "developer",
            "tools": [
                {"type": "function", "name": "lookup_refund_policy", "description": "", "parameters": _SCHEMA}
            ],
        },
    ],
}

_APPROVAL = {
    "type": "mcp_approval_request",
    "id": "mcpr_1",
    "name": "ask_question",
    "server_label": "deepwiki",
    "arguments": "{}",
}
RESPONSES_MCP: dict[str, Any] = {
    "model": "gpt-5",
    "input": [
        {"role": "user", "content": [{"type": "input_text", "text": "Ask deepwiki."}], "type": "message"},
        _APPROVAL,
        {"type": "mcp_approval_response", "approve": False, "approval_request_id": "mcpr_1"},
        {"type": "image_generation_call", "id": "ig_1"},
    ],
}


def _round_trip(provider: str, body: dict[str, Any]) -> Rendered:
    imported = import_request(provider, body)
    assert imported.unrepresented == []
    rendered = REFERENCE.render(provider, imported.history, imported.params)
    return rendered


def test_anthropic_tool_additions_are_read_and_sent_back_in_place() -> None:
    imported = import_request("anthropic", ANTHROPIC_ADDITION)
    assert imported.unrepresented == []
    system = imported.history[1]
    assert isinstance(system, SystemMessage) and system.parts == []
    assert system.added_tools == [
        AddedTool(name="lookup_refund_policy"),
        AddedTool(name="get_time", description="Now.", parameters=_SCHEMA),
    ]
    rendered = REFERENCE.render("anthropic", imported.history, imported.params)
    assert rendered.body["messages"] == ANTHROPIC_ADDITION["messages"]


def test_responses_additional_tools_are_read_and_sent_back_in_place() -> None:
    rendered = _round_trip("openai-responses", RESPONSES_ADDITION)
    assert rendered.body["input"][1] == RESPONSES_ADDITION["input"][1]


@pytest.mark.parametrize("provider", sorted(set(REFERENCE.providers()) - NATIVE_ADDITIONS))
def test_elsewhere_added_tools_are_declared_up_front_with_a_named_warning(provider: str) -> None:
    imported = import_request("anthropic", ANTHROPIC_ADDITION)
    rendered = REFERENCE.render(provider, imported.history, imported.params)
    assert any(w.code == "tool-addition-upfront" and w.message_index == 1 for w in rendered.warnings)
    assert "get_time" in json.dumps(rendered.body)  # the defined tool is declared, so it can be called
    assert "tool_addition" not in json.dumps(rendered.body)


def test_mcp_approvals_and_image_generation_go_back_byte_exact() -> None:
    imported = import_request("openai-responses", RESPONSES_MCP)
    assert imported.unrepresented == []
    turn = imported.history[1]
    assert isinstance(turn, AssistantMessage)
    request, answer = turn.parts[0], turn.parts[1]
    assert isinstance(request, ServerToolCallPart) and request.raw == _APPROVAL
    assert isinstance(answer, ServerToolResultPart) and answer.status == "aborted"  # declined
    assert answer.call_id == "mcpr_1" and answer.tool_name == "ask_question"
    rendered = REFERENCE.render("openai-responses", imported.history, imported.params)
    assert rendered.body["input"][1:] == RESPONSES_MCP["input"][1:]
    chat = REFERENCE.render("openai-chat", imported.history, imported.params)
    assert {w.code for w in chat.warnings} >= {"server-tool-foreign"}
    assert "mcpr_1" not in json.dumps(chat.body)


def test_programmatic_tool_calls_keep_their_caller_on_anthropic_only() -> None:
    caller = {"type": "code_execution_20250825", "tool_id": "srvtoolu_1"}
    body: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Weather in Boston?"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "w", "input": {}, "caller": caller}
                ],
            },
        ],
        "tools": [{"name": "w", "input_schema": _SCHEMA, "allowed_callers": ["code_execution_20250825"]}],
    }
    imported = import_request("anthropic", body)
    assert imported.unrepresented == []
    part = imported.history[1].parts[0]  # type: ignore[union-attr]
    assert isinstance(part, ToolCallPart) and part.caller == caller
    assert imported.params.tools and imported.params.tools[0].allowed_callers == ["code_execution_20250825"]
    rendered = REFERENCE.render("anthropic", imported.history, imported.params)
    assert rendered.body["messages"][1]["content"][0]["caller"] == caller
    assert rendered.body["tools"][0]["allowed_callers"] == ["code_execution_20250825"]
    other = REFERENCE.render("gemini", imported.history, imported.params)
    assert [w.code for w in other.warnings].count("tool-caller-not-sent") == 2


def test_chat_annotations_are_sources_of_the_text() -> None:
    citation = {
        "type": "url_citation",
        "url_citation": {"url": "https://example.org/a", "title": "A", "start_index": 0, "end_index": 3},
    }
    body: dict[str, Any] = {
        "model": "gpt-4o-search-preview",
        "messages": [
            {"role": "user", "content": "News?"},
            {"role": "assistant", "content": "Big news.", "annotations": [citation], "refusal": None},
            {"role": "user", "content": "More?"},
        ],
    }
    imported = import_request("openai-chat", body)
    assert imported.unrepresented == []
    source = imported.history[1].parts[1]  # type: ignore[union-attr]
    assert isinstance(source, SourcePart) and source.url == "https://example.org/a"
    assert source.provider == "openai-chat" and source.raw == citation
    rendered = REFERENCE.render("openai-chat", imported.history, imported.params)
    assert any(w.code == "source-not-sent" for w in rendered.warnings)


def test_added_tools_and_callers_round_trip_through_the_codec() -> None:
    history = [
        SystemMessage(parts=[], added_tools=[AddedTool(name="a"), AddedTool(name="b", parameters=_SCHEMA)]),
        AssistantMessage(
            parts=[ToolCallPart(call_id="c", tool_name="a", arguments_json="{}", caller={"type": "direct"})]
        ),
    ]
    assert loads_history(dumps_history(history)) == history


class _DropsAdditions:
    """A target that leaves tools added mid-conversation out of the request, unwarned."""

    name = "drops-additions"
    version = "1"
    lacks = frozenset[str]()

    def providers(self) -> list[str]:
        return ["openai-responses"]

    def render(self, provider: str, history: list[Any], params: CallParams) -> Rendered:
        kept = [e for e in history if not (isinstance(e, SystemMessage) and e.added_tools)]
        return REFERENCE.render(provider, kept, params)


class _ApprovalAsClientResult(_DropsAdditions):
    """A target that sends the client's MCP approval back as a client function_call_output."""

    name = "approval-as-client-result"

    def render(self, provider: str, history: list[Any], params: CallParams) -> Rendered:
        rendered = REFERENCE.render(provider, history, params)
        items = [
            {"type": "function_call_output", "call_id": i["approval_request_id"], "output": "approved"}
            if i.get("type") == "mcp_approval_response"
            else i
            for i in rendered.body["input"]
        ]
        return Rendered({**rendered.body, "input": items}, rendered.warnings)


def test_a_target_that_drops_added_tools_fails_i13() -> None:
    scenario = load_scenarios()["tool_addition_new_definition"]
    report = run_invariants(scenario.history, scenario.params, target=_DropsAdditions(), invariants=["I13"])  # type: ignore[arg-type]
    assert any("added tool 'get_time'" in v.reason for v in report.of("I13")), report.violations
    clean = run_invariants(
        scenario.history, scenario.params, providers=["openai-responses"], invariants=["I13"]
    )
    assert not clean.of("I13")


def test_a_target_that_sends_an_approval_as_a_client_result_fails_i16() -> None:
    scenario = load_scenarios()["mcp_approval_responses"]
    target = _ApprovalAsClientResult()
    report = run_invariants(scenario.history, scenario.params, target=target, invariants=["I16"])  # type: ignore[arg-type]
    assert any("sent as a client tool result" in v.reason for v in report.of("I16")), report.violations
    clean = run_invariants(
        scenario.history, scenario.params, providers=["openai-responses"], invariants=["I16"]
    )
    assert not clean.of("I16")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(addition=tool_addition_messages, provider=st.sampled_from(sorted(REFERENCE.providers())))
def test_generated_tool_additions_round_trip_and_are_declared_or_warned(
    addition: SystemMessage, provider: str
) -> None:
    history = [
        UserMessage(parts=[TextPart(text="Hi.")]),
        AssistantMessage(parts=[TextPart(text="Hello.")], stop_reason="stop"),
        addition,
        UserMessage(parts=[TextPart(text="Go on.")]),
    ]
    assert loads_history(dumps_history(history)) == history
    deferred = [
        ToolSpec(name=t.name, parameters={"type": "object", "properties": {}}, defer_loading=True)
        for t in addition.added_tools or []
        if t.parameters is None
    ]
    params = CallParams(tools=deferred or None)
    report = run_invariants(history, params, providers=[provider], invariants=["I13"])
    assert not report.of("I13"), report.of("I13")

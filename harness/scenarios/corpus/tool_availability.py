"""Scenarios: tools made available mid-conversation, programmatic tool calling, MCP approvals.

Shapes as recorded (ids shortened, synthetic): an Anthropic ``system`` message of
``tool_addition`` blocks referencing a deferred tool
(traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#1), a
Responses ``additional_tools`` item (traffic/clients2/langchain/libs/partners/openai/tests/
cassettes/test_system_additional_tools.yaml.gz#0), a client tool call Anthropic's code execution
made (``caller``) and a tool only code may call (``allowed_callers``; test_programmatic_tool_use
.yaml.gz#1 in LangChain's anthropic cassettes), and a Responses ``mcp_approval_request`` answered
by the client's ``mcp_approval_response`` (test_mcp_builtin_zdr.yaml.gz#1 in its openai ones).
Rendered for every provider: the provider with a place for them gets them in place; every other
one declares the added tools up front (``tool-addition-upfront``), sends the code's call as the
model's own (``tool-caller-not-sent``), or drops the MCP items (``server-tool-foreign``).
"""

from __future__ import annotations

import json

from pydantic import JsonValue

from harness.model import AddedTool, ServerToolCallPart, ServerToolResultPart, SystemMessage, ToolCallPart
from harness.params import CallParams, ServerToolSpec, ToolSpec
from harness.scenarios.corpus.common import STR
from harness.scenarios.dsl import Body, assistant, call, result, scenario, tool, usage, user

_REFUND_SCHEMA: dict[str, JsonValue] = {
    "type": "object",
    "properties": {"order_id": {"type": "string"}},
    "required": ["order_id"],
    "additionalProperties": False,
}
_LOAD = tool("load_capability", "Load a listed capability.", {"id": STR}, ["id"])
_REFUND = ToolSpec(
    name="lookup_refund_policy",
    description="Look up the refund policy for an order.",
    parameters=_REFUND_SCHEMA,
    defer_loading=True,
)


@scenario("tool-availability", "tools", "tools-given", "cross-provider")
def tool_addition_deferred_reference() -> Body:
    """A deferred tool made available mid-conversation (a system message adding it by name): in place on Anthropic and Responses, declared up front elsewhere (warned)."""
    load = call("toolu_01LoadRefunds7x", "load_capability", {"id": "refunds"})
    search = ServerToolSpec(
        kind="tool_search",
        provider="anthropic",
        name="tool_search_tool_bm25",
        raw={"name": "tool_search_tool_bm25", "type": "tool_search_tool_bm25_20251119"},
        position=1,
    )
    return CallParams(tools=[_LOAD, _REFUND], server_tools=[search]), [
        user("Load the refunds capability, then look up the refund policy for order A-4417."),
        assistant(load, stop="tool_use", usage=usage(1100, 40)),
        result(load, "{}"),
        SystemMessage(parts=[], added_tools=[AddedTool(name="lookup_refund_policy")]),
    ]


@scenario("tool-availability", "tools", "tools-given", "cross-provider")
def tool_addition_new_definition() -> Body:
    """A tool defined only where it is added (Responses additional_tools, Anthropic tool_definition), then called: declared up front on providers with no tool additions."""
    schema: dict[str, JsonValue] = {"type": "object", "properties": {}}
    added = AddedTool(name="get_time", description="Get the current time.", parameters=schema)
    now = call("call_GetTime01", "get_time", {})
    return CallParams(), [
        user("Hi."),
        assistant("Hello! How can I help?", stop="stop", usage=usage(20, 8)),
        SystemMessage(parts=[], added_tools=[added]),
        user("What time is it?"),
        assistant(now, stop="tool_use", usage=usage(60, 12)),
        result(now, "10:42"),
    ]


_CODE_ID = "srvtoolu_01A3QvXzgCJ1GVxc"
_CODE_INPUT: dict[str, JsonValue] = {"code": 'print(await get_weather({"location": "Boston"}))'}


@scenario("tool-availability", "server-tools", "tools", "tools-given", "cross-provider")
def programmatic_tool_call() -> Body:
    """Anthropic programmatic tool calling: code execution calls a client tool (caller, allowed_callers), its result comes back; elsewhere a plain call (warned) and the code execution dropped."""
    weather = tool("get_weather", "Get the weather at a location.", {"location": STR}, ["location"])
    weather = weather.model_copy(update={"allowed_callers": ["code_execution_20250825"]})
    code_execution = ServerToolSpec(
        kind="code_execution",
        provider="anthropic",
        name="code_execution",
        raw={"type": "code_execution_20250825", "name": "code_execution"},
        position=1,
    )
    server_call: dict[str, JsonValue] = {
        "type": "server_tool_use",
        "id": _CODE_ID,
        "name": "code_execution",
        "input": _CODE_INPUT,
    }
    boston = ToolCallPart(
        call_id="toolu_01TgPokCFoj1hkAT",
        tool_name="get_weather",
        arguments_json=json.dumps({"location": "Boston"}),
        caller={"type": "code_execution_20250825", "tool_id": _CODE_ID},
    )
    code = ServerToolCallPart(
        call_id=_CODE_ID,
        tool_name="code_execution",
        provider="anthropic",
        input_json=json.dumps(_CODE_INPUT),
        raw=server_call,
    )
    return CallParams(tools=[weather], server_tools=[code_execution]), [
        user("What's the weather in Boston?"),
        assistant(
            "I'll check the weather in Boston for you.", code, boston, stop="tool_use", usage=usage(3000, 90)
        ),
        result(boston, "It's sunny."),
    ]


_APPROVAL_ID = "mcpr_0cebfa5c0c2697e4"
_ARGUMENTS = json.dumps(
    {"repoName": "modelcontextprotocol/modelcontextprotocol", "question": "Which transports?"}
)
_APPROVAL: dict[str, JsonValue] = {
    "type": "mcp_approval_request",
    "id": _APPROVAL_ID,
    "name": "ask_question",
    "server_label": "deepwiki",
    "arguments": _ARGUMENTS,
}
_ANSWER: dict[str, JsonValue] = {
    "type": "mcp_approval_response",
    "approve": True,
    "approval_request_id": _APPROVAL_ID,
}


@scenario("server-tools", "cross-provider")
def mcp_approval_responses() -> Body:
    """A Responses MCP tool call waiting for approval (mcp_approval_request) and the client's approval: both items back to OpenAI as they came, dropped elsewhere (warned), never a client tool call or result."""
    mcp = ServerToolSpec(
        kind="mcp",
        provider="openai-responses",
        raw={
            "type": "mcp",
            "server_label": "deepwiki",
            "server_url": "https://mcp.deepwiki.com/mcp",
            "require_approval": "always",
        },
    )
    request = ServerToolCallPart(
        call_id=_APPROVAL_ID,
        tool_name="ask_question",
        provider="openai-responses",
        input_json=_ARGUMENTS,
        raw=_APPROVAL,
    )
    answer = ServerToolResultPart(
        call_id=_APPROVAL_ID,
        tool_name="ask_question",
        provider="openai-responses",
        status="success",
        raw=_ANSWER,
    )
    return CallParams(server_tools=[mcp]), [
        user("What transport protocols does the MCP spec support?"),
        assistant(request, answer, stop="stop", usage=usage(400, 30)),
        user("Thanks. Which one is newer?"),
    ]

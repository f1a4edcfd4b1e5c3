"""Provider-executed tool blocks and items in each provider's own shape -> canonical parts.

One reading shared by the request importers and the stream parsers, so that a server tool read
off a recorded request and the same tool read off the response that produced it are the same
parts. Each part keeps the provider's block or item as ``raw`` (byte-exact: it goes back as it
came, and only to its provider).
"""

from __future__ import annotations

import json
from typing import Any, cast

from harness.model import AnyPart, ServerToolCallPart, ServerToolResultPart, ToolStatus

__all__ = [
    "ANTHROPIC_SERVER_CALLS",
    "GEMINI_SERVER_PARTS",
    "RESPONSES_INPUT_SERVER_ITEMS",
    "RESPONSES_SERVER_ITEMS",
    "anthropic_result",
    "call_part",
    "gemini_server_part",
    "is_anthropic_result",
    "responses_item",
    "result_part",
]

Json = dict[str, Any]

#: Anthropic blocks that call a tool Anthropic runs
#: (https://docs.claude.com/en/docs/agents-and-tools/tool-use/server-tools; MCP connector ``mcp_tool_use``).
ANTHROPIC_SERVER_CALLS = frozenset({"server_tool_use", "mcp_tool_use"})

#: Responses output items of tools OpenAI runs (https://platform.openai.com/docs/guides/tools). A
#: ``*_call`` item holds its own outcome; ``tool_search_output`` and ``mcp_list_tools`` are results;
#: an ``mcp_approval_request`` is a call of an MCP tool waiting for the client's approval
#: (https://platform.openai.com/docs/guides/tools-connectors-mcp#approvals), its result the
#: client's ``mcp_approval_response`` on the next request.
RESPONSES_SERVER_ITEMS = frozenset(
    {
        "web_search_call",
        "file_search_call",
        "code_interpreter_call",
        "mcp_call",
        "mcp_list_tools",
        "mcp_approval_request",
        "tool_search_call",
        "tool_search_output",
    }
)
#: Input items a request sends back beyond the output items: an ``image_generation_call`` (the
#: stream parser reads that one as the generated image, a file part with the item id) and the
#: client's ``mcp_approval_response`` (recorded accepted:
#: traffic/clients2/langchain/libs/partners/openai/tests/cassettes/test_mcp_builtin.yaml.gz#1,
#: test_image_generation_multi_turn.yaml.gz#1).
RESPONSES_INPUT_SERVER_ITEMS = RESPONSES_SERVER_ITEMS | {"image_generation_call", "mcp_approval_response"}
_SELF_CONTAINED = frozenset(
    {"web_search_call", "file_search_call", "code_interpreter_call", "mcp_call", "image_generation_call"}
)

#: Gemini model parts of its server-side invocations (``toolCall`` / ``toolResponse`` with
#: ``includeServerSideToolInvocations``; code execution's ``executableCode`` / ``codeExecutionResult``).
GEMINI_SERVER_PARTS = ("toolCall", "executableCode", "toolResponse", "codeExecutionResult")


def _obj(value: Any) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


def call_part(call_id: str, tool_name: str, provider: str, arguments: Any, raw: Json) -> ServerToolCallPart:
    """A server tool call; ``arguments`` as given (a JSON string stays as it is)."""
    text = (
        arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False, sort_keys=True)
    )
    return ServerToolCallPart(
        call_id=call_id, tool_name=tool_name, provider=provider, input_json=text, raw=dict(raw)
    )


def result_part(
    call_id: str, tool_name: str, provider: str, status: ToolStatus, raw: Json | None
) -> ServerToolResultPart:
    return ServerToolResultPart(
        call_id=call_id,
        tool_name=tool_name,
        provider=provider,
        status=status,
        raw=None if raw is None else dict(raw),
    )


def is_anthropic_result(kind: object) -> bool:
    """A block type of a server tool's result (``web_search_tool_result``, ``mcp_tool_result`` ...)."""
    return isinstance(kind, str) and kind.endswith("_tool_result")


def anthropic_result(block: Json, call_name: str) -> ServerToolResultPart:
    """A ``*_tool_result`` block: an error when its content is an ``*_error`` object or it says
    ``is_error`` (MCP); ``call_name`` is its call's tool (else the block type names it)."""
    kind = str(block.get("type", ""))
    failed = block.get("is_error") is True or str(_obj(block.get("content")).get("type", "")).endswith(
        "_error"
    )
    name = call_name or kind.removesuffix("_tool_result")
    return result_part(
        str(block.get("tool_use_id", "")), name, "anthropic", "error" if failed else "success", block
    )


def responses_item(item: Json, names: dict[str, str]) -> list[AnyPart]:
    """A provider-executed Responses item: a call (``raw``: the item) and, when the item holds its
    own outcome, a result without ``raw``; a ``tool_search_output`` / ``mcp_list_tools`` is a result
    with the item as ``raw``; an ``mcp_approval_response`` is the result of its approval request
    (the client's answer, ``raw``: the item): ``aborted`` when the client declined the call, as a
    user cancels it. ``names``: tool names by call id, updated with this call's."""
    kind = str(item.get("type", ""))
    call_id = str(item.get("call_id") or item.get("id") or "")
    failed = item.get("status") in ("failed", "incomplete") or bool(item.get("error"))
    status: ToolStatus = "error" if failed else "success"
    if kind == "mcp_approval_response":
        request = str(item.get("approval_request_id") or "")
        answer: ToolStatus = "success" if item.get("approve") is True else "aborted"
        return [result_part(request, names.get(request) or "mcp_approval", "openai-responses", answer, item)]
    if kind == "tool_search_output":
        return [result_part(call_id, names.get(call_id) or "tool_search", "openai-responses", status, item)]
    if kind == "mcp_list_tools":
        name = f"mcp_list_tools:{item.get('server_label', '')}"
        return [result_part(call_id, name, "openai-responses", status, item)]
    name = str(item.get("name") or kind.removesuffix("_call"))
    names[call_id] = name
    arguments = item.get("arguments", item.get("action", item.get("queries", item.get("code", {}))))
    parts: list[AnyPart] = [call_part(call_id, name, "openai-responses", arguments, item)]
    if kind in _SELF_CONTAINED:
        parts.append(result_part(call_id, name, "openai-responses", status, None))
    return parts


def gemini_server_part(key: str, body: Json, sent: Json, names: dict[str, str]) -> AnyPart:
    """A server-side invocation part: ``body`` is its value (keys in lowerCamel), ``sent`` the whole
    part as the provider spelled it, without its ``thoughtSignature`` (that is the ``google``
    signature part after it, as on every part). Code execution names no id: its call and result
    pair by position (the result follows its code)."""
    call_id = str(body.get("id") or "")
    tool = str(body.get("toolType") or body.get("tool_type") or "code_execution").lower()
    if key in ("toolCall", "executableCode"):
        names[call_id] = tool
        arguments = body.get("args", {"code": body.get("code"), "language": body.get("language")})
        return call_part(call_id, tool, "gemini", arguments, sent)
    failed = str(body.get("outcome", "OUTCOME_OK")) != "OUTCOME_OK"
    return result_part(call_id, names.get(call_id) or tool, "gemini", "error" if failed else "success", sent)

"""I16 provider-executed-calls: a server tool's call keeps its result, and both go back exactly.

Rule (DESIGN "Parts added with the model-breadth issues"): a ``server_tool_call`` /
``server_tool_result`` holds the provider's own block (``raw``) "kept byte-exact for replay to
that provider". So, in the request for the provider that ran the tool, on a wire that has a
place for the block (``NATIVE``):

- the call's block is in the body exactly as kept (the same JSON value), unless a warning
  names the part;
- so is its result's block when the call's is (a call sent without its result tells the model
  a tool ran that gave nothing: Anthropic answers a ``server_tool_use`` without its result in
  the same turn with a 400 unless the turn is still open);

and on every wire, for every provider:

- neither is ever sent as a client tool call or a client tool result (a call id of the body's
  function calls or results): the client never ran that tool, and the provider would wait for
  a result the client cannot give, or read another provider's search as the client's output.
"""

from __future__ import annotations

import json
from typing import Any

from harness.invariants.base import CheckContext, Violation, dicts
from harness.invariants.canonical import body_calls
from harness.invariants.wire import tool_turns
from harness.model import AssistantMessage, ServerToolCallPart, ServerToolResultPart, ToolCallPart

__all__ = ["NATIVE", "check_provider_executed_calls"]

ID = "I16"

#: Wires with a place for a server tool's own block in a request, by provider: Anthropic's
#: content blocks (server_tool_use, *_tool_result), Responses input items (web_search_call ...),
#: Gemini model parts (executableCode, toolCall ...), Bedrock's toolUse/toolResult with
#: ``type: server_tool_use`` (recorded accepted: traffic/pydantic-ai-more/
#: models__test_bedrock__test_bedrock_model_with_code_execution_tool.yaml#1).
NATIVE = frozenset({"anthropic", "openai-responses", "gemini", "bedrock"})


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def check_provider_executed_calls(ctx: CheckContext) -> list[Violation]:
    body = ctx.body
    sent: set[str] | None = None
    turns, orphans = tool_turns(ctx.provider, body)
    client_results = {r.id for t in turns for r in t.results} | {r.id for r in orphans}
    client_calls = {c.id for c in body_calls(ctx.provider, body)}
    own_calls = {
        p.call_id
        for e in ctx.history
        if isinstance(e, AssistantMessage)
        for p in e.parts
        if isinstance(p, ToolCallPart)
    }
    out: list[Violation] = []
    for index, event in enumerate(ctx.history):
        if not isinstance(event, AssistantMessage):
            continue
        for pidx, part in enumerate(event.parts):
            if not isinstance(part, ServerToolCallPart | ServerToolResultPart):
                continue
            where = f"message {index} part {pidx} ({part.type} {part.tool_name!r} of {part.provider})"
            if part.call_id and part.call_id not in own_calls:
                if isinstance(part, ServerToolCallPart) and part.call_id in client_calls:
                    out.append(_violation(ctx, index, f"{where}: sent as a client tool call", part))
                if isinstance(part, ServerToolResultPart) and part.call_id in client_results:
                    out.append(_violation(ctx, index, f"{where}: sent as a client tool result", part))
            if part.provider != ctx.provider or ctx.provider not in NATIVE or part.raw is None:
                continue
            if sent is None:
                sent = {_key(d) for d in dicts(body)}
            if _key(part.raw) in sent:
                continue
            if isinstance(part, ServerToolResultPart) and not _call_sent(event, part, sent):
                continue  # its call is not sent either: that loss is the call's finding
            if not ctx.warned(index, pidx):
                what = "its call's result" if isinstance(part, ServerToolResultPart) else "the block"
                out.append(
                    _violation(ctx, index, f"{where}: {what} not sent back exactly, and no warning", part)
                )
    return out


def _call_sent(message: AssistantMessage, result: ServerToolResultPart, sent: set[str]) -> bool:
    return any(
        isinstance(p, ServerToolCallPart)
        and p.call_id == result.call_id
        and p.raw is not None
        and _key(p.raw) in sent
        for p in message.parts
    )


def _violation(
    ctx: CheckContext, index: int, message: str, part: ServerToolCallPart | ServerToolResultPart
) -> Violation:
    example = {"call_id": part.call_id, "tool_name": part.tool_name, "provider": part.provider}
    return ctx.violation(ID, index, message, example, kind="degrade")

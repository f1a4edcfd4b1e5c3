"""What a recorded request body carries, per wire format, for the continuity checks.

The conversation (the list the wire keeps turns in), the system prompt and the tool
definitions; the tool results a request answers; the assistant turn a request echoes
back. Read without trusting the shape: a missing piece is empty, never an exception.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

from harness.oracles.normalise import normalise_body

__all__ = ["Answer", "Echo", "Request", "read_request", "strings"]

Json = Any


def _d(value: Json) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _l(value: Json) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


@dataclass(frozen=True)
class Answer:
    """A tool result in a request: the id it answers (Gemini: the name when there is no id)."""

    id: str
    name: str


@dataclass(frozen=True)
class Echo:
    """The assistant turn a request sends back: its text and tool calls (id -> arguments as sent)."""

    text: str
    arguments: dict[str, Json]


@dataclass(frozen=True)
class Request:
    wire: str
    conversation: list[Json]
    system: Json
    tools: Json
    previous_response_id: str


def read_request(wire: str, body: dict[str, Any]) -> Request:
    """The request as the provider's parser reads it (the schema oracle's ``normalise_body``:
    Gemini's snake_case names are its camelCase names)."""
    if wire == "gemini":
        body = normalise_body(wire, body)
    if wire == "anthropic":
        return Request(wire, _l(body.get("messages")), body.get("system"), body.get("tools"), "")
    if wire == "gemini":
        return Request(wire, _l(body.get("contents")), body.get("systemInstruction"), body.get("tools"), "")
    if wire == "openai-responses":
        raw = body.get("input")
        conversation = [{"role": "user", "content": raw}] if isinstance(raw, str) else _l(raw)
        previous = body.get("previous_response_id")
        return Request(wire, conversation, body.get("instructions"), body.get("tools"), str(previous or ""))
    if wire == "bedrock-converse":
        # The tool definitions only: ``toolConfig.toolChoice`` is a per-call setting, as
        # ``tool_choice`` beside ``tools`` on the other wires (pydantic-ai forces a tool, then
        # sends ``auto`` once it was called: models__bedrock__test_cache__*.yaml#1).
        tools = _d(body.get("toolConfig")).get("tools")
        return Request(wire, _l(body.get("messages")), body.get("system"), tools, "")
    return Request(wire, _l(body.get("messages")), None, body.get("tools"), "")


def role(wire: str, item: Json) -> str:
    """The speaker of a conversation entry (Responses items without a role: their type)."""
    entry = _d(item)
    return str(entry.get("role") or entry.get("type") or "")


def answers(wire: str, entries: list[Json]) -> list[Answer]:
    """Every tool result among ``entries``, in order."""
    out: list[Answer] = []
    for raw in entries:
        entry = _d(raw)
        if wire == "anthropic":
            out += [
                Answer(str(_d(b).get("tool_use_id", "")), "")
                for b in _l(entry.get("content"))
                if _d(b).get("type") == "tool_result"
            ]
        elif wire == "bedrock-converse":
            out += [
                Answer(str(_d(result).get("toolUseId", "")), "")
                for result in (_d(b).get("toolResult") for b in _l(entry.get("content")))
                if isinstance(result, dict)
            ]
        elif wire == "gemini":
            for part in _l(entry.get("parts")):
                response = _d(_d(part).get("functionResponse"))
                if response:
                    out.append(Answer(str(response.get("id") or ""), str(response.get("name", ""))))
        elif wire == "openai-responses":
            if entry.get("type") in ("function_call_output", "custom_tool_call_output"):
                out.append(Answer(str(entry.get("call_id", "")), ""))
        elif entry.get("role") == "tool":
            out.append(Answer(str(entry.get("tool_call_id", "")), ""))
    return out


def echo(wire: str, entries: list[Json]) -> Echo:
    """The assistant turn among ``entries`` (those after the previous request's conversation)."""
    text = ""
    arguments: dict[str, Json] = {}
    for raw in entries:
        entry = _d(raw)
        if wire == "anthropic" and entry.get("role") == "assistant":
            content = entry.get("content")
            if isinstance(content, str):
                text += content
            for b in _l(content):
                block = _d(b)
                if block.get("type") == "text":
                    text += str(block.get("text", ""))
                elif block.get("type") == "tool_use":
                    arguments[str(block.get("id", ""))] = block.get("input")
        elif wire == "bedrock-converse" and entry.get("role") == "assistant":
            for b in _l(entry.get("content")):
                block = _d(b)
                if isinstance(block.get("text"), str):
                    text += block["text"]
                tool = _d(block.get("toolUse"))
                if tool:
                    arguments[str(tool.get("toolUseId", ""))] = tool.get("input")
        elif wire == "gemini" and entry.get("role") == "model":
            for p in _l(entry.get("parts")):
                part = _d(p)
                call = _d(part.get("functionCall"))
                if call:
                    # known by position among the calls (Gemini ids are optional), and by id when sent
                    arguments[f"#{sum(k.startswith('#') for k in arguments)}"] = call.get("args")
                    if call.get("id"):
                        arguments[str(call["id"])] = call.get("args")
                elif isinstance(part.get("text"), str) and not part.get("thought"):
                    text += part["text"]
        elif wire == "openai-responses":
            if entry.get("type") in ("function_call", "custom_tool_call"):
                arguments[str(entry.get("call_id", ""))] = entry.get("arguments", entry.get("input"))
            elif entry.get("role") == "assistant":
                content = entry.get("content")
                if isinstance(content, str):
                    text += content
                text += "".join(
                    str(_d(p).get("text", ""))
                    for p in _l(content)
                    if _d(p).get("type") in ("output_text", "input_text")
                )
        elif wire == "openai-chat" and entry.get("role") == "assistant":
            content = entry.get("content")
            if isinstance(content, str):
                text += content
            text += "".join(str(_d(p).get("text", "")) for p in _l(content) if _d(p).get("type") == "text")
            for c in _l(entry.get("tool_calls")):
                call = _d(c)
                arguments[str(call.get("id", ""))] = _d(call.get("function")).get("arguments")
    return Echo(text, arguments)


def strings(value: Json) -> Iterator[str]:
    """Every string value in a JSON document (where echoed reasoning payloads are looked for)."""
    stack: list[Json] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack += list(cast(dict[str, Any], item).values())
        elif isinstance(item, list):
            stack += cast(list[Any], item)

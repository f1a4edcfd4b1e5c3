"""Provider-neutral views of a request body, so each invariant is written once for five providers.

The checks read only what the provider's own documentation defines (message lists,
roles, tool call / result units, system carriers, signature fields), never the
reference adapter's internals, so they judge third-party targets the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.contract.providers import CHAT_DIALECTS
from harness.invariants.base import Json, as_dict, as_list
from harness.invariants.memo import same_args

__all__ = [
    "LIST_KEY",
    "ToolTurn",
    "WireCall",
    "WireResult",
    "signature_fields",
    "system_carriers",
    "tool_turns",
    "wire_messages",
    "wire_role",
]

#: Where each provider keeps the conversation (the list prefix stability is judged on).
LIST_KEY: dict[str, str] = {
    "anthropic": "messages",
    "openai-chat": "messages",
    "openrouter": "messages",
    "openai-responses": "input",
    "gemini": "contents",
    "bedrock": "messages",
    **dict.fromkeys(CHAT_DIALECTS, "messages"),
    "cohere": "messages",
}

# Cohere v2 Chat keeps Chat's message shape: roles, ``tool_calls`` (OpenAI function shape) and
# ``tool`` messages with ``tool_call_id`` (cohere SDK ChatMessageV2), so its calls and results read alike.
_CHAT = frozenset({"openai-chat", "openrouter", *CHAT_DIALECTS, "cohere"})
_RESPONSES_ASSISTANT_ITEMS = frozenset({"function_call", "reasoning"})


def wire_messages(provider: str, body: Json) -> list[Json]:
    """The conversation list (non-object entries are skipped; I12 reports those)."""
    return [d for d in (as_dict(m) for m in as_list(body.get(LIST_KEY.get(provider, "messages")))) if d]


def wire_role(provider: str, item: Json) -> str:
    """``user`` / ``assistant`` / ``tool`` / ``system`` / ``developer`` (or the raw value)."""
    if provider == "gemini":
        role = str(item.get("role", "user"))
        return "assistant" if role == "model" else role
    if provider == "openai-responses":
        kind = item.get("type", "message")
        if kind in _RESPONSES_ASSISTANT_ITEMS:
            return "assistant"
        if kind == "function_call_output":
            return "tool"
        return str(item.get("role", kind))
    return str(item.get("role", ""))


@dataclass(frozen=True)
class WireCall:
    id: str | None
    name: str | None
    arguments: Any
    position: int


@dataclass(frozen=True)
class WireResult:
    """A tool result unit. ``container`` is where developer parts appended to it belong."""

    id: str | None
    position: int
    unit: Json
    container: Json
    text: str | None
    is_error: bool | None
    name: str | None = None
    #: Every value that may carry the result's text: Gemini's ``functionResponse.response`` keys are free-form.
    values: tuple[Any, ...] = ()


@dataclass
class ToolTurn:
    """One assistant turn's calls and the results sent before the next assistant turn."""

    position: int
    calls: list[WireCall] = field(default_factory=list[WireCall])
    results: list[WireResult] = field(default_factory=list[WireResult])


def _first_text(content: Any, text_types: frozenset[str]) -> str | None:
    if isinstance(content, str):
        return content
    for block in as_list(content):
        d = as_dict(block)
        if d is not None and d.get("type") in text_types and isinstance(d.get("text"), str):
            text: str = d["text"]
            return text
    return None


def _bedrock_blocks(item: Json, key: str) -> list[Json]:
    """Bedrock Converse content blocks are unions keyed by kind (``{"toolUse": {...}}``)."""
    return [b for b in (as_dict((as_dict(x) or {}).get(key)) for x in as_list(item.get("content"))) if b]


def _calls(provider: str, pos: int, item: Json) -> list[WireCall]:
    if provider == "bedrock":  # client tools only: a server tool's result rides in the same message
        return [
            WireCall(b.get("toolUseId"), b.get("name"), b.get("input"), pos)
            for b in _bedrock_blocks(item, "toolUse")
            if b.get("type") != "server_tool_use"
        ]
    if provider == "anthropic":
        blocks = [b for b in (as_dict(x) for x in as_list(item.get("content"))) if b]
        return [
            WireCall(b.get("id"), b.get("name"), b.get("input"), pos)
            for b in blocks
            if b.get("type") == "tool_use"
        ]
    if provider in _CHAT:
        out: list[WireCall] = []
        for call in as_list(item.get("tool_calls")):
            d = as_dict(call) or {}
            function = as_dict(d.get("function")) or {}
            out.append(WireCall(d.get("id"), function.get("name"), function.get("arguments"), pos))
        return out
    if provider == "openai-responses":
        if item.get("type") == "function_call":
            return [WireCall(item.get("call_id"), item.get("name"), item.get("arguments"), pos)]
        return []
    if provider == "gemini":
        out = []
        for part in as_list(item.get("parts")):
            call = as_dict((as_dict(part) or {}).get("functionCall"))
            if call is not None:
                out.append(WireCall(call.get("id"), call.get("name"), call.get("args"), pos))
        return out
    return []


def _results(provider: str, pos: int, item: Json) -> list[WireResult]:
    if provider == "bedrock":
        out_b: list[WireResult] = []
        for b in _bedrock_blocks(item, "toolResult"):
            texts = [(as_dict(c) or {}).get("text") for c in as_list(b.get("content"))]
            text = next((t for t in texts if isinstance(t, str)), None)
            out_b.append(WireResult(b.get("toolUseId"), pos, b, item, text, b.get("status") == "error"))
        return out_b
    if provider == "anthropic":
        out: list[WireResult] = []
        for block in as_list(item.get("content")):
            b = as_dict(block)
            if b is not None and b.get("type") == "tool_result":
                text = _first_text(b.get("content"), frozenset({"text"}))
                out.append(WireResult(b.get("tool_use_id"), pos, b, item, text, b.get("is_error") is True))
        return out
    if provider in _CHAT:
        if item.get("role") != "tool":
            return []
        text = _first_text(item.get("content"), frozenset({"text"}))
        return [WireResult(item.get("tool_call_id"), pos, item, item, text, None)]
    if provider == "openai-responses":
        if item.get("type") != "function_call_output":
            return []
        text = _first_text(item.get("output"), frozenset({"input_text"}))
        return [WireResult(item.get("call_id"), pos, item, item, text, None)]
    if provider == "gemini":
        out = []
        for part in as_list(item.get("parts")):
            response = as_dict((as_dict(part) or {}).get("functionResponse"))
            if response is None:
                continue
            payload = as_dict(response.get("response")) or {}
            value = payload.get("output", payload.get("error"))
            text = value if isinstance(value, str) else None
            is_error = "error" in payload
            out.append(
                WireResult(
                    response.get("id"),
                    pos,
                    response,
                    item,
                    text,
                    is_error,
                    response.get("name"),
                    tuple(payload.values()),
                )
            )
        return out
    return []


@same_args
def tool_turns(provider: str, body: Json) -> tuple[list[ToolTurn], list[WireResult]]:
    """Assistant turns with their calls and following results, plus results before any turn.

    A Responses turn is a run of consecutive assistant-side items (reasoning, message,
    function_call); every other provider has one assistant message per turn.
    """
    turns: list[ToolTurn] = []
    orphans: list[WireResult] = []
    previous_role = ""
    for pos, item in enumerate(wire_messages(provider, body)):
        role = wire_role(provider, item)
        if role == "assistant":
            if not (provider == "openai-responses" and previous_role == "assistant" and turns):
                turns.append(ToolTurn(pos))
            turns[-1].calls.extend(_calls(provider, pos, item))
        else:
            results = _results(provider, pos, item)
            (turns[-1].results if turns else orphans).extend(results)
        previous_role = role
    return turns, orphans


def system_carriers(provider: str, body: Json) -> list[str]:
    """Each place the body carries a system prompt (``top-level`` field or a message position)."""
    found: list[str] = []
    top = {
        "anthropic": "system",
        "openai-responses": "instructions",
        "gemini": "systemInstruction",
        "bedrock": "system",
    }.get(provider)
    if top is not None and body.get(top) not in (None, "", []):
        found.append(top)
    for pos, item in enumerate(wire_messages(provider, body)):
        if wire_role(provider, item) in ("system", "developer") and item.get("type", "message") == "message":
            found.append(f"{LIST_KEY[provider]}[{pos}]")
    return found


def signature_fields(provider: str, body: Json) -> list[tuple[str, str, Json]]:
    """(field, value, the unit holding it) for every field that carries opaque reasoning state."""
    out: list[tuple[str, str, Json]] = []
    for pos, item in enumerate(wire_messages(provider, body)):
        if provider == "bedrock":
            for reasoning in _bedrock_blocks(item, "reasoningContent"):
                text = as_dict(reasoning.get("reasoningText")) or {}
                if "signature" in text:
                    out.append((f"messages[{pos}].reasoningText.signature", str(text["signature"]), text))
                if "redactedContent" in reasoning:
                    out.append(
                        (f"messages[{pos}].redactedContent", str(reasoning["redactedContent"]), reasoning)
                    )
        elif provider == "anthropic":
            for block in as_list(item.get("content")):
                b = as_dict(block) or {}
                if b.get("type") == "thinking":
                    out.append((f"messages[{pos}].thinking.signature", str(b.get("signature", "")), b))
                elif b.get("type") == "redacted_thinking":
                    out.append((f"messages[{pos}].redacted_thinking.data", str(b.get("data", "")), b))
        elif provider == "openai-responses" and item.get("type") == "reasoning":
            out.append((f"input[{pos}].encrypted_content", str(item.get("encrypted_content", "")), item))
        elif provider == "gemini":
            for part in as_list(item.get("parts")):
                p = as_dict(part) or {}
                if "thoughtSignature" in p:
                    out.append((f"contents[{pos}].thoughtSignature", str(p["thoughtSignature"]), p))
        elif provider in _CHAT:
            for detail in as_list(item.get("reasoning_details")):
                d = as_dict(detail) or {}
                if "signature" in d:
                    out.append((f"messages[{pos}].reasoning_details.signature", str(d["signature"]), d))
                if d.get("type") == "reasoning.encrypted":
                    out.append((f"messages[{pos}].reasoning_details.data", str(d.get("data", "")), d))
    return out

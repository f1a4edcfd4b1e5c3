"""Rules every provider shares in spirit: a conversation must not be empty; tool names have a syntax;
a system text is sent once."""

from __future__ import annotations

import re
from typing import Any

from harness.contract.providers import wire_entry
from harness.rules.base import Rule, RuleFinding, as_dict, as_list

__all__ = ["COMMON_RULES"]


def _empty_conversation(
    provider: str, wire: str, body: dict[str, Any], model: str | None
) -> list[RuleFinding]:
    key = wire_entry(wire).list_key
    value = body.get(key)
    if wire == "openai-responses":
        # A string input is one user message; a continuation or a stored prompt brings its own turns.
        continued = any(body.get(k) for k in ("previous_response_id", "conversation", "prompt"))
        if isinstance(value, str) or continued:
            return []
        if isinstance(value, list) and value:
            return []
    elif isinstance(value, list) and value:
        return []
    elif value is not None and not isinstance(value, list):
        return []  # a wrong type is the schema oracles' finding
    return [
        EMPTY_CONVERSATION.finding(
            key,
            f"`{key}` is {'missing' if value is None else 'empty'}: at least one message is required",
            {key: value},
            "the API answers 400 before the model sees anything",
        )
    ]


EMPTY_CONVERSATION = Rule(
    "empty-conversation",
    (),
    "reject",
    "the request carries no conversation (`messages: []`, Gemini `contents: []`, Responses `input` missing or `[]`)",
    (
        "Anthropic: 400 'messages: at least one message is required' "
        "(https://portkey.ai/error-library/input-validation-error-10153)",
        "OpenAI Chat: harness/oracles/specs/openai-openapi.json CreateChatCompletionRequest.messages minItems 1",
        "Gemini: 400 '* GenerateContentRequest.contents: contents is not specified' "
        "(https://github.com/NousResearch/hermes-agent/pull/57942, https://github.com/googleapis/js-genai/issues/912)",
        "OpenAI Responses: no primary source found for `input: []`; a request with no input, "
        "previous_response_id, conversation or prompt has no turn to answer "
        "(https://platform.openai.com/docs/api-reference/responses/create)",
    ),
    _empty_conversation,
    invariant="I8",
    wires=("anthropic", "gemini", "openai-chat", "openai-responses"),
)

_OPENAI_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_ANTHROPIC_NAME = re.compile(r"[a-zA-Z0-9_-]{1,128}")
_GEMINI_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}")


def _names(wire: str, body: dict[str, Any]) -> list[tuple[str, str]]:
    """(path, name) of every client-defined function tool."""
    out: list[tuple[str, str]] = []
    for i, raw in enumerate(as_list(body.get("tools"))):
        tool = as_dict(raw)
        if wire == "openai-chat" and tool.get("type") == "function":
            name = as_dict(tool.get("function")).get("name")
            if isinstance(name, str):
                out.append((f"tools/{i}/function/name", name))
        elif (wire == "openai-responses" and tool.get("type") == "function") or (
            wire == "anthropic" and tool.get("type") in (None, "custom")
        ):
            if isinstance(name := tool.get("name"), str):
                out.append((f"tools/{i}/name", name))
        elif wire == "gemini":
            for key in ("functionDeclarations", "function_declarations"):
                for j, decl in enumerate(as_list(tool.get(key))):
                    if isinstance(name := as_dict(decl).get("name"), str):
                        out.append((f"tools/{i}/{key}/{j}/name", name))
    return out


def _tool_names(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    pattern, said = {
        "anthropic": (_ANTHROPIC_NAME, "must match ^[a-zA-Z0-9_-]{1,128}$"),
        "gemini": (
            _GEMINI_NAME,
            "must start with a letter or an underscore and contain only a-z, A-Z, "
            "0-9, underscores, dots, colons and dashes, max length 64",
        ),
    }.get(wire, (_OPENAI_NAME, "must match ^[a-zA-Z0-9_-]+$, max length 64"))
    return [
        TOOL_NAME.finding(
            path,
            f"tool name {name!r} {said}",
            {"name": name},
            "the API rejects the whole request, not just this tool",
        )
        for path, name in _names(wire, body)
        if pattern.fullmatch(name) is None
    ]


TOOL_NAME = Rule(
    "tool-name-syntax",
    ("openai-chat", "openrouter"),
    "reject",
    "a function tool's name breaks the provider's name syntax",
    (
        "https://platform.openai.com/docs/api-reference/chat/create (function.name: 'Must be a-z, A-Z, "
        "0-9, or contain underscores and dashes, with a maximum length of 64')",
        "https://platform.openai.com/docs/api-reference/responses/create (tools[].name, same syntax)",
        "https://docs.anthropic.com/en/api/messages (tools[].name: ^[a-zA-Z0-9_-]{1,128}$; vendored "
        "spec harness/oracles/specs/anthropic-openapi.json, Tool.name)",
        "https://googleapis.github.io/java-genai/javadoc/google-genai/com.google.genai.types/"
        "-function-declaration/-builder/name.html (FunctionDeclaration.name: 'Must start with a letter "
        "or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with "
        "a maximum length of 64')",
    ),
    _tool_names,
    invariant="I12",
    wires=("anthropic", "gemini", "openai-responses"),
)

_SYSTEM_ROLES = ("system", "developer")


def _texts(value: Any) -> list[str]:
    """The text of a system carrier: a string, text blocks / parts, or a message's content."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        carrier = as_dict(value)
        if "parts" in carrier:
            return _texts(carrier.get("parts"))
        if "content" in carrier:
            return _texts(carrier.get("content"))
        text = carrier.get("text")
        return [text] if isinstance(text, str) else []
    return [t for item in as_list(value) for t in _texts(item)]


def _system_blocks(wire: str, body: dict[str, Any]) -> list[tuple[str, str]]:
    """(path, text) of every system block: the top-level carrier's blocks, then system/developer messages."""
    top, key = wire_entry(wire).system_field, wire_entry(wire).list_key
    out: list[tuple[str, str]] = []
    if top is not None:
        value = body.get(top)
        blocks = as_list(as_dict(value).get("parts")) if wire == "gemini" else value
        if isinstance(blocks, list):
            out += [(f"{top}/{i}", t) for i, b in enumerate(as_list(blocks)) for t in _texts(b)]
        else:
            out += [(top, t) for t in _texts(blocks)]
    for i, raw in enumerate(as_list(body.get(key))):
        message = as_dict(raw)
        if message.get("role") in _SYSTEM_ROLES and message.get("type", "message") == "message":
            out += [(f"{key}/{i}", "".join(_texts(message.get("content"))))]
    return out


def _system_once(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    seen: dict[str, str] = {}
    out: list[RuleFinding] = []
    for path, text in _system_blocks(wire, body):
        key = text.strip()
        if not key:
            continue
        if key in seen:
            out.append(
                SYSTEM_ONCE.finding(
                    path,
                    f"the system text of {seen[key]} is sent again here ({len(key)} characters): expected "
                    "each system text once",
                    {"text": key},
                    "the API accepts it, but the prompt is paid twice and the copy occupies cache prefix",
                )
            )
        else:
            seen[key] = path
    return out


SYSTEM_ONCE = Rule(
    "system-text-once",
    ("openai-chat", "openrouter"),
    "policy",
    "the same system text is not sent in two system blocks (`system` blocks, `instructions`, "
    "`systemInstruction` parts, system/developer messages)",
    (
        "DESIGN 'Provider rules': system prompt exactly once",
        "No provider documents a 400 for it and no evidence was found that the model does worse "
        "(so `policy`, not `degrade`): the cost is the prompt's tokens paid twice, and on Anthropic a "
        "cache_control breakpoint (at most 4 per request, "
        "https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching) spent on the copy",
    ),
    _system_once,
    invariant="I8",
    wires=("anthropic", "gemini", "openai-responses"),
)

COMMON_RULES: tuple[Rule, ...] = (EMPTY_CONVERSATION, TOOL_NAME, SYSTEM_ONCE)

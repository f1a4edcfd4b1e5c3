"""The scenario DSL: short builders for canonical history events, call params and tool specs.

The corpus (``corpus/<topic>.py``) is written with these, and tests use them too, so a
history reads like the conversation it stands for. Builders validate through the model, so
a malformed event fails where it is written. Synthetic signatures and ids are deterministic
stand-ins (``fake_signature``/``fake_encrypted``/``fake_id``): history files stay byte-stable.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from pydantic import JsonValue

from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    FilePart,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    StopReason,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    ToolStatus,
    Usage,
    UserMessage,
)
from harness.params import CallParams, ToolSpec
from harness.scenarios import TAGS

__all__ = [
    "AssistantPart",
    "Body",
    "assistant",
    "at",
    "call",
    "developer",
    "fake_encrypted",
    "fake_id",
    "fake_signature",
    "registered",
    "result",
    "scenario",
    "signature",
    "system",
    "t",
    "thinking",
    "tool",
    "usage",
    "user",
]

Body = tuple[CallParams, list[HistoryEvent]]
_BUILDERS: list[tuple[Callable[[], Body], tuple[str, ...]]] = []


def registered() -> list[tuple[Callable[[], Body], tuple[str, ...]]]:
    """Every scenario function registered so far with its sorted tags (import ``corpus`` first)."""
    return list(_BUILDERS)


def scenario(*tags: str) -> Callable[[Callable[[], Body]], Callable[[], Body]]:
    """Register a scenario function; unknown tags fail at import so typos cannot hide."""
    unknown = sorted(set(tags) - TAGS)
    if unknown:
        raise ValueError(f"unknown tags {unknown}")

    def register(fn: Callable[[], Body]) -> Callable[[], Body]:
        _BUILDERS.append((fn, tuple(sorted(set(tags)))))
        return fn

    return register


def t(text: str) -> TextPart:
    """A text part."""
    return TextPart(text=text)


def user(*parts: str | TextPart | ImageURLPart | ImageFilePart | FilePart, **kw: object) -> UserMessage:
    """A user message; plain strings become text parts."""
    return UserMessage.model_validate({"parts": [t(p) if isinstance(p, str) else p for p in parts], **kw})


def developer(*parts: str | TextPart | ImageURLPart | ImageFilePart, **kw: object) -> DeveloperMessage:
    """A developer message; plain strings become text parts, ``kw`` sets its UI-only fields."""
    return DeveloperMessage.model_validate(
        {"parts": [t(p) if isinstance(p, str) else p for p in parts], **kw}
    )


def system(text: str) -> SystemMessage:
    """A system message of one text part."""
    return SystemMessage(parts=[t(text)])


#: Any part an assistant message may hold: the model's own union, so a new part kind reaches the DSL.
AssistantPart = AnyPart


def assistant(
    *parts: str | AssistantPart,
    stop: StopReason | None = None,
    usage: Usage | None = None,
    response_id: str | None = None,
    created_at: datetime | None = None,
    id: str | None = None,
) -> AssistantMessage:
    """An assistant message; plain strings become text parts (the corpus always gives stop and usage)."""
    return AssistantMessage(
        parts=[t(p) if isinstance(p, str) else p for p in parts],
        stop_reason=stop,
        usage=usage,
        response_id=response_id,
        created_at=created_at,
        id=id,
    )


def usage(
    input_tokens: int,
    output_tokens: int,
    *,
    cached: int | None = None,
    cache_creation: int | None = None,
    reasoning: int | None = None,
) -> Usage:
    """Usage as the output adapters report it; ``input_tokens`` includes cached tokens."""
    return Usage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cached_input_tokens=cached,
        cache_creation_input_tokens=cache_creation,
        reasoning_tokens=reasoning,
        total_tokens=input_tokens + output_tokens,
    )


def call(
    call_id: str, name: str, arguments: str | dict[str, object] = "{}", item_id: str | None = None
) -> ToolCallPart:
    """A tool call; a dict is encoded compactly, a string is kept verbatim (it may be "" or invalid)."""
    args = (
        arguments
        if isinstance(arguments, str)
        else json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    )
    return ToolCallPart(call_id=call_id, tool_name=name, arguments_json=args, item_id=item_id)


def result(
    of: ToolCallPart,
    output: str,
    status: ToolStatus = "success",
    *,
    images: Sequence[ImageURLPart | ImageFilePart | FilePart] = (),
    created_at: datetime | None = None,
    output_json: JsonValue = None,
    blocks: Sequence[str] = (),
    positions: Sequence[int] = (),
) -> ToolResultMessage:
    """The result of ``of``: same call id and tool name, so pairing is right by construction.
    ``images``: its images and files; ``output_json``: its structured value; ``blocks``: the
    text blocks ``output`` is made of, when the tool gave several (their concatenation);
    ``positions``: for each image or file, the text blocks before it (text after a part)."""
    if blocks and "".join(blocks) != output:
        raise ValueError("a result's blocks concatenate to its output")
    return ToolResultMessage(
        call_id=of.call_id,
        tool_name=of.tool_name,
        status=status,
        output_text=output,
        output_json=output_json,
        text_blocks=[len(b) for b in blocks] if len(blocks) > 1 else None,
        parts=list(images),
        part_positions=list(positions) or None,
        created_at=created_at,
    )


def thinking(text: str, model: str, id: str | None = None) -> ThinkingTextPart:
    """Thinking text produced by ``model`` (its provenance decides whether it can be replayed)."""
    return ThinkingTextPart(text=text, model_id=model, id=id)


def signature(value: str, fmt: str, model: str, id: str | None = None) -> ThinkingSignaturePart:
    """A thinking signature in format ``fmt`` produced by ``model``."""
    return ThinkingSignaturePart(signature=value, format=fmt, model_id=model, id=id)


def fake_signature(seed: str, size: int = 240) -> str:
    """A deterministic stand-in for an opaque signature: standard base64, like Anthropic/Gemini ones."""
    return base64.b64encode(hashlib.shake_256(seed.encode()).digest(size)).decode()


def fake_encrypted(seed: str, size: int = 720) -> str:
    """A deterministic stand-in for Responses ``encrypted_content`` (Fernet-like ``gAAAAAB`` + base64url)."""
    return "gAAAAAB" + base64.urlsafe_b64encode(hashlib.shake_256(seed.encode()).digest(size)).decode()


def fake_id(prefix: str, seed: str, length: int) -> str:
    """A deterministic provider-style id (``rs_``/``fc_`` hex, ``toolu_`` base62-ish)."""
    digest = hashlib.sha256(seed.encode()).hexdigest() * 2
    return prefix + digest[: length - len(prefix)]


def at(minute: int, second: int = 0) -> datetime:
    """A fixed UTC timestamp (history files must be byte-stable)."""
    return datetime(2025, 11, 3, 9, 0, 0, tzinfo=UTC) + timedelta(minutes=minute, seconds=second)


def tool(
    name: str, description: str, properties: dict[str, object], required: Sequence[str] = ()
) -> ToolSpec:
    """A tool spec whose parameters are an object schema of ``properties`` (``required`` when given)."""
    schema: dict[str, object] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return ToolSpec.model_validate({"name": name, "description": description, "parameters": schema})

"""What every stream emitter shares: the representability rules common to all providers, and wire helpers.

An emitter is the inverse of a reference output adapter (``harness.stream``): it writes
the SSE body a provider would send for a canonical assistant message. It is pure (no
clock, no randomness), so a failing property example replays byte for byte.
"""

from __future__ import annotations

import json
import re
from itertools import pairwise
from typing import Any

from harness.model import (
    AssistantMessage,
    FilePart,
    ImageFilePart,
    ImageURLPart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    Usage,
)

__all__ = [
    "CREATED",
    "NotRepresentable",
    "check_common",
    "dumps",
    "json_object",
    "message_model",
    "nonnegative",
    "pieces",
    "sse",
]

#: The ``created`` timestamp every emitted stream carries (no clock: a fixed instant).
CREATED = 1_767_225_600  # 2026-01-01T00:00:00Z

_STOPS = ("stop", "length", "tool_use", "error")


class NotRepresentable(ValueError):
    """The message cannot be sent by this provider as it stands (the reason is the message)."""


def dumps(value: Any) -> str:
    """Compact JSON with raw UTF-8, as the providers send it (one SSE ``data:`` line: no raw newlines)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def sse(data: Any, event: str | None = None) -> str:
    """One SSE event; ``data`` is JSON-encoded unless it is already a string (``[DONE]``)."""
    body = data if isinstance(data, str) else dumps(data)
    return (f"event: {event}\n" if event else "") + f"data: {body}\n\n"


def pieces(text: str, count: int = 3) -> list[str]:
    """``text`` cut into at most ``count`` non-empty, nearly equal pieces (``[""]`` for ``""``).

    Deterministic, and fine-grained enough that every multi-character value crosses an
    event boundary: the parser must concatenate, never overwrite.
    """
    if len(text) <= 1:
        return [text]
    count = min(count, len(text))
    cuts = [len(text) * i // count for i in range(count + 1)]
    return [text[a:b] for a, b in pairwise(cuts)]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_object(text: str) -> dict[str, Any] | None:
    """``text`` parsed as a strict JSON object (no NaN/Infinity), else None."""
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None  # pyright: ignore[reportUnknownVariableType]


_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(text: str) -> bool:
    return not text.isascii() and _SURROGATE.search(text) is not None


def _strings(message: AssistantMessage) -> list[str]:
    out: list[str] = []
    for part in message.parts:
        out.extend(v for v in part.model_dump().values() if isinstance(v, str))
    return out


def check_common(message: AssistantMessage, *, text_items: bool = False) -> str | None:
    """Rules every provider shares (the reason, or None).

    - ``stop_reason`` is set and not ``aborted``: a parser always reports one, and an
      interrupt is the client's doing, never something a stream says.
    - ``usage`` is set, with no negative count: a parser always reports one (zeros when
      the stream has none).
    - No image parts: no reference parser maps a model-generated image.
    - A message with tool calls does not say ``stop``: every parser reports ``tool_use``
      for a turn that ends in calls.
    - Thinking and signature parts all carry one ``model_id``: the parser fills it
      from the stream's model.
    - Tool calls have a non-empty id and name (every provider sends both).
    - Strings are valid Unicode (no lone surrogates): the wire is UTF-8.
    - Text parts carry no ``item_id`` / ``phase`` unless ``text_items`` (only the
      Responses wire has message items; every other parser leaves both None).
    """
    if message.stop_reason is None:
        return "no stop_reason: a parsed message always has one"
    if message.stop_reason not in _STOPS:
        return f"stop_reason {message.stop_reason!r} is a client-side interrupt; no provider stream says it"
    if message.usage is None:
        return "no usage: a parsed message always has one"
    negative = nonnegative(message.usage)
    if negative is not None:
        return negative
    has_calls = False
    for index, part in enumerate(message.parts):
        if isinstance(part, ImageURLPart | ImageFilePart):
            return f"part {index}: an {part.type} part has no form in a model's output stream"
        if isinstance(part, FilePart):
            return (
                f"part {index}: a generated file is not emitted (the emitters write text, reasoning, calls)"
            )
        if isinstance(part, TextPart) and not text_items and (part.item_id, part.phase) != (None, None):
            return f"part {index}: text item_id/phase are Responses message item fields; this wire has none"
        if isinstance(part, ToolCallPart):
            has_calls = True
            if not part.call_id or not part.tool_name:
                return f"part {index}: a tool call needs a non-empty call_id and tool_name"
    if has_calls and message.stop_reason == "stop":
        return (
            "stop_reason 'stop' with tool calls: every parser reports 'tool_use' for a turn ending in calls"
        )
    if (
        len({p.model_id for p in message.parts if isinstance(p, ThinkingTextPart | ThinkingSignaturePart)})
        > 1
    ):
        return "thinking parts carry different model_ids; one stream has one model"
    for part in message.parts:
        if isinstance(part, ThinkingTextPart | ThinkingSignaturePart) and not part.model_id:
            return "a thinking part without model_id: the parser fills it from the stream's model"
    if any(_has_surrogate(s) for s in _strings(message)):
        return "a string with a lone surrogate cannot be sent as UTF-8"
    return None


def message_model(message: AssistantMessage, model: str | None, default: str) -> str:
    """The stream's model: ``model``, else the thinking parts' ``model_id``, else ``default``.

    A ``model`` that contradicts the parts' ``model_id`` is an error: the parsed parts
    would carry the stream's model instead.
    """
    ids = {p.model_id for p in message.parts if isinstance(p, ThinkingTextPart | ThinkingSignaturePart)}
    ids.discard(None)
    found = next(iter(ids), None)
    if model == "":
        raise NotRepresentable("model must be non-empty (the parsers read '' as absent)")
    if model is not None and found is not None and found != model:
        raise NotRepresentable(f"model {model!r} differs from the parts' model_id {found!r}")
    return model or found or default


def nonnegative(usage: Usage) -> str | None:
    """Token counts are never negative on the wire."""
    for name, value in usage.model_dump().items():
        if isinstance(value, int) and value < 0:
            return f"usage.{name} is negative"
    return None

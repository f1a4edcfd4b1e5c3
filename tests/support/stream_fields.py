"""The fields of a provider's response that its official SDK's types do not declare.

A cassette filed under a provider, or a stream the harness writes for it, must hold that
provider's own fields only: a field of another provider (DeepSeek's ``reasoning_content`` in
an OpenAI Chat stream, Groq's ``x_groq``) tests a parser on a wire that does not exist. The
SDKs' pydantic types keep unknown keys (``extra="allow"``), drop them (``"ignore"``) or refuse
them (``"forbid"``, google-genai), and refuse shapes they lag behind; the walker below reads each
JSON object against the fields its type declares (by name or alias; a union's member by its
``type`` literal, else the closest), without validating, so all of them say the same thing.

Providers without an official SDK with response types (DeepSeek, Z.ai, OpenRouter) are not
judged here; Bedrock's streams are AWS binary frames (``harness.traffic.converse``), not JSON
events, and are not judged here either.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Sequence
from collections.abc import Sequence as abc_sequence
from types import UnionType
from typing import Annotated, Any, Literal, Union, cast, get_args, get_origin, get_type_hints

from pydantic import BaseModel

__all__ = ["JUDGED", "NOT_JUDGED", "events", "unknown_fields"]

Json = Any

#: Providers with no official SDK response types to judge by, and why.
NOT_JUDGED = {
    "deepseek": "no official SDK (DeepSeek documents the OpenAI SDK plus its own fields)",
    "zai": "no official Python SDK with response types installed",
    "openrouter": "no official Python SDK with response types installed",
    "bedrock": "AWS event-stream frames, not JSON events (botocore shapes, not pydantic types)",
}


def _openai_chat() -> tuple[Any, Any]:
    from openai.types.chat import ChatCompletion, ChatCompletionChunk

    return ChatCompletionChunk, ChatCompletion


def _openai_responses() -> tuple[Any, Any]:
    from openai.types.responses import Response, ResponseStreamEvent

    return ResponseStreamEvent, Response


def _anthropic() -> tuple[Any, Any]:
    from anthropic.types import Message, RawMessageStreamEvent

    return RawMessageStreamEvent, Message


def _gemini() -> tuple[Any, Any]:
    from google.genai.types import GenerateContentResponse

    return GenerateContentResponse, GenerateContentResponse


def _groq() -> tuple[Any, Any]:
    from groq.types.chat import ChatCompletion, ChatCompletionChunk

    return ChatCompletionChunk, ChatCompletion


def _mistral() -> tuple[Any, Any]:
    from mistralai.client.models import ChatCompletionResponse, CompletionChunk

    return CompletionChunk, ChatCompletionResponse


def _cerebras() -> tuple[Any, Any]:
    from cerebras.cloud.sdk.types.chat.chat_completion import ChatChunkResponse, ChatCompletionResponse

    return ChatChunkResponse, ChatCompletionResponse


def _cohere() -> tuple[Any, Any]:
    import cohere

    return cohere.StreamedChatResponseV2, cohere.V2ChatResponse


def _huggingface() -> tuple[Any, Any]:
    from huggingface_hub import ChatCompletionOutput, ChatCompletionStreamOutput

    return ChatCompletionStreamOutput, ChatCompletionOutput


#: Provider -> (stream event type, whole-response type) of its official SDK.
JUDGED: dict[str, Callable[[], tuple[Any, Any]]] = {
    "anthropic": _anthropic,
    "openai-chat": _openai_chat,
    "openai-responses": _openai_responses,
    "gemini": _gemini,
    "groq": _groq,
    "mistral": _mistral,
    "cerebras": _cerebras,
    "cohere": _cohere,
    "huggingface": _huggingface,
}


def events(body: bytes) -> tuple[list[Json], bool]:
    """The JSON objects of a response body and whether it streamed: SSE ``data:`` payloads (``[DONE]``
    and comments aside), a JSON array of chunks (Gemini without ``alt=sse``), or one JSON object."""
    text = body.decode("utf-8")
    stripped = text.lstrip()
    if stripped.startswith("["):
        return list(cast(list[Any], json.loads(stripped))), True
    if stripped.startswith("{"):
        return [json.loads(stripped)], False
    out: list[Json] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        data = "\n".join(line[5:].lstrip() for line in block.split("\n") if line.startswith("data:"))
        if data and data != "[DONE]":
            out.append(json.loads(data))
    return out, True


def unknown_fields(provider: str, body: bytes) -> list[str]:
    """``event N: path`` of every key the provider's SDK types do not declare (KeyError: not judged).

    An error event (a top-level ``error`` object, sent mid-stream in place of a chunk) is not a
    chunk and is not judged."""
    stream_type, whole_type = JUDGED[provider]()
    found: list[str] = []
    objects, streamed = events(body)
    for n, data in enumerate(objects):
        if isinstance(data, dict) and "error" in data and "choices" not in data and "type" not in data:
            continue
        found += [f"event {n}: {path}" for path in _walk(stream_type if streamed else whole_type, data, "")]
    return found


def _unwrap(kind: Any) -> Any:
    while get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    return kind


@functools.cache
def _declared(kind: Any) -> dict[str, tuple[str, Any]] | None:
    """The input keys a typed object declares -> (attribute, its type); None: not a typed object."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        names: dict[str, tuple[str, Any]] = {}
        for name, spec in kind.model_fields.items():
            names[name] = (name, spec.annotation)
            for alias in (spec.alias, spec.validation_alias):
                if isinstance(alias, str):
                    names[alias] = (name, spec.annotation)
        return names
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints: dict[str, Any] = get_type_hints(kind)
        fields: tuple[dataclasses.Field[Any], ...] = dataclasses.fields(kind)
        return {f.name: (f.name, hints.get(f.name, Any)) for f in fields}
    return None


def _members(kind: Any) -> list[Any]:
    """A union's member types (None and sentinels aside), or the type itself."""
    kind = _unwrap(kind)
    if get_origin(kind) in (Union, UnionType):
        return [m for arg in get_args(kind) for m in _members(arg) if m is not type(None)]
    return [kind]


def _type_literal(kind: Any) -> tuple[Any, ...]:
    names = _declared(kind) if isinstance(kind, type) else None
    if not names or "type" not in names:
        return ()
    literal = _unwrap(names["type"][1])
    for member in _members(literal):
        if get_origin(member) is Literal:
            return get_args(member)
    return ()


def _walk(kind: Any, data: Json, path: str) -> list[str]:
    members = _members(kind)
    if len(members) > 1:
        if isinstance(data, dict):
            tag = cast(dict[str, Any], data).get("type")
            tagged = [m for m in members if tag is not None and tag in _type_literal(m)]
            if tagged:
                members = tagged
        tries = [_walk(m, data, path) for m in members]
        return min(tries, key=len)
    kind = members[0] if members else Any
    origin = get_origin(kind)
    if isinstance(data, list) and origin in (list, tuple, Sequence, abc_sequence):
        args = get_args(kind)
        item = args[0] if args else Any
        return [f for i, sub in enumerate(cast(list[Any], data)) for f in _walk(item, sub, f"{path}[{i}]")]
    names = _declared(kind) if isinstance(kind, type) else None
    if names is None or not isinstance(data, dict):
        return []  # a scalar, or a free-form dict (tool input, a JSON schema): no declared keys inside
    out: list[str] = []
    for key, sub in cast(dict[str, Any], data).items():
        at = f"{path}.{key}" if path else key
        if key not in names:
            out.append(at)
        else:
            out += _walk(names[key][1], sub, at)
    return out

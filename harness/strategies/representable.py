"""Per-provider representable assistant messages: what a provider's stream can carry (I11).

For the round trip ``parse(emit(m)) == m``: each provider gets only the parts, usage
fields and stop reasons its stream format can express.
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from harness.contract.providers import CHAT_DIALECTS
from harness.emit import representable
from harness.emit.dialects import USAGE_DETAILS
from harness.model import (
    AnyPart,
    AssistantMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    Usage,
)
from harness.strategies.parts import ids, optional_ids, text, timestamps

#: Model names a provider's stream carries (the parser copies it into thinking ``model_id``).
PROVIDER_MODELS: dict[str, tuple[str, ...]] = {
    "anthropic": ("claude-sonnet-4-5-20250929", "claude-opus-4-1"),
    "gemini": ("gemini-3-pro-preview", "gemini-2.5-flash"),
    "openai-chat": ("gpt-4.1-mini-2025-04-14", "gpt-4o-2024-08-06"),
    "openai-responses": ("gpt-5-2025-08-07", "o3"),
    "openrouter": ("anthropic/claude-sonnet-4.5", "openai/o3", "google/gemini-3-pro-preview"),
    # Bedrock's stream names no model (thinking ``model_id`` stays None); histories use these.
    "bedrock": ("us.anthropic.claude-sonnet-4-5-20250929-v1:0",),
    # the OpenAI-compatible dialects (issue 27), models of their recordings
    "mistral": ("mistral-large-latest", "magistral-small-latest"),
    "groq": ("openai/gpt-oss-120b", "qwen/qwen3-32b"),
    "deepseek": ("deepseek-reasoner", "deepseek-v4-flash"),
    "cerebras": ("zai-glm-4.7", "llama-3.3-70b"),
    "zai": ("glm-4.7", "glm-5.2"),
    "huggingface": ("deepseek-ai/DeepSeek-R1",),
    # Cohere's stream names no model either (thinking ``model_id`` stays None).
    "cohere": ("command-a-reasoning-08-2025", "command-r7b-12-2024"),
}
OPENROUTER_FORMATS = (
    "anthropic-claude-v1",
    "openai-responses-v1",
    "google-gemini-v1",
    "xai-responses-v1",
    "unknown",
)

nonempty_text = st.text(min_size=1, max_size=30)
#: Signatures as the providers send them: base64 of opaque bytes.
signatures = st.binary(min_size=1, max_size=24).map(lambda raw: base64.b64encode(raw).decode("ascii"))
_arg_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=10)
)
arg_objects = st.dictionaries(
    st.text(max_size=8), _arg_scalars | st.lists(_arg_scalars, max_size=2), max_size=3
)
tool_names = st.sampled_from(["read", "bash", "search"])
NO_ID: st.SearchStrategy[str | None] = st.none()


def compact_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@functools.cache
def _tool_args(provider: str) -> st.SearchStrategy[str]:
    """Arguments as each provider can carry them: Gemini an object (compact), Anthropic any
    spelling of an object, the OpenAI wires any string."""
    if provider == "gemini":
        return arg_objects.map(compact_json)
    spelled = st.sampled_from([(", ", ": "), (",", ":")])
    objects = st.builds(lambda d, sep: json.dumps(d, separators=sep), arg_objects, spelled)  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    if provider in ("anthropic", "bedrock"):
        return objects
    return objects | st.sampled_from(["", "{not json", "[1]", '{"a": '])


@functools.cache
def signature_parts(
    fmt: str, model: str, id: st.SearchStrategy[str | None] = NO_ID
) -> st.SearchStrategy[ThinkingSignaturePart]:
    return st.builds(
        ThinkingSignaturePart, id=id, signature=signatures, model_id=st.just(model), format=st.just(fmt)
    )


@functools.cache
def _thinking(
    model: str, text: st.SearchStrategy[str], id: st.SearchStrategy[str | None] = NO_ID
) -> st.SearchStrategy[ThinkingTextPart]:
    return st.builds(ThinkingTextPart, id=id, text=text, model_id=st.just(model))


def _one(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[list[AnyPart]]:
    return strategy.map(lambda part: [part])  # pyright: ignore[reportUnknownLambdaType]


def _pair(first: st.SearchStrategy[Any], second: st.SearchStrategy[Any]) -> st.SearchStrategy[list[AnyPart]]:
    return st.tuples(first, second).map(list)  # pyright: ignore[reportUnknownArgumentType]


def _signed(
    unit: st.SearchStrategy[Any], signature: st.SearchStrategy[Any]
) -> st.SearchStrategy[list[AnyPart]]:
    """A part, then (optionally) its signature."""
    return _one(unit) | _pair(unit, signature)


@st.composite
def _responses_reasoning(draw: st.DrawFn, model: str) -> list[AnyPart]:
    """One reasoning item: 0-2 summary texts and/or its encrypted_content, all with the item's id."""
    item = "rs_" + draw(ids)
    count = draw(st.integers(0, 2))
    parts: list[AnyPart] = [draw(_thinking(model, nonempty_text, st.just(item))) for _ in range(count)]
    if count == 0 or draw(st.booleans()):
        parts.append(draw(signature_parts("openai-responses", model, st.just(item))))
    return parts


@st.composite
def _responses_message(draw: st.DrawFn) -> list[AnyPart]:
    """One message item: 1-2 output_text parts, all with the item's msg_ id and phase."""
    item = "msg_" + draw(ids)
    phase = draw(st.sampled_from([None, "commentary", "final_answer"]))
    count = draw(st.integers(1, 2))
    return [TextPart(text=draw(nonempty_text), item_id=item, phase=phase) for _ in range(count)]


@functools.cache  # strategies are costly to build and validate: once per argument set
def _units(provider: str, model: str) -> st.SearchStrategy[list[AnyPart]]:
    """One unit of a provider's output (a part, or a part with its signature)."""
    text_unit = _one(st.builds(TextPart, text=nonempty_text))
    calls = st.builds(
        ToolCallPart,
        call_id=ids,
        tool_name=tool_names,
        arguments_json=_tool_args(provider),
        item_id=st.builds(lambda s: "fc_" + s, ids) if provider == "openai-responses" else st.none(),  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    )
    if provider == "anthropic":
        return st.one_of(
            text_unit,
            _pair(_thinking(model, text), signature_parts("anthropic", model)),
            _one(signature_parts("anthropic-redacted", model)),
            _one(calls),
        )
    if provider == "gemini":
        google = signature_parts("google", model)
        return st.one_of(
            _signed(st.builds(TextPart, text=nonempty_text), google),
            _signed(_thinking(model, nonempty_text), google),
            _signed(calls, google),
            _one(google),
        )
    if provider == "openai-responses":
        return st.one_of(_responses_message(), _responses_reasoning(model), _one(calls))
    if provider == "bedrock":  # the stream names no model: reasoning parts carry none
        unnamed = st.builds(ThinkingTextPart, text=text)
        signed = st.builds(ThinkingSignaturePart, signature=signatures, format=st.just("bedrock"))
        redacted = st.builds(ThinkingSignaturePart, signature=signatures, format=st.just("bedrock-redacted"))
        return st.one_of(text_unit, _signed(unnamed, signed), _one(redacted), _one(calls))
    if provider == "cohere":  # unsigned thinking text with no model; arguments never empty
        cohere_calls = calls.filter(lambda c: bool(c.arguments_json))  # pyright: ignore[reportUnknownLambdaType, reportUnknownMemberType]
        return st.one_of(text_unit, _one(st.builds(ThinkingTextPart, text=nonempty_text)), _one(cohere_calls))
    if provider == "openrouter":
        fmt = st.sampled_from(OPENROUTER_FORMATS)
        signature = st.builds(
            ThinkingSignaturePart,
            id=optional_ids,
            signature=signatures,
            model_id=st.just(model),
            format=fmt,
        )
        return st.one_of(
            text_unit, _signed(_thinking(model, text, optional_ids), signature), _one(signature), _one(calls)
        )
    return st.one_of(text_unit, _one(_thinking(model, nonempty_text)), _one(calls))


def _anthropic_usage(
    raw: int, read: int | None, created: int | None, out: int, thinking: int | None
) -> Usage:
    """Anthropic's input_tokens excludes cache reads and writes; the canonical one includes them."""
    return Usage(
        input_tokens=raw + (read or 0) + (created or 0),
        output_tokens=out,
        cached_input_tokens=read,
        cache_creation_input_tokens=created,
        reasoning_tokens=thinking,
    )


def _gemini_usage(
    prompt: int, candidates: int, cached: int | None, thoughts: int | None, total: int
) -> Usage:
    """Gemini bills thoughts as output: canonical output = candidates + thoughts."""
    return Usage(
        input_tokens=prompt,
        output_tokens=candidates + (thoughts or 0),
        cached_input_tokens=cached,
        reasoning_tokens=thoughts,
        total_tokens=total,
    )


@functools.cache
def _usages_for(provider: str) -> st.SearchStrategy[Usage]:
    """Usage a provider's stream can report (see each emitter's representability rules)."""
    count = st.integers(0, 10**6)
    maybe = st.none() | count
    if provider == "anthropic":
        return st.builds(_anthropic_usage, count, maybe, maybe, count, maybe)
    if provider == "gemini":
        return st.builds(_gemini_usage, count, count, maybe, maybe, count)
    if provider == "bedrock":  # the same usage rules as Anthropic's (see harness.emit.bedrock)
        return st.builds(_anthropic_usage, count, maybe, maybe, count, st.none())
    if provider == "cohere":  # input, output and cached tokens only (see harness.emit.cohere)
        return st.builds(Usage, input_tokens=count, output_tokens=count, cached_input_tokens=maybe)
    required = count if provider == "openai-responses" else maybe
    usage = st.builds(
        Usage,
        input_tokens=count,
        output_tokens=count,
        cached_input_tokens=required,
        cache_creation_input_tokens=maybe,
        reasoning_tokens=required,
        total_tokens=count,
    )
    return usage.map(lambda u: _carried(provider, u))


def _carried(provider: str, usage: Usage) -> Usage:
    """``usage`` without the counts a dialect's stream does not report (``USAGE_DETAILS``)."""
    carried = USAGE_DETAILS.get(provider)
    if carried is None:
        return usage
    names = ("cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens")
    return usage.model_copy(update={n: None for n in names if n not in carried})


def _probe(provider: str) -> Usage:
    if provider in ("anthropic", "bedrock", "cohere"):
        return Usage()
    return _carried(provider, Usage(cached_input_tokens=0, reasoning_tokens=0, total_tokens=0))


def _keep_representable(provider: str, units: Sequence[list[AnyPart]]) -> list[AnyPart]:
    """Units in order, skipping any that would make the message unrepresentable.

    A greedy repair instead of a filter: a drawn list always yields a message, and
    shrinking removes units one by one.
    """
    parts: list[AnyPart] = []
    usage = _probe(provider)
    for unit in units:
        candidate = parts + unit
        if (
            representable(provider, AssistantMessage(parts=candidate, usage=usage, stop_reason="length"))
            is None
        ):
            parts = candidate
    return parts


def _stops(provider: str, has_calls: bool) -> list[str]:
    if has_calls:
        return ["tool_use", "length", "error"]
    loose = provider in (
        "anthropic",
        "openai-chat",
        "openrouter",
        "bedrock",
        *CHAT_DIALECTS,
    )  # their finish reason says tool_use itself
    return ["stop", "length", "error", *(["tool_use"] if loose else [])]


@st.composite
def representable_messages(draw: st.DrawFn, provider: str, *, max_units: int = 5) -> AssistantMessage:
    """Assistant messages ``provider``'s stream can carry (``harness.emit.representable`` is None).

    Thinking parts carry the stream's model (one per message); ``id``, ``created_at`` and
    ``response_id`` are drawn too, since the round trip must ignore them.
    """
    model = draw(st.sampled_from(PROVIDER_MODELS[provider]))
    parts = _keep_representable(provider, draw(st.lists(_units(provider, model), max_size=max_units)))
    has_calls = any(isinstance(p, ToolCallPart) for p in parts)
    return AssistantMessage(
        parts=parts,
        usage=draw(_usages_for(provider)),
        stop_reason=draw(st.sampled_from(_stops(provider, has_calls))),  # pyright: ignore[reportArgumentType]
        id=draw(optional_ids),
        created_at=draw(timestamps),
        response_id=draw(optional_ids),
    )

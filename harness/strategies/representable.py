"""Per-provider representable assistant messages: what a provider's stream can carry (I11).

For the round trip ``parse(emit(m)) == m``: each provider gets only the parts, usage
fields and stop reasons its stream format can express. The shape of each wire's stream
(what a part looks like, which parts the stream delivers as one when two come in a row,
which usage counts it reports) is stated here per wire, as each emitter documents it
(``harness/emit/<wire>.py``), and messages are built to fit it, never filtered through the
emitters: a generator that asked an emitter would lose every message that emitter wrongly
refused, and the round trip would pass on what is left. The round trip tests hold every
generated message to the emitters (``representable(provider, m) is None``).
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from harness.contract.providers import PROVIDER_TABLE, provider_entry
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

#: Model names a provider's stream carries (the parser copies it into thinking ``model_id``),
#: from the provider table; Bedrock's and Cohere's streams name none (histories use these).
PROVIDER_MODELS: dict[str, tuple[str, ...]] = {e.id: e.stream_models for e in PROVIDER_TABLE}
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


def _calls(args: st.SearchStrategy[str], item_ids: bool = False) -> st.SearchStrategy[ToolCallPart]:
    """Tool calls with ``args`` as their arguments (``fc_`` item ids on the Responses wire)."""
    return st.builds(
        ToolCallPart,
        call_id=ids,
        tool_name=tool_names,
        arguments_json=args,
        item_id=st.builds(lambda s: "fc_" + s, ids) if item_ids else st.none(),  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    )


_spelled_objects = st.builds(
    lambda d, sep: json.dumps(d, separators=sep),  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    arg_objects,
    st.sampled_from([(", ", ": "), (",", ":")]),
)
#: Arguments as a wire carries them: Gemini an object (compact), Anthropic and Bedrock any
#: spelling of an object, the OpenAI wires any string (Cohere a non-empty one).
_OBJECT_ARGS = _spelled_objects
_ANY_ARGS = _spelled_objects | st.sampled_from(["", "{not json", "[1]", '{"a": '])
_COMPACT_ARGS = arg_objects.map(compact_json)


def _text_unit() -> st.SearchStrategy[list[AnyPart]]:
    return _one(st.builds(TextPart, text=nonempty_text))


def _anthropic_units(model: str) -> st.SearchStrategy[list[AnyPart]]:
    return st.one_of(
        _text_unit(),
        _pair(_thinking(model, text), signature_parts("anthropic", model)),
        _one(signature_parts("anthropic-redacted", model)),
        _one(_calls(_OBJECT_ARGS)),
    )


def _gemini_units(model: str) -> st.SearchStrategy[list[AnyPart]]:
    google = signature_parts("google", model)
    return st.one_of(
        _signed(st.builds(TextPart, text=nonempty_text), google),
        _signed(_thinking(model, nonempty_text), google),
        _signed(_calls(_COMPACT_ARGS), google),
        _one(google),
    )


def _responses_units(model: str) -> st.SearchStrategy[list[AnyPart]]:
    return st.one_of(
        _responses_message(), _responses_reasoning(model), _one(_calls(_ANY_ARGS, item_ids=True))
    )


def _bedrock_units(model: str) -> st.SearchStrategy[list[AnyPart]]:
    """The stream names no model: reasoning parts carry none."""
    unnamed = st.builds(ThinkingTextPart, text=text)
    signed = st.builds(ThinkingSignaturePart, signature=signatures, format=st.just("bedrock"))
    redacted = st.builds(ThinkingSignaturePart, signature=signatures, format=st.just("bedrock-redacted"))
    return st.one_of(_text_unit(), _signed(unnamed, signed), _one(redacted), _one(_calls(_OBJECT_ARGS)))


def _cohere_units(model: str) -> st.SearchStrategy[list[AnyPart]]:
    """Unsigned thinking text with no model; arguments never empty."""
    calls = _calls(_ANY_ARGS).filter(lambda c: bool(c.arguments_json))  # pyright: ignore[reportUnknownLambdaType, reportUnknownMemberType]
    return st.one_of(_text_unit(), _one(st.builds(ThinkingTextPart, text=nonempty_text)), _one(calls))


def _chat_units(model: str) -> st.SearchStrategy[list[AnyPart]]:
    """A Chat dialect's: reasoning text in its own delta field."""
    return st.one_of(_text_unit(), _one(_thinking(model, nonempty_text)), _one(_calls(_ANY_ARGS)))


def _openai_chat_units(model: str) -> st.SearchStrategy[list[AnyPart]]:
    """OpenAI's own Chat stream carries no reasoning (``reasoning_content`` is DeepSeek's field)."""
    return st.one_of(_text_unit(), _one(_calls(_ANY_ARGS)))


def _reasoning_details_units(model: str) -> st.SearchStrategy[list[AnyPart]]:
    """Chat with signed reasoning (OpenRouter's ``reasoning_details``): any of its formats."""
    signature = st.builds(
        ThinkingSignaturePart,
        id=optional_ids,
        signature=signatures,
        model_id=st.just(model),
        format=st.sampled_from(OPENROUTER_FORMATS),
    )
    return st.one_of(
        _text_unit(),
        _signed(_thinking(model, text, optional_ids), signature),
        _one(signature),
        _one(_calls(_ANY_ARGS)),
    )


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


_count = st.integers(0, 10**6)
_maybe = st.none() | _count


def _openai_usage(required: st.SearchStrategy[int | None]) -> st.SearchStrategy[Usage]:
    return st.builds(
        Usage,
        input_tokens=_count,
        output_tokens=_count,
        cached_input_tokens=required,
        cache_creation_input_tokens=_maybe,
        reasoning_tokens=required,
        total_tokens=_count,
    )


def _merged_text(parts: Sequence[AnyPart], unit: Sequence[AnyPart]) -> bool:
    return isinstance(unit[0], TextPart) and bool(parts) and isinstance(parts[-1], TextPart)


def _merged_chat(parts: Sequence[AnyPart], unit: Sequence[AnyPart]) -> bool:
    """Chat deltas of one kind in a row are one part: text after text, reasoning after reasoning."""
    kinds = (TextPart, ThinkingTextPart)
    return bool(parts) and any(isinstance(unit[0], k) and isinstance(parts[-1], k) for k in kinds)


def _merged_gemini(parts: Sequence[AnyPart], unit: Sequence[AnyPart]) -> bool:
    """A text (or thought) piece after one of its kind continues it, unless both are signed."""
    if not parts:
        return False
    signed_before = isinstance(parts[-1], ThinkingSignaturePart) and len(parts) > 1
    before = parts[-2] if signed_before else parts[-1]
    signed_now = len(unit) > 1 and isinstance(unit[1], ThinkingSignaturePart)
    same = any(isinstance(unit[0], k) and isinstance(before, k) for k in (TextPart, ThinkingTextPart))
    return same and not (signed_before and signed_now)


def _item_ids(parts: Sequence[AnyPart]) -> set[str]:
    """Every Responses item id and call id of ``parts``."""
    found: set[str] = set()
    for part in parts:
        if isinstance(part, TextPart) and part.item_id:
            found.add(part.item_id)
        elif isinstance(part, ThinkingTextPart | ThinkingSignaturePart) and part.id:
            found.add(part.id)
        elif isinstance(part, ToolCallPart):
            found |= {part.call_id, *([part.item_id] if part.item_id else [])}
    return found


def _clashes_responses(parts: Sequence[AnyPart], unit: Sequence[AnyPart]) -> bool:
    """Each Responses item has its own id, and each call its own call_id; an encrypted_content
    right after a summary text is that item's."""
    lone_signature = isinstance(unit[0], ThinkingSignaturePart)
    return bool(_item_ids(parts) & _item_ids(unit)) or (
        lone_signature and bool(parts) and isinstance(parts[-1], ThinkingTextPart)
    )


def _never_clashes(parts: Sequence[AnyPart], unit: Sequence[AnyPart]) -> bool:
    return False


@dataclass(frozen=True)
class _Stream:
    """What one wire's stream can say: its units, its usage, and which unit cannot follow ``parts``."""

    units: Callable[[str], st.SearchStrategy[list[AnyPart]]]
    usage: st.SearchStrategy[Usage]
    #: Whether ``unit`` after ``parts`` would read back as something else.
    clashes: Callable[[Sequence[AnyPart], Sequence[AnyPart]], bool]
    #: Whether the finish reason itself says ``tool_use`` (so a turn without calls may end so).
    says_tool_use: bool = False


_ANTHROPIC = _Stream(
    _anthropic_units,
    st.builds(_anthropic_usage, _count, _maybe, _maybe, _count, _maybe),
    _never_clashes,
    True,
)
_CHAT = _Stream(_openai_chat_units, _openai_usage(_maybe), _merged_chat, True)
#: Streams by (wire, whether the provider signs its reasoning): a wire's providers share its
#: stream; OpenRouter signs Chat reasoning in ``reasoning_details``.
_STREAMS: dict[tuple[str, bool], _Stream] = {
    ("anthropic", True): _ANTHROPIC,
    ("gemini", True): _Stream(
        _gemini_units, st.builds(_gemini_usage, _count, _count, _maybe, _maybe, _count), _merged_gemini
    ),
    ("openai-chat", False): _CHAT,
    ("openai-chat", True): _Stream(_reasoning_details_units, _openai_usage(_maybe), _merged_text, True),
    ("openai-responses", True): _Stream(_responses_units, _openai_usage(_count), _clashes_responses),
    # the same usage rules as Anthropic's, no reasoning count (see harness.emit.bedrock)
    ("bedrock-converse", True): _Stream(
        _bedrock_units,
        st.builds(_anthropic_usage, _count, _maybe, _maybe, _count, st.none()),
        _never_clashes,
        True,
    ),
    # input, output and cached tokens only (see harness.emit.cohere)
    ("cohere-v2", False): _Stream(
        _cohere_units,
        st.builds(Usage, input_tokens=_count, output_tokens=_count, cached_input_tokens=_maybe),
        _never_clashes,
    ),
}


_USAGE_DETAILS = ("cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens")


@functools.cache
def _dialect_stream(provider: str) -> _Stream:
    """A Chat dialect's stream: Chat's, with reasoning in its own field and only the usage details
    its stream reports (``ChatDialect.usage_details``)."""
    dialect = provider_entry(provider).chat
    assert dialect is not None
    dropped = {name: None for name in _USAGE_DETAILS if name not in dialect.usage_details}
    usage = _openai_usage(_maybe).map(lambda u: u.model_copy(update=dropped))
    return _Stream(_chat_units, usage, _merged_chat, True)


def _stream(provider: str) -> _Stream:
    entry = provider_entry(provider)
    if entry.chat is not None:
        return _dialect_stream(provider)
    return _STREAMS[entry.wire, bool(entry.signature_formats)]


@functools.cache  # strategies are costly to build and validate: once per argument set
def _units(provider: str, model: str) -> st.SearchStrategy[list[AnyPart]]:
    """One unit of a provider's output (a part, or a part with its signature)."""
    return _stream(provider).units(model)


def _keep_fitting(provider: str, units: Sequence[list[AnyPart]]) -> list[AnyPart]:
    """Units in order, skipping any that the stream would read back as something else.

    A greedy repair instead of a filter: a drawn list always yields a message, and
    shrinking removes units one by one.
    """
    clashes = _stream(provider).clashes
    parts: list[AnyPart] = []
    for unit in units:
        if unit and not clashes(parts, unit):
            parts = parts + unit
    return parts


def _stops(provider: str, has_calls: bool) -> list[str]:
    if has_calls:
        return ["tool_use", "length", "error"]
    loose = _stream(provider).says_tool_use  # the finish reason says tool_use itself
    return ["stop", "length", "error", *(["tool_use"] if loose else [])]


@st.composite
def representable_messages(draw: st.DrawFn, provider: str, *, max_units: int = 5) -> AssistantMessage:
    """Assistant messages ``provider``'s stream can carry (``harness.emit.representable`` is None).

    Thinking parts carry the stream's model (one per message); ``id``, ``created_at`` and
    ``response_id`` are drawn too, since the round trip must ignore them.
    """
    model = draw(st.sampled_from(PROVIDER_MODELS[provider]))
    parts = _keep_fitting(provider, draw(st.lists(_units(provider, model), max_size=max_units)))
    has_calls = any(isinstance(p, ToolCallPart) for p in parts)
    return AssistantMessage(
        parts=parts,
        usage=draw(_stream(provider).usage),
        stop_reason=draw(st.sampled_from(_stops(provider, has_calls))),  # pyright: ignore[reportArgumentType]
        id=draw(optional_ids),
        created_at=draw(timestamps),
        response_id=draw(optional_ids),
    )

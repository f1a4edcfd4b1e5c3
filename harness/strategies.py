"""Hypothesis strategies for the canonical model.

Three families, all built from small lists and samples so that failures shrink to short,
readable histories (no filter-heavy strategies):

- any *valid* model object (``histories``, ``history_events``, ...): what the codec
  round trip and never-crash checks need;
- per-provider representable assistant messages (``representable_messages``): what a
  provider's stream can carry, for the I11 round trip ``parse(emit(m)) == m``;
- agent loops as an agent CLI produces them (``agent_loops``, ``well_formed_turn``) and
  their adversarial mutations (``adversarial_histories``), for the input-side invariants
  and never-crash checks of the request adapters.
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from hypothesis import strategies as st

from harness.emit import representable
from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    ErrorEvent,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    SystemMessage,
    TaskMetadataEvent,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    ToolStatus,
    Usage,
    UserMessage,
)

__all__ = [
    "NASTY_TEXT",
    "PROVIDERS",
    "PROVIDER_MODELS",
    "adversarial_histories",
    "agent_loops",
    "assistant_messages",
    "content_parts",
    "histories",
    "history_events",
    "ids",
    "image_parts",
    "loop_contract_violations",
    "representable_messages",
    "text",
    "usages",
    "well_formed_turn",
]

SIGNATURE_FORMATS = (
    "anthropic",
    "anthropic-redacted",
    "openai-responses",
    "google",
    "anthropic-claude-v1",
    "openai-responses-v1",
    "google-gemini-v1",
)

#: Any text, including non-ASCII, empty and whitespace; shrinks towards "".
text = st.text(max_size=40)
ids = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-.:", min_size=1, max_size=24)
optional_ids = st.none() | ids
model_ids = st.none() | st.sampled_from(["claude-sonnet-4-5", "gpt-5", "gemini-3-pro-preview", "o3"])
timestamps = st.none() | st.datetimes(
    min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC)
)
json_scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=10)


def _json_args() -> st.SearchStrategy[str]:
    import json

    objects = st.dictionaries(st.text(max_size=8), json_scalars, max_size=3)
    return objects.map(lambda d: json.dumps(d, sort_keys=True)) | st.sampled_from(
        ["", "{}", "{not json", "[1]"]
    )


text_parts = st.builds(TextPart, text=text)
#: Real, decodable 1x1 images (each opened and decoded by Pillow when written), so a target
#: or provider that inspects image bytes sees an image, never a bare header.
TINY_IMAGES: dict[str, str] = {
    "image/png": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "image/gif": "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7",
    "image/webp": "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==",
    "image/jpeg": (
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRT"
        "c4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj"
        "Y2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAEDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAw"
        "QFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkK"
        "FhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmq"
        "KjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEB"
        "AQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRob"
        "HBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOE"
        "hYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+P"
        "n6/9oADAMBAAIRAxEAPwDFoooryz7w/9k="
    ),
}
_DATA_URLS = tuple(f"data:{mime};base64,{data}" for mime, data in sorted(TINY_IMAGES.items()))

image_url_parts = st.builds(
    ImageURLPart,
    url=st.sampled_from(
        [
            "https://example.com/cat.png",
            *_DATA_URLS,
        ]
    ),
    id=optional_ids,
)
image_file_parts = st.builds(
    ImageFilePart,
    file_path=st.sampled_from(["/tmp/out.png", "images/plot.webp"]),
    mime_type=st.none() | st.sampled_from(["image/png", "image/webp"]),
    byte_size=st.none() | st.integers(0, 10_000),
    sha256=st.none() | st.just("0" * 64),
)
image_parts = image_url_parts | image_file_parts
content_parts = text_parts | image_parts
thinking_text_parts = st.builds(ThinkingTextPart, id=optional_ids, text=text, model_id=model_ids)
thinking_signature_parts = st.builds(
    ThinkingSignaturePart,
    id=optional_ids,
    signature=st.text(alphabet="ABCDEFabcdef0123456789+/=", max_size=32),
    model_id=model_ids,
    format=st.none() | st.sampled_from(SIGNATURE_FORMATS),
)
tool_call_parts = st.builds(
    ToolCallPart,
    call_id=ids,
    tool_name=st.sampled_from(["read", "bash", "search"]),
    arguments_json=_json_args(),
    item_id=optional_ids,
)
usages = st.builds(
    Usage,
    input_tokens=st.integers(0, 10**6),
    output_tokens=st.integers(0, 10**6),
    cached_input_tokens=st.none() | st.integers(0, 10**6),
    cache_creation_input_tokens=st.none() | st.integers(0, 10**6),
    reasoning_tokens=st.none() | st.integers(0, 10**6),
    total_tokens=st.none() | st.integers(0, 10**6),
)
assistant_parts = content_parts | thinking_text_parts | thinking_signature_parts | tool_call_parts

_common = {"id": optional_ids, "created_at": timestamps, "response_id": optional_ids}

system_messages = st.builds(SystemMessage, parts=st.lists(text_parts, max_size=2), **_common)
developer_messages = st.builds(
    DeveloperMessage,
    parts=st.lists(content_parts, max_size=3),
    command_output=st.none() | text,
    at_files=st.none() | st.lists(st.just("src/app.py"), max_size=2),
    ui_extra=st.none() | st.just({"kind": "reminder"}),
    **_common,
)
user_messages = st.builds(UserMessage, parts=st.lists(content_parts, max_size=3), **_common)
assistant_messages = st.builds(
    AssistantMessage,
    parts=st.lists(assistant_parts, max_size=5),
    usage=st.none() | usages,
    stop_reason=st.none() | st.sampled_from(["stop", "length", "tool_use", "error", "aborted"]),
    **_common,
)
tool_messages = st.builds(
    ToolResultMessage,
    call_id=ids,
    tool_name=st.sampled_from(["read", "bash", "search"]),
    status=st.sampled_from(["success", "error", "aborted"]),
    output_text=text,
    parts=st.lists(image_parts, max_size=2),
    ui_extra=st.none() | st.just({"diff": "+1 -0"}),
    side_effects=st.none() | st.just(["todo_changed"]),
    task_metadata=st.none() | st.just({"duration_ms": 12}),
    **_common,
)
error_events = st.builds(
    ErrorEvent,
    error_message=text,
    created_at=timestamps,
    response_id=optional_ids,
    can_retry=st.none() | st.booleans(),
)
task_metadata_events = st.builds(
    TaskMetadataEvent,
    created_at=timestamps,
    metadata=st.dictionaries(st.text(max_size=8), json_scalars, max_size=3),
)

history_events: st.SearchStrategy[HistoryEvent] = st.one_of(
    user_messages,
    assistant_messages,
    tool_messages,
    developer_messages,
    system_messages,
    error_events,
    task_metadata_events,
)
histories = st.lists(history_events, max_size=8)


# ---------------------------------------------------------------- per-provider representable messages (I11)

PROVIDERS: tuple[str, ...] = ("anthropic", "gemini", "openai-chat", "openai-responses", "openrouter")
#: Model names a provider's stream carries (the parser copies it into thinking ``model_id``).
PROVIDER_MODELS: dict[str, tuple[str, ...]] = {
    "anthropic": ("claude-sonnet-4-5-20250929", "claude-opus-4-1"),
    "gemini": ("gemini-3-pro-preview", "gemini-2.5-flash"),
    "openai-chat": ("gpt-4.1-mini-2025-04-14", "deepseek-reasoner"),
    "openai-responses": ("gpt-5-2025-08-07", "o3"),
    "openrouter": ("anthropic/claude-sonnet-4.5", "openai/o3", "google/gemini-3-pro-preview"),
}
_OPENROUTER_FORMATS = (
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
_arg_objects = st.dictionaries(
    st.text(max_size=8), _arg_scalars | st.lists(_arg_scalars, max_size=2), max_size=3
)
_tool_names = st.sampled_from(["read", "bash", "search"])
_NO_ID: st.SearchStrategy[str | None] = st.none()


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@functools.cache
def _tool_args(provider: str) -> st.SearchStrategy[str]:
    """Arguments as each provider can carry them: Gemini an object (compact), Anthropic any
    spelling of an object, the OpenAI wires any string."""
    if provider == "gemini":
        return _arg_objects.map(_compact)
    spelled = st.sampled_from([(", ", ": "), (",", ":")])
    objects = st.builds(lambda d, sep: json.dumps(d, separators=sep), _arg_objects, spelled)  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    if provider == "anthropic":
        return objects
    return objects | st.sampled_from(["", "{not json", "[1]", '{"a": '])


@functools.cache
def _signature(
    fmt: str, model: str, id: st.SearchStrategy[str | None] = _NO_ID
) -> st.SearchStrategy[ThinkingSignaturePart]:
    return st.builds(
        ThinkingSignaturePart, id=id, signature=signatures, model_id=st.just(model), format=st.just(fmt)
    )


@functools.cache
def _thinking(
    model: str, text: st.SearchStrategy[str], id: st.SearchStrategy[str | None] = _NO_ID
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
        parts.append(draw(_signature("openai-responses", model, st.just(item))))
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
        tool_name=_tool_names,
        arguments_json=_tool_args(provider),
        item_id=st.builds(lambda s: "fc_" + s, ids) if provider == "openai-responses" else st.none(),  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    )
    if provider == "anthropic":
        return st.one_of(
            text_unit,
            _pair(_thinking(model, text), _signature("anthropic", model)),
            _one(_signature("anthropic-redacted", model)),
            _one(calls),
        )
    if provider == "gemini":
        google = _signature("google", model)
        return st.one_of(
            _signed(st.builds(TextPart, text=nonempty_text), google),
            _signed(_thinking(model, nonempty_text), google),
            _signed(calls, google),
            _one(google),
        )
    if provider == "openai-responses":
        return st.one_of(_responses_message(), _responses_reasoning(model), _one(calls))
    if provider == "openrouter":
        fmt = st.sampled_from(_OPENROUTER_FORMATS)
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
    required = count if provider == "openai-responses" else maybe
    return st.builds(
        Usage,
        input_tokens=count,
        output_tokens=count,
        cached_input_tokens=required,
        cache_creation_input_tokens=maybe,
        reasoning_tokens=required,
        total_tokens=count,
    )


def _probe(provider: str) -> Usage:
    if provider == "anthropic":
        return Usage()
    return Usage(cached_input_tokens=0, reasoning_tokens=0, total_tokens=0)


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
    loose = provider in ("anthropic", "openai-chat", "openrouter")  # their finish reason says tool_use itself
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


# ---------------------------------------------------------------- agent loops


_REMINDERS = (
    "<system-reminder>README.md was modified by the user.</system-reminder>",
    "<system-reminder>The todo list is empty.</system-reminder>",
    "@src/app.py was attached.",
)
_IMAGE_URLS = ("https://example.com/cat.png", *_DATA_URLS)


def _image(url: str) -> ImageURLPart:
    return ImageURLPart(url=url)


_user_part: st.SearchStrategy[TextPart | ImageURLPart | ImageFilePart] = st.builds(
    TextPart, text=nonempty_text
) | st.sampled_from(_IMAGE_URLS).map(_image)


def _as_content(
    parts: Sequence[TextPart | ImageURLPart | ImageFilePart],
) -> list[TextPart | ImageURLPart | ImageFilePart]:
    return list(parts)


_user_parts = st.lists(_user_part, min_size=1, max_size=2).map(_as_content)
_reminder: st.SearchStrategy[TextPart | ImageURLPart | ImageFilePart] = st.sampled_from(_REMINDERS).map(
    lambda t: TextPart(text=t)
) | st.sampled_from(_IMAGE_URLS).map(_image)
_developer_messages = st.builds(
    DeveloperMessage,
    parts=st.lists(_reminder, min_size=1, max_size=2),
    command_output=st.none() | st.just("$ ls\nsrc tests"),
    at_files=st.none() | st.just(["src/app.py"]),
)


def _maybe_developer(draw: st.DrawFn) -> list[HistoryEvent]:
    return [draw(_developer_messages)] if draw(st.booleans()) else []


def _reasoning(draw: st.DrawFn, provider: str, model: str, step: int) -> list[AnyPart]:
    """Optional reasoning at the start of an assistant message, in ``provider``'s own format."""
    if not draw(st.booleans()):
        return []
    thought = draw(nonempty_text)
    if provider == "anthropic":
        if draw(st.integers(0, 3)) == 3:
            return [draw(_signature("anthropic-redacted", model))]
        return [ThinkingTextPart(text=thought, model_id=model), draw(_signature("anthropic", model))]
    if provider == "openai-responses":
        item = f"rs_{step}_{draw(ids)}"
        return [
            ThinkingTextPart(id=item, text=thought, model_id=model),
            draw(_signature("openai-responses", model, st.just(item))),
        ]
    if provider == "openrouter":
        fmt = draw(st.sampled_from(_OPENROUTER_FORMATS[:3]))
        return [ThinkingTextPart(text=thought, model_id=model), draw(_signature(fmt, model))]
    return [
        ThinkingTextPart(text=thought, model_id=model)
    ]  # Gemini thoughts and Chat reasoning carry no signature here


def _with_google_signature(draw: st.DrawFn, parts: list[AnyPart], model: str) -> list[AnyPart]:
    """Gemini signs the first function call of a step (or the answer text): the signature follows it."""
    target = next((i for i, p in enumerate(parts) if isinstance(p, ToolCallPart)), None)
    if target is None:
        target = next((i for i, p in enumerate(parts) if isinstance(p, TextPart)), None)
    if target is None or not draw(st.booleans()):
        return parts
    return [*parts[: target + 1], draw(_signature("google", model)), *parts[target + 1 :]]


class _Ids:
    """Call ids unique within one history, in the provider's own spelling."""

    def __init__(self, provider: str, taken: set[str] | None = None) -> None:
        self.prefix = "toolu_" if provider == "anthropic" else "call_"
        self.taken = set(taken or ())
        self.count = 0

    def __call__(self) -> str:
        while True:
            self.count += 1
            candidate = f"{self.prefix}{self.count:02d}"
            if candidate not in self.taken:
                self.taken.add(candidate)
                return candidate


def _usage_for_turn(draw: st.DrawFn) -> Usage:
    inputs, outputs = draw(st.integers(0, 5000)), draw(st.integers(0, 500))
    return Usage(input_tokens=inputs, output_tokens=outputs, total_tokens=inputs + outputs)


def _assistant_step(
    draw: st.DrawFn, provider: str, model: str, mint: _Ids, step: int, *, calls: int, final_text: bool
) -> tuple[AssistantMessage, list[ToolCallPart]]:
    parts = _reasoning(draw, provider, model, step)
    if final_text or draw(st.booleans()):
        parts.append(TextPart(text=draw(nonempty_text)))
    tool_calls = [
        ToolCallPart(
            call_id=mint(),
            tool_name=draw(_tool_names),
            arguments_json=draw(_arg_objects.map(_compact)),
            item_id=f"fc_{step}_{n}" if provider == "openai-responses" else None,
        )
        for n in range(calls)
    ]
    parts.extend(tool_calls)
    if provider == "gemini":
        parts = _with_google_signature(draw, parts, model)
    message = AssistantMessage(
        parts=parts,
        usage=_usage_for_turn(draw),
        stop_reason="tool_use" if tool_calls else "stop",
        response_id=f"resp_{step:02d}",
    )
    return message, tool_calls


_done_statuses: st.SearchStrategy[ToolStatus] = st.sampled_from(["success", "error"])


def _results(
    draw: st.DrawFn, calls: Sequence[ToolCallPart], *, aborted_from: int | None
) -> list[HistoryEvent]:
    """One result per call (same id and name), in call order or shuffled; calls from
    ``aborted_from`` on were interrupted (status ``aborted``)."""
    results: list[ToolResultMessage] = []
    for n, call in enumerate(calls):
        if aborted_from is not None and n >= aborted_from:
            status, output = "aborted", "Interrupted by user."
        else:
            status, output = draw(_done_statuses), draw(text)
        images: list[ImageURLPart | ImageFilePart] = []
        if draw(st.integers(0, 4)) == 4:
            images.append(_image(draw(st.sampled_from(_IMAGE_URLS))))
        results.append(
            ToolResultMessage(
                call_id=call.call_id,
                tool_name=call.tool_name,
                status=status,
                output_text=output,
                parts=images,
            )
        )
    ordered: list[ToolResultMessage] = draw(st.permutations(results)) if draw(st.booleans()) else results
    return [*ordered, *_maybe_developer(draw)]


def _turn(
    draw: st.DrawFn, provider: str, model: str, mint: _Ids, first_step: int, max_steps: int
) -> list[HistoryEvent]:
    """A user turn and the agent's steps until its final answer (or an interrupt)."""
    events: list[HistoryEvent] = [UserMessage(parts=draw(_user_parts)), *_maybe_developer(draw)]
    steps = draw(st.integers(0, max_steps))
    # 0: none; 1: the assistant is interrupted mid-step; 2: its tools are interrupted.
    interrupt = draw(st.integers(0, 5))
    interrupt = interrupt if interrupt in (1, 2) else 0
    for step in range(steps + 1):
        last = step == steps
        if last and interrupt == 1:
            # cut short: keeps what arrived; its calls (if any) are never answered
            message, _ = _assistant_step(
                draw,
                provider,
                model,
                mint,
                first_step + step,
                calls=draw(st.integers(0, 2)),
                final_text=False,
            )
            kept = draw(st.integers(0, len(message.parts)))
            events.append(
                message.model_copy(update={"parts": message.parts[:kept], "stop_reason": "aborted"})
            )
            return events
        message, tool_calls = _assistant_step(
            draw,
            provider,
            model,
            mint,
            first_step + step,
            calls=0 if last else draw(st.integers(1, 3)),
            final_text=last,
        )
        events.append(message)
        if tool_calls:
            interrupted = interrupt == 2 and step == steps - 1
            aborted_from = draw(st.integers(0, len(tool_calls) - 1)) if interrupted else None
            events.extend(_results(draw, tool_calls, aborted_from=aborted_from))
            if interrupted:
                return events  # the user speaks next
    return events


@st.composite
def agent_loops(
    draw: st.DrawFn, provider: str | None = None, *, max_turns: int = 3, max_steps: int = 3
) -> list[HistoryEvent]:
    """Valid histories as an agent loop produces them.

    A system prompt (sometimes), then user turns: a user message (text, images) with an
    optional developer attachment; assistant steps with optional reasoning in
    ``provider``'s format (drawn when None) and parallel tool calls; one result per call
    (same id and name, in call order or shuffled) and an optional developer attachment;
    a final answer. Interrupts: a step cut short (``stop_reason`` aborted, its calls never
    answered) or tools interrupted (results with status ``aborted``); the user speaks next.
    ``loop_contract_violations`` states the contract these histories satisfy.
    """
    chosen = provider or draw(st.sampled_from(PROVIDERS))
    model = draw(st.sampled_from(PROVIDER_MODELS[chosen]))
    mint = _Ids(chosen)
    history: list[HistoryEvent] = []
    if draw(st.booleans()):
        history.append(SystemMessage(parts=[TextPart(text="You are a coding agent.")]))
    for turn in range(draw(st.integers(1, max_turns))):
        history.extend(_turn(draw, chosen, model, mint, turn * (max_steps + 1), max_steps))
    return history


def _pending_calls(history: Sequence[HistoryEvent]) -> list[ToolCallPart]:
    """Calls of the newest assistant message that still wait for a result (none after an interrupt)."""
    for index in range(len(history) - 1, -1, -1):
        event = history[index]
        if isinstance(event, AssistantMessage):
            if event.stop_reason == "aborted":
                return []
            answered = {e.call_id for e in history[index + 1 :] if isinstance(e, ToolResultMessage)}
            return [p for p in event.parts if isinstance(p, ToolCallPart) and p.call_id not in answered]
    return []


def _infer_provider(history: Sequence[HistoryEvent]) -> str | None:
    for event in reversed(history):
        if isinstance(event, AssistantMessage):
            for part in event.parts:
                if isinstance(part, ThinkingSignaturePart):
                    fmt = part.format or ""
                    if fmt.startswith("anthropic") and "-v1" not in fmt:
                        return "anthropic"
                    if fmt == "openai-responses":
                        return "openai-responses"
                    if fmt == "google":
                        return "gemini"
                    return "openrouter"
                if isinstance(part, ToolCallPart) and part.item_id:
                    return "openai-responses"
    return None


@st.composite
def _next_turn(
    draw: st.DrawFn, history: tuple[HistoryEvent, ...], provider: str | None
) -> list[HistoryEvent]:
    chosen = provider or _infer_provider(history) or draw(st.sampled_from(PROVIDERS))
    model = draw(st.sampled_from(PROVIDER_MODELS[chosen]))
    taken = {
        p.call_id
        for e in history
        if isinstance(e, AssistantMessage)
        for p in e.parts
        if isinstance(p, ToolCallPart)
    }
    pending = _pending_calls(history)
    if pending:
        return _results(draw, pending, aborted_from=None)
    last = next((e for e in reversed(history) if not isinstance(e, ErrorEvent | TaskMetadataEvent)), None)
    if isinstance(last, UserMessage | DeveloperMessage | ToolResultMessage) and not _tools_interrupted(
        history
    ):
        step = sum(isinstance(e, AssistantMessage) for e in history)
        calls = draw(st.integers(0, 2))
        message, _ = _assistant_step(
            draw, chosen, model, _Ids(chosen, taken), step, calls=calls, final_text=calls == 0
        )
        return [message]
    return [UserMessage(parts=draw(_user_parts)), *_maybe_developer(draw)]


def _tools_interrupted(history: Sequence[HistoryEvent]) -> bool:
    """Whether a result since the newest assistant message was interrupted (the user speaks next)."""
    for event in reversed(history):
        if isinstance(event, AssistantMessage):
            return False
        if isinstance(event, ToolResultMessage) and event.status == "aborted":
            return True
    return False


def well_formed_turn(
    history: Sequence[HistoryEvent], provider: str | None = None
) -> st.SearchStrategy[list[HistoryEvent]]:
    """The events an agent loop appends next to ``history`` (for prefix stability, I9).

    Pending tool calls get their results; after a user, developer or tool message comes
    an assistant step (in ``provider``'s format, else the one the history uses); after an
    answer or an interrupt, a new user message. ``history + turn`` keeps the loop contract.
    """
    return _next_turn(tuple(history), provider)


def loop_contract_violations(history: Sequence[HistoryEvent], *, finished: bool = True) -> list[str]:
    """What breaks the agent-loop contract (empty for ``agent_loops`` output).

    Every tool call of an assistant message that was not interrupted has exactly one
    result, with the same id and tool name, after it and before the next assistant or
    user message; no result answers an unknown or already-answered call; call ids are
    unique. With ``finished=False`` (a loop mid-step, as ``well_formed_turn`` leaves it)
    the newest assistant message's calls may still be waiting.
    """
    problems: list[str] = []
    seen: set[str] = set()
    open_calls: dict[str, ToolCallPart] = {}
    owner: int | None = None

    def close(at: int) -> None:
        if owner is not None and open_calls:
            problems.append(f"message {owner}: calls {sorted(open_calls)} unanswered before message {at}")
        open_calls.clear()

    for index, event in enumerate(history):
        if isinstance(event, AssistantMessage):
            close(index)
            owner = index
            for part in event.parts:
                if isinstance(part, ToolCallPart):
                    if part.call_id in seen:
                        problems.append(f"message {index}: call id {part.call_id!r} used twice")
                    seen.add(part.call_id)
                    if event.stop_reason != "aborted":
                        open_calls[part.call_id] = part
        elif isinstance(event, ToolResultMessage):
            call = open_calls.pop(event.call_id, None)
            if call is None:
                problems.append(f"message {index}: result for {event.call_id!r} answers no open call")
            elif call.tool_name != event.tool_name:
                problems.append(
                    f"message {index}: result names {event.tool_name!r}, the call {call.tool_name!r}"
                )
        elif isinstance(event, UserMessage):
            close(index)
    if open_calls and finished:
        problems.append(f"message {owner}: calls {sorted(open_calls)} never answered")
    return problems


# ---------------------------------------------------------------- adversarial histories

#: Text that breaks naive encoders: non-ASCII scripts, emoji with modifiers, bidi
#: overrides, zero-width and combining marks, NUL and line separators, a lone surrogate
#: (valid in a JSONL line as "\ud800", not encodable as UTF-8).
NASTY_TEXT: tuple[str, ...] = (
    "héllo wörld",
    "日本語のテキスト",
    "👍🏽🧑‍💻",
    "\u202eevil\u202c",
    "zero\u200bwidth",
    "e\u0301",
    "nul\x00byte",
    "line\u2028sep\r\n",
    " ",
    "\ud800",
)
_LONG = 100_001
_FOREIGN_FORMATS = (*SIGNATURE_FORMATS, None, "xai-responses-v1", "unknown")
Mutation = Callable[[st.DrawFn, list[HistoryEvent]], list[HistoryEvent]]


def _positions(history: Sequence[HistoryEvent], kind: type[Any] | tuple[type[Any], ...]) -> list[int]:
    return [i for i, e in enumerate(history) if isinstance(e, kind)]


def _replace(history: list[HistoryEvent], index: int, event: HistoryEvent) -> list[HistoryEvent]:
    return [*history[:index], event, *history[index + 1 :]]


def _pick(
    draw: st.DrawFn, history: list[HistoryEvent], kind: type[Any] | tuple[type[Any], ...]
) -> int | None:
    found = _positions(history, kind)
    return draw(st.sampled_from(found)) if found else None


def _misplaced_developer(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """A developer message anywhere: first, after an assistant, twice in a row, alone."""
    at = draw(st.integers(0, len(history)))
    return [*history[:at], draw(_developer_messages), *history[at:]]


def _signature_anywhere(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """An orphan or foreign signature (any format, any model) at any place in an assistant message."""
    part = ThinkingSignaturePart(
        signature=draw(signatures | st.just("")),
        format=draw(st.sampled_from(_FOREIGN_FORMATS)),
        model_id=draw(model_ids),
        id=draw(optional_ids),
    )
    index = _pick(draw, history, AssistantMessage)
    if index is None:
        return [*history, AssistantMessage(parts=[part])]
    message = history[index]
    assert isinstance(message, AssistantMessage)
    at = draw(st.integers(0, len(message.parts)))
    return _replace(
        history, index, message.model_copy(update={"parts": [*message.parts[:at], part, *message.parts[at:]]})
    )


def _foreign_signature(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """A signature whose format or model belongs to another provider or model."""
    targets = [
        (i, n)
        for i, e in enumerate(history)
        if isinstance(e, AssistantMessage)
        for n, p in enumerate(e.parts)
        if isinstance(p, ThinkingSignaturePart)
    ]
    if not targets:
        return _signature_anywhere(draw, history)
    index, n = draw(st.sampled_from(targets))
    message = history[index]
    assert isinstance(message, AssistantMessage)
    part = message.parts[n]
    assert isinstance(part, ThinkingSignaturePart)
    changed = part.model_copy(
        update={"format": draw(st.sampled_from(_FOREIGN_FORMATS)), "model_id": draw(model_ids)}
    )
    parts = [*message.parts[:n], changed, *message.parts[n + 1 :]]
    return _replace(history, index, message.model_copy(update={"parts": parts}))


def _dangling_call(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """A tool call without its result (a result removed, or a call appended)."""
    index = _pick(draw, history, ToolResultMessage)
    if index is not None:
        return [*history[:index], *history[index + 1 :]]
    call = ToolCallPart(call_id=draw(ids), tool_name=draw(_tool_names), arguments_json=draw(_json_args()))
    return [*history, AssistantMessage(parts=[call], stop_reason="tool_use")]


def _duplicate_ids(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Two calls with one id, or one result twice."""
    calls = [
        (i, n)
        for i, e in enumerate(history)
        if isinstance(e, AssistantMessage)
        for n, p in enumerate(e.parts)
        if isinstance(p, ToolCallPart)
    ]
    if len(calls) >= 2 and draw(st.booleans()):
        (source_i, source_n), (target_i, target_n) = draw(st.permutations(calls))[:2]
        source, target = history[source_i], history[target_i]
        assert isinstance(source, AssistantMessage) and isinstance(target, AssistantMessage)
        copied, old = source.parts[source_n], target.parts[target_n]
        assert isinstance(copied, ToolCallPart) and isinstance(old, ToolCallPart)
        new = old.model_copy(update={"call_id": copied.call_id})
        parts = [*target.parts[:target_n], new, *target.parts[target_n + 1 :]]
        return _replace(history, target_i, target.model_copy(update={"parts": parts}))
    index = _pick(draw, history, ToolResultMessage)
    if index is None:
        call = ToolCallPart(call_id="dup", tool_name="bash", arguments_json="{}")
        twice = [call, call]
        result = ToolResultMessage(call_id="dup", tool_name="bash", status="success", output_text="ok")
        return [*history, AssistantMessage(parts=list[AnyPart](twice)), result, result]
    return [*history[: index + 1], history[index], *history[index + 1 :]]


def _orphan_result(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """A tool result for a call that is not there (trimmed history), anywhere."""
    at = draw(st.integers(0, len(history)))
    result = ToolResultMessage(
        call_id=draw(ids),
        tool_name=draw(_tool_names),
        status=draw(st.sampled_from(["success", "error", "aborted"])),
        output_text=draw(text),
        parts=draw(st.lists(image_parts, max_size=1)),
    )
    return [*history[:at], result, *history[at:]]


def _empty_parts(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """A message with no parts, or with an empty/whitespace text part; or empty tool arguments."""
    kinds: list[type[Any]] = [UserMessage, AssistantMessage, DeveloperMessage, SystemMessage]
    index = _pick(draw, history, draw(st.sampled_from(kinds)))
    if index is None:
        return [*history, AssistantMessage(parts=[], stop_reason="stop")]
    message = history[index]
    blank: list[Any] = draw(st.sampled_from([[], [TextPart(text="")], [TextPart(text=" \n")]]))
    if isinstance(message, AssistantMessage) and draw(st.booleans()):
        blank = [
            ThinkingTextPart(text=""),
            *blank,
            ToolCallPart(call_id=draw(ids), tool_name="", arguments_json=""),
        ]
    return _replace(history, index, message.model_copy(update={"parts": blank}))  # pyright: ignore[reportAttributeAccessIssue]


def _nasty_text(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Non-ASCII and control text in a user, assistant or tool message; very long text sometimes."""
    nasty = draw(st.sampled_from(NASTY_TEXT))
    if draw(st.integers(0, 9)) == 9:  # sparingly: more than 100k characters
        nasty = (nasty * (_LONG // len(nasty) + 1))[: _LONG + len(nasty)]
    index = _pick(draw, history, (UserMessage, AssistantMessage, ToolResultMessage))
    if index is None:
        return [*history, UserMessage(parts=[TextPart(text=nasty)])]
    message = history[index]
    if isinstance(message, ToolResultMessage):
        return _replace(history, index, message.model_copy(update={"output_text": nasty}))
    if isinstance(message, AssistantMessage):
        part: AnyPart = ThinkingTextPart(text=nasty) if draw(st.booleans()) else TextPart(text=nasty)
        return _replace(history, index, message.model_copy(update={"parts": [*message.parts, part]}))
    assert isinstance(message, UserMessage)
    return _replace(
        history, index, message.model_copy(update={"parts": [*message.parts, TextPart(text=nasty)]})
    )


def _result_before_call(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """A result moved in front of everything (out of order)."""
    index = _pick(draw, history, ToolResultMessage)
    if index is None:
        return history
    return [history[index], *history[:index], *history[index + 1 :]]


def _stray_events(draw: st.DrawFn, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """System messages in the middle, error and task-metadata events, aborted/error results."""
    at = draw(st.integers(0, len(history)))
    event: HistoryEvent = draw(st.one_of(system_messages, error_events, task_metadata_events, tool_messages))
    return [*history[:at], event, *history[at:]]


_MUTATIONS: tuple[Mutation, ...] = (
    _misplaced_developer,
    _signature_anywhere,
    _foreign_signature,
    _dangling_call,
    _duplicate_ids,
    _orphan_result,
    _empty_parts,
    _nasty_text,
    _result_before_call,
    _stray_events,
)


@st.composite
def adversarial_histories(draw: st.DrawFn, *, max_mutations: int = 3) -> list[HistoryEvent]:
    """Valid-by-the-model but hostile histories: agent loops (or any event lists) with 1-3 mutations.

    Misplaced developer messages, orphan and foreign signatures, dangling tool calls,
    duplicate ids, empty parts, stray events, non-ASCII, control and (sparingly) very
    long text. Every request adapter must render these without raising.
    """
    # the plain list first: failures shrink towards it (short, few fields), not towards a loop
    base: list[HistoryEvent] = draw(
        st.lists(history_events, max_size=4) | agent_loops(max_turns=2, max_steps=2)
    )
    history = list(base)
    for _ in range(draw(st.integers(1, max_mutations))):
        mutate = draw(st.sampled_from(_MUTATIONS))
        history = mutate(draw, history)
    return history

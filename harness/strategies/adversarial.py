"""Adversarial histories: agent loops with hostile mutations, for the never-crash checks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st

from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    HistoryEvent,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.strategies.events import (
    error_events,
    history_events,
    system_messages,
    task_metadata_events,
    tool_messages,
)
from harness.strategies.loops import agent_loops, developer_reminders
from harness.strategies.parts import (
    SIGNATURE_FORMATS,
    ids,
    image_parts,
    json_args,
    model_ids,
    optional_ids,
    text,
)
from harness.strategies.representable import signatures, tool_names

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
    return [*history[:at], draw(developer_reminders), *history[at:]]


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
    call = ToolCallPart(call_id=draw(ids), tool_name=draw(tool_names), arguments_json=draw(json_args()))
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
        tool_name=draw(tool_names),
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

"""Agent loops as an agent CLI produces them, and the turn a loop appends next (I9)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from harness.contract.providers import PROVIDER_TABLE, PROVIDERS, provider_entry, wire_of
from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    ErrorEvent,
    FilePart,
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
from harness.strategies.parts import DATA_URLS, ids, text
from harness.strategies.representable import (
    OPENROUTER_FORMATS,
    PROVIDER_MODELS,
    arg_objects,
    compact_json,
    nonempty_text,
    signature_parts,
    tool_names,
)

_REMINDERS = (
    "<system-reminder>README.md was modified by the user.</system-reminder>",
    "<system-reminder>The todo list is empty.</system-reminder>",
    "@src/app.py was attached.",
)
_IMAGE_URLS = ("https://example.com/cat.png", *DATA_URLS)
#: Built once: ``arg_objects.map`` inside a step made a new lazy strategy per call, which
#: hypothesis then built and validated again (a tenth of a loop's drawing time).
_arguments_json = arg_objects.map(compact_json)


def _image(url: str) -> ImageURLPart:
    return ImageURLPart(url=url)


_user_part: st.SearchStrategy[TextPart | ImageURLPart | ImageFilePart | FilePart] = st.builds(
    TextPart, text=nonempty_text
) | st.sampled_from(_IMAGE_URLS).map(_image)


def _as_content(
    parts: Sequence[TextPart | ImageURLPart | ImageFilePart | FilePart],
) -> list[TextPart | ImageURLPart | ImageFilePart | FilePart]:
    return list(parts)


_user_parts = st.lists(_user_part, min_size=1, max_size=2).map(_as_content)
_reminder: st.SearchStrategy[TextPart | ImageURLPart | ImageFilePart | FilePart] = st.sampled_from(
    _REMINDERS
).map(lambda t: TextPart(text=t)) | st.sampled_from(_IMAGE_URLS).map(_image)
developer_reminders = st.builds(
    DeveloperMessage,
    parts=st.lists(_reminder, min_size=1, max_size=2),
    command_output=st.none() | st.just("$ ls\nsrc tests"),
    at_files=st.none() | st.just(["src/app.py"]),
)


def _maybe_developer(draw: st.DrawFn) -> list[HistoryEvent]:
    return [draw(developer_reminders)] if draw(st.booleans()) else []


def _anthropic_reasoning(draw: st.DrawFn, thought: str, model: str, step: int) -> list[AnyPart]:
    if draw(st.integers(0, 3)) == 3:
        return [draw(signature_parts("anthropic-redacted", model))]
    return [ThinkingTextPart(text=thought, model_id=model), draw(signature_parts("anthropic", model))]


def _responses_reasoning(draw: st.DrawFn, thought: str, model: str, step: int) -> list[AnyPart]:
    item = f"rs_{step}_{draw(ids)}"
    return [
        ThinkingTextPart(id=item, text=thought, model_id=model),
        draw(signature_parts("openai-responses", model, st.just(item))),
    ]


def _bedrock_reasoning(draw: st.DrawFn, thought: str, model: str, step: int) -> list[AnyPart]:
    if draw(st.integers(0, 3)) == 3:
        return [draw(signature_parts("bedrock-redacted", model))]
    return [ThinkingTextPart(text=thought, model_id=model), draw(signature_parts("bedrock", model))]


def _reasoning_details(draw: st.DrawFn, thought: str, model: str, step: int) -> list[AnyPart]:
    fmt = draw(st.sampled_from(OPENROUTER_FORMATS[:3]))
    return [ThinkingTextPart(text=thought, model_id=model), draw(signature_parts(fmt, model))]


def _unsigned_reasoning(draw: st.DrawFn, thought: str, model: str, step: int) -> list[AnyPart]:
    return [ThinkingTextPart(text=thought, model_id=model)]


_Reasoning = Callable[[st.DrawFn, str, str, int], list[AnyPart]]
#: Reasoning in each wire's own format, by (wire, whether its provider signs reasoning): Gemini's
#: thoughts carry no signature here (it rides on a call or the answer: ``_with_google_signature``),
#: Chat's and Cohere's reasoning is unsigned text, OpenRouter signs Chat reasoning.
_REASONING: dict[tuple[str, bool], _Reasoning] = {
    ("anthropic", True): _anthropic_reasoning,
    ("openai-responses", True): _responses_reasoning,
    ("bedrock-converse", True): _bedrock_reasoning,
    ("openai-chat", True): _reasoning_details,
}


def _signs(provider: str) -> tuple[str, bool]:
    entry = provider_entry(provider)
    return entry.wire, bool(entry.signature_formats)


def _reasoning(draw: st.DrawFn, provider: str, model: str, step: int) -> list[AnyPart]:
    """Optional reasoning at the start of an assistant message, in ``provider``'s own format."""
    if not draw(st.booleans()):
        return []
    thought = draw(nonempty_text)
    return _REASONING.get(_signs(provider), _unsigned_reasoning)(draw, thought, model, step)


def _with_google_signature(draw: st.DrawFn, parts: list[AnyPart], model: str) -> list[AnyPart]:
    """Gemini signs the first function call of a step (or the answer text): the signature follows it."""
    target = next((i for i, p in enumerate(parts) if isinstance(p, ToolCallPart)), None)
    if target is None:
        target = next((i for i, p in enumerate(parts) if isinstance(p, TextPart)), None)
    if target is None or not draw(st.booleans()):
        return parts
    return [*parts[: target + 1], draw(signature_parts("google", model)), *parts[target + 1 :]]


class _Ids:
    """Call ids unique within one history, in the provider's own spelling."""

    def __init__(self, provider: str, taken: set[str] | None = None) -> None:
        self.prefix = "toolu_" if wire_of(provider) == "anthropic" else "call_"
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
    wire = wire_of(provider)
    parts = _reasoning(draw, provider, model, step)
    if final_text or draw(st.booleans()):
        parts.append(TextPart(text=draw(nonempty_text)))
    tool_calls = [
        ToolCallPart(
            call_id=mint(),
            tool_name=draw(tool_names),
            arguments_json=draw(_arguments_json),
            item_id=f"fc_{step}_{n}" if wire == "openai-responses" else None,
        )
        for n in range(calls)
    ]
    parts.extend(tool_calls)
    if wire == "gemini":
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
        images: list[ImageURLPart | ImageFilePart | FilePart] = []
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
    """The provider whose own format the history's last signature is in (the provider table's)."""
    for event in reversed(history):
        if isinstance(event, AssistantMessage):
            for part in event.parts:
                if isinstance(part, ThinkingSignaturePart):
                    fmt = part.format or ""
                    return next((e.id for e in PROVIDER_TABLE if fmt in e.signature_formats), None)
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

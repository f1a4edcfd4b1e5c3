"""What the design's mapping rules say about a canonical history, independent of any adapter.

The checks compare a request body against these expectations: where a developer
message belongs, which thinking parts form a native pair, which signatures are native
to the provider and model, which strings a request may legitimately contain, and
which id each canonical tool call was sent under.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from harness.contract.providers import provider_entry
from harness.contract.thinking import NATIVE_SIGNATURE_FORMATS, REDACTED_FORMATS, same_model
from harness.invariants.base import Json, dicts, leaves
from harness.invariants.memo import same_args
from harness.invariants.wire import WireCall, tool_turns, view
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams

__all__ = [
    "CanonicalCall",
    "ThinkingPair",
    "answered_results",
    "body_calls",
    "canonical_calls",
    "degradation_target",
    "effective_model",
    "explained",
    "found_arguments",
    "found_text",
    "is_native",
    "result_sent_ids",
    "sendable_strings",
    "sent_call_ids",
    "thinking_pairs",
]


def effective_model(provider: str, params: CallParams, body: Json) -> str:
    """The model the request goes to: the body's ``model`` (Gemini keeps it in the URL)."""
    model = body.get("model")
    if isinstance(model, str) and model:
        return model
    return (params.model or provider_entry(provider).default_model).removeprefix("models/")


# ---------------------------------------------------------------- developer degradation

Target = tuple[Literal["user", "tool", "own"], int]


def result_is_kept(history: Sequence[HistoryEvent], index: int) -> bool:
    """Whether the tool result at ``index`` answers a call of the assistant turn before it, first.

    Results are paired with the nearest preceding assistant message; one whose call is not
    in it (trimmed away) or that repeats an earlier result's call id is dropped.
    """
    result = history[index]
    assert isinstance(result, ToolResultMessage)
    for prev in range(index - 1, -1, -1):
        event = history[prev]
        if isinstance(event, ToolResultMessage) and event.call_id == result.call_id:
            return False  # a second result for the same call
        if isinstance(event, AssistantMessage):
            return any(isinstance(p, ToolCallPart) and p.call_id == result.call_id for p in event.parts)
    return False


def degradation_target(history: Sequence[HistoryEvent], index: int) -> Target:
    """Where the developer message at ``index`` must go (DESIGN "Developer degradation").

    The conversation message right before it (system messages and non-message events
    are not conversation): a user or tool message takes it; a developer message passes
    on its own target; anything else (an assistant, or nothing) makes it a user message
    at its own position.
    """
    for prev in range(index - 1, -1, -1):
        event = history[prev]
        if isinstance(event, UserMessage):
            return ("user", prev)
        if isinstance(event, ToolResultMessage):
            # A result that is dropped (orphan or duplicate) cannot carry it: a user message here.
            return ("tool", prev) if result_is_kept(history, prev) else ("own", index)
        if isinstance(event, DeveloperMessage):
            return degradation_target(history, prev)
        if isinstance(event, AssistantMessage):
            return ("own", index)
    return ("own", index)


# ---------------------------------------------------------------- thinking


@dataclass(frozen=True)
class ThinkingPair:
    """A signature and the thinking text it pairs with (None: nothing to pair)."""

    message_index: int
    text: ThinkingTextPart | None
    text_index: int | None
    signature: ThinkingSignaturePart
    signature_index: int


def thinking_pairs(message_index: int, message: AssistantMessage) -> list[ThinkingPair]:
    """The design's pairing rule: nearest preceding unpaired thinking text; redacted never pairs."""
    open_texts: list[tuple[int, ThinkingTextPart]] = []
    pairs: list[ThinkingPair] = []
    for idx, part in enumerate(message.parts):
        if isinstance(part, ThinkingTextPart):
            open_texts.append((idx, part))
        elif isinstance(part, ThinkingSignaturePart):
            if part.format not in REDACTED_FORMATS and open_texts:
                text_index, text = open_texts.pop()
                pairs.append(ThinkingPair(message_index, text, text_index, part, idx))
            else:
                pairs.append(ThinkingPair(message_index, None, None, part, idx))
    return pairs


def is_native(sig: ThinkingSignaturePart, text: ThinkingTextPart | None, provider: str, model: str) -> bool:
    """Whether this provider may receive the signature (and its text) as its own reasoning state."""
    if not sig.signature or sig.format not in NATIVE_SIGNATURE_FORMATS.get(provider, frozenset()):
        return False
    for produced_by in (sig.model_id, text.model_id if text else None):
        if produced_by and model and not same_model(produced_by, model):
            return False
    return True


# ---------------------------------------------------------------- strings a request may contain


def _part_strings(part: object) -> Iterator[str]:
    if isinstance(part, TextPart | ThinkingTextPart):
        yield part.text
    elif isinstance(part, ImageURLPart):
        yield part.url
        yield part.url.partition(",")[2]
    elif isinstance(part, ImageFilePart):
        yield part.file_path
    elif isinstance(part, ToolCallPart):
        yield from (part.call_id, part.tool_name, part.arguments_json)


@same_args
def sendable_strings(
    history: Sequence[HistoryEvent], params: CallParams, provider: str, model: str
) -> list[str]:
    """Every string the request may carry verbatim (content, ids, names, native signatures, params).

    Used to tell a leak apart from a coincidence: a UI-only value or a foreign signature
    that also occurs in legitimate content cannot be judged, so it is not reported.
    """
    out: list[str] = []
    if params.system:
        out.append(params.system)
    out += [model, params.model or ""]
    for tool in params.tools or []:
        out += [tool.name, tool.description, json.dumps(tool.parameters)]
        out += [v for _, v in leaves(tool.parameters)]
    for index, event in enumerate(history):
        if isinstance(event, SystemMessage | UserMessage | DeveloperMessage):
            for part in event.parts:
                out += list(_part_strings(part))
                if isinstance(event, DeveloperMessage) and isinstance(part, TextPart):
                    out.append(part.text + "\n")
        elif isinstance(event, ToolResultMessage):
            out += [event.output_text, event.call_id, event.tool_name]
            for part in event.parts:
                out += list(_part_strings(part))
        elif isinstance(event, AssistantMessage):
            for part in event.parts:
                if not isinstance(part, ThinkingTextPart | ThinkingSignaturePart):
                    out += list(_part_strings(part))
            for pair in thinking_pairs(index, event):
                if is_native(pair.signature, pair.text, provider, model):
                    out.append(pair.signature.signature)
                    if pair.text is not None:
                        out.append(pair.text.text)
            if view(provider).signature_on_part_before:  # a google signature rides on the part before it
                out += [
                    p.signature
                    for p in event.parts
                    if isinstance(p, ThinkingSignaturePart) and is_native(p, None, provider, model)
                ]
    return [s for s in out if s]


def explained(value: str, sendable: Sequence[str]) -> bool:
    """Whether legitimate content could account for ``value`` appearing in a request."""
    return any(value in s for s in sendable)


def found_text(value: str, body: object) -> bool:
    """Whether ``value`` (stripped) occurs inside some string of the body; empty is vacuously found."""
    needle = value.strip()
    return not needle or any(needle in leaf for _, leaf in leaves(body))


def found_arguments(arguments_json: str, body: object) -> bool:
    """Tool arguments sent verbatim (a string) or as the equal JSON object."""
    if not arguments_json.strip():
        return True
    if any(leaf == arguments_json for _, leaf in leaves(body)):
        return True
    try:
        value = json.loads(arguments_json)
    except json.JSONDecodeError:
        return False
    return any(d == value for d in dicts(body))


# ---------------------------------------------------------------- tool calls


@dataclass(frozen=True)
class CanonicalCall:
    message_index: int
    part_index: int
    part: ToolCallPart


@same_args
def canonical_calls(history: Sequence[HistoryEvent]) -> list[CanonicalCall]:
    """Every tool call in history order, one per (message, call id): duplicates share one result."""
    out: list[CanonicalCall] = []
    for index, event in enumerate(history):
        if isinstance(event, AssistantMessage):
            seen: set[str] = set()
            for pidx, part in enumerate(event.parts):
                if isinstance(part, ToolCallPart) and part.call_id not in seen:
                    seen.add(part.call_id)
                    out.append(CanonicalCall(index, pidx, part))
    return out


def answered_results(history: Sequence[HistoryEvent]) -> dict[int, CanonicalCall]:
    """Tool result index -> the call it answers: the first result for a call of the assistant message before it.

    Results that answer nothing there (orphans, e.g. after history trimming) and second
    results for a call are not the call's result; a request cannot carry them as such.
    """
    window: dict[str, CanonicalCall] = {}
    answered: dict[int, CanonicalCall] = {}
    taken: set[str] = set()
    for index, event in enumerate(history):
        if isinstance(event, AssistantMessage):
            window = {c.part.call_id: c for c in canonical_calls([event])}
            window = {cid: CanonicalCall(index, c.part_index, c.part) for cid, c in window.items()}
            taken = set()
        elif isinstance(event, ToolResultMessage):
            call = window.get(event.call_id)
            if call is not None and event.call_id not in taken:
                answered[index] = call
            taken.add(event.call_id)
    return answered


def body_calls(provider: str, body: Json) -> list[WireCall]:
    turns, _ = tool_turns(provider, body)
    return [call for turn in turns for call in turn.calls]


@same_args
def result_sent_ids(history: Sequence[HistoryEvent], provider: str, body: Json) -> dict[int, str]:
    """History index of each tool result -> the id its call was sent under, call by call.

    ``sent_call_ids`` maps a call id once; a backend that numbers calls per response
    (``call_0`` in every turn) reuses ids, and an adapter renumbers the later ones. When the
    body has one call per canonical call, the n-th call's sent id is the n-th canonical
    call's, and a result answers the latest call with its id before it.
    """
    calls = canonical_calls(history)
    sent = body_calls(provider, body)
    if len(calls) != len(sent):
        return {}
    latest: dict[str, str] = {}
    out: dict[int, str] = {}
    by_index = {(c.message_index, c.part_index): pos for pos, c in enumerate(calls)}
    for index, event in enumerate(history):
        if isinstance(event, AssistantMessage):
            for pidx, part in enumerate(event.parts):
                pos = by_index.get((index, pidx))
                if isinstance(part, ToolCallPart) and pos is not None and isinstance(sent[pos].id, str):
                    latest[part.call_id] = str(sent[pos].id)
        elif isinstance(event, ToolResultMessage) and event.call_id in latest:
            out[index] = latest[event.call_id]
    return out


def sent_call_ids(history: Sequence[HistoryEvent], provider: str, body: Json) -> dict[str, str]:
    """Canonical call id -> the id it was sent under.

    Verbatim when the body has it; otherwise, when the body has exactly one call per
    canonical call, the call at the same position (an id the provider's rules forced
    to change, which the adapter must warn about).
    """
    calls = canonical_calls(history)
    sent = body_calls(provider, body)
    sent_ids = {c.id for c in sent if isinstance(c.id, str)}
    mapping: dict[str, str] = {}
    if len(calls) != len(sent):
        # two calls sharing an id in one response are one canonical call but two sent entries
        # (tool-call-duplicate-id): count each sent id once, in order
        seen: set[object] = set()
        sent = [c for c in sent if not (c.id in seen or seen.add(c.id))]
    positional = len(calls) == len(sent)
    for pos, call in enumerate(calls):
        cid = call.part.call_id
        if cid in sent_ids:
            mapping.setdefault(cid, cid)
        elif positional and isinstance(sent[pos].id, str):
            mapping.setdefault(cid, str(sent[pos].id))
    return mapping

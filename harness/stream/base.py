"""What every output adapter shares: stream items, the parts builder, and the parser base.

An output adapter is a pure state machine over SSE events (or a non-streamed JSON
body): no HTTP, no clock. Whatever happens (garbage, truncation, error events, an
exception in provider code) it ends in exactly one final assistant message plus
error events; nothing escapes to the caller.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, cast

import orjson

from harness.contract.results import (
    CallResult,
    StreamItem,
    TextDelta,
    ThinkingDelta,
    ToolCallStart,
    item_to_json,
)
from harness.contract.stops import stop_reason
from harness.contract.wires import PROVIDER_WIRES, SNIFF_EVENTS, WIRE_TITLES, wire_of_body, wire_of_event
from harness.model import (
    AnyPart,
    AssistantMessage,
    ErrorEvent,
    FilePart,
    ServerToolCallPart,
    SourcePart,
    StopReason,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    Usage,
)
from harness.stream.eventstream import Frames, frames_to_events
from harness.stream.sse import SSEEvent

__all__ = [
    "FAST_JSON_MAX",
    "CallResult",
    "PartsBuilder",
    "StreamItem",
    "StreamParser",
    "TextDelta",
    "ThinkingDelta",
    "ToolCallStart",
    "item_to_json",
]


# orjson decodes a data line to the same Python values as ``json.loads`` (dicts, lists, str,
# int, float, bool, None), faster. What it refuses and ``json.loads`` may accept (NaN, lone
# surrogate escapes) or rejects (no JSON) falls back to ``json.loads``, which decides and
# words the error exactly as before. An integer past 64 bits orjson does not refuse: it reads
# it as a float (1e29 for a 30-digit count), so a line with a run of 20 digits (2**64 has 20)
# goes to ``json.loads`` too, which keeps the integer exact.
_LONG_DIGITS = re.compile(r"[0-9]{20}")
# A data line longer than this goes to ``json.loads`` directly: orjson's transient peak on a
# long string value is about 12 times the line (a 10 MiB text delta), ``json.loads``'s about 1.
FAST_JSON_MAX = 1 << 20


def _loads_or_none(data: str) -> Any:
    if not data or data == "[DONE]":
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


# ---------------------------------------------------------------- stream items (runtime only, never persisted)


# ---------------------------------------------------------------- parts builder


_Kind = Literal["text", "thinking", "tool_call", "signature", "file", "server_call", "fixed"]


@dataclass(slots=True)
class _Slot:
    kind: _Kind
    chunks: list[str] = field(default_factory=lambda: [])
    id: str | None = None  # thinking id / signature-only id
    call_id: str = ""
    tool_name: str = ""
    item_id: str | None = None  # tool call / text: the provider's item id
    phase: str | None = None  # text: the provider's message phase
    signature: list[str] | None = None  # a signature attached after this part
    signature_format: str | None = None
    signature_id: str | None = None
    # server_call: the provider's block (its input replaced by the streamed one); fixed: the part
    raw: dict[str, Any] | None = None
    provider: str = ""
    part: AnyPart | None = None
    sources: list[SourcePart] | None = None  # text: the citations streamed onto it
    filled: list[AnyPart] | None = None  # fixed: the parts of a reserved place, once they arrive
    media_type: str = ""  # file: its media type
    caller: dict[str, Any] | None = None  # tool call: who made it (Anthropic programmatic calling)


class PartsBuilder:
    """Parts in stream order. Providers address an open part by their own key (block index, item id...).

    A signature attaches to a slot and is emitted right after that slot's part, which is
    both the pairing rule (thinking text -> signature) and Gemini's rule (any part ->
    its thoughtSignature). A signature with no part becomes a signature-only slot.
    """

    def __init__(self) -> None:
        self._slots: list[_Slot] = []
        self._open: dict[object, _Slot] = {}

    def _slot(self, key: object, kind: _Kind) -> _Slot:
        slot = self._open.get(key)
        if slot is None or slot.kind != kind:
            slot = _Slot(kind)
            self._slots.append(slot)
            self._open[key] = slot
        return slot

    def close(self, key: object) -> None:
        """Forget a key so the next delta under it starts a new part."""
        self._open.pop(key, None)

    def has(self, key: object) -> bool:
        return key in self._open

    def text(self, key: object, delta: str) -> None:
        if type(delta) is not str:  # no call for an exact str (a subclass: _need_str)
            _need_str(delta, "text delta")
        slot = self._open.get(key)  # inlined _slot: this runs once per text delta
        if slot is None or slot.kind != "text":
            slot = self._slot(key, "text")
        slot.chunks.append(delta)

    def text_run(self, key: object, deltas: list[str]) -> None:
        """``text`` of each delta in turn (non-empty strings, checked by the caller), as one step."""
        self._slot(key, "text").chunks += deltas

    def text_item(self, key: object, *, item_id: str | None, phase: str | None) -> None:
        """Set the provider message item id and phase of the text part open under ``key`` (if any)."""
        _need_str_or_none(item_id, "text item id")
        _need_str_or_none(phase, "message phase")
        slot = self._open.get(key)
        if slot is not None and slot.kind == "text":
            slot.item_id, slot.phase = item_id, phase

    def thinking(self, key: object, delta: str, *, id: str | None = None) -> None:
        _need_str(delta, "thinking delta")
        _need_str_or_none(id, "thinking id")
        slot = self._slot(key, "thinking")
        slot.chunks.append(delta)
        if id is not None:
            slot.id = id

    def signature(self, key: object, signature: str, *, format: str, id: str | None = None) -> None:
        """Append to the signature of the part under ``key`` (or a new signature-only part)."""
        _need_str(signature, "signature")
        _need_str(format, "signature format")
        _need_str_or_none(id, "signature id")
        slot = self._open.get(key)
        if slot is None:
            slot = self._slot(key, "signature")
        if slot.signature is None:
            slot.signature = []
        slot.signature.append(signature)
        slot.signature_format = format
        if id is not None:
            slot.signature_id = id

    def tool_call(
        self,
        key: object,
        call_id: str,
        tool_name: str,
        *,
        item_id: str | None = None,
        caller: dict[str, Any] | None = None,
    ) -> None:
        _need_str(call_id, "tool call id")
        _need_str(tool_name, "tool name")
        _need_str_or_none(item_id, "tool call item id")
        slot = self._slot(key, "tool_call")
        slot.call_id, slot.tool_name = call_id or slot.call_id, tool_name or slot.tool_name
        if item_id is not None:
            slot.item_id = item_id
        if caller is not None:
            slot.caller = caller

    def tool_args(self, key: object, delta: str) -> None:
        if type(delta) is not str:
            _need_str(delta, "tool arguments delta")
        slot = self._open.get(key)  # inlined _slot: this runs once per argument delta
        if slot is None or slot.kind != "tool_call":
            slot = self._slot(key, "tool_call")
        slot.chunks.append(delta)

    def tool_args_run(self, key: object, deltas: list[str]) -> None:
        """``tool_args`` of each delta in turn (strings, checked by the caller), as one step."""
        self._slot(key, "tool_call").chunks += deltas

    def fixed(self, part: AnyPart, key: object = None) -> None:
        """A part that arrives whole (a server tool's result, a provider item), at this position;
        under ``key`` when a signature may follow it (Gemini)."""
        slot = _Slot("fixed")
        slot.part = part
        self._slots.append(slot)
        if key is not None:
            self._open[key] = slot

    def reserve(self, key: object) -> None:
        """Hold this position for parts that arrive whole later (``fill``): a provider item announced
        before the items after it, whose final form comes after theirs (a Responses item backfilled by
        ``response.completed``). An unfilled place yields no part."""
        slot = _Slot("fixed")
        self._slots.append(slot)
        self._open[("reserved", key)] = slot

    def fill(self, key: object, parts: list[AnyPart]) -> bool:
        """Put ``parts`` in the place ``reserve`` held for ``key``; False when none was held (or it
        is filled already): the caller appends them instead."""
        slot = self._open.pop(("reserved", key), None)
        if slot is None:
            return False
        slot.filled = list(parts)
        return True

    def server_call(
        self, key: object, call_id: str, tool_name: str, provider: str, raw: dict[str, Any]
    ) -> None:
        """Open a provider-executed call whose input streams as JSON fragments (``server_args``)."""
        _need_str(call_id, "server tool call id")
        _need_str(tool_name, "server tool name")
        slot = self._slot(key, "server_call")
        slot.call_id, slot.tool_name, slot.provider, slot.raw = call_id, tool_name, provider, raw

    def server_args(self, key: object, delta: str) -> None:
        _need_str(delta, "server tool input delta")
        self._slot(key, "server_call").chunks.append(delta)

    def source(self, key: object, part: SourcePart) -> None:
        """A citation of the text under ``key`` (opened if none is: it follows that text once the text
        streams), or a part of its own when ``key`` holds another part."""
        slot = self._open.get(key)
        if slot is not None and slot.kind != "text":
            self.fixed(part)
            return
        if slot is None:  # the citation comes before the text it cites (Anthropic's citations_delta)
            slot = self._slot(key, "text")
        if slot.sources is None:
            slot.sources = []
        slot.sources.append(part)

    def file(
        self, key: object, media_type: str, data: str, *, id: str | None = None, append: bool = False
    ) -> None:
        """A generated file's base64 bytes under ``key``: ``append`` a chunk (streamed audio), or
        replace what was there (a partial image superseded by a later or the final one)."""
        _need_str(data, "file data")
        _need_str(media_type, "file media type")
        _need_str_or_none(id, "file id")
        slot = self._slot(key, "file")
        slot.media_type = media_type or slot.media_type
        if append:
            slot.chunks.append(data)
        else:
            slot.chunks = [data]
        if id is not None:
            slot.id = id

    def has_tool_calls(self) -> bool:
        return any(s.kind == "tool_call" for s in self._slots)

    def parts(self, model_id: str | None) -> list[AnyPart]:
        out: list[AnyPart] = []
        for slot in self._slots:
            body = "".join(slot.chunks)
            if slot.kind == "text":
                if body:
                    out.append(TextPart(text=body, item_id=slot.item_id, phase=slot.phase))
            elif slot.kind == "thinking":
                out.append(ThinkingTextPart(id=slot.id, text=body, model_id=model_id))
            elif slot.kind == "file":
                if body:
                    out.append(FilePart(media_type=slot.media_type, data=body, id=slot.id))
            elif slot.kind == "tool_call":
                out.append(
                    ToolCallPart(
                        call_id=slot.call_id,
                        tool_name=slot.tool_name,
                        arguments_json=body,
                        item_id=slot.item_id,
                        caller=slot.caller,
                    )
                )
            elif slot.kind == "server_call":
                out.append(_server_call(slot, body))
            elif slot.kind == "fixed":
                if slot.part is not None:
                    out.append(slot.part)
                out.extend(slot.filled or ())
            if slot.sources:
                out.extend(slot.sources)
            if slot.signature is not None:
                out.append(
                    ThinkingSignaturePart(
                        id=slot.signature_id if slot.kind != "thinking" else (slot.signature_id or slot.id),
                        signature="".join(slot.signature),
                        model_id=model_id,
                        format=slot.signature_format,
                    )
                )
        return out


def _server_call(slot: _Slot, body: str) -> ServerToolCallPart:
    """The call with its streamed input; ``raw`` is the block as the provider's SDK accumulates
    it (the streamed input parsed into ``input``; the block's initial input when none streamed)."""
    raw = dict(slot.raw or {})
    text = body or json.dumps(raw.get("input") or {}, ensure_ascii=False)
    if body and "input" in raw:  # Anthropic's block: its input is what streamed
        parsed = _loads_or_none(body)
        raw["input"] = parsed if parsed is not None else body
    return ServerToolCallPart(
        call_id=slot.call_id, tool_name=slot.tool_name, provider=slot.provider, input_json=text, raw=raw
    )


def _need_str(value: object, what: str) -> None:
    """Reject a value of the wrong JSON type where it arrives, so ``feed`` reports that event.

    Stored as is, it would only fail when the final message is built, inside ``finish``.
    """
    if not isinstance(value, str):
        raise TypeError(f"{what} is a {type(value).__name__}, not a string")


def _need_str_or_none(value: object, what: str) -> None:
    if value is not None:
        _need_str(value, what)


# ---------------------------------------------------------------- parser base


class StreamParser:
    """Base state machine. Subclasses implement ``on_event`` (and ``on_response`` for JSON bodies).

    Subclass state goes in ``self.parts`` (PartsBuilder), ``self.usage``,
    ``self.provider_stop`` (the mapped stop reason), ``self.response_id``,
    ``self.model``; set ``self.completed = True`` on the provider's final event, and
    ``self.terminal = True`` once nothing more may belong to the response: later events
    are skipped with a note (error events excepted; ``after_terminal`` may accept more),
    so a second response in the same body is never merged into this one.

    No silent endings: at ``finish`` a stream in which no event of the parser's ``wire``
    arrived ends as ``error``, naming the protocol that did arrive ("these are Anthropic
    Messages events; replay with --provider anthropic") or saying none was recognisable.
    """

    provider: ClassVar[str] = ""
    #: The wire format this parser reads (``harness.contract.wires``).
    wire: ClassVar[str] = ""
    #: How its streamed bytes are framed: ``sse``, or ``aws-eventstream`` (Bedrock's binary frames).
    framing: ClassVar[str] = "sse"

    def __init__(self) -> None:
        self.parts = PartsBuilder()
        self.items: list[StreamItem] = []
        self.errors: list[ErrorEvent] = []
        self.notes: list[str] = []
        self.usage: Usage | None = None
        self.provider_stop: StopReason | None = None
        self._response_id: str | None = None
        self._model: str | None = None
        self.completed = False
        #: Set by a subclass on the provider's terminal event: later events are noted and skipped
        #: unless ``after_terminal`` accepts them (a new response is split off before parsing).
        self.terminal = False
        self._late = 0  # events after the terminal event, skipped
        self._sample: list[tuple[str | None, str]] = []  # the first events, to name a foreign protocol
        self._body_sample: Any = None
        self._result: CallResult | None = None

    @property
    def response_id(self) -> str | None:
        return self._response_id

    @response_id.setter
    def response_id(self, value: str | None) -> None:
        _need_str_or_none(value, "response id")  # provider JSON: checked where it arrives
        self._response_id = value

    @property
    def model(self) -> str | None:
        return self._model

    @model.setter
    def model(self, value: str | None) -> None:
        _need_str_or_none(value, "model")
        self._model = value

    # -- subclass hooks
    def on_event(self, event: SSEEvent) -> None:
        raise NotImplementedError

    def on_response(self, body: dict[str, Any]) -> None:
        """A non-streamed response body (the whole message in one JSON object)."""
        raise NotImplementedError

    # -- helpers for subclasses
    def emit(self, item: StreamItem) -> None:
        self.items.append(item)

    def error(self, message: str, *, can_retry: bool | None = None) -> None:
        self.errors.append(
            ErrorEvent(error_message=message, response_id=self.response_id, can_retry=can_retry)
        )

    def note(self, message: str) -> None:
        self.notes.append(message)

    def load(self, event: SSEEvent) -> Any:
        """The event's JSON data, or None after recording an error for an unparseable line."""
        data = event.data
        if len(data) < FAST_JSON_MAX and _LONG_DIGITS.search(data) is None:
            try:
                return orjson.loads(data)
            except orjson.JSONDecodeError:
                pass
        try:
            return json.loads(data)
        except json.JSONDecodeError as exc:
            snippet = event.data[:60].replace("\n", " ")
            self.error(f"{self.provider}: unparseable data line ({exc.msg}): {snippet!r}")
            return None

    # -- driving
    def feed(self, event: SSEEvent) -> list[StreamItem]:
        """Process one SSE event; returns the items it produced. Never raises."""
        if self._result is not None:
            self.note(f"event after the call ended ignored: {event.event or 'data'}")
            return []
        if len(self._sample) < SNIFF_EVENTS:
            self._sample.append((event.event, event.data))
        if self.terminal and not self._accept_late(event):
            return []
        before = len(self.items)
        try:
            self.on_event(event)
        except Exception as exc:  # a provider bug or hostile input must not escape
            self._failed(event, exc)
        return self.items[before:]

    def feed_all(self, events: Iterable[SSEEvent]) -> None:
        """``feed`` each event, without slicing out the items each produced (the replay hot path)."""
        if self._result is not None:  # only finish/fail/abort set it, never an event
            for event in events:
                self.note(f"event after the call ended ignored: {event.event or 'data'}")
            return
        on_event = self.on_event
        sample = self._sample
        for event in events:
            if self.terminal or len(sample) < SNIFF_EVENTS:
                if len(sample) < SNIFF_EVENTS:
                    sample.append((event.event, event.data))
                if self.terminal and not self._accept_late(event):
                    continue
            try:
                on_event(event)
            except Exception as exc:  # a provider bug or hostile input must not escape
                self._failed(event, exc)

    def feed_frames(self, frames: Frames) -> None:
        """``feed_all`` of AWS event-stream frames (``harness.stream.eventstream``), as their events;
        a parser of that framing may take its frequent frames without an event each."""
        self.feed_all(frames_to_events(frames))

    def after_terminal(self, event: SSEEvent) -> bool:
        """Whether an event after the terminal event still belongs to the response (``[DONE]``, late usage)."""
        return False

    def _accept_late(self, event: SSEEvent) -> bool:
        """An error event is never dropped; anything else only if ``after_terminal`` accepts it.

        A ``data: [DONE]`` sentinel there is dropped without a note (OpenRouter ends its
        Responses streams with one; for Chat it is the terminal event itself)."""
        if event.data == "[DONE]":
            return False
        try:
            data: Any = _loads_or_none(event.data)
            payload: dict[str, Any] = cast(dict[str, Any], data) if isinstance(data, dict) else {}
            accepted: bool = (
                event.event == "error"
                or "error" in payload
                or payload.get("type") == "error"
                or self.after_terminal(event)
            )
        except Exception:  # malformed late data: skipped like any other late event
            accepted = False
        if not accepted:
            self._late += 1
            if self._late == 1:
                self.note(f"{self.provider}: event after the terminal event skipped: {event.data[:60]!r}")
        return accepted

    def _failed(self, event: SSEEvent, exc: Exception) -> None:
        self.error(
            f"{self.provider}: could not process event {event.event or 'data'!s}: {type(exc).__name__}: {exc}"
        )

    def feed_response(self, body: Any) -> None:
        self._body_sample = body
        try:
            if not isinstance(body, dict):
                raise TypeError(f"expected a JSON object, got {type(body).__name__}")
            self.on_response(body)  # pyright: ignore[reportUnknownArgumentType]
        except Exception as exc:
            self.error(f"{self.provider}: could not process response body: {type(exc).__name__}: {exc}")

    def finish(self) -> CallResult:
        """End of input. A stream without its final event ends with stop_reason ``error``."""
        if self._result is None:
            if self._late > 1:
                self.note(f"{self.provider}: {self._late} events after the terminal event skipped")
            self._check_protocol()
            if not self.completed and not self.errors:
                self.error(f"{self.provider}: stream ended before the final event (truncated response)")
            elif self.completed and not self.errors and self.provider_stop is None:
                # e.g. Chat content then [DONE] with no finish_reason, Anthropic message_stop with no
                # message_delta: nothing the provider sent says the turn ended normally
                self.error(f"{self.provider}: the stream ended without a stop reason from the provider")
            self._result = self._safe_build(aborted=False)
        return self._result

    def _check_protocol(self) -> None:
        """An error when no event of this parser's wire format arrived: name what did instead."""
        if not self.wire:
            return
        if self._body_sample is not None:
            seen = [wire_of_body(self._body_sample)]
        else:
            seen: list[str | None] = []
            for name, data in self._sample:  # read until the first event of this wire: that settles it
                loaded = _loads_or_none(data)
                wire = wire_of_body(loaded) if isinstance(loaded, list) else wire_of_event(name, loaded)
                if wire == self.wire:
                    return
                seen.append(wire)
        found = [w for w in seen if w is not None]
        if self.wire in found:
            return
        if found:
            other = max(set(found), key=found.count)
            hint = " or ".join(f"--provider {p}" for p, wires in PROVIDER_WIRES.items() if wires == (other,))
            self.error(
                f"{self.provider}: no {WIRE_TITLES[self.wire]} event in the stream: these are "
                f"{WIRE_TITLES[other]} events; replay with {hint or 'the provider that serves them'}"
            )
        elif self.errors:
            return  # the provider's own error (an error body or event) says what happened
        elif self._sample or self._body_sample is not None:
            first = (self._sample[0][1] if self._sample else json.dumps(self._body_sample))[:60]
            self.error(
                f"{self.provider}: no recognisable {WIRE_TITLES[self.wire]} event in the stream "
                f"(first data: {first!r})"
            )
        else:
            self.error(f"{self.provider}: empty stream: no event at all")

    def fail(self, message: str) -> CallResult:
        """Transport or HTTP failure: keep what arrived, report the error."""
        if self._result is None:
            self.error(message)
            self._result = self._safe_build(aborted=False)
        return self._result

    def abort(self) -> CallResult:
        """User interrupt: ``aborted`` wins over whatever the provider said."""
        if self._result is None:
            self._result = self._safe_build(aborted=True)
        return self._result

    def _safe_build(self, *, aborted: bool) -> CallResult:
        """``_build``, with a last line of defence: a state that cannot become a message (a parser
        bug) gives an empty ``error`` message and an error event instead of an exception."""
        try:
            return self._build(aborted=aborted)
        except Exception as exc:
            self.error(f"{self.provider}: could not build the final message: {type(exc).__name__}: {exc}")
            message = AssistantMessage(
                parts=[],
                usage=Usage(),
                stop_reason="aborted" if aborted else "error",
                response_id=self.response_id,
            )
            return CallResult(message, list(self.items), list(self.errors), list(self.notes))

    def _build(self, *, aborted: bool) -> CallResult:
        stop = stop_reason(  # the one rule every target honours (harness.contract.stops)
            self.provider_stop,
            has_tool_calls=self.parts.has_tool_calls(),
            failed=bool(self.errors) or not self.completed,
            aborted=aborted,
        )
        message = AssistantMessage(
            parts=self.parts.parts(self.model),
            usage=self.usage or Usage(),
            stop_reason=stop,
            response_id=self.response_id,
        )
        return CallResult(message, list(self.items), list(self.errors), list(self.notes))

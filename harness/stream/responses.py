"""The Responses stream core: OpenAI Responses (``harness.providers.openai_responses.stream``) and
OpenRouter's ``/responses`` endpoint (``harness.providers.openrouter.stream_responses``) parse with it.

A pure state machine over the Responses streaming events
(https://platform.openai.com/docs/api-reference/responses-streaming) and, for
non-streamed calls, the Response object
(https://platform.openai.com/docs/api-reference/responses/object).

Decisions (where DESIGN.md left room): the Stream section of ``harness/providers/openai_responses/DECISIONS.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from harness.contract.server_items import RESPONSES_SERVER_ITEMS, responses_item
from harness.contract.sources import responses_annotation
from harness.model import StopReason, Usage
from harness.stream.base import StreamParser, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.sse import SSEEvent

__all__ = ["PROVIDER_ID", "SIGNATURE_FORMAT", "ResponsesParser"]

PROVIDER_ID = "openai-responses"
SIGNATURE_FORMAT = "openai-responses"

Json = dict[str, Any]
Key = tuple[str, str, int]

# Error codes worth retrying (https://platform.openai.com/docs/guides/error-codes).
_RETRYABLE = frozenset({"server_error", "rate_limit_exceeded", "server_is_overloaded", "slow_down"})

# Events that carry nothing the canonical message needs (their content arrives elsewhere).
_IGNORED = frozenset(
    {
        "response.content_part.added",
        "response.content_part.done",
        "response.reasoning_summary_part.added",
        "response.reasoning_summary_part.done",
        "response.output_text.annotation.added",
        # an image generation's progress (its bytes come in partial_image and the done item)
        "response.image_generation_call.in_progress",
        "response.image_generation_call.generating",
        "response.image_generation_call.completed",
    }
)


#: Progress events of hosted tools (``response.web_search_call.searching`` ...).
_SERVER_PROGRESS = tuple(f"response.{kind}" for kind in sorted(RESPONSES_SERVER_ITEMS))


class ResponsesParser(StreamParser):
    """Responses stream -> one canonical assistant message."""

    provider = PROVIDER_ID
    wire = "openai-responses"

    def __init__(self) -> None:
        super().__init__()
        self._streamed: dict[Key, list[str]] = {}  # what the deltas gave, per part
        self._thinking_keys: dict[str, list[Key]] = {}  # reasoning item id -> its thinking parts
        self._started: set[str] = set()  # function call items whose ToolCallStart was emitted
        self._done: set[str] = set()  # items finalised by output_item.done
        self._noted: set[str] = set()
        self._phases: dict[str, str | None] = {}  # message item id -> its phase
        self._item_ids: dict[Any, str] = {}  # output_index -> the item id first seen there
        self._done_indexes: set[Any] = set()  # output indexes finalised by output_item.done
        self._rotated = 0  # events whose item id differed from their output index's first id
        self._server_names: dict[str, str] = {}  # server tool call id -> its tool
        self._handlers: dict[str, Callable[[Json], None]] = {
            "response.created": self._lifecycle,
            "response.queued": self._lifecycle,
            "response.in_progress": self._lifecycle,
            "response.completed": self._final,
            "response.incomplete": self._final,
            "response.failed": self._final,
            "response.output_item.added": self._item_added,
            "response.output_item.done": self._item_done_event,
            "response.reasoning_summary_text.delta": self._summary_delta,
            "response.reasoning_summary_text.done": self._summary_done,
            "response.reasoning_text.delta": self._reasoning_delta,
            "response.reasoning_text.done": self._reasoning_done,
            "response.output_text.delta": self._text_delta,
            "response.output_text.done": self._text_done,
            "response.refusal.delta": self._refusal_delta,
            "response.refusal.done": self._refusal_done,
            "response.function_call_arguments.delta": self._args_delta,
            "response.function_call_arguments.done": self._args_done,
            "response.image_generation_call.partial_image": self._partial_image,
            "error": self._error_event,
        }

    # ------------------------------------------------------------ entry points

    def on_event(self, event: SSEEvent) -> None:
        data = self.load(event)
        if data is None:
            return
        if not isinstance(data, dict):
            self.error(f"{PROVIDER_ID}: event data is not a JSON object: {event.data[:60]!r}")
            return
        data_: Json = data  # pyright: ignore[reportUnknownVariableType]
        index = data_.get("output_index")
        if index is not None:
            self._stable_id(data_, index)
        kind = "error" if event.event == "error" else data_.get("type") or event.event
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is not None:
            handler(data_)
        elif isinstance(kind, str) and kind.startswith(_SERVER_PROGRESS):
            pass  # a hosted tool's progress: its item's output_item.done carries what it did
        elif kind not in _IGNORED:
            self.note(f"{PROVIDER_ID}: unknown event type {kind!r} skipped")

    def on_response(self, body: Json) -> None:
        """A non-streamed Response object: every output item is final."""
        if isinstance(body.get("error"), dict) and "output" not in body:
            self._error_event(body)  # an error body ({"error": {...}}) rather than a Response
            self.completed = True
            return
        self._final({"response": body})

    def _stable_id(self, data: Json, index: Any) -> None:
        """Key an event's item by its ``output_index``: the item id first seen there wins.

        Some proxies (GitHub Copilot's ``/responses``) rewrite the opaque item id on every
        event of one item while ``output_index`` stays put; keyed by id, the pieces of one
        item would become several parts. The rotation is noted once, with a count at the end.
        """
        item = data.get("item")
        item_id = item.get("id") if isinstance(item, dict) else data.get("item_id")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if not isinstance(item_id, str) or not isinstance(index, int):
            return
        first = self._item_ids.get(index)
        if first is None:
            self._item_ids[index] = item_id
        elif first != item_id:
            self._rotated += 1
            if self._rotated == 1:
                self.note(
                    f"{PROVIDER_ID}: item id at output_index {index} changed from {first[:24]!r} to "
                    f"{item_id[:24]!r}; items keyed by output_index (a proxy that rotates ids)"
                )
            if isinstance(item, dict):
                data["item"] = {**item, "id": first}
            else:
                data["item_id"] = first

    # ------------------------------------------------------------ lifecycle

    def _lifecycle(self, data: Json) -> None:
        """response.created / queued / in_progress: the response id and model."""
        response = _obj(data.get("response"))
        self.response_id = response.get("id") or self.response_id
        self.model = response.get("model") or self.model

    def _final(self, data: Json) -> None:
        """response.completed / incomplete / failed: late items, usage, stop reason."""
        response: Json = _obj(data.get("response"))
        self._lifecycle(data)
        for index, output in enumerate(response.get("output") or ()):
            if index in self._done_indexes:
                continue
            item: Json = _obj(output)
            if self._rotated and index in self._item_ids:
                item = {**item, "id": self._item_ids[index]}
            if item.get("id") not in self._done:
                self._item_done(item)
        if self._rotated > 1:
            self.note(f"{PROVIDER_ID}: {self._rotated} events carried a rotated item id")
        usage = response.get("usage")
        if isinstance(usage, dict):
            self.usage = _usage(usage)  # pyright: ignore[reportUnknownArgumentType]
        self.provider_stop = self._stop_reason(response, data.get("type"))
        self.completed = True
        self.terminal = True

    def _stop_reason(self, response: Json, event_type: object) -> StopReason:
        status = response.get("status")
        if status is None and isinstance(event_type, str):
            status = event_type.removeprefix("response.")
        if status in ("completed", None):
            return "stop"
        if status == "incomplete":
            reason = _obj(response.get("incomplete_details")).get("reason")
            if reason == "max_output_tokens":
                return "length"
            self.error(f"{PROVIDER_ID}: response incomplete ({reason or 'no reason given'})")
            return "error"
        if status == "failed":
            self._report(response.get("error") or {}, "response failed")
            return "error"
        self.error(f"{PROVIDER_ID}: response ended with status {status!r}")
        return "error"

    def _error_event(self, data: Json) -> None:
        """An ``error`` event (``{"type": "error", "code", "message"}``, or nested ``error``)."""
        nested = data.get("error")
        self._report(nested if isinstance(nested, dict) else data, "error event")  # pyright: ignore[reportUnknownArgumentType]

    def _report(self, err: Json, what: str) -> None:
        code = err.get("code") or err.get("type")
        message = err.get("message") or "no message"
        retry = True if code in _RETRYABLE else None
        self.error(
            f"{PROVIDER_ID}: {what}: {code}: {message}" if code else f"{PROVIDER_ID}: {what}: {message}",
            can_retry=retry,
        )

    # ------------------------------------------------------------ output items

    def _item_added(self, data: Json) -> None:
        item: Json = _obj(data.get("item"))
        kind = item.get("type")
        if kind == "function_call":
            self._start_call(item)
        elif kind == "message":
            self._message_phase(item)
        elif kind in RESPONSES_SERVER_ITEMS:  # its parts come with its done item: its place is here
            self.parts.reserve(("server", item.get("id") or item.get("call_id") or ""))
        elif (
            kind not in ("reasoning", "image_generation_call") and kind not in RESPONSES_SERVER_ITEMS
        ):  # at their done
            self._note_once(
                f"item:{kind}", f"{PROVIDER_ID}: output item type {kind!r} has no canonical part; skipped"
            )

    def _item_done_event(self, data: Json) -> None:
        item: Json = _obj(data.get("item"))
        item_id = item.get("id") or item.get("call_id") or ""
        if item_id in self._done:
            self.note(f"{PROVIDER_ID}: repeated output_item.done for {item_id} ignored")
            return
        index = data.get("output_index")
        if isinstance(index, int):
            self._done_indexes.add(index)
        self._item_done(item)

    def _item_done(self, item: Json) -> None:
        """The authoritative final item: fill in whatever the deltas missed."""
        item_id = item.get("id") or item.get("call_id") or ""
        self._done.add(item_id)
        kind = item.get("type")
        if kind == "reasoning":
            self._reasoning_item_done(item_id, item)
        elif kind == "message":
            self._message_done(item_id, item)
        elif kind == "function_call":
            self._start_call(item)
            self._settle(("call", item_id, 0), item.get("arguments") or "")
        elif kind in RESPONSES_SERVER_ITEMS:  # a tool OpenAI ran: its item whole, never a client call
            parts = responses_item(item, self._server_names)
            if not self.parts.fill(("server", item_id), parts):  # announced: in its place
                for part in parts:
                    self.parts.fixed(part)
        elif kind == "image_generation_call":
            self._image(item_id, item)
        else:
            self._note_once(
                f"item:{kind}", f"{PROVIDER_ID}: output item type {kind!r} has no canonical part; skipped"
            )

    def _reasoning_item_done(self, item_id: str, item: Json) -> None:
        for index, part in enumerate(item.get("summary") or ()):
            self._settle(("summary", item_id, index), part.get("text") or "")
        for index, part in enumerate(item.get("content") or ()):
            if part.get("type") == "reasoning_text":
                self._settle(("reasoning", item_id, index), part.get("text") or "")
        signature = item.get("encrypted_content")
        if signature:
            keys = self._thinking_keys.get(item_id)
            key: Key = keys[-1] if keys else ("signature", item_id, 0)
            self.parts.signature(key, signature, format=SIGNATURE_FORMAT, id=item_id or None)

    def _message_done(self, item_id: str, item: Json) -> None:
        self._message_phase(item)
        for index, part in enumerate(item.get("content") or ()):
            kind = part.get("type")
            if kind == "output_text":
                self._settle(("text", item_id, index), part.get("text") or "")
                self._annotations(("text", item_id, index), _obj(part).get("annotations"))
            elif kind == "refusal":
                self._note_refusal(item_id)
                self._settle(("text", item_id, index), part.get("refusal") or "")
        phase = self._phases.get(item_id)
        for key in self._streamed:  # text parts opened before the phase was known
            if key[0] == "text" and key[1] == item_id:
                self.parts.text_item(key, item_id=item_id or None, phase=phase)

    def _image(self, item_id: str, item: Json) -> None:
        """An ``image_generation_call`` item's ``result`` (base64, in ``output_format``; png is the
        tool's default) is a generated image: a file part with the item id (an ``image_file`` needs a
        path on disk, which a parser never writes). Without a result it keeps its last partial image."""
        result = item.get("result")
        if isinstance(result, str) and result:
            fmt = item.get("output_format") if isinstance(item.get("output_format"), str) else "png"
            self.parts.file(("image", item_id, 0), f"image/{fmt}", result, id=item_id or None)
        elif not self.parts.has(("image", item_id, 0)):
            self.note(f"{PROVIDER_ID}: image_generation_call {item_id} has no image ({item.get('status')})")

    def _partial_image(self, data: Json) -> None:
        """``response.image_generation_call.partial_image``: a lower-fidelity whole image that the next
        partial, or the final result, replaces (kept when the stream ends before them)."""
        image = data.get("partial_image_b64")
        if isinstance(image, str) and image:
            fmt = data.get("output_format") if isinstance(data.get("output_format"), str) else "png"
            item_id = data.get("item_id") or ""
            self.parts.file(("image", item_id, 0), f"image/{fmt}", image, id=item_id or None)

    def _annotations(self, key: Key, annotations: Any) -> None:
        """An output_text's annotations (``url_citation``, ``file_citation`` ...): sources of that text."""
        if isinstance(annotations, list):
            for annotation in cast(list[Any], annotations):
                self.parts.source(key, responses_annotation(_obj(annotation)))

    def _message_phase(self, item: Json) -> None:
        """Remember a message item's phase (a later ``done`` copy wins when it has one)."""
        item_id = item.get("id") or ""
        phase = item.get("phase")
        if phase is not None and not isinstance(phase, str):
            self.note(f"{PROVIDER_ID}: message {item_id} has a non-string phase; ignored")
            phase = None
        if phase is not None or item_id not in self._phases:
            self._phases[item_id] = phase

    def _start_call(self, item: Json) -> None:
        """Open the tool call part; ToolCallStart once call_id and name are known."""
        item_id = item.get("id") or item.get("call_id") or ""
        call_id, name = item.get("call_id") or "", item.get("name") or ""
        self.parts.tool_call(("call", item_id, 0), call_id, name, item_id=item.get("id"))
        if call_id and name and item_id not in self._started:
            self._started.add(item_id)
            self.emit(ToolCallStart(call_id, name))

    # ------------------------------------------------------------ deltas

    def _summary_delta(self, data: Json) -> None:
        self._add(
            ("summary", data.get("item_id") or "", data.get("summary_index") or 0), data.get("delta") or ""
        )

    def _summary_done(self, data: Json) -> None:
        self._settle(
            ("summary", data.get("item_id") or "", data.get("summary_index") or 0), data.get("text") or ""
        )

    def _reasoning_delta(self, data: Json) -> None:
        self._add(
            ("reasoning", data.get("item_id") or "", data.get("content_index") or 0), data.get("delta") or ""
        )

    def _reasoning_done(self, data: Json) -> None:
        self._settle(
            ("reasoning", data.get("item_id") or "", data.get("content_index") or 0), data.get("text") or ""
        )

    def _text_delta(self, data: Json) -> None:
        self._add(
            ("text", data.get("item_id") or "", data.get("content_index") or 0), data.get("delta") or ""
        )

    def _text_done(self, data: Json) -> None:
        self._settle(
            ("text", data.get("item_id") or "", data.get("content_index") or 0), data.get("text") or ""
        )

    def _refusal_delta(self, data: Json) -> None:
        self._note_refusal(data.get("item_id") or "")
        self._text_delta(data)

    def _refusal_done(self, data: Json) -> None:
        self._settle(
            ("text", data.get("item_id") or "", data.get("content_index") or 0), data.get("refusal") or ""
        )

    def _args_delta(self, data: Json) -> None:
        self._add(("call", data.get("item_id") or "", 0), data.get("delta") or "")

    def _args_done(self, data: Json) -> None:
        self._settle(("call", data.get("item_id") or "", 0), data.get("arguments") or "")

    # ------------------------------------------------------------ parts

    def _add(self, key: Key, delta: str) -> None:
        """Append a delta to the part ``key`` (kind from the key) and emit the stream item."""
        if not delta:
            return
        streamed = self._streamed.get(key)
        if streamed is None:
            streamed = self._streamed[key] = []
        streamed.append(delta)
        kind = key[0]
        if kind == "text":
            self.parts.text(key, delta)
            self.emit(TextDelta(delta))
            if len(streamed) == 1:
                item_id = key[1]
                self.parts.text_item(key, item_id=item_id or None, phase=self._phases.get(item_id))
        elif kind == "call":
            self.parts.tool_args(key, delta)
        else:
            item_id = key[1]
            if len(streamed) == 1:
                self._thinking_keys.setdefault(item_id, []).append(key)
            self.parts.thinking(key, delta, id=item_id or None)
            self.emit(ThinkingDelta(delta))

    def _settle(self, key: Key, final: str) -> None:
        """Reconcile a part with its authoritative final text: add what the deltas missed."""
        streamed = "".join(self._streamed.get(key, ()))
        if streamed == final:
            return
        if final.startswith(streamed):
            self._add(key, final[len(streamed) :])
        else:
            self.note(
                f"{PROVIDER_ID}: streamed {key[0]} of {key[1]} differs from its final text; kept the streamed one"
            )

    # ------------------------------------------------------------ notes

    def _note_once(self, tag: str, message: str) -> None:
        if tag not in self._noted:
            self._noted.add(tag)
            self.note(message)

    def _note_refusal(self, item_id: str) -> None:
        self._note_once(f"refusal:{item_id}", f"{PROVIDER_ID}: message {item_id} is a refusal; kept as text")


def _obj(value: Any) -> Json:
    """``value`` if it is a JSON object, else an empty one (absent or null fields)."""
    return value if isinstance(value, dict) else {}  # pyright: ignore[reportUnknownVariableType]


def _usage(usage: Json) -> Usage:
    """ResponseUsage -> canonical Usage (input_tokens already includes cached tokens)."""
    input_details = _obj(usage.get("input_tokens_details"))
    output_details = _obj(usage.get("output_tokens_details"))
    return Usage(
        input_tokens=usage.get("input_tokens") or 0,
        output_tokens=usage.get("output_tokens") or 0,
        cached_input_tokens=input_details.get("cached_tokens"),
        cache_creation_input_tokens=input_details.get("cache_write_tokens"),
        reasoning_tokens=output_details.get("reasoning_tokens"),
        total_tokens=usage.get("total_tokens"),
    )

"""Google Gemini output adapter (provider id ``gemini``): ``streamGenerateContent`` and ``generateContent``.

Every SSE ``data:`` (``?alt=sse``), every element of the JSON array sent without
``alt=sse`` (see ``parse_json_array``), and a non-streamed body is one
``GenerateContentResponse`` (https://ai.google.dev/api/generate-content#generatecontentresponse).
google-genai has no stream accumulator, so the merge rules below are ours.

Decisions (where DESIGN.md left room): the Stream section of DECISIONS.md beside this module.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, cast

from harness.contract.gemini_names import camel
from harness.contract.server_items import GEMINI_SERVER_PARTS, gemini_server_part
from harness.contract.sources import gemini_grounding
from harness.model import SourcePart, StopReason, Usage
from harness.stream.base import CallResult, StreamParser, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.sse import SSEEvent

__all__ = ["PARSER", "PROVIDER_ID", "SIGNATURE_FORMAT", "GeminiParser", "parse_json_array"]

PROVIDER_ID = "gemini"
SIGNATURE_FORMAT = "google"

Json = dict[str, Any]
PathStep = str | int

_TEXT, _THINKING, _CALL, _OTHER, _SIGNATURE = "text", "thinking", "call", "other", "signature"
_STOP_REASONS: dict[str, StopReason] = {"STOP": "stop", "MAX_TOKENS": "length"}
_USAGE_FIELDS = (
    "promptTokenCount",
    "toolUsePromptTokenCount",
    "candidatesTokenCount",
    "thoughtsTokenCount",
    "cachedContentTokenCount",
    "totalTokenCount",
)
_RETRYABLE = frozenset({429, 500, 502, 503, 504})
_NO_FEEDBACK: dict[str, Any] = {}  # read-only default for a chunk without promptFeedback
# One JSONPath step: .name | [index] | ['name'] / ["name"]
_PATH_STEP = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]|\[\s*(['\"])(.*?)\3\s*\]")


@dataclass(slots=True)
class _StreamedCall:
    """A function call whose arguments arrive as ``partialArgs`` over several chunks."""

    key: int
    call_id: str
    started: bool = False
    args: Json = field(default_factory=lambda: {})
    strings: dict[str, tuple[list[PathStep], list[str]]] = field(default_factory=lambda: {})


class GeminiParser(StreamParser):
    """GenerateContentResponse chunks -> one canonical assistant message."""

    provider = PROVIDER_ID
    wire = "gemini"

    def __init__(self) -> None:
        super().__init__()
        self._key = 0  # PartsBuilder key of the newest part
        self._kind: str | None = None  # its kind (_TEXT, _THINKING, _CALL, _OTHER, _SIGNATURE)
        self._signed: set[int] = set()  # parts that already carry a signature
        self._calls = 0  # function calls so far (for minted ids)
        self._pending: _StreamedCall | None = None
        self._noted: set[str] = set()
        self._usage_meta: Json | None = None  # the last valid usageMetadata (built once, at the end)
        self._sources: list[SourcePart] = []  # grounding of the answer: after it, at the end
        self._server_names: dict[str, str] = {}  # server-side call id -> its tool

    # ------------------------------------------------------------ entry points

    def on_event(self, event: SSEEvent) -> None:
        if event.event not in (None, "message", "error"):
            self.note(f"{PROVIDER_ID}: unknown event type {event.event!r} skipped")
            return
        data = self.load(event)
        if data is None:
            return
        if event.event == "error":
            self._report(data.get("error", data) if isinstance(data, dict) else data)  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
        elif isinstance(data, dict):
            self._chunk(data)  # pyright: ignore[reportUnknownArgumentType]
        elif isinstance(data, list):  # a whole JSON array in one event (no alt=sse)
            for element in data:  # pyright: ignore[reportUnknownVariableType]
                if isinstance(element, dict):
                    self._chunk(element)  # pyright: ignore[reportUnknownArgumentType]
        else:
            self.error(f"{PROVIDER_ID}: event data is not a JSON object: {event.data[:60]!r}")

    def on_response(self, body: Json) -> None:
        """A non-streamed GenerateContentResponse: the same rules, in one chunk."""
        self._chunk(body)

    def _build(self, *, aborted: bool) -> CallResult:
        self._flush_call()  # a streamed call cut short keeps the arguments that arrived
        for source in self._sources:
            self.parts.fixed(source)
        self._sources = []
        if self._usage_meta is not None:
            self.usage = _usage(self._usage_meta)
        return super()._build(aborted=aborted)

    # ------------------------------------------------------------ chunks

    def _chunk(self, data: Json) -> None:
        """One GenerateContentResponse."""
        if "error" in data:
            self._report(data["error"])
            return
        # every chunk repeats the id and model: the checking setters run only when they change
        response_id = data.get("responseId")
        if response_id and response_id != self.response_id:
            self.response_id = response_id
        model = data.get("modelVersion")
        if model and model != self.model:
            self.model = model
        usage = data.get("usageMetadata")
        if isinstance(usage, dict):
            self._usage_metadata(usage)  # pyright: ignore[reportUnknownArgumentType]
        feedback = _obj(data.get("promptFeedback")) if "promptFeedback" in data else _NO_FEEDBACK
        if feedback.get("blockReason"):
            detail = feedback.get("blockReasonMessage")
            self.error(
                f"{PROVIDER_ID}: prompt blocked ({feedback['blockReason']})"
                + (f": {detail}" if detail else "")
            )
            self.completed = True
        for candidate in data.get("candidates") or ():
            if candidate.get("index", 0) == 0:
                self._candidate(candidate)
            else:
                self._note_once("candidates", f"{PROVIDER_ID}: only candidate 0 is mapped; others skipped")
        if self.completed:
            self.terminal = True

    def after_terminal(self, event: SSEEvent) -> bool:
        """A chunk after the finishReason is still this response's when it adds no content (usage only)."""
        data: Any = json.loads(event.data)
        chunks: list[Any] = data if isinstance(data, list) else [data]  # pyright: ignore[reportUnknownVariableType]
        return all(
            isinstance(chunk, dict)
            and not any(
                _obj(_obj(c).get("content")).get("parts")
                for c in _obj(chunk).get("candidates") or ()  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
            )
            for chunk in chunks  # pyright: ignore[reportUnknownVariableType]
        )

    def _usage_metadata(self, meta: Json) -> None:
        """Running totals: kept when every count is an integer, else an error event (usage ignored).

        Checked as it arrives (so garbage never reaches the final message) but turned into a
        Usage only once, at the end: Gemini repeats usage on every chunk.
        """
        get = meta.get
        bad = [name for name in _USAGE_FIELDS if (value := get(name)) is not None and type(value) is not int]
        if bad:  # (bool is no int here: type(True) is bool)
            name = bad[0]
            self.error(
                f"{PROVIDER_ID}: usageMetadata.{name} is a {type(meta[name]).__name__}, not an integer;"
                " usage ignored"
            )
            return
        self._usage_meta = meta

    def _candidate(self, candidate: Json) -> None:
        for part in _obj(candidate.get("content")).get("parts") or ():
            self._part(part)
        for key in ("groundingMetadata", "urlContextMetadata"):  # the answer's sources
            metadata = candidate.get(key)
            if isinstance(metadata, dict):
                found = gemini_grounding(metadata)  # pyright: ignore[reportUnknownArgumentType]
                self._sources += found
                if not found and metadata:  # a search that grounded nothing: said, never silent
                    kinds = sorted(str(k) for k in metadata)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
                    self._note_once(
                        f"{key}:{kinds}",
                        f"{PROVIDER_ID}: {key} {kinds} names no grounding chunk or URL; no source part",
                    )
        reason = candidate.get("finishReason")
        if reason:
            self._finish(reason, candidate.get("finishMessage"))

    def _finish(self, reason: str, message: str | None) -> None:
        """https://ai.google.dev/api/generate-content#FinishReason"""
        self._flush_call()
        self.completed = True
        stop = _STOP_REASONS.get(reason)
        if stop is None:
            self.error(f"{PROVIDER_ID}: generation stopped: {reason}" + (f": {message}" if message else ""))
            stop = "error"
        self.provider_stop = stop

    def _report(self, err: Any) -> None:
        """A Google API error object (``{"code", "message", "status"}``) -> an error event."""
        if not isinstance(err, dict):
            self.error(f"{PROVIDER_ID}: error: {err!r}")
            return
        error: Json = err  # pyright: ignore[reportUnknownVariableType]
        code = error.get("code")
        label = error.get("status") or "error"
        text = f"{PROVIDER_ID}: {label}" + (f" ({code})" if code is not None else "")
        retry = code in _RETRYABLE if isinstance(code, int) else None
        self.error(f"{text}: {error.get('message') or 'no message'}", can_retry=retry)

    # ------------------------------------------------------------ parts

    def _part(self, part: Json) -> None:
        """One Part: text, thought, functionCall, or a bare thoughtSignature."""
        signature = part.get("thoughtSignature") or None
        call = part.get("functionCall")
        if isinstance(call, dict):
            self._function_call(call, signature)  # pyright: ignore[reportUnknownArgumentType]
            return
        server = next((k for k in GEMINI_SERVER_PARTS if isinstance(part.get(k), dict)), None)
        if server is not None:  # code execution or a server tool: Gemini's own part, kept whole
            self._flush_call()
            sent = {k: v for k, v in part.items() if k not in ("thoughtSignature", "thought_signature")}
            key = self._new(_OTHER)
            body = camel(_obj(part[server]))
            self.parts.fixed(gemini_server_part(server, body, sent, self._server_names), key)
            if signature:
                self._sign(key, signature)
            return
        text = part.get("text")
        inline = part.get("inlineData") or part.get("inline_data")
        if text:
            self._text(text, part.get("thought") is True, signature)
        elif isinstance(inline, dict) and text is None:
            self._inline(cast(Json, inline), signature)
        elif text is None and any(k not in ("thought", "thoughtSignature") for k in part):
            kinds = sorted(k for k in part if k not in ("thought", "thoughtSignature"))
            self._note_once(f"part:{kinds}", f"{PROVIDER_ID}: part {kinds} has no canonical form; skipped")
            self._new(_OTHER)
            if signature:
                self._sign(self._key, signature)
        elif signature:
            self._bare_signature(signature)

    def _inline(self, inline: Json, signature: str | None) -> None:
        """Inline output data (an image a model generates, ``responseModalities: ["IMAGE"]``;
        docs: image-generation): a file part with its bytes, its ``thoughtSignature`` after it."""
        mime = inline.get("mimeType") or inline.get("mime_type")
        data = inline.get("data")
        if not isinstance(mime, str) or not isinstance(data, str):
            self._note_once("inline-bad", f"{PROVIDER_ID}: inlineData without mimeType or data skipped")
            return
        key = self._new(_OTHER)
        self.parts.file(key, mime, data)
        if signature:
            self._sign(key, signature)

    def _new(self, kind: str) -> int:
        self._key += 1
        self._kind = kind
        return self._key

    def _text(self, text: str, thought: bool, signature: str | None) -> None:
        kind = _THINKING if thought else _TEXT
        if self._kind != kind or (signature and self._key in self._signed):
            self._new(kind)
        if thought:
            self.parts.thinking(self._key, text)
            self.emit(ThinkingDelta(text))
        else:
            self.parts.text(self._key, text)
            self.emit(TextDelta(text))
        if signature:
            self._sign(self._key, signature)

    def _sign(self, key: int, signature: str) -> None:
        self.parts.signature(key, signature, format=SIGNATURE_FORMAT)
        self._signed.add(key)

    def _bare_signature(self, signature: str) -> None:
        """A signature on an empty part belongs to the newest part, unless that one is signed."""
        if self._kind in (None, _OTHER) or self._key in self._signed:
            self._new(_SIGNATURE)
        self._sign(self._key, signature)

    # ------------------------------------------------------------ function calls

    def _function_call(self, call: Json, signature: str | None) -> None:
        streamed = bool(call.get("partialArgs")) or call.get("willContinue") is True
        name = call.get("name")
        if streamed or (self._pending is not None and not name):
            self._streamed_call(call, signature)
            return
        if not name:
            self._note_once("call-no-name", f"{PROVIDER_ID}: function call without a name skipped")
            if signature:
                self._bare_signature(signature)
            return
        self._flush_call()
        key = self._new(_CALL)
        call_id = self._call_id(call.get("id"))
        args = call.get("args")
        self.parts.tool_call(key, call_id, name)
        self.parts.tool_args(key, _dumps(args if isinstance(args, dict) else {}))  # pyright: ignore[reportUnknownArgumentType]
        self.emit(ToolCallStart(call_id, name))
        if signature:
            self._sign(key, signature)

    def _call_id(self, explicit: object) -> str:
        """Gemini's id, or a deterministic one from the call's position in this response."""
        n = self._calls
        self._calls += 1
        if isinstance(explicit, str) and explicit:
            return explicit
        return f"call_{self.response_id}_{n}" if self.response_id else f"call_{n}"

    def _streamed_call(self, call: Json, signature: str | None) -> None:
        """A ``partialArgs`` chunk: open or continue the pending call; end it without ``willContinue``."""
        pending = self._pending
        if pending is None:
            pending = self._pending = _StreamedCall(self._new(_CALL), self._call_id(call.get("id")))
        elif call.get("id") and not pending.started:
            pending.call_id = call["id"]
        name = call.get("name") or ""
        self.parts.tool_call(pending.key, pending.call_id, name)
        if name and not pending.started:
            pending.started = True
            self.emit(ToolCallStart(pending.call_id, name))
        if signature:
            if pending.key in self._signed:
                self.note(f"{PROVIDER_ID}: second signature on one streamed function call ignored")
            else:
                self._sign(pending.key, signature)
        for partial in call.get("partialArgs") or ():
            self._partial_arg(pending, partial)
        args = call.get("args")
        if isinstance(args, dict) and args:
            pending.args, pending.strings = args, {}  # full arguments win over partial ones
        if call.get("willContinue") is not True:
            self._flush_call()

    def _partial_arg(self, pending: _StreamedCall, partial: Json) -> None:
        """One PartialArg: a value (or a string chunk) at a JSONPath."""
        raw = partial.get("jsonPath")
        path = _parse_path(raw) if isinstance(raw, str) else None
        if not path or raw is None:
            self.note(f"{PROVIDER_ID}: partial argument with unusable jsonPath {raw!r} skipped")
            return
        if "stringValue" in partial:
            entry = pending.strings.get(raw)
            if entry is None:
                entry = pending.strings[raw] = (path, [])
                _set_path(pending.args, path, "")  # keep the key's arrival order
            entry[1].append(partial["stringValue"] or "")
            return
        if "numberValue" in partial:
            value = partial["numberValue"]
        elif "boolValue" in partial:
            value = partial["boolValue"]
        elif "nullValue" in partial:
            value = None
        else:
            return
        pending.strings.pop(raw, None)
        _set_path(pending.args, path, value)

    def _flush_call(self) -> None:
        pending, self._pending = self._pending, None
        if pending is None:
            return
        for path, chunks in pending.strings.values():
            _set_path(pending.args, path, "".join(chunks))
        self.parts.tool_args(pending.key, _dumps(pending.args))

    def _note_once(self, tag: str, message: str) -> None:
        if tag not in self._noted:
            self._noted.add(tag)
            self.note(message)


# ---------------------------------------------------------------- helpers


def _obj(value: Any) -> Json:
    """``value`` if it is a JSON object, else an empty one (absent or null fields)."""
    return value if isinstance(value, dict) else {}  # pyright: ignore[reportUnknownVariableType]


def _usage(meta: Json) -> Usage:
    """UsageMetadata -> canonical Usage (https://ai.google.dev/api/generate-content#UsageMetadata)."""
    thoughts = meta.get("thoughtsTokenCount")
    return Usage(
        input_tokens=(meta.get("promptTokenCount") or 0) + (meta.get("toolUsePromptTokenCount") or 0),
        output_tokens=(meta.get("candidatesTokenCount") or 0) + (thoughts or 0),
        cached_input_tokens=meta.get("cachedContentTokenCount"),
        reasoning_tokens=thoughts,
        total_tokens=meta.get("totalTokenCount"),
    )


def _dumps(args: Json) -> str:
    return json.dumps(args, ensure_ascii=False, separators=(",", ":"))


def _parse_path(json_path: str) -> list[PathStep] | None:
    """``$.a.b[0]['c']`` -> ``["a", "b", 0, "c"]``; None when it is not such a path."""
    if not json_path.startswith("$"):
        return None
    steps: list[PathStep] = []
    pos = 1
    while pos < len(json_path):
        match = _PATH_STEP.match(json_path, pos)
        if match is None:
            return None
        name, index, _, quoted = match.groups()
        steps.append(name if name is not None else int(index) if index is not None else quoted)
        pos = match.end()
    return steps


def _set_path(root: Json, path: list[PathStep], value: Any) -> None:
    """Set ``value`` at ``path`` under ``root``, creating objects/arrays on the way."""
    node: Any = root
    for step, following in pairwise(path):
        child = _child(node, step)
        if not isinstance(child, dict | list):
            child = _container(following)
            _put(node, step, child)
        node = cast(Any, child)
    _put(node, path[-1], value)


def _container(following: PathStep) -> Any:
    return [] if isinstance(following, int) else {}


def _child(node: Any, step: PathStep) -> Any:
    if isinstance(node, list) and isinstance(step, int):
        items = cast(list[Any], node)
        return items[step] if step < len(items) else None
    return cast(Json, node).get(str(step)) if isinstance(node, dict) else None


def _put(node: Any, step: PathStep, value: Any) -> None:
    if isinstance(node, list) and isinstance(step, int):
        items = cast(list[Any], node)
        if step >= len(items):
            items.extend([None] * (step + 1 - len(items)))
        items[step] = value
    elif isinstance(node, dict):
        cast(Json, node)[str(step)] = value


def parse_json_array(body: bytes) -> list[Json]:
    """The GenerateContentResponse objects of a ``streamGenerateContent`` body sent without ``alt=sse``.

    That framing is one JSON array streamed element by element (``[{...}\\n,\\r\\n{...}]``).
    A single object (a non-streamed ``generateContent`` body) gives a one-element list.
    Tolerant by design: a cut or garbled tail ends the list at the last complete element,
    and the missing final chunk then ends the call with stop_reason ``error``; elements
    that are not objects are skipped. Feed each element to the parser as one event.
    """
    text = body.decode("utf-8", errors="replace")
    decoder = json.JSONDecoder()
    pos = _skip(text, 0, " \t\r\n")
    if pos >= len(text):
        return []
    if text[pos] != "[":
        try:
            value, _ = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return []
        return [value] if isinstance(value, dict) else []
    out: list[Json] = []
    pos += 1
    while True:
        pos = _skip(text, pos, " \t\r\n,")
        if pos >= len(text) or text[pos] == "]":
            return out
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return out
        if isinstance(value, dict):
            out.append(value)  # pyright: ignore[reportUnknownArgumentType]


def _skip(text: str, pos: int, chars: str) -> int:
    while pos < len(text) and text[pos] in chars:
        pos += 1
    return pos


PARSER = GeminiParser

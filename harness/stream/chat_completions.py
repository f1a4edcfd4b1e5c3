"""The Chat Completions stream core: OpenAI Chat (``harness.providers.openai_chat.stream``) and
OpenRouter (``harness.providers.openrouter.stream``) both parse with it.

Streamed: ``chat.completion.chunk`` objects as SSE ``data:`` lines ending with
``data: [DONE]`` (https://platform.openai.com/docs/api-reference/chat-streaming).
Not streamed: the ``ChatCompletion`` body
(https://platform.openai.com/docs/api-reference/chat/object). OpenAI-compatible servers
(DeepSeek, Groq, ...) use the same parser; OpenRouter adds its reasoning fields on top.

Decisions (where DESIGN.md left room): the Stream section of ``harness/providers/openai_chat/DECISIONS.md``.
"""

from __future__ import annotations

import json
from typing import Any, cast

from harness.contract.server_items import result_part
from harness.contract.sources import responses_annotation, search_result
from harness.contract.stops import FINISH_REASONS, map_stop_reason, map_usage  # bridges use them too
from harness.model import SourcePart
from harness.stream.base import CallResult, StreamParser, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.sse import SSEEvent

__all__ = ["ChatCompletionsParser", "map_stop_reason", "map_usage"]

_EMPTY: dict[str, Any] = {}  # read-only default for absent objects
_RETRYABLE_TYPES = frozenset(
    {"server_error", "rate_limit_error", "rate_limit_exceeded", "timeout", "overloaded"}
)


def _retryable(error: dict[str, Any]) -> bool | None:
    code, kind = error.get("code"), error.get("type")
    if isinstance(code, int):
        return code in (408, 429) or code >= 500
    return True if kind in _RETRYABLE_TYPES else None


class ChatCompletionsParser(StreamParser):
    """Chat Completions chunks/body -> canonical assistant message (each provider's subclass names itself)."""

    wire = "openai-chat"

    def __init__(self) -> None:
        super().__init__()
        self._last = ""  # kind of the latest content: "text" | "thinking" | "tool"
        self._calls: dict[int, tuple[str, str]] = {}  # tool index -> (call id, name)
        self._started: set[int] = set()
        self._finished = False
        self._has_usage = False
        self._executed: dict[int, dict[str, Any]] = {}  # executed tool index -> its entry so far
        # Perplexity-style top-level sources (``search_results``, else ``citations`` URLs): every
        # chunk repeats the whole list, so the last one is the answer's, placed after it at the end
        self._found: list[Any] | None = None

    # ------------------------------------------------------------ streamed

    def on_event(self, event: SSEEvent) -> None:
        if event.data == "[DONE]":
            self.completed = True
            self.terminal = True
            return
        if event.event not in (None, "message", "error"):
            self.note(f"{self.provider}: unknown event type {event.event!r} skipped")
            return
        data = self.load(event)
        if data is None:
            return
        if not isinstance(data, dict):
            self.note(f"{self.provider}: non-object data skipped: {event.data[:60]!r}")
            return
        chunk = cast(dict[str, Any], data)
        if event.event == "error" or chunk.get("error"):
            self._error(chunk)
        elif "choices" in chunk or "usage" in chunk or "x_groq" in chunk:
            self._chunk(chunk)
        else:
            self.note(f"{self.provider}: data that is no chunk skipped: {event.data[:60]!r}")

    def after_terminal(self, event: SSEEvent) -> bool:
        """A usage-only chunk of this completion (no choices) may still follow ``[DONE]``."""
        data = json.loads(event.data)
        return (
            isinstance(data, dict)
            and not data.get("choices")  # pyright: ignore[reportUnknownMemberType]
            and data.get("id") in (None, self.response_id)  # pyright: ignore[reportUnknownMemberType]
        )

    def _chunk(self, chunk: dict[str, Any]) -> None:
        if self.response_id is None:
            self.response_id = chunk.get("id")
        found = chunk.get("search_results") or chunk.get("citations")
        if isinstance(found, list) and found:
            self._found = cast(list[Any], found)
        if chunk.get("model"):
            self.model = chunk["model"]
        for choice in chunk.get("choices") or ():
            if choice.get("index", 0) != 0:
                self.note(
                    f"{self.provider}: choice {choice.get('index')} skipped (only choice 0 is the message)"
                )
                continue
            delta = choice.get("delta")
            if delta:
                self._delta(delta)
            if choice.get("finish_reason"):
                self._finish(choice["finish_reason"])
        usage = chunk.get("usage") or (chunk.get("x_groq") or _EMPTY).get("usage")
        if usage:
            self.usage = map_usage(usage)
            self._has_usage = True
        if self._finished and self._has_usage:
            self.completed = True
            self.terminal = True  # only [DONE] (dropped) or usage-only chunks may follow

    def _delta(self, delta: dict[str, Any]) -> None:
        """One message delta (or a whole non-streamed message): reasoning, text, tool calls."""
        self._reasoning(delta)
        if delta.get("content"):
            self._text(delta["content"])
        if delta.get("refusal"):
            self._text(delta["refusal"])
        audio = delta.get("audio")
        if isinstance(audio, dict):
            self._audio(cast(dict[str, Any], audio))
        calls = delta.get("tool_calls")
        if calls:
            for position, call in enumerate(calls):
                self._tool_call(call.get("index", position), call)
        if delta.get("function_call"):
            self.note(f"{self.provider}: deprecated delta.function_call skipped")
        annotations = delta.get("annotations")
        if isinstance(annotations, list):  # url_citation (OpenAI search models, OpenRouter web plugin)
            for annotation in cast(list[Any], annotations):
                if isinstance(annotation, dict):
                    source = responses_annotation(cast(dict[str, Any], annotation), provider=self.provider)
                    self.parts.source("text", source)
        executed = delta.get("executed_tools")
        if isinstance(executed, list):  # tools the provider ran (Groq compound: search, code)
            for position, entry in enumerate(cast(list[Any], executed)):
                if isinstance(entry, dict):
                    self._executed_tool(cast(dict[str, Any], entry), position)

    def _executed_tool(self, entry: dict[str, Any], position: int) -> None:
        """One ``executed_tools`` entry, streamed in pieces by ``index``: the call (its entry as
        ``raw``) when it first appears; its result, then its search results as sources, when its
        ``output`` arrives. The entry names no id: the call id is where it stands."""
        index = entry.get("index", position)
        key = ("executed", index)
        merged = self._executed.get(index)
        call_id, name = f"executed_tools[{index}]", str(entry.get("type") or "tool")
        if merged is None:
            merged = self._executed[index] = {}
            self.parts.server_call(key, call_id, name, self.provider, merged)
            if isinstance(entry.get("arguments"), str):  # the call's input, whole in its first piece
                self.parts.server_args(key, entry["arguments"])
        merged.update(entry)  # the call's raw, complete when the stream ends
        if entry.get("output") is not None:
            self.parts.fixed(result_part(call_id, name, self.provider, "success", None))
            found_in: Any = entry.get("search_results")
            results: Any = (
                cast(dict[str, Any], found_in).get("results") if isinstance(found_in, dict) else None
            )
            for result in cast(list[Any], results or []):
                if isinstance(result, dict):
                    found = cast(dict[str, Any], result)
                    self.parts.fixed(
                        SourcePart(
                            source_type="search_result",
                            url=found.get("url") if isinstance(found.get("url"), str) else None,
                            title=found.get("title") if isinstance(found.get("title"), str) else None,
                            provider=self.provider,
                            raw=dict(found),
                        )
                    )

    def _audio(self, audio: dict[str, Any]) -> None:
        """Assistant audio (``modalities: ["text", "audio"]``; guides/audio): ``message.audio`` {id,
        data, transcript, expires_at}, or its pieces in ``delta.audio``. The bytes become one file
        part with the audio id (Chat replays it as ``audio: {id}``); the transcript is the turn's
        text. The response names no format (the request's ``audio.format`` does): ``audio/*``."""
        data, transcript, audio_id = audio.get("data"), audio.get("transcript"), audio.get("id")
        if (isinstance(data, str) and data) or (isinstance(audio_id, str) and audio_id):
            self.parts.file(
                "audio",
                "audio/*",
                data if isinstance(data, str) else "",
                id=audio_id if isinstance(audio_id, str) and audio_id else None,
                append=True,
            )
        if isinstance(transcript, str) and transcript:
            self._text(transcript)

    def _reasoning(self, delta: dict[str, Any]) -> None:
        text = delta.get("reasoning_content") or delta.get("reasoning")
        if text:
            self._thinking(text)

    def _text(self, text: str) -> None:
        if self._last != "text":
            self.parts.close("text")
            self._last = "text"
        self.parts.text("text", text)
        self.emit(TextDelta(text))

    def _thinking(self, text: str) -> None:
        if self._last != "thinking":
            self.parts.close("thinking")
            self._last = "thinking"
        self.parts.thinking("thinking", text)
        self.emit(ThinkingDelta(text))

    def _tool_call(self, index: int, call: dict[str, Any]) -> None:
        self._last = "tool"
        key = ("tool", index)
        function = call.get("function") or _EMPTY
        if index not in self._started:
            self._identify(index, call.get("id") or "", function.get("name") or "")
        if function.get("arguments"):
            self.parts.tool_args(key, function["arguments"])

    def _identify(self, index: int, call_id: str, name: str) -> None:
        """The first id and the first name win; ``ToolCallStart`` once both are known."""
        known_id, known_name = self._calls.get(index, ("", ""))
        call_id, name = known_id or call_id, known_name or name
        self._calls[index] = (call_id, name)
        self.parts.tool_call(("tool", index), call_id, name)
        if call_id and name:
            self._started.add(index)
            self.emit(ToolCallStart(call_id, name))

    def _finish(self, reason: str) -> None:
        self._finished = True
        self.provider_stop = map_stop_reason(reason)
        if reason == "content_filter":
            self.error(
                f"{self.provider}: response stopped by the content filter (finish_reason content_filter)"
            )
        elif reason == "error" and not self.errors:
            self.error(f"{self.provider}: the provider ended the response with finish_reason error")
        elif reason not in FINISH_REASONS:
            self.note(f"{self.provider}: unknown finish_reason {reason!r} mapped to stop")

    def _error(self, data: dict[str, Any]) -> None:
        raw = data.get("error")
        error = cast(dict[str, Any], raw) if isinstance(raw, dict) else {"message": raw or data}
        label = error.get("type") or error.get("code") or "error"
        self.error(
            f"{self.provider}: {label}: {error.get('message') or 'no message'}", can_retry=_retryable(error)
        )

    def _build(self, *, aborted: bool) -> CallResult:
        for entry in self._found or ():  # the answer's sources, after it
            if isinstance(entry, dict | str):
                self.parts.fixed(search_result(entry, self.provider))
            else:
                self.note(f"{self.provider}: a search result that is neither an object nor a URL skipped")
        self._found = None
        return super()._build(aborted=aborted)

    # ------------------------------------------------------------ not streamed

    def on_response(self, body: dict[str, Any]) -> None:
        """A ``ChatCompletion`` body (or an error body ``{"error": {...}}``)."""
        if body.get("error"):
            self._error(body)
            return
        choices = [{**c, "delta": c.get("message")} for c in body.get("choices") or ()]
        self._chunk({**body, "choices": choices})
        self.completed = True

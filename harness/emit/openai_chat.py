"""OpenAI Chat Completions stream emitter: the inverse of ``harness.providers.openai_chat.stream``.

Wire format (https://platform.openai.com/docs/api-reference/chat-streaming):
``chat.completion.chunk`` objects as ``data:`` lines: a first chunk with the role, content
and reasoning deltas, tool calls as ``delta.tool_calls`` fragments keyed by ``index`` (the
first carries id, type, name and ``arguments: ""``, the rest argument fragments), a
chunk with ``finish_reason``, the usage chunk (``choices: []``, as
``stream_options.include_usage`` sends it) and ``data: [DONE]``.

Representable (besides ``common.check_common``):

- No reasoning: OpenAI's Chat stream carries none (no ``reasoning_content``, DeepSeek's field,
  and no ``reasoning``), so a message with thinking is not representable and I11 compares its
  projection without it (a stream of OpenAI's with another provider's field judged a
  client that rightly ignores it). The dialects (``harness.emit.dialects``) and OpenRouter send
  thinking texts (``id`` None) in their own field; none has signatures.
- Text and thinking texts are non-empty (empty deltas add nothing), and two text parts
  (or two thinking texts) are never adjacent: the deltas of one field form one part
  until another kind of delta comes in between.
- Tool calls: ``item_id`` None; ``arguments_json`` any string (the wire carries a string).
- Usage: ``total_tokens`` set (the usage chunk always has it).
- ``stop_reason``: stop -> ``stop``, length -> ``length``, tool_use -> ``tool_calls``,
  error -> ``content_filter`` (the complete stream the parser reads as an error).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.emit.common import CREATED, check_common, pieces, sse
from harness.model import AssistantMessage, TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart

__all__ = ["ChatEmitter", "check", "emit"]

_FINISH = {"stop": "stop", "length": "length", "tool_use": "tool_calls", "error": "content_filter"}


@dataclass(frozen=True, slots=True)
class Unit:
    """One run of deltas: text, thinking, a tool call, or (OpenRouter) a reasoning_details unit."""

    kind: str  # text | thinking | tool | reasoning
    text: str | None = None
    call: ToolCallPart | None = None
    index: int = 0  # tool call index / reasoning_details index
    thinking: ThinkingTextPart | None = None
    signature: ThinkingSignaturePart | None = None


class ChatEmitter:
    """Chat chunks for a message; OpenRouter overrides the reasoning hooks."""

    #: The delta field thinking goes out in (None: the wire has no reasoning field: OpenAI's own).
    reasoning_field: str | None = None

    # ------------------------------------------------------------ plan

    def plan(self, message: AssistantMessage) -> list[Unit] | str:
        units: list[Unit] = []
        last = ""  # the parser's notion of the current delta kind
        calls = 0
        parts = message.parts
        index = 0
        while index < len(parts):
            part = parts[index]
            where = f"part {index}"
            if isinstance(part, TextPart):
                if not part.text:
                    return f"{where}: empty text (an empty content delta adds nothing)"
                if last == "text":
                    return f"{where}: text right after text merges into one part"
                units.append(Unit("text", part.text))
                last = "text"
            elif isinstance(part, ToolCallPart):
                if part.item_id is not None:
                    return f"{where}: Chat tool calls have no item id"
                units.append(Unit("tool", call=part, index=calls))
                calls += 1
                last = "tool"
            elif isinstance(part, ThinkingTextPart | ThinkingSignaturePart):
                step = self.plan_reasoning(parts, index, units, last)
                if isinstance(step, str):
                    return step
                index, last = step
                continue
            else:
                return f"{where}: {part.type} has no Chat form"
            index += 1
        return units

    def plan_reasoning(
        self, parts: list[Any], index: int, units: list[Unit], last: str
    ) -> tuple[int, str] | str:
        """Plan the thinking part at ``index``; returns (next index, last kind) or the reason."""
        part = parts[index]
        where = f"part {index}"
        if isinstance(part, ThinkingSignaturePart):
            return f"{where}: Chat has no reasoning signatures"
        assert isinstance(part, ThinkingTextPart)
        if self.reasoning_field is None:
            return (
                f"{where}: OpenAI's Chat stream carries no reasoning (reasoning_content is DeepSeek's field)"
            )
        if part.id is not None:
            return f"{where}: Chat reasoning has no id"
        if not part.text:
            return f"{where}: empty thinking text (an empty reasoning delta adds nothing)"
        if last == "thinking":
            return f"{where}: thinking right after thinking merges into one part"
        units.append(Unit("thinking", part.text))
        return index + 1, "thinking"

    def check(self, message: AssistantMessage) -> str | None:
        reason = check_common(message)
        if reason is not None:
            return reason
        usage = message.usage
        assert usage is not None
        if usage.total_tokens is None:
            return "usage.total_tokens is None; the usage chunk always carries total_tokens"
        plan = self.plan(message)
        return plan if isinstance(plan, str) else None

    # ------------------------------------------------------------ wire

    def chunk(
        self,
        response_id: str,
        model: str,
        delta: dict[str, Any] | None,
        *,
        finish: str | None = None,
        usage: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        choices: list[dict[str, Any]] = []
        if delta is not None:
            choices.append({"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish})
        return {
            "id": response_id,
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": model,
            "system_fingerprint": "fp_emit",
            "choices": choices,
            "usage": usage,
        }

    def preamble(self) -> list[str]:
        """Anything before the first chunk (OpenRouter: keep-alive comments)."""
        return []

    def first_delta(self) -> dict[str, Any]:
        return {"role": "assistant", "content": "", "refusal": None}

    def reasoning_deltas(self, unit: Unit) -> list[dict[str, Any]]:
        assert unit.text is not None and self.reasoning_field is not None
        return [{self.reasoning_field: p} for p in pieces(unit.text)]

    def usage(self, message: AssistantMessage) -> dict[str, Any]:
        usage = message.usage
        assert usage is not None
        raw: dict[str, Any] = {
            "prompt_tokens": usage.input_tokens,
            "completion_tokens": usage.output_tokens,
            "total_tokens": usage.total_tokens,
        }
        prompt: dict[str, Any] = {}
        if usage.cached_input_tokens is not None:
            prompt["cached_tokens"] = usage.cached_input_tokens
        if usage.cache_creation_input_tokens is not None:
            prompt["cache_write_tokens"] = usage.cache_creation_input_tokens
        if prompt:
            raw["prompt_tokens_details"] = prompt
        if usage.reasoning_tokens is not None:
            raw["completion_tokens_details"] = {"reasoning_tokens": usage.reasoning_tokens}
        return raw

    def deltas(self, unit: Unit) -> list[dict[str, Any]]:
        if unit.kind == "text":
            assert unit.text is not None
            return [{"content": p} for p in pieces(unit.text)]
        if unit.kind == "tool":
            call = unit.call
            assert call is not None
            head = {
                "index": unit.index,
                "id": call.call_id,
                "type": "function",
                "function": {"name": call.tool_name, "arguments": ""},
            }
            out: list[dict[str, Any]] = [{"tool_calls": [head]}]
            if call.arguments_json:
                out.extend(
                    {"tool_calls": [{"index": unit.index, "function": {"arguments": p}}]}
                    for p in pieces(call.arguments_json)
                )
            return out
        return self.reasoning_deltas(unit)

    def emit(self, message: AssistantMessage, *, response_id: str, model: str) -> bytes:
        plan = self.plan(message)
        assert not isinstance(plan, str), plan
        events = self.preamble()
        events.append(sse(self.chunk(response_id, model, self.first_delta())))
        for unit in plan:
            events.extend(sse(self.chunk(response_id, model, d)) for d in self.deltas(unit))
        finish = _FINISH[message.stop_reason or "stop"]
        events.append(sse(self.chunk(response_id, model, {}, finish=finish)))
        events.append(sse(self.chunk(response_id, model, None, usage=self.usage(message))))
        events.append(sse("[DONE]"))
        return "".join(events).encode()


_EMITTER = ChatEmitter()


def check(message: AssistantMessage) -> str | None:
    return _EMITTER.check(message)


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    """The SSE body of a streamed ``POST /v1/chat/completions`` answering with ``message``."""
    return _EMITTER.emit(message, response_id=response_id, model=model)

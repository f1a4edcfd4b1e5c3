"""OpenRouter stream emitter: Chat chunks (``openai_chat``) plus ``delta.reasoning_details``.

Wire format (https://openrouter.ai/docs/use-cases/reasoning-tokens): keep-alive comments
(``: OPENROUTER PROCESSING``), chunks carrying ``provider`` and ``native_finish_reason``,
``reasoning_details`` entries keyed by ``index`` (``format`` in every fragment, ``id`` in
the first, since the OpenAI SDK's generic merge concatenates repeated strings), and
``delta.reasoning`` repeating the reasoning text as OpenRouter does. Per thinking unit:

- ``anthropic-claude-v1`` and the other non-Responses formats: ``reasoning.text``
  fragments, then a last fragment carrying the ``signature`` (one index);
- the ``*-responses-v1`` formats, or a signature whose ``id`` differs from the
  thinking's: ``reasoning.summary``/``reasoning.text`` fragments, then a
  ``reasoning.encrypted`` entry at the next index (OpenRouter's documented example
  gives each entry its own index; the canonical parts are the same flat list);
- a signature with no thinking before it: a lone ``reasoning.encrypted`` entry.

Representable (besides the Chat rules for text and tool calls, see ``openai_chat``):

- A signature's ``format`` is one of OpenRouter's ``ReasoningFormat`` values, and it is
  non-empty. Any ``id`` on thinking texts and signatures round-trips.
- Thinking texts may be empty and adjacent (each unit has its own index).
- Two text parts separated only by lone signatures round-trip: a ``reasoning.encrypted``
  entry ends the parser's text run.
- ``stop_reason`` error -> ``content_filter`` (OpenRouter normalises finish reasons).
"""

from __future__ import annotations

from typing import Any

from harness.contract.providers import provider_entry
from harness.emit.common import CREATED, pieces
from harness.emit.openai_chat import ChatEmitter, Unit
from harness.model import AssistantMessage, ThinkingSignaturePart, ThinkingTextPart

__all__ = ["FORMATS", "OpenRouterEmitter", "check", "emit"]

#: OpenRouter's ``ReasoningFormat`` (the provider table's signature formats for ``openrouter``).
FORMATS = provider_entry("openrouter").signature_formats
_SUMMARY_FORMATS = frozenset(f for f in FORMATS if f.endswith("-responses-v1"))


class OpenRouterEmitter(ChatEmitter):
    def plan_reasoning(
        self, parts: list[Any], index: int, units: list[Unit], last: str
    ) -> tuple[int, str] | str:
        part = parts[index]
        taken = sum(2 if _two_entries(u) else 1 for u in units if u.kind == "reasoning")  # indices used
        if isinstance(part, ThinkingSignaturePart):
            reason = _signature_reason(part, index)
            if reason is not None:
                return reason
            units.append(Unit("reasoning", index=taken, signature=part))
            return index + 1, "reasoning"  # a lone reasoning.encrypted entry ends a text run
        assert isinstance(part, ThinkingTextPart)
        following = parts[index + 1] if index + 1 < len(parts) else None
        if isinstance(following, ThinkingSignaturePart):
            reason = _signature_reason(following, index + 1)
            if reason is not None:
                return reason
            units.append(Unit("reasoning", index=taken, thinking=part, signature=following))
            return index + 2, "thinking"
        units.append(Unit("reasoning", index=taken, thinking=part))
        return index + 1, "thinking"

    def preamble(self) -> list[str]:
        return [": OPENROUTER PROCESSING\n\n"]

    def first_delta(self) -> dict[str, Any]:
        return {"role": "assistant", "content": "", "reasoning": None, "reasoning_details": []}

    def chunk(
        self,
        response_id: str,
        model: str,
        delta: dict[str, Any] | None,
        *,
        finish: str | None = None,
        usage: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        choice: dict[str, Any] = {
            "index": 0,
            "delta": {"role": "assistant", "content": ""} if delta is None else delta,
            "finish_reason": finish,
            "native_finish_reason": finish,
            "logprobs": None,
        }
        out: dict[str, Any] = {
            "id": response_id,
            "provider": model.split("/")[0].capitalize() or "OpenRouter",
            "model": model,
            "object": "chat.completion.chunk",
            "created": CREATED,
            "choices": [choice],
        }
        if usage is not None:
            out["usage"] = usage
        return out

    def usage(self, message: AssistantMessage) -> dict[str, Any]:
        raw = super().usage(message)
        raw["cost"] = 0
        raw["is_byok"] = False
        return raw

    def reasoning_deltas(self, unit: Unit) -> list[dict[str, Any]]:
        thinking, signature = unit.thinking, unit.signature
        if thinking is None:
            assert signature is not None
            return [_delta(None, _encrypted(unit.index, signature))]
        fmt = (signature.format or "unknown") if signature is not None else "unknown"
        kind, field = (
            ("reasoning.summary", "summary") if fmt in _SUMMARY_FORMATS else ("reasoning.text", "text")
        )
        out: list[dict[str, Any]] = []
        for n, piece in enumerate(pieces(thinking.text)):
            entry: dict[str, Any] = {"type": kind, field: piece}
            if n == 0 and thinking.id is not None:
                entry["id"] = thinking.id  # once: the SDK's generic merge would concatenate a repeated id
            out.append(_delta(piece or None, {**entry, "format": fmt, "index": unit.index}))
        if signature is not None:
            if _two_entries(unit):
                out.append(_delta(None, _encrypted(unit.index + 1, signature)))
            else:
                entry = {
                    "type": "reasoning.text",
                    "signature": signature.signature,
                    "format": fmt,
                    "index": unit.index,
                }
                out.append(_delta(None, entry))
        return out


def _two_entries(unit: Unit) -> bool:
    """A thinking unit whose signature travels as its own ``reasoning.encrypted`` entry (next index).

    That is the shape of the ``*-responses-v1`` formats (a summary, then the encrypted
    item: OpenRouter's documented example gives each its own index), and the only one
    that keeps a signature ``id`` different from the thinking's.
    """
    thinking, signature = unit.thinking, unit.signature
    if thinking is None or signature is None:
        return False
    return signature.format in _SUMMARY_FORMATS or signature.id != thinking.id


def _encrypted(index: int, signature: ThinkingSignaturePart) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "reasoning.encrypted", "data": signature.signature}
    if signature.id is not None:
        entry["id"] = signature.id
    return {**entry, "format": signature.format or "unknown", "index": index}


def _delta(reasoning: str | None, entry: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": "", "reasoning": reasoning, "reasoning_details": [entry]}


def _signature_reason(part: ThinkingSignaturePart, index: int) -> str | None:
    if part.format not in FORMATS:
        return f"part {index}: signature format {part.format!r} is not an OpenRouter reasoning_details format"
    if not part.signature:
        return f"part {index}: an empty signature (OpenRouter sends none)"
    return None


_EMITTER = OpenRouterEmitter()


def check(message: AssistantMessage) -> str | None:
    return _EMITTER.check(message)


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    """The SSE body of a streamed OpenRouter ``/chat/completions`` answering with ``message``."""
    return _EMITTER.emit(message, response_id=response_id, model=model)

"""OpenRouter output adapter (provider id ``openrouter``).

OpenRouter streams OpenAI Chat Completions chunks
(https://openrouter.ai/docs/api-reference/streaming), so the Chat Completions core
(``harness.stream.chat_completions``) applies (its ``: OPENROUTER PROCESSING`` keep-alive comments never reach the
parser: the SSE decoder skips comment lines). This module adds the reasoning fields
(https://openrouter.ai/docs/use-cases/reasoning-tokens, "Reasoning details"):

- ``reasoning_details`` entries are accumulated per ``index`` (position in the list when
  absent), as the OpenAI SDK's generic delta merge does, one thinking unit per index:
  ``reasoning.text`` -> thinking text (``text``) with its ``signature`` attached after it;
  ``reasoning.summary`` -> thinking text (``summary``); ``reasoning.encrypted`` -> a
  signature (``data``) attached to that index's thinking, or standing alone. The
  signature's ``format`` is the entry's own (``anthropic-claude-v1``,
  ``openai-responses-v1``, ``google-gemini-v1``, ...; ``unknown`` when absent), its ``id``
  the entry's ``id`` (a Responses ``rs_`` item, or the function call a Gemini signature
  belongs to). Empty strings (the first ``reasoning.text`` entry carries ``"signature":
  ""``) add nothing. Parts keep stream order: an entry that adds a part (thinking text or
  a signature) ends the open text run, so text, a lone ``reasoning.encrypted`` entry, then
  text again are three parts.
- ``delta.reasoning`` duplicates the ``reasoning_details`` text: once any
  ``reasoning_details`` entry has arrived it is ignored, and it is used as unsigned
  thinking text only by streams (or bodies) that carry no ``reasoning_details``.
- ``usage.cost`` and the top-level ``provider`` are not part of the canonical model: ignored.
- Differences from the SDK's generic merge (the oracle): that merge concatenates every
  string field per index, so a ``format`` repeated in each chunk comes out repeated
  (``anthropic-claude-v1anthropic-claude-v1...``); we keep the format verbatim. A
  summary and an encrypted entry sharing one index (the recorded non-streamed gpt-5-mini
  body) are two list entries there and one thinking unit (text + signature) here.
"""

from __future__ import annotations

from typing import Any

from harness.stream.base import ThinkingDelta
from harness.stream.chat_completions import ChatCompletionsParser

__all__ = ["PARSER", "OpenRouterParser"]


class OpenRouterParser(ChatCompletionsParser):
    """OpenRouter chunks/body -> canonical assistant message, with ``reasoning_details``."""

    provider = "openrouter"

    def __init__(self) -> None:
        super().__init__()
        self._details_seen = False

    def _reasoning(self, delta: dict[str, Any]) -> None:
        details = delta.get("reasoning_details")
        if details:
            self._details_seen = True
            for position, detail in enumerate(details):
                self._detail(detail.get("index", position), detail)
        elif not self._details_seen:
            super()._reasoning(delta)

    def _detail(self, index: int, detail: dict[str, Any]) -> None:
        """One ``reasoning_details`` entry (or a fragment of it) for thinking unit ``index``."""
        key = ("reasoning", index)
        kind = detail.get("type")
        if kind == "reasoning.text":
            self._unit_text(key, detail.get("text") or "", detail.get("id"))
            signature = detail.get("signature")
        elif kind == "reasoning.summary":
            self._unit_text(key, detail.get("summary") or "", detail.get("id"))
            signature = None
        elif kind == "reasoning.encrypted":
            signature = detail.get("data")
        else:
            self.note(f"openrouter: reasoning_details entry of type {kind!r} skipped")
            return
        if signature:
            self._last = "reasoning"  # a part after the open text: the next content delta starts a new one
            self.parts.signature(
                key, signature, format=detail.get("format") or "unknown", id=detail.get("id")
            )

    def _unit_text(self, key: tuple[str, int], text: str, item_id: str | None) -> None:
        self._last = "thinking"
        if text or not self.parts.has(key):
            self.parts.thinking(key, text, id=item_id)
        if text:
            self.emit(ThinkingDelta(text))


PARSER = OpenRouterParser

"""OpenRouter output adapter (provider id ``openrouter``).

OpenRouter streams OpenAI Chat Completions chunks
(https://openrouter.ai/docs/api-reference/streaming), so the Chat Completions core
(``harness.stream.chat_completions``) applies (its ``: OPENROUTER PROCESSING`` keep-alive comments never reach the
parser: the SSE decoder skips comment lines). This module adds the reasoning fields
(``reasoning_details``, ``delta.reasoning``).

Decisions (where DESIGN.md left room): the Stream section of DECISIONS.md beside this module.
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

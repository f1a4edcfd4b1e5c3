"""Mistral output adapter (provider id ``mistral``): Chat Completions chunks and bodies.

The Chat Completions core (``harness.stream.chat_completions``) plus Mistral's content chunks:
``content`` may be a list of chunks instead of a string, Magistral's reasoning arriving as
``{"type": "thinking", "thinking": [{"type": "text", "text": ...}]}`` beside
``{"type": "text", "text": ...}`` (docs.mistral.ai/capabilities/reasoning; recorded:
traffic/pydantic-ai/models__test_mistral__test_mistral_model_thinking_part.yaml#1).
Decisions: DECISIONS.md beside this file.
"""

from __future__ import annotations

from typing import Any, cast

from harness.stream.chat_completions import ChatCompletionsParser

__all__ = ["PARSER", "MistralParser"]


class MistralParser(ChatCompletionsParser):
    """Mistral chunks/body -> canonical assistant message; content chunk lists split by type."""

    provider = "mistral"

    def _delta(self, delta: dict[str, Any]) -> None:
        content = delta.get("content")
        if not isinstance(content, list):
            super()._delta(delta)
            return
        for chunk in cast(list[Any], content):
            self._chunk_part(chunk)
        super()._delta({k: v for k, v in delta.items() if k != "content"})

    def _chunk_part(self, chunk: Any) -> None:
        """One content chunk: text, or thinking (its own list of text chunks); others noted."""
        if not isinstance(chunk, dict):
            self.note(f"mistral: content chunk {chunk!r} is not an object; skipped")
            return
        part = cast(dict[str, Any], chunk)
        kind = part.get("type")
        if kind == "text" and isinstance(part.get("text"), str):
            if part["text"]:
                self._text(part["text"])
        elif kind == "thinking":
            for inner in cast(list[Any], part.get("thinking") or []):
                text = cast(dict[str, Any], inner).get("text") if isinstance(inner, dict) else None
                if isinstance(text, str) and text:
                    self._thinking(text)
        else:
            self.note(f"mistral: content chunk of type {kind!r} skipped")


PARSER = MistralParser

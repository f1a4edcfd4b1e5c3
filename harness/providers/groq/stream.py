"""Output adapter of provider id ``groq``: Chat Completions chunks and bodies.

The Chat Completions core (``harness.stream.chat_completions``) reads the dialect's reasoning
field into thinking parts: ``reasoning_content`` (DeepSeek, Z.ai) or ``reasoning`` (Groq with
``reasoning_format: parsed``, Cerebras); see DECISIONS.md beside this file.
"""

from __future__ import annotations

from harness.stream.chat_completions import ChatCompletionsParser

__all__ = ["PARSER", "GroqParser"]


class GroqParser(ChatCompletionsParser):
    """groq chunks/body -> canonical assistant message."""

    provider = "groq"


PARSER = GroqParser

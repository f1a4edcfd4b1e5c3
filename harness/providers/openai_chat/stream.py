"""OpenAI Chat Completions output adapter (provider id ``openai-chat``).

The chunk and body rules are the Chat Completions core's (``harness.stream.chat_completions``,
shared with OpenRouter); see DECISIONS.md beside this file.
"""

from __future__ import annotations

from harness.stream.chat_completions import ChatCompletionsParser

__all__ = ["PARSER", "OpenAIChatParser"]


class OpenAIChatParser(ChatCompletionsParser):
    """OpenAI Chat Completions chunks/body -> canonical assistant message."""

    provider = "openai-chat"


PARSER = OpenAIChatParser

"""OpenAI Responses output adapter (provider id ``openai-responses``).

The event and body rules are the Responses core's (``harness.stream.responses``, shared
with OpenRouter's ``/responses`` endpoint); see DECISIONS.md beside this file.
"""

from __future__ import annotations

from harness.stream.responses import ResponsesParser

__all__ = ["PARSER", "OpenAIResponsesParser"]


class OpenAIResponsesParser(ResponsesParser):
    """OpenAI Responses events/body -> canonical assistant message."""

    provider = "openai-responses"


PARSER = OpenAIResponsesParser

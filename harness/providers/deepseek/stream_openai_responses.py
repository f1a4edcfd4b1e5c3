"""DeepSeek's Responses-compatible endpoint (provider id ``deepseek``, wire ``openai-responses``).

DeepSeek serves the OpenAI Responses format at ``https://api.deepseek.com/responses``
(api-docs.deepseek.com/guides/thinking_mode, "Responses API Format") beside Chat Completions.
Its stream and body are the Responses event sequence, so the Responses core
(``harness.stream.responses``) applies unchanged; only the provider id differs. Recorded:
traffic/pydantic-ai-more/models__test_deepseek_responses__*.yaml (10 calls).
"""

from __future__ import annotations

from harness.stream.responses import ResponsesParser

__all__ = ["PARSER", "DeepSeekResponsesParser"]


class DeepSeekResponsesParser(ResponsesParser):
    """DeepSeek ``/responses`` stream or body -> canonical assistant message (the Responses rules)."""

    provider = "deepseek"


PARSER = DeepSeekResponsesParser

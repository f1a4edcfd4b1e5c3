"""OpenRouter's Responses endpoint (provider id ``openrouter``, wire ``openai-responses``).

OpenRouter serves the OpenAI Responses wire format at ``/api/v1/responses``
(https://openrouter.ai/docs/api-reference/responses-api/overview) beside Chat Completions
at ``/api/v1/chat/completions``. Its stream is the Responses event sequence (with
``: OPENROUTER PROCESSING`` SSE comments, skipped by the decoder, and ``gen-`` response
ids), so the Responses core (``harness.stream.responses``) applies unchanged; only the provider id differs.
Recorded example: ``cassettes/openrouter/pai__or_gptoss20b_responses_raw_cot.yaml``
(``reasoning_text`` deltas from openai/gpt-oss-20b).
"""

from __future__ import annotations

from harness.stream.responses import ResponsesParser

__all__ = ["PARSER", "OpenRouterResponsesParser"]


class OpenRouterResponsesParser(ResponsesParser):
    """OpenRouter ``/responses`` stream -> canonical assistant message (the Responses rules)."""

    provider = "openrouter"


PARSER = OpenRouterResponsesParser

"""Groq's stream on its bundled recordings: a stream that ends without ``[DONE]``.

The recording (vercel/ai's ``groq-tool-call.chunks.txt``, cassettes/PROVENANCE.md) was filed under
openai-chat once: its ``x_groq`` object is Groq's, not OpenAI's.
"""

from __future__ import annotations

from harness.providers import get_parser
from harness.stream.drive import parse_bytes
from tests.support.cassettes import recorded_calls_of

RECORDINGS = {call_id: call.body for call_id, call in recorded_calls_of("groq").items()}


def test_stream_without_done_is_complete_after_finish_reason_and_usage() -> None:
    result = parse_bytes(get_parser("groq"), RECORDINGS["groq-vercelai__groq-llama33-tool-call-0"])
    assert result.errors == []
    assert result.message.stop_reason == "tool_use"

"""DeepSeek's stream on its bundled recordings: ``delta.reasoning_content`` before the answer.

The recording (pydantic-ai's ``test_deepseek_model_thinking_stream``, cassettes/PROVENANCE.md) was
once filed under openai-chat: ``reasoning_content`` is DeepSeek's field, not OpenAI's.
"""

from __future__ import annotations

from harness.model import TextPart, ThinkingTextPart
from harness.providers import get_parser
from harness.stream.drive import parse_bytes
from tests.support.cassettes import recorded_calls_of

RECORDINGS = {call_id: call.body for call_id, call in recorded_calls_of("deepseek").items()}


def test_reasoning_content_comes_before_the_answer() -> None:
    result = parse_bytes(
        get_parser("deepseek"), RECORDINGS["deepseek-pai__deepseek_reasoner_reasoning_content-0"]
    )
    thinking, answer = result.message.parts
    assert isinstance(thinking, ThinkingTextPart) and isinstance(answer, TextPart)
    assert thinking.model_id == "deepseek-reasoner" and thinking.id is None
    assert thinking.text.startswith("Hmm") and answer.text.endswith("today?")

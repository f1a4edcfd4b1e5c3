"""Kimi behind an OpenAI-compatible host (Groq, Hugging Face's router): a thinking tool loop sends
the reasoning exactly where Kimi requires it (each assistant tool-call message) and nowhere else,
judged by the rule ``kimi-tool-call-reasoning`` and the host's SDK oracle. Histories are synthetic."""

from __future__ import annotations

import pytest

from harness.model import (
    AssistantMessage,
    HistoryEvent,
    TextPart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.oracles import validate
from harness.params import CallParams
from harness.providers import get_adapter
from harness.rules import check_body


def _history() -> list[HistoryEvent]:
    """One turn with two tool calls (the second without kept reasoning), an answer, the next question."""

    def call(n: int) -> ToolCallPart:
        return ToolCallPart(call_id=f"functions.read:{n}", tool_name="read", arguments_json="{}")

    def result(n: int) -> ToolResultMessage:
        return ToolResultMessage(
            call_id=f"functions.read:{n}", tool_name="read", status="success", output_text="ok", parts=[]
        )

    return [
        UserMessage(parts=[TextPart(text="read both files")]),
        AssistantMessage(parts=[ThinkingTextPart(text="first file"), call(0)]),
        result(0),
        AssistantMessage(parts=[call(1)]),
        result(1),
        AssistantMessage(parts=[ThinkingTextPart(text="summarize"), TextPart(text="Both say ok.")]),
        UserMessage(parts=[TextPart(text="thanks")]),
    ]


#: (provider, model, the field the host takes the reasoning back in)
KIMI = [
    ("huggingface", "moonshotai/Kimi-K2-Thinking", "reasoning_content"),
    ("huggingface", "moonshotai/Kimi-K2.5", "reasoning_content"),
    ("groq", "moonshotai/kimi-k2.5", "reasoning"),
]


@pytest.mark.parametrize(("provider", "model", "field"), KIMI)
def test_a_kimi_thinking_loop_sends_reasoning_on_tool_calls_only(
    provider: str, model: str, field: str
) -> None:
    rendered = get_adapter(provider).render(_history(), CallParams(model=model, stream=False))
    assistants = [m for m in rendered.body["messages"] if m["role"] == "assistant"]
    assert [m.get(field) for m in assistants] == ["first file", "", None]
    assert not any("reasoning_content" in m for m in assistants) or field == "reasoning_content"
    codes = [(w.message_index, w.code) for w in rendered.warnings if w.code.startswith("reasoning")]
    assert codes == [(3, "reasoning-content-empty"), (5, "reasoning-not-sent")]
    assert check_body(provider, rendered.body) == []
    assert validate(provider, rendered.body).ok
    # without the reasoning on a tool call, the rule names the 400 Kimi answers
    bare = {
        **rendered.body,
        "messages": [{k: v for k, v in m.items() if k != field} for m in rendered.body["messages"]],
    }
    assert {f.rule for f in check_body(provider, bare)} == {"kimi-tool-call-reasoning"}


@pytest.mark.parametrize("provider", ["groq", "huggingface"])
def test_a_kimi_model_that_does_not_think_gets_no_reasoning(provider: str) -> None:
    model = "moonshotai/kimi-k2-instruct-0905"
    rendered = get_adapter(provider).render(_history(), CallParams(model=model, stream=False))
    assistants = [m for m in rendered.body["messages"] if m["role"] == "assistant"]
    assert not any("reasoning" in m or "reasoning_content" in m for m in assistants)
    assert check_body(provider, rendered.body) == []

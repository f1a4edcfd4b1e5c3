"""DeepSeek's input adapter: a thinking tool loop sends reasoning_content exactly where the model
requires it (every assistant message of a tool loop in thinking mode) and nowhere else."""

from __future__ import annotations

from harness.model import (
    AssistantMessage,
    TextPart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams, ThinkingParams
from harness.providers import get_adapter
from harness.rules import check_body


def _history() -> list[object]:
    return [
        UserMessage(parts=[TextPart(text="weather in Paris?")]),
        AssistantMessage(parts=[
            ThinkingTextPart(text="need the tool", model_id="deepseek-v4-pro"),
            ToolCallPart(call_id="call_1", tool_name="get_weather", arguments_json='{"city":"Paris"}'),
        ]),
        ToolResultMessage(call_id="call_1", tool_name="get_weather", status="success", output_text="sunny", parts=[]),
        AssistantMessage(parts=[ThinkingTextPart(text="answer now"), TextPart(text="Sunny.")]),
        UserMessage(parts=[TextPart(text="and tomorrow, roughly?")]),
        AssistantMessage(parts=[ThinkingTextPart(text="no tool needed"), TextPart(text="Likely sunny.")]),
        UserMessage(parts=[TextPart(text="thanks")]),
    ]  # fmt: skip


def _reasoning(model: str, **params: object) -> list[str | None]:
    body = get_adapter("deepseek").render(_history(), CallParams(model=model, **params)).body  # type: ignore[arg-type]
    assert check_body("deepseek", body) == []
    return [m.get("reasoning_content") for m in body["messages"] if m["role"] == "assistant"]


def test_thinking_mode_sends_reasoning_on_the_tool_loop_only() -> None:
    assert _reasoning("deepseek-v4-pro") == ["need the tool", "answer now", None]


def test_deepseek_reasoner_is_thinking_mode_by_name_and_gets_its_loop_reasoning() -> None:
    # the first loop turn's thinking is deepseek-v4-pro's (another model): dropped, the turn sent ""
    assert _reasoning("deepseek-reasoner") == ["", "answer now", None]
    off = get_adapter("deepseek").render(
        _history(),  # type: ignore[arg-type]
        CallParams(model="deepseek-reasoner", thinking=ThinkingParams(enabled=False)),
    )
    assert "thinking-cannot-disable" in {w.code for w in off.warnings} and "thinking" not in off.body
    assert off.body["messages"][1]["reasoning_content"] == ""


def test_thinking_disabled_or_the_chat_alias_send_none() -> None:
    assert _reasoning("deepseek-chat") == [None, None, None]
    assert _reasoning("deepseek-v4-pro", thinking=ThinkingParams(enabled=False)) == [None, None, None]


def test_a_loop_turn_without_reasoning_in_history_is_sent_empty_with_a_warning() -> None:
    history = _history()
    history[1] = AssistantMessage(
        parts=[ToolCallPart(call_id="call_1", tool_name="get_weather", arguments_json='{"city":"Paris"}')]
    )
    rendered = get_adapter("deepseek").render(history, CallParams(model="deepseek-v4-pro"))  # type: ignore[arg-type]
    assert rendered.body["messages"][1]["reasoning_content"] == ""
    assert [w.message_index for w in rendered.warnings if w.code == "reasoning-content-empty"] == [1]

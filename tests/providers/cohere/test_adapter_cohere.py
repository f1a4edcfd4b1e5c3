"""Cohere v2 Chat input adapter: text, images, thinking, tool calls and results (error results too),
system and developer degradation, request controls; every body judged by the cohere SDK oracle and
the Cohere rules."""

from __future__ import annotations

from typing import Any

import pytest

from harness.contract.rendered import Rendered
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    HistoryEvent,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    ToolStatus,
    UserMessage,
)
from harness.oracles import validate
from harness.params import CallParams, ForcedTool, OutputFormat, ThinkingParams, ToolSpec
from harness.providers import get_adapter
from harness.rules import check_body

REASONING = "command-a-reasoning-08-2025"
PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
TOOL = ToolSpec(name="get_weather", description="Weather for a city.", parameters={"type": "object"})


def _render(history: list[HistoryEvent], **params: Any) -> Rendered:
    rendered = get_adapter("cohere").render(history, CallParams(**params))
    report = validate("cohere", rendered.body)
    assert report.ok, str(report)
    assert check_body("cohere", rendered.body) == []
    return rendered


def _codes(rendered: Rendered) -> list[str]:
    return [w.code for w in rendered.warnings]


def _user(text: str = "hi") -> UserMessage:
    return UserMessage(parts=[TextPart(text=text)])


def _loop(status: ToolStatus = "success", output: str = "sunny") -> list[HistoryEvent]:
    call = ToolCallPart(
        call_id="get_weather_9gpb31r7h7mj", tool_name="get_weather", arguments_json='{"city":"Paris"}'
    )
    history: list[HistoryEvent] = [
        _user("weather in Paris?"),
        AssistantMessage(parts=[TextPart(text="I will look it up."), call]),
        ToolResultMessage(call_id=call.call_id, tool_name="get_weather", status=status, output_text=output),
    ]
    return history


def test_text_and_system_are_plain_strings_as_recorded() -> None:
    # traffic/pydantic-ai-more/models__test_cohere__test_cohere_model_instructions.yaml#0
    body = _render(
        [_user("What is the capital of France?")], system="You are a helpful assistant.", stream=False
    ).body
    assert body == {
        "model": "command-r7b-12-2024",
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "What is the capital of France?"},
        ],
    }


def test_images_are_image_url_items() -> None:
    history: list[HistoryEvent] = [
        UserMessage(
            parts=[
                TextPart(text="what is this?"),
                ImageURLPart(url=PNG),
                ImageURLPart(url="https://x.test/a.png"),
            ]
        )
    ]
    content = _render(history).body["messages"][0]["content"]
    assert content == [
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": PNG}},
        {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
    ]


def test_tool_loop_sends_plan_calls_and_result_as_the_tool_use_guide() -> None:
    rendered = _render([*_loop(), _user("thanks")], tools=[TOOL])
    assistant, tool = rendered.body["messages"][1:3]
    assert assistant == {
        "role": "assistant",
        "tool_plan": "I will look it up.",
        "tool_calls": [
            {
                "id": "get_weather_9gpb31r7h7mj",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
            }
        ],
    }
    assert tool == {"role": "tool", "tool_call_id": "get_weather_9gpb31r7h7mj", "content": "sunny"}
    assert rendered.body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather for a city.",
                "parameters": {"type": "object"},
            },
        }
    ]
    assert _codes(rendered) == []


@pytest.mark.parametrize("status", ["error", "aborted"])
def test_error_results_keep_their_text_and_are_warned(status: ToolStatus) -> None:
    rendered = _render(_loop(status, "Command timed out"), tools=[TOOL])
    assert rendered.body["messages"][2]["content"] == "Command timed out"
    assert "tool-status-not-sent" in _codes(rendered)


def test_tool_result_images_follow_the_results_in_a_user_message() -> None:
    history = _loop()
    result = history[2]
    assert isinstance(result, ToolResultMessage)
    history[2] = result.model_copy(update={"parts": [ImageURLPart(url=PNG)]})
    rendered = _render(history, tools=[TOOL])
    assert rendered.body["messages"][-1] == {
        "role": "user",
        "content": [{"type": "image_url", "image_url": {"url": PNG}}],
    }
    assert "tool-image-moved" in _codes(rendered)


def test_thinking_goes_back_to_a_reasoning_model_as_thinking_items() -> None:
    # traffic/pydantic-ai/models__test_cohere__test_cohere_model_thinking_part.yaml#1 (accepted)
    history: list[HistoryEvent] = [
        _user("How do I cross the street?"),
        AssistantMessage(
            parts=[ThinkingTextPart(text="look both ways", model_id=REASONING), TextPart(text="Look left.")]
        ),
        _user("And a river?"),
    ]
    rendered = _render(history, model=REASONING, thinking=ThinkingParams(budget_tokens=2048))
    assert rendered.body["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "look both ways"},
        {"type": "text", "text": "Look left."},
    ]
    assert rendered.body["thinking"] == {"type": "enabled", "token_budget": 2048}


def test_foreign_signed_or_unsupported_thinking_is_dropped_with_warnings() -> None:
    history: list[HistoryEvent] = [
        _user(),
        AssistantMessage(
            parts=[
                ThinkingTextPart(text="claude thought", model_id="claude-sonnet-4-5"),
                ThinkingSignaturePart(signature="EqsB", format="anthropic", model_id="claude-sonnet-4-5"),
                TextPart(text="answer"),
            ]
        ),
        _user("more"),
    ]
    foreign = _render(history, model=REASONING)
    assert foreign.body["messages"][1] == {"role": "assistant", "content": "answer"}
    assert {"thinking-foreign", "thinking-model-mismatch"} <= set(_codes(foreign))
    plain = _render(history, thinking=ThinkingParams())
    assert "thinking" not in plain.body and "thinking-unsupported" in _codes(plain)


def test_effort_has_no_cohere_form_and_disabled_is_sent() -> None:
    rendered = _render([_user()], model=REASONING, thinking=ThinkingParams(effort="high"))
    assert rendered.body["thinking"] == {"type": "enabled"} and "thinking-effort-ignored" in _codes(rendered)
    off = _render([_user()], model=REASONING, thinking=ThinkingParams(enabled=False))
    assert off.body["thinking"] == {"type": "disabled"}


def test_developer_messages_degrade_to_user_text() -> None:
    history: list[HistoryEvent] = [_user("start"), DeveloperMessage(parts=[TextPart(text="<reminder>")])]
    rendered = _render(history, system="rules")
    assert rendered.body["messages"][0] == {"role": "system", "content": "rules"}
    assert rendered.body["messages"][1]["role"] == "user"
    assert rendered.body["messages"][1]["content"] == [
        {"type": "text", "text": "start"},
        {"type": "text", "text": "<reminder>\n"},
    ]  # joins the user message right before it (harness.mapping.prepare._attach_developer)
    first = _render([DeveloperMessage(parts=[TextPart(text="<reminder>")]), _user("start")])
    assert first.body["messages"][0]["role"] == "user" and "developer-as-user" in _codes(first)
    only_system = _render([SystemMessage(parts=[TextPart(text="rules")])])
    assert only_system.body["messages"][-1]["role"] == "user" and "placeholder-user" in _codes(only_system)


def test_tool_choice_forms() -> None:
    other = ToolSpec(name="lookup", parameters={"type": "object"})
    required = _render([_user()], tools=[TOOL], tool_choice="required")
    assert required.body["tool_choice"] == "REQUIRED"
    assert _render([_user()], tools=[TOOL], tool_choice="none").body["tool_choice"] == "NONE"
    forced = _render([_user()], tools=[TOOL, other], tool_choice=ForcedTool(name="lookup"))
    assert forced.body["tool_choice"] == "REQUIRED" and "tool-choice-widened" in _codes(forced)
    alone = _render([_user()], tools=[TOOL], tool_choice=ForcedTool(name="get_weather"))
    assert alone.body["tool_choice"] == "REQUIRED" and _codes(alone) == []
    bare = _render([_user()], tool_choice="required")
    assert "tool_choice" not in bare.body and "tool-choice-not-sent" in _codes(bare)


def test_strict_tools_and_output_format() -> None:
    strict = TOOL.model_copy(update={"strict": True})
    assert _render([_user()], tools=[strict]).body["strict_tools"] is True
    mixed = _render(
        [_user()], tools=[strict, ToolSpec(name="b", parameters={"type": "object"}, strict=False)]
    )
    assert "strict_tools" not in mixed.body and "tool-strict-not-sent" in _codes(mixed)
    schema: dict[str, Any] = {"type": "object", "properties": {"city": {"type": "string"}}}
    fmt = _render([_user()], output_format=OutputFormat(json_schema=schema)).body["response_format"]
    assert fmt == {"type": "json_object", "json_schema": schema}
    with_tools = _render([_user()], tools=[TOOL], output_format=OutputFormat(json_schema=schema))
    assert "response_format" not in with_tools.body and "output-format-not-sent" in _codes(with_tools)


def test_limits_and_stream() -> None:
    body = _render([_user()], max_tokens=100, temperature=0.2).body
    assert (body["max_tokens"], body["temperature"], body["stream"]) == (100, 0.2, True)

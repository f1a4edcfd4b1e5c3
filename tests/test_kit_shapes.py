"""harness.kit.shapes: canonical parts <-> the providers' SDK message shapes, faithful and never silent."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from harness.contract.rendered import RenderWarning
from harness.kit import shapes
from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.scenarios import load_scenarios

CALL = ToolCallPart(call_id="call_1", tool_name="read", arguments_json='{"path": "a.py"}')
PNG = "data:image/png;base64,iVBORw0KGgo="

#: A native assistant message of each shape, and the converter pair that must round-trip it.
NATIVE: dict[str, tuple[list[AnyPart], object, object]] = {
    "anthropic": (
        [
            ThinkingTextPart(text="plan"),
            ThinkingSignaturePart(signature="c2ln", format="anthropic"),
            ThinkingSignaturePart(signature="cmVk", format="anthropic-redacted"),
            TextPart(text="ok"),
            CALL,
        ],
        shapes.anthropic_content,
        shapes.parts_from_anthropic,
    ),
    "responses": (
        [
            ThinkingTextPart(id="rs_1", text="a"),
            ThinkingTextPart(id="rs_1", text="b"),
            ThinkingSignaturePart(id="rs_1", signature="enc", format="openai-responses"),
            TextPart(text="ok", item_id="msg_1"),
            CALL.model_copy(update={"item_id": "fc_1"}),
        ],
        shapes.responses_items,
        shapes.parts_from_responses,
    ),
    "gemini": (
        [
            ThinkingTextPart(text="plan"),
            TextPart(text="ok"),
            ThinkingSignaturePart(signature="Z3NpZw==", format="google"),
            CALL,
            ThinkingSignaturePart(signature="Y2FsbA==", format="google"),
        ],
        shapes.gemini_parts,
        shapes.parts_from_gemini,
    ),
}


@pytest.mark.parametrize("shape", sorted(NATIVE))
def test_a_native_assistant_message_round_trips(shape: str) -> None:
    parts, to_shape, from_shape = NATIVE[shape]
    converted, warnings = to_shape(AssistantMessage(parts=parts))  # type: ignore[operator]
    assert warnings == []
    assert from_shape(converted) == parts  # type: ignore[operator]


def test_chat_round_trips_text_and_calls_and_reads_reasoning_content() -> None:
    message, warnings = shapes.chat_assistant(AssistantMessage(parts=[TextPart(text="ok"), CALL]))
    assert warnings == [] and shapes.parts_from_chat(message) == [TextPart(text="ok"), CALL]
    assert shapes.parts_from_chat({"content": "x", "reasoning_content": "why"})[0] == ThinkingTextPart(
        text="why"
    )


@pytest.mark.parametrize(
    ("convert", "own"),
    [
        (shapes.anthropic_content, "anthropic"),
        (shapes.responses_items, "openai-responses"),
        (shapes.gemini_parts, "google"),
        (shapes.chat_assistant, None),
    ],
)
def test_a_signature_of_another_format_is_left_out_with_a_warning_naming_it(
    convert: Callable[[AssistantMessage, int], tuple[object, list[RenderWarning]]], own: str | None
) -> None:
    foreign = "anthropic" if own != "anthropic" else "google"
    message = AssistantMessage(
        parts=[
            ThinkingTextPart(text="t"),
            ThinkingSignaturePart(signature="c2ln", format=foreign),
            TextPart(text="x"),
        ]
    )
    _, warnings = convert(message, 3)
    assert [
        (w.message_index, w.part_index, w.code) for w in warnings if w.part_type == "thinking_signature"
    ] == [(3, 1, "unmappable-part")]


def test_whole_histories_keep_every_event_where_the_shape_puts_it() -> None:
    history = [
        SystemMessage(parts=[TextPart(text="be brief")]),
        UserMessage(parts=[TextPart(text="look"), ImageURLPart(url=PNG)]),
        DeveloperMessage(parts=[TextPart(text="reminder")]),
        AssistantMessage(parts=[CALL]),
        ToolResultMessage(call_id="call_1", tool_name="read", status="error", output_text="no such file"),
    ]
    chat = shapes.chat_messages(history, "sys")
    assert [m["role"] for m in chat.messages] == [
        "system",
        "system",
        "user",
        "developer",
        "assistant",
        "tool",
    ]
    assert chat.messages[2]["content"][1] == {"type": "image_url", "image_url": {"url": PNG}}
    anthropic = shapes.anthropic_messages(history, "sys")
    assert anthropic.system == "sys\nbe brief"
    assert anthropic.messages[-1]["content"][0]["is_error"] is True
    assert anthropic.messages[0]["content"][1]["source"] == {
        "type": "base64",
        "media_type": "image/png",
        "data": "iVBORw0KGgo=",
    }
    responses = shapes.responses_input(history)
    assert [i["type"] for i in responses.messages] == ["message"] * 3 + [
        "function_call",
        "function_call_output",
    ]
    gemini = shapes.gemini_contents(history)
    assert [c["role"] for c in gemini.messages] == ["user", "user", "model", "user"]
    assert gemini.messages[-1]["parts"][0]["function_response"]["id"] == "call_1"


def test_the_chat_shape_of_every_scenario_is_a_valid_sdk_request() -> None:
    """What ``chat_messages`` builds is what the openai SDK's request type accepts (its own TypeAdapter)."""
    from openai.types.chat import ChatCompletionMessageParam
    from pydantic import TypeAdapter

    adapter = TypeAdapter(list[ChatCompletionMessageParam])
    for scenario in load_scenarios().values():
        converted = shapes.chat_messages(scenario.history, scenario.params.system)
        adapter.validate_python(converted.messages)
        assert all(w.code == "unmappable-part" for w in converted.warnings)

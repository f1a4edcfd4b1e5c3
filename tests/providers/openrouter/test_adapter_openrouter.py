"""The OpenRouter input adapter: Chat Completions plus the reasoning_details round trip."""

from __future__ import annotations

from typing import Any

from harness.contract.rendered import Rendered, canonical_json
from harness.model import (
    AssistantMessage,
    HistoryEvent,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams, ThinkingParams
from harness.providers.openrouter.request import ADAPTER, DEFAULT_MODEL
from tests.support.adapters import placed_codes, renderer, sig

CLAUDE = "anthropic/claude-sonnet-4.5"
render = renderer(ADAPTER, CallParams(model=CLAUDE))
GPT = "openai/gpt-5-mini"
PNG = "data:image/png;base64,iVBORw0KGgo="


def turn(*parts: Any) -> list[HistoryEvent]:
    """A user question and one assistant answer made of the given parts."""
    return [UserMessage(parts=[TextPart(text="q")]), AssistantMessage(parts=list(parts))]


def details(rendered: Rendered, message: int = 1) -> list[dict[str, Any]]:
    return rendered.body["messages"][message].get("reasoning_details", [])


# ---------------------------------------------------------------- reasoning round trip (recorded shapes)


def test_claude_thinking_is_one_signed_reasoning_text() -> None:
    # Shape of pai__or_claude45_reasoning_text_signature.yaml once its deltas merge by index.
    rendered = render(
        turn(
            ThinkingTextPart(text="This is a simple arithmetic question. 2+2 equals 4.", model_id=CLAUDE),
            sig("Et0BCkgIChACGAIqQA2s7h7t", "anthropic-claude-v1", CLAUDE),
            TextPart(text="2 + 2 = 4"),
        )
    )
    assert rendered.body["messages"][1] == {
        "role": "assistant",
        "content": "2 + 2 = 4",
        "reasoning_details": [
            {
                "type": "reasoning.text",
                "text": "This is a simple arithmetic question. 2+2 equals 4.",
                "signature": "Et0BCkgIChACGAIqQA2s7h7t",
                "format": "anthropic-claude-v1",
                "index": 0,
            }
        ],
    }
    assert "reasoning" not in rendered.body["messages"][1]  # no plain-text reasoning copy
    assert rendered.warnings == []


def test_responses_reasoning_is_a_summary_plus_encrypted_pair_sharing_an_index() -> None:
    # Shape of the gpt-5-mini response in pai__or_gpt5mini_reasoning_details_roundtrip_NONSTREAM.yaml.
    rendered = render(
        turn(
            ThinkingTextPart(text="**Structuring**"),
            sig("gAAAAABpAjHR", "openai-responses-v1", GPT, id="rs_0e67"),
            TextPart(text="Short answer"),
        ),
        CallParams(model=GPT),
    )
    assert details(rendered) == [
        {
            "type": "reasoning.summary",
            "summary": "**Structuring**",
            "format": "openai-responses-v1",
            "index": 0,
        },
        {
            "type": "reasoning.encrypted",
            "data": "gAAAAABpAjHR",
            "id": "rs_0e67",
            "format": "openai-responses-v1",
            "index": 0,
        },
    ]


def test_signature_only_unit_is_reasoning_encrypted() -> None:
    # Shape of pai__or_o3_reasoning_encrypted.yaml: encrypted reasoning with no text.
    rendered = render(
        turn(
            sig("gAAAAABpCCSI", "openai-responses-v1", "openai/o3", id="rs_0aa4"),
            TextPart(text="I'm ChatGPT"),
        ),
        CallParams(model="openai/o3"),
    )
    assert details(rendered) == [
        {
            "type": "reasoning.encrypted",
            "data": "gAAAAABpCCSI",
            "id": "rs_0aa4",
            "format": "openai-responses-v1",
            "index": 0,
        }
    ]
    assert rendered.warnings == []


def test_indexes_count_the_units_sent_in_order() -> None:
    rendered = render(
        turn(
            ThinkingTextPart(text="one"),
            sig("s1", "anthropic-claude-v1"),
            ThinkingTextPart(text="two"),
            sig("s2", "anthropic-claude-v1"),
            sig("redacted-blob", "anthropic-claude-v1"),  # nothing left to pair: signature-only
            ThinkingTextPart(text="dropped: unsigned"),
            TextPart(text="a"),
        )
    )
    assert [(d["type"], d["index"]) for d in details(rendered)] == [
        ("reasoning.text", 0),
        ("reasoning.text", 1),
        ("reasoning.encrypted", 2),
    ]
    assert [d.get("text") for d in details(rendered)] == ["one", "two", None]
    assert placed_codes(rendered) == [(1, 5, "thinking-unsigned")]


def test_gemini_signature_id_follows_its_remapped_tool_call() -> None:
    call_id = "functions.write_todos:0"
    history: list[HistoryEvent] = [
        *turn(
            ThinkingTextPart(text="plan"),
            sig("c2lnbmF0dXJl", "google-gemini-v1", id=call_id),
            ToolCallPart(call_id=call_id, tool_name="write_todos", arguments_json="{}"),
        ),
        ToolResultMessage(call_id=call_id, tool_name="write_todos", status="success", output_text="ok"),
    ]
    rendered = render(history, CallParams(model="google/gemini-3-pro-preview"))
    assistant = rendered.body["messages"][1]
    sent_id = assistant["tool_calls"][0]["id"]
    assert sent_id != call_id and all(c.isalnum() or c in "_-" for c in sent_id)
    assert rendered.body["messages"][2]["tool_call_id"] == sent_id
    assert assistant["reasoning_details"] == [
        {"type": "reasoning.text", "text": "plan", "format": "google-gemini-v1", "index": 0},
        {
            "type": "reasoning.encrypted",
            "data": "c2lnbmF0dXJl",
            "id": sent_id,
            "format": "google-gemini-v1",
            "index": 0,
        },
    ]


# ---------------------------------------------------------------- what is never sent as native


def test_foreign_and_broken_signatures_are_dropped_with_reasons() -> None:
    rendered = render(
        turn(
            ThinkingTextPart(text="anthropic direct"),
            sig("s", "anthropic"),
            ThinkingTextPart(text="other model"),
            sig("s", "anthropic-claude-v1", "anthropic/claude-opus-4"),
            ThinkingTextPart(text="interrupted"),
            sig("", "anthropic-claude-v1"),
            ThinkingTextPart(text="no format"),
            sig("s", None),
            ThinkingTextPart(text="text from another model", model_id="openai/gpt-5"),
            sig("s", "anthropic-claude-v1"),
            TextPart(text="answer"),
        )
    )
    assert "reasoning_details" not in rendered.body["messages"][1]
    assert {c for _, _, c in placed_codes(rendered)} == {"thinking-foreign", "thinking-model-mismatch"}
    assert len(rendered.warnings) == 10  # every text and signature part named
    assert "anthropic direct" not in canonical_json(rendered.body)


def test_reasoning_only_turn_is_dropped_with_warnings() -> None:
    history: list[HistoryEvent] = [
        *turn(ThinkingTextPart(text="t"), sig("s", "anthropic-claude-v1")),
        UserMessage(parts=[TextPart(text="again")]),
    ]
    rendered = render(history)
    assert [m["role"] for m in rendered.body["messages"]] == ["user", "user"]
    assert placed_codes(rendered) == [
        (1, 0, "empty-message"),
        (1, 1, "empty-message"),
        (1, None, "empty-message"),
    ]


# ---------------------------------------------------------------- chat mapping reused


def test_chat_mapping_is_shared() -> None:
    history: list[HistoryEvent] = [
        SystemMessage(parts=[TextPart(text="sys")]),
        UserMessage(parts=[TextPart(text="shoot")]),
        AssistantMessage(parts=[ToolCallPart(call_id="call_1", tool_name="shot", arguments_json="{}")]),
        ToolResultMessage(
            call_id="call_1",
            tool_name="shot",
            status="success",
            output_text="done",
            parts=[ImageURLPart(url=PNG)],
        ),
    ]
    rendered = render(history)
    assert [m["role"] for m in rendered.body["messages"]] == ["system", "user", "assistant", "tool", "user"]
    assert rendered.body["messages"][3] == {"role": "tool", "tool_call_id": "call_1", "content": "done"}
    assert (3, 0, "tool-image-moved") in placed_codes(rendered)


# ---------------------------------------------------------------- params


def test_reasoning_config_variants() -> None:
    history: list[HistoryEvent] = [UserMessage(parts=[TextPart(text="hi")])]

    def reasoning(thinking: ThinkingParams | None) -> tuple[Any, list[str]]:
        rendered = render(history, CallParams(model=CLAUDE, thinking=thinking))
        return rendered.body.get("reasoning"), [w.code for w in rendered.warnings]

    assert reasoning(None) == (None, [])
    assert reasoning(ThinkingParams()) == ({"enabled": True}, [])
    assert reasoning(ThinkingParams(effort="high")) == ({"effort": "high"}, [])
    assert reasoning(ThinkingParams(budget_tokens=2048)) == ({"max_tokens": 2048}, [])
    assert reasoning(ThinkingParams(effort="low", budget_tokens=2048)) == (
        {"effort": "low"},
        ["thinking-budget-ignored"],
    )
    assert reasoning(ThinkingParams(include_thoughts=False)) == ({"enabled": True, "exclude": True}, [])
    assert reasoning(ThinkingParams(enabled=False)) == ({"effort": "none"}, [])


def test_body_fields() -> None:
    body = render(
        [UserMessage(parts=[TextPart(text="hi")])], CallParams(max_tokens=300, temperature=0.7)
    ).body
    assert body == {
        "model": DEFAULT_MODEL,
        "messages": [{"role": "user", "content": "hi"}],
        "max_completion_tokens": 300,
        "temperature": 0.7,
        "stream": True,
    }

"""The Anthropic Messages input adapter: the tricky mappings, asserted on the body."""

from __future__ import annotations

from typing import Any

import pytest

from harness.contract.rendered import Rendered, canonical_json
from harness.mapping.toolbox import PLACEHOLDER_USER_TEXT
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    UserMessage,
)
from harness.params import CallParams, ForcedTool, ThinkingParams, ToolChoice, ToolSpec
from harness.providers.anthropic.request import (
    ADAPTER,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
)
from harness.scenarios.dsl import call, result, user
from tests.support.adapters import codes, renderer, sig

PNG = "data:image/png;base64,iVBORw0KGgo="
PATH_A = '{"path": "a"}'  # the read arguments most tests call with
TOOLS = [ToolSpec(name="read")]
render = renderer(ADAPTER, CallParams())
THINK = CallParams(thinking=ThinkingParams(), tools=TOOLS)


def content(rendered: Rendered, index: int) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = rendered.body["messages"][index]["content"]
    return blocks


# ---------------------------------------------------------------- params


def test_minimal_body_defaults() -> None:
    r = render([user("hi")])
    assert r.body == {
        "model": DEFAULT_MODEL,
        "max_tokens": DEFAULT_MAX_TOKENS,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        "stream": True,
    }
    assert r.warnings == []
    assert "stream" not in render([user("hi")], CallParams(stream=False)).body


def test_system_blocks_one_per_entry_params_first() -> None:
    history: list[HistoryEvent] = [SystemMessage(parts=[TextPart(text="a"), TextPart(text="b")]), user("hi")]
    r = render(history, CallParams(system="top", model="claude-opus-4-5", max_tokens=77))
    assert r.body["system"] == [
        {"type": "text", "text": "top"},
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
    ]
    assert (r.body["model"], r.body["max_tokens"]) == ("claude-opus-4-5", 77)


def test_tools_definitions_and_name_mapping() -> None:
    tools = [
        ToolSpec(name="read", description="Read a file"),
        ToolSpec(name="web.search", parameters={"properties": {"q": {"type": "string"}}}),
    ]
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[call("c1", "web.search", PATH_A)]),
        result(call("c1", "read"), "ok"),
    ]
    r = render(history, CallParams(tools=tools))
    read, search = r.body["tools"]
    assert read == {
        "name": "read",
        "description": "Read a file",
        "input_schema": {"type": "object", "properties": {}},
    }
    assert "description" not in search
    assert search["input_schema"] == {"type": "object", "properties": {"q": {"type": "string"}}}
    assert search["name"] != "web.search"
    assert content(r, 1)[0]["name"] == search["name"]  # consistent in the call
    assert {"tool-name-mapped", "tool-schema-degraded"} <= set(codes(r))


def test_tools_derived_when_none_given() -> None:
    r = render(
        [
            user("hi"),
            AssistantMessage(parts=[call("c1", "read", PATH_A)]),
            result(call("c1", "read"), "ok"),
        ]
    )
    assert [t["name"] for t in r.body["tools"]] == ["read"]
    assert "tools-derived" in codes(r)


def test_thinking_config_defaults_and_display() -> None:
    r = render([user("hi")], THINK)
    assert r.body["thinking"] == {"type": "enabled", "budget_tokens": 4096}
    assert r.body["max_tokens"] == 4096 + DEFAULT_MAX_TOKENS
    r = render([user("hi")], CallParams(thinking=ThinkingParams(effort="high", include_thoughts=False)))
    assert r.body["thinking"] == {"type": "enabled", "budget_tokens": 16384, "display": "omitted"}
    r = render([user("hi")], CallParams(thinking=ThinkingParams(enabled=False)))
    assert r.body["thinking"] == {"type": "disabled"}
    assert "thinking" not in render([user("hi")]).body


@pytest.mark.parametrize(
    ("budget", "max_tokens", "sent", "code"),
    [
        (100, 8000, {"type": "enabled", "budget_tokens": 1024}, "thinking-budget-raised"),
        (5000, 2000, {"type": "enabled", "budget_tokens": 1999}, "thinking-budget-clamped"),
        (None, 1000, {"type": "disabled"}, "thinking-disabled"),
    ],
)
def test_thinking_budget_kept_legal(
    budget: int | None, max_tokens: int, sent: dict[str, Any], code: str
) -> None:
    r = render([user("hi")], CallParams(thinking=ThinkingParams(budget_tokens=budget), max_tokens=max_tokens))
    assert r.body["thinking"] == sent
    assert r.body["max_tokens"] == max_tokens
    assert code in codes(r)


def test_temperature_only_if_given_clamped_and_not_with_thinking() -> None:
    assert "temperature" not in render([user("hi")]).body
    assert render([user("hi")], CallParams(temperature=0.3)).body["temperature"] == 0.3
    r = render([user("hi")], CallParams(temperature=1.5))
    assert (r.body["temperature"], codes(r)) == (1.0, ["temperature-clamped"])
    r = render([user("hi")], CallParams(temperature=0.3, thinking=ThinkingParams()))
    assert "temperature" not in r.body
    assert "temperature-dropped" in codes(r)
    assert render([user("hi")], CallParams(temperature=1, thinking=ThinkingParams())).body["temperature"] == 1


# ---------------------------------------------------------------- thinking mapping


def test_native_thinking_pair_and_redacted_byte_exact() -> None:
    redacted = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw+\n=="
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(
            parts=[
                ThinkingTextPart(text="let me think"),
                sig("SIG-1", "anthropic"),
                sig(redacted, "anthropic-redacted"),
                TextPart(text="answer"),
            ]
        ),
        user("next"),
    ]
    r = render(history, THINK)
    assert content(r, 1) == [
        {"type": "thinking", "thinking": "let me think", "signature": "SIG-1"},
        {"type": "redacted_thinking", "data": redacted},
        {"type": "text", "text": "answer"},
    ]
    assert r.warnings == []


@pytest.mark.parametrize(
    ("signature", "code"),
    [
        (sig("gsig", "google"), "thinking-foreign"),
        (sig("rs", "openai-responses"), "thinking-foreign"),
        (sig("S", None), "thinking-foreign"),
        (sig("S", "anthropic", "claude-opus-4-1"), "thinking-foreign"),
        (sig("", "anthropic"), "thinking-unsigned"),
    ],
)
def test_foreign_or_unsigned_thinking_dropped_never_text(signature: ThinkingSignaturePart, code: str) -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[ThinkingTextPart(text="secret"), signature, TextPart(text="answer")]),
        user("next"),
    ]
    r = render(history)
    assert content(r, 1) == [{"type": "text", "text": "answer"}]
    assert "secret" not in canonical_json(r.body)
    dropped = [(w.part_index, w.code) for w in r.warnings]
    assert dropped == [(0, code), (1, code)]  # both parts of the pair are accounted for


def test_unsigned_text_and_unpaired_signature_dropped() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(
            parts=[sig("orphan", "anthropic"), TextPart(text="a"), ThinkingTextPart(text="musing")]
        ),
        user("next"),
    ]
    r = render(history)
    assert content(r, 1) == [{"type": "text", "text": "a"}]
    assert [(w.part_index, w.code) for w in r.warnings] == [
        (0, "thinking-signature-unpaired"),
        (2, "thinking-unsigned"),
    ]


@pytest.mark.parametrize(
    ("signature", "code", "why"),
    [
        (sig("gsig", "google", "gemini-3-pro-preview"), "thinking-foreign", "format 'google'"),
        (sig("gAAAA", "openai-responses", "gpt-5.5"), "thinking-foreign", "format 'openai-responses'"),
        (
            sig("gAAAA", "openai-responses-v1", "openai/o3"),
            "thinking-foreign",
            "format 'openai-responses-v1'",
        ),
        (sig("S", "anthropic", "claude-opus-4-1"), "thinking-foreign", "model 'claude-opus-4-1'"),
        (sig("", "anthropic"), "thinking-unsigned", "empty"),
        (sig("S", "anthropic"), "thinking-signature-unpaired", "no thinking text"),
    ],
)
def test_lone_signature_warning_names_the_real_reason(
    signature: ThinkingSignaturePart, code: str, why: str
) -> None:
    # Scenarios signature_orphan_responses_no_summary, thinking_google_signature_on_function_call,
    # thinking_openrouter_openai_responses_v1: a foreign signature with no thinking text before it
    # is not sent because it is foreign; "unpaired" is only true of Anthropic's own.
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[TextPart(text="a"), call("c1", "read", PATH_A), signature]),
        result(call("c1", "read"), "ok"),
    ]
    r = render(history, CallParams(tools=TOOLS))
    assert content(r, 1) == [
        {"type": "text", "text": "a"},
        {"type": "tool_use", "id": "c1", "name": "read", "input": {"path": "a"}},
    ]
    assert [(w.part_index, w.code) for w in r.warnings] == [(2, code)]
    assert why in r.warnings[0].reason


def test_foreign_redacted_dropped() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[sig("DATA", "anthropic-redacted", "claude-x"), TextPart(text="a")]),
        user("next"),
    ]
    r = render(history, CallParams(model="claude-y"))
    assert content(r, 1) == [{"type": "text", "text": "a"}]
    assert codes(r) == ["thinking-foreign"]


def test_assistant_with_only_foreign_thinking_is_dropped_and_users_merge() -> None:
    history: list[HistoryEvent] = [
        user("one"),
        AssistantMessage(parts=[ThinkingTextPart(text="t"), sig("g", "google")]),
        user("two"),
    ]
    r = render(history)
    assert r.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]}
    ]
    assert "empty-message" in codes(r)


# ---------------------------------------------------------------- field lesson 3


def loop(first: list[Any], *later: list[Any]) -> list[HistoryEvent]:
    history: list[HistoryEvent] = [user("hi")]
    for n, parts in enumerate([first, *later]):
        history += [
            AssistantMessage(parts=[*parts, call(f"c{n}", "read", PATH_A)]),
            result(call(f"c{n}", "read"), "ok"),
        ]
    return history


def test_open_tool_loop_without_thinking_disables_thinking() -> None:
    r = render(loop([TextPart(text="calling")]), THINK)
    assert r.body["thinking"] == {"type": "disabled"}
    assert r.body["max_tokens"] == DEFAULT_MAX_TOKENS
    assert "thinking-disabled" in codes(r)


def test_open_tool_loop_with_foreign_thinking_disables_thinking() -> None:
    r = render(loop([ThinkingTextPart(text="t"), sig("g", "google")]), THINK)
    assert r.body["thinking"] == {"type": "disabled"}
    assert codes(r).count("thinking-foreign") == 2
    assert "thinking-disabled" in codes(r)


def test_open_tool_loop_starting_with_thinking_keeps_thinking() -> None:
    # Without interleaved thinking Claude thinks once per turn: later loop steps carry none.
    r = render(loop([ThinkingTextPart(text="t"), sig("S", "anthropic")], [TextPart(text="more")]), THINK)
    assert r.body["thinking"]["type"] == "enabled"
    assert content(r, 1)[0]["type"] == "thinking"
    assert r.warnings == []


def test_closed_loop_does_not_constrain_thinking() -> None:
    history = [
        *loop([TextPart(text="calling")]),
        AssistantMessage(parts=[TextPart(text="done")]),
        user("new"),
    ]
    r = render(history, THINK)
    assert r.body["thinking"]["type"] == "enabled"


def test_thinking_blocks_kept_when_thinking_off() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[ThinkingTextPart(text="t"), sig("S", "anthropic"), TextPart(text="a")]),
        user("next"),
    ]
    r = render(history, CallParams(thinking=ThinkingParams(enabled=False)))
    assert content(r, 1)[0] == {"type": "thinking", "thinking": "t", "signature": "S"}


# ---------------------------------------------------------------- tools


def test_tool_results_first_in_call_order_with_user_text_after() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(
            parts=[TextPart(text="two calls"), call("a", "read", PATH_A), call("b", "read", "")]
        ),
        result(call("b", "read"), "B", "error"),
        user("meanwhile"),
        result(call("a", "read"), "A", "aborted"),
    ]
    r = render(history)
    assert content(r, 1)[1:] == [
        {"type": "tool_use", "id": "a", "name": "read", "input": {"path": "a"}},
        {"type": "tool_use", "id": "b", "name": "read", "input": {}},
    ]
    assert content(r, 2) == [
        {
            "type": "tool_result",
            "tool_use_id": "a",
            "content": [{"type": "text", "text": "A"}],
            "is_error": True,
        },
        {
            "type": "tool_result",
            "tool_use_id": "b",
            "content": [{"type": "text", "text": "B"}],
            "is_error": True,
        },
        {"type": "text", "text": "meanwhile"},
    ]
    assert len(r.body["messages"]) == 3


def test_success_result_has_no_error_flag_and_empty_result_omits_content() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[call("a", "read", PATH_A), call("b", "read", PATH_A)]),
        result(call("a", "read"), ""),
        result(call("b", "read"), "   "),
    ]
    r = render(history, CallParams(tools=TOOLS))
    assert content(r, 2) == [
        {"type": "tool_result", "tool_use_id": "a"},
        {"type": "tool_result", "tool_use_id": "b"},
    ]
    assert codes(r) == ["empty-text"]


def test_missing_result_is_synthesized_as_error() -> None:
    r = render([user("hi"), AssistantMessage(parts=[call("a", "read", PATH_A)]), user("go on")])
    first, text = content(r, 2)
    assert first["tool_use_id"] == "a"
    assert first["is_error"] is True
    assert text == {"type": "text", "text": "go on"}
    assert "tool-result-missing" in codes(r)


def test_invalid_ids_mapped_consistently() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[call("functions.write_todos:0", "read", PATH_A)]),
        result(call("functions.write_todos:0", "read"), "ok"),
    ]
    r = render(history)
    sent = content(r, 1)[0]["id"]
    assert sent != "functions.write_todos:0"
    assert sent.replace("_", "").replace("-", "").isalnum()
    assert content(r, 2)[0]["tool_use_id"] == sent
    assert "tool-id-mapped" in codes(r)


def test_arguments_not_an_object_sent_as_empty_object() -> None:
    r = render(
        [user("hi"), AssistantMessage(parts=[call("a", "read", "[1, 2]")]), result(call("a", "read"), "ok")]
    )
    assert content(r, 1)[0]["input"] == {}
    assert "tool-arguments-invalid" in codes(r)


def test_duplicate_tool_use_id_in_one_message_dropped() -> None:
    r = render(
        [
            user("hi"),
            AssistantMessage(parts=[call("a", "read", PATH_A), call("a", "read", "{}")]),
            result(call("a", "read"), "ok"),
        ]
    )
    assert [b["id"] for b in content(r, 1)] == ["a"]
    assert "tool-call-duplicate-dropped" in codes(r)


def test_developer_parts_go_inside_the_tool_result() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[call("a", "read", PATH_A)]),
        result(call("a", "read"), "out", images=[ImageURLPart(url="https://x/shot.png")]),
        DeveloperMessage(parts=[TextPart(text="<reminder>"), ImageURLPart(url=PNG)], ui_extra={"k": 1}),
    ]
    r = render(history)
    assert content(r, 2) == [
        {
            "type": "tool_result",
            "tool_use_id": "a",
            "content": [
                {"type": "text", "text": "out"},
                {"type": "image", "source": {"type": "url", "url": "https://x/shot.png"}},
                {"type": "text", "text": "<reminder>\n"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
                },
            ],
        }
    ]
    assert "ui_extra" not in canonical_json(r.body)


# ---------------------------------------------------------------- images


def test_images_url_base64_and_degraded() -> None:
    history: list[HistoryEvent] = [
        UserMessage(
            parts=[
                ImageURLPart(url="https://x/a.webp"),
                ImageURLPart(url="data:image/JPG;base64,/9j/4AAQ"),
                ImageURLPart(url="data:image/bmp;base64,Qk0="),
                ImageURLPart(url="file:///tmp/a.png"),
                ImageFilePart(file_path="/tmp/a.png"),
                TextPart(text="look"),
            ]
        ),
    ]
    r = render(history)
    assert content(r, 0) == [
        {"type": "image", "source": {"type": "url", "url": "https://x/a.webp"}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}},
        {"type": "text", "text": "look"},
    ]
    assert [(w.part_index, w.code) for w in r.warnings] == [
        (1, "media-type-normalized"),  # image/JPG: a repair, so it is warned
        (2, "image-url-unsupported"),
        (3, "image-url-unsupported"),
        (4, "image-file-not-inlined"),
    ]


def test_images_in_assistant_dropped_with_warning() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[TextPart(text="see"), ImageURLPart(url=PNG)]),
        user("hi"),
    ]
    r = render(history)
    assert content(r, 1) == [{"type": "text", "text": "see"}]
    assert codes(r) == ["assistant-image-dropped"]


# ---------------------------------------------------------------- alternation


def test_consecutive_user_side_messages_merge() -> None:
    history: list[HistoryEvent] = [user("a"), DeveloperMessage(parts=[TextPart(text="dev")]), user("b")]
    r = render(history)
    assert r.body["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "a"},
                {"type": "text", "text": "dev\n"},
                {"type": "text", "text": "b"},
            ],
        }
    ]
    assert r.warnings == []


def test_consecutive_assistants_merge_warned_unless_same_response() -> None:
    pieces: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(id="m1", parts=[TextPart(text="a")]),
        AssistantMessage(id="m1", parts=[TextPart(text="b")]),
        user("hi"),
    ]
    r = render(pieces)
    assert content(r, 1) == [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    assert r.warnings == []
    distinct: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[TextPart(text="a")]),
        AssistantMessage(parts=[TextPart(text="b")]),
        user("hi"),
    ]
    r = render(distinct)
    assert len(r.body["messages"]) == 3
    assert codes(r) == ["assistant-merged"]


def test_leading_assistant_is_sent_without_a_placeholder_user() -> None:
    # Accepted as it is (docs/import-check-decisions.md#placeholder-turns): no invented user turn.
    r = render([AssistantMessage(parts=[TextPart(text="hello")]), user("hi")])
    assert [m["role"] for m in r.body["messages"]] == ["assistant", "user"]
    assert content(r, 0) == [{"type": "text", "text": "hello"}]
    assert "placeholder-user" not in codes(r)


def test_empty_history_still_valid() -> None:
    r = render([])
    assert r.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": PLACEHOLDER_USER_TEXT}]}
    ]
    assert codes(r) == ["placeholder-user"]


# ---------------------------------------------------------------- final assistant (prefill)


def test_final_assistant_prefill_trailing_whitespace_stripped() -> None:
    r = render([user("hi"), AssistantMessage(parts=[TextPart(text="The answer is ")])])
    assert content(r, 1) == [{"type": "text", "text": "The answer is"}]
    assert codes(r) == ["prefill-trailing-whitespace", "assistant-prefill"]


def test_final_assistant_drops_trailing_thinking() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[TextPart(text="a"), ThinkingTextPart(text="t"), sig("S", "anthropic")]),
    ]
    r = render(history, THINK)
    assert content(r, 1) == [{"type": "text", "text": "a"}]
    assert [(w.part_index, w.code) for w in r.warnings][:2] == [
        (1, "prefill-thinking-dropped"),
        (2, "prefill-thinking-dropped"),
    ]


def test_final_assistant_thinking_dropped_when_thinking_off() -> None:
    history: list[HistoryEvent] = [
        user("hi"),
        AssistantMessage(parts=[ThinkingTextPart(text="t"), sig("S", "anthropic"), TextPart(text="a")]),
    ]
    assert content(render(history, THINK), 1)[0]["type"] == "thinking"
    r = render(history)
    assert content(r, 1) == [{"type": "text", "text": "a"}]
    assert "prefill-thinking-dropped" in codes(r)


def test_final_assistant_only_thinking_is_dropped() -> None:
    r = render(
        [user("hi"), AssistantMessage(parts=[ThinkingTextPart(text="t"), sig("S", "anthropic")])], THINK
    )
    assert [m["role"] for m in r.body["messages"]] == ["user"]
    assert "empty-message" in codes(r)


# ---------------------------------------------------------------- determinism


def test_same_input_same_bytes() -> None:
    history = loop([ThinkingTextPart(text="t"), sig("S", "anthropic"), TextPart(text="x ")])
    params = CallParams(
        system="s", tools=[ToolSpec(name="read")], thinking=ThinkingParams(budget_tokens=2048)
    )
    assert canonical_json(render(history, params).body) == canonical_json(render(history, params).body)


@pytest.mark.parametrize(
    ("choice", "sent"),
    [("required", None), (ForcedTool(name="get_weather"), None), ("none", {"type": "none"})],
)
def test_extended_thinking_keeps_only_auto_and_none_tool_choices(choice: ToolChoice, sent: Any) -> None:
    params = CallParams(
        tools=[ToolSpec(name="get_weather")], tool_choice=choice, thinking=ThinkingParams(budget_tokens=2048)
    )
    rendered = ADAPTER.render([user("Weather in Paris?")], params)
    assert rendered.body.get("tool_choice") == sent
    codes = [w.code for w in rendered.warnings]
    assert codes == ([] if sent is not None else ["tool-choice-not-sent"])

"""OpenAI Responses input adapter: the tricky mappings, asserted on the request body."""

from __future__ import annotations

from typing import Any

from harness.contract.rendered import Rendered, canonical_json
from harness.mapping.prepare import SYNTHETIC_RESULT_TEXT
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    FilePart,
    ImageFilePart,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.oracles import validate
from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.providers import get_adapter
from harness.providers.openai_responses.request import ADAPTER, DEFAULT_MODEL
from harness.scenarios.dsl import assistant
from tests.support.adapters import codes, renderer, sig

PNG = "data:image/png;base64,iVBORw0KGgo="
MODEL = "gpt-5.5"
USER = UserMessage(parts=[TextPart(text="hi")])
PARAMS = CallParams(model=MODEL, tools=[ToolSpec(name="f"), ToolSpec(name="shot")])
render = renderer(ADAPTER, PARAMS)


def items(rendered: Rendered) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = rendered.body["input"]
    return result


def reasoning_sig(
    signature: str = "gAAAenc",
    *,
    id: str | None = "rs_1",
    fmt: str | None = "openai-responses",
    model: str | None = MODEL,
) -> ThinkingSignaturePart:
    """A Responses reasoning item's signature as this file's cases need it (its defaults: ours)."""
    return sig(signature, fmt, model, id=id)


# ---------------------------------------------------------------- request level


def test_registered_under_pinned_provider_id() -> None:
    assert get_adapter("openai-responses") is ADAPTER
    assert ADAPTER.provider == "openai-responses"


def test_params_map_to_create_response_fields() -> None:
    params = CallParams(
        model=MODEL,
        system="Be brief.",
        tools=[ToolSpec(name="get_capital", description="Look up a capital", parameters={"type": "object"})],
        max_tokens=1000,
        thinking=ThinkingParams(effort="high"),
        temperature=0.5,
    )
    r = render([SystemMessage(parts=[TextPart(text="Second.")]), USER], params)
    assert r.body == {
        "model": MODEL,
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
        "instructions": "Be brief.\n\nSecond.",
        "tools": [
            {
                "type": "function",
                "name": "get_capital",
                "description": "Look up a capital",
                "parameters": {"type": "object"},
                "strict": False,
            }
        ],
        "max_output_tokens": 1000,
        "reasoning": {"effort": "high", "summary": "auto"},
        "temperature": 0.5,
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "stream": True,
    }
    assert r.warnings == []


def test_defaults_without_model_system_tools_or_stream() -> None:
    r = ADAPTER.render([USER], CallParams(stream=False))
    assert r.body["model"] == DEFAULT_MODEL
    assert "instructions" not in r.body
    assert "tools" not in r.body
    assert "reasoning" not in r.body
    assert "stream" not in r.body
    # stateless replay is always requested unless thinking is explicitly off
    assert r.body["store"] is False
    assert r.body["include"] == ["reasoning.encrypted_content"]


def test_thinking_disabled_omits_reasoning_and_include() -> None:
    r = render([USER], CallParams(model=MODEL, thinking=ThinkingParams(enabled=False)))
    assert "reasoning" not in r.body
    assert "include" not in r.body
    assert r.body["store"] is False


def test_thinking_without_summary_and_budget_only() -> None:
    r = render(
        [USER], CallParams(model=MODEL, thinking=ThinkingParams(budget_tokens=2048, include_thoughts=False))
    )
    assert r.body["reasoning"] == {}
    assert codes(r) == ["thinking-budget-ignored"]


def test_non_reasoning_model_gets_no_include_reasoning_or_reasoning_items() -> None:
    # Review finding (golden openai-responses-tool_single_call, model gpt-4o-mini): OpenAI
    # answers include=["reasoning.encrypted_content"] on a non-reasoning model with 400
    # "Encrypted content is not supported with this model" (ShishirPatil/gorilla issue 1148).
    plain = render([USER], CallParams(model="gpt-4o-mini"))
    assert "include" not in plain.body
    assert plain.body["store"] is False
    assert plain.warnings == []
    asked = render(
        [USER, assistant(reasoning_sig("ENC", model=None), TextPart(text="a")), USER],
        CallParams(model="gpt-4.1", thinking=ThinkingParams(effort="low")),
    )
    assert "include" not in asked.body and "reasoning" not in asked.body
    assert [i["type"] for i in items(asked)] == ["message", "message", "message"]
    assert codes(asked) == ["thinking-unsupported", "thinking-param-ignored"]
    # reasoning models (and models this adapter does not know) keep both
    for model in ("gpt-5", "o3", "gpt-5.1-codex-max", "some-future-model"):
        body = render([USER], CallParams(model=model, thinking=ThinkingParams(effort="low"))).body
        assert body["include"] == ["reasoning.encrypted_content"]
        assert body["reasoning"] == {"effort": "low", "summary": "auto"}


def test_max_tokens_below_minimum_is_raised() -> None:
    r = render([USER], CallParams(model=MODEL, max_tokens=5))
    assert r.body["max_output_tokens"] == 16
    assert codes(r) == ["max-tokens-raised"]


def test_deterministic_bytes() -> None:
    history = [
        USER,
        assistant(
            ThinkingTextPart(id="rs_1", text="t"),
            reasoning_sig(),
            ToolCallPart(call_id="c", tool_name="f", arguments_json="{}"),
        ),
        ToolResultMessage(call_id="c", tool_name="f", status="success", output_text="ok"),
    ]
    assert canonical_json(render(history).body) == canonical_json(render(history).body)


def test_tools_derived_from_calls_when_none_given() -> None:
    history = [
        USER,
        assistant(ToolCallPart(call_id="c", tool_name="probe", arguments_json="{}")),
        ToolResultMessage(call_id="c", tool_name="probe", status="success", output_text="ok"),
    ]
    r = render(history, CallParams(model=MODEL))
    assert r.body["tools"] == [
        {
            "type": "function",
            "name": "probe",
            "description": "Definition derived from the history's tool calls (none was given).",
            "parameters": {"type": "object", "properties": {}, "additionalProperties": True},
            "strict": False,
        }
    ]
    assert codes(r) == ["tools-derived"]


# ---------------------------------------------------------------- user content


def test_user_images_and_dropped_parts() -> None:
    r = render(
        [
            UserMessage(
                parts=[
                    TextPart(text="look"),
                    ImageURLPart(url="https://example.test/a.png"),
                    ImageURLPart(url=PNG),
                    ImageFilePart(file_path="/tmp/x.png"),
                    ImageURLPart(url="ftp://example.test/a.png"),
                ]
            )
        ]
    )
    assert items(r) == [
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": "look"},
                {"type": "input_image", "image_url": "https://example.test/a.png", "detail": "auto"},
                {"type": "input_image", "image_url": PNG, "detail": "auto"},
            ],
        }
    ]
    assert [(w.part_index, w.code) for w in r.warnings] == [
        (3, "image-file-not-inlined"),
        (4, "image-url-unsupported"),
    ]


def test_user_message_left_empty_is_not_sent() -> None:
    r = render([UserMessage(parts=[ImageFilePart(file_path="/tmp/x.png")]), USER])
    assert len(items(r)) == 1
    assert codes(r) == ["image-file-not-inlined", "empty-message"]


def test_developer_without_preceding_user_becomes_user_role() -> None:
    r = render([DeveloperMessage(parts=[TextPart(text="remember")])])
    assert items(r) == [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "remember\n"}]}
    ]
    assert codes(r) == ["developer-as-user"]


# ---------------------------------------------------------------- reasoning


def test_summary_parts_of_one_item_group_into_one_reasoning_item() -> None:
    r = render(
        [
            USER,
            assistant(
                ThinkingTextPart(id="rs_1", text="part 0"),
                ThinkingTextPart(id="rs_1", text="part 1"),
                reasoning_sig("ENC1"),
                ThinkingTextPart(id="rs_2", text="second item"),
                reasoning_sig("ENC2", id="rs_2"),
                TextPart(text="answer"),
            ),
        ]
    )
    assert items(r)[1:] == [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [
                {"type": "summary_text", "text": "part 0"},
                {"type": "summary_text", "text": "part 1"},
            ],
            "encrypted_content": "ENC1",
        },
        {
            "type": "reasoning",
            "id": "rs_2",
            "summary": [{"type": "summary_text", "text": "second item"}],
            "encrypted_content": "ENC2",
        },
        {"type": "message", "role": "assistant", "content": "answer"},
    ]
    assert r.warnings == []


def test_signature_only_is_a_full_item_with_empty_summary() -> None:
    r = render([USER, assistant(reasoning_sig("ENC", id="rs_9"), TextPart(text="a"))])
    assert items(r)[1] == {"type": "reasoning", "id": "rs_9", "summary": [], "encrypted_content": "ENC"}


def test_item_id_from_text_when_signature_has_none() -> None:
    # A text follows: a reasoning item alone is dropped (reasoning-no-following-item).
    r = render(
        [USER, assistant(ThinkingTextPart(id="rs_7", text="t"), reasoning_sig(id=None), TextPart(text="a"))]
    )
    assert items(r)[1]["id"] == "rs_7"


def test_unsigned_reasoning_text_is_dropped() -> None:
    r = render([USER, assistant(ThinkingTextPart(id="rs_1", text="no enc"), TextPart(text="a"))])
    assert [i["type"] for i in items(r)] == ["message", "message"]
    assert [(w.message_index, w.part_index, w.code) for w in r.warnings] == [(1, 0, "thinking-unsigned")]


def test_text_of_another_item_is_not_merged_into_the_summary() -> None:
    # pair_thinking pairs the signature with the nearest text (rs_b); the rs_a text is the real match.
    r = render(
        [
            USER,
            assistant(
                ThinkingTextPart(id="rs_a", text="A"),
                ThinkingTextPart(id="rs_b", text="B"),
                reasoning_sig(id="rs_a"),
                TextPart(text="a"),
            ),
        ]
    )
    assert items(r)[1]["summary"] == [{"type": "summary_text", "text": "A"}]
    assert [(w.part_index, w.code) for w in r.warnings] == [(1, "thinking-unsigned")]


def test_texts_before_a_foreign_signature_are_reported_unsigned() -> None:
    # Review finding (golden openai-responses-thinking_google_signature_on_text): three
    # unsigned Gemini thoughts were reported as dropped because "signature format 'google'
    # is not native"; they never had a signature (a google signature belongs to the part
    # right before it, here the answer text, so none of the thoughts is signed).
    r = render(
        [
            USER,
            assistant(
                ThinkingTextPart(text="a"),
                ThinkingTextPart(text="b"),
                ThinkingTextPart(text="c"),
                TextPart(text="answer"),
                reasoning_sig("G", id=None, fmt="google", model="gemini-2.5-pro"),
            ),
        ]
    )
    assert [(w.part_index, w.code) for w in r.warnings] == [
        (0, "thinking-unsigned"),
        (1, "thinking-unsigned"),
        (2, "thinking-unsigned"),
        (4, "thinking-foreign"),
    ]


def test_foreign_redacted_and_empty_signatures_are_dropped() -> None:
    r = render(
        [
            USER,
            assistant(
                ThinkingTextPart(text="claude thought"),
                reasoning_sig("anth", id=None, fmt="anthropic"),
                reasoning_sig("redacted", id=None, fmt="anthropic-redacted"),
                ThinkingTextPart(id="rs_1", text="cut"),
                reasoning_sig("", id="rs_1"),
                ThinkingTextPart(id="rs_2", text="t"),
                reasoning_sig("x", id="rs_2", fmt=None),
                TextPart(text="answer"),
            ),
        ]
    )
    assert [i["type"] for i in items(r)] == ["message", "message"]
    assert all(w.code == "thinking-foreign" for w in r.warnings)
    assert sorted(w.part_index for w in r.warnings if w.part_index is not None) == [0, 1, 2, 3, 4, 5, 6]


def test_signature_from_another_model_is_dropped() -> None:
    r = render([USER, assistant(ThinkingTextPart(id="rs_1", text="t"), reasoning_sig(model="o3"))])
    assert len(items(r)) == 1
    assert codes(r) == ["thinking-foreign", "thinking-foreign"]


def test_reasoning_without_usable_id_is_sent_without_id() -> None:
    """Issue 24: the encrypted content is kept; an id that is not an rs_ id is not sent (warned)."""
    r = render(
        [USER, assistant(reasoning_sig("E1", id=None), reasoning_sig("E2", id="item_2"), TextPart(text="a"))]
    )
    sent = items(r)
    assert [i["type"] for i in sent] == ["message", "reasoning", "reasoning", "message"]
    assert [i.get("encrypted_content") for i in sent[1:3]] == ["E1", "E2"]
    assert not any("id" in i for i in sent)
    assert codes(r) == ["reasoning-no-id"]
    assert validate("openai-responses", r.body).ok


def test_id_less_reasoning_drops_the_turns_item_ids() -> None:
    """An fc_ id cannot be linked to a reasoning item sent without id: neither is sent (as codex does)."""
    call = ToolCallPart(call_id="c1", tool_name="f", arguments_json="{}", item_id="fc_1")
    r = render([USER, assistant(reasoning_sig("E1", id=None), call)])
    sent = items(r)
    assert [i["type"] for i in sent][:3] == ["message", "reasoning", "function_call"]
    assert "id" not in sent[2] and sent[1]["encrypted_content"] == "E1"
    assert "item-id-dropped" in codes(r)


def test_duplicate_reasoning_id_sent_once() -> None:
    turn = assistant(reasoning_sig("E", id="rs_1"), TextPart(text="a"))
    r = render([USER, turn, USER, turn])
    assert [i["type"] for i in items(r)] == ["message", "reasoning", "message", "message", "message"]
    assert codes(r) == ["reasoning-duplicate-id"]


# ---------------------------------------------------------------- assistant text and ids


def test_trusted_message_id_gives_output_message_with_logprobs() -> None:
    r = render([USER, assistant(TextPart(text="one"), TextPart(text="two"), id="msg_abc")])
    assert items(r)[1] == {
        "type": "message",
        "role": "assistant",
        "id": "msg_abc",
        "status": "completed",
        "content": [
            {"type": "output_text", "text": "one", "annotations": [], "logprobs": []},
            {"type": "output_text", "text": "two", "annotations": [], "logprobs": []},
        ],
    }


def test_untrusted_or_ambiguous_message_ids_are_not_sent() -> None:
    call = ToolCallPart(call_id="c", tool_name="f", arguments_json="{}")
    result = ToolResultMessage(call_id="c", tool_name="f", status="success", output_text="ok")
    r = render(
        [
            USER,
            assistant(TextPart(text="ours"), id="3f2a-uuid"),
            USER,
            assistant(TextPart(text="before"), call, TextPart(text="after"), id="msg_two_runs"),
            result,
        ]
    )
    messages = [i for i in items(r) if i.get("role") == "assistant"]
    assert messages == [
        {"type": "message", "role": "assistant", "content": "ours"},
        {"type": "message", "role": "assistant", "content": "before"},
        {"type": "message", "role": "assistant", "content": "after"},
    ]


def test_text_item_ids_and_phase_give_one_output_message_per_item() -> None:
    """Text parts keep their own message item (``item_id``, ``phase``) as the parser read it."""
    call = ToolCallPart(call_id="c", tool_name="f", arguments_json="{}", item_id="fc_1")
    result = ToolResultMessage(call_id="c", tool_name="f", status="success", output_text="ok")
    turn = assistant(
        reasoning_sig("E", id="rs_1"),
        TextPart(text="a", item_id="msg_1", phase="commentary"),
        TextPart(text="b", item_id="msg_1", phase="commentary"),
        call,
        id="resp_x",
    )
    r = render([USER, turn, result, assistant(TextPart(text="done", item_id="msg_2", phase="final_answer"))])
    assert r.warnings == []
    messages = [i for i in items(r) if i.get("role") == "assistant"]
    assert messages == [
        {
            "type": "message",
            "role": "assistant",
            "id": "msg_1",
            "status": "completed",
            "content": [
                {"type": "output_text", "text": "a", "annotations": [], "logprobs": []},
                {"type": "output_text", "text": "b", "annotations": [], "logprobs": []},
            ],
            "phase": "commentary",
        },
        {
            "type": "message",
            "role": "assistant",
            "id": "msg_2",
            "status": "completed",
            "content": [{"type": "output_text", "text": "done", "annotations": [], "logprobs": []}],
            "phase": "final_answer",
        },
    ]


def test_text_item_id_follows_the_reasoning_rule_and_is_never_reused() -> None:
    foreign = assistant(
        ThinkingTextPart(id="rs_1", text="t", model_id="o3"),
        reasoning_sig("ENC", model="o3"),
        TextPart(text="a", item_id="msg_1", phase="commentary"),
    )
    r = render([USER, foreign])
    assert items(r)[1] == {"type": "message", "role": "assistant", "content": "a", "phase": "commentary"}
    assert [(w.part_index, w.code) for w in r.warnings] == [
        (0, "thinking-foreign"),
        (1, "thinking-foreign"),
        (2, "item-id-dropped"),
    ]
    bad = assistant(TextPart(text="a", item_id="item_1"), TextPart(text="b", item_id="msg_1", phase="other"))
    r = render([USER, bad, USER, assistant(TextPart(text="c", item_id="msg_1"))])
    assert [i for i in items(r) if i.get("role") == "assistant"] == [
        {"type": "message", "role": "assistant", "content": "a"},
        {
            "type": "message",
            "role": "assistant",
            "id": "msg_1",
            "status": "completed",
            "content": [{"type": "output_text", "text": "b", "annotations": [], "logprobs": []}],
        },
        {"type": "message", "role": "assistant", "content": "c"},
    ]
    assert [(w.message_index, w.part_index, w.code) for w in r.warnings] == [
        (1, 0, "item-id-dropped"),
        (1, 1, "phase-dropped"),
        (3, 0, "item-id-dropped"),
    ]


def test_a_dropped_part_does_not_split_a_text_run() -> None:
    """A foreign signature between two texts sends nothing, so the texts stay one message item."""
    google = reasoning_sig("Zw==", id=None, fmt="google", model="gemini-2.5-flash")
    r = render([USER, assistant(TextPart(text="one "), google, TextPart(text="two"), ImageURLPart(url=PNG))])
    assert items(r)[1:] == [{"type": "message", "role": "assistant", "content": "one two"}]
    assert codes(r) == ["thinking-foreign", "assistant-image-dropped"]
    image = ImageURLPart(url=PNG)
    same_item = assistant(
        TextPart(text="one ", item_id="msg_1"), image, TextPart(text="two", item_id="msg_1")
    )
    r = render([USER, same_item])
    assert [c["text"] for c in items(r)[1]["content"]] == ["one ", "two"]
    assert codes(r) == ["assistant-image-dropped"]


def test_assistant_image_is_dropped_with_warning() -> None:
    r = render(
        [USER, assistant(TextPart(text="see"), ImageURLPart(url=PNG), ImageFilePart(file_path="/a.png"))]
    )
    assert items(r)[1] == {"type": "message", "role": "assistant", "content": "see"}
    assert [(w.part_index, w.part_type, w.code) for w in r.warnings] == [
        (1, "image_url", "assistant-image-dropped"),
        (2, "image_file", "assistant-image-dropped"),
    ]


def test_items_keep_canonical_order() -> None:
    r = render(
        [
            USER,
            assistant(
                TextPart(text="narrate"),
                ThinkingTextPart(id="rs_1", text="t"),
                reasoning_sig(),
                ToolCallPart(call_id="c1", tool_name="f", arguments_json="{}"),
                TextPart(text="done"),
            ),
            ToolResultMessage(call_id="c1", tool_name="f", status="success", output_text="ok"),
        ]
    )
    assert [i["type"] for i in items(r)] == [
        "message",
        "message",
        "reasoning",
        "function_call",
        "message",
        "function_call_output",
    ]


# ---------------------------------------------------------------- tool calls and results


def test_function_call_fields_and_item_ids() -> None:
    long_id = "functions.write_todos:0" * 4
    r = render(
        [
            USER,
            assistant(
                ToolCallPart(call_id="call_1", tool_name="f", arguments_json='{"a": 1}', item_id="fc_1"),
                ToolCallPart(call_id="call_2", tool_name="f", arguments_json="not json", item_id="weird"),
                ToolCallPart(call_id=long_id, tool_name="f", arguments_json=""),
            ),
            ToolResultMessage(call_id="call_1", tool_name="f", status="success", output_text="r1"),
            ToolResultMessage(call_id="call_2", tool_name="f", status="success", output_text="r2"),
            ToolResultMessage(call_id=long_id, tool_name="f", status="success", output_text="r3"),
        ]
    )
    calls = [i for i in items(r) if i["type"] == "function_call"]
    outputs = [i for i in items(r) if i["type"] == "function_call_output"]
    assert calls[0] == {
        "type": "function_call",
        "call_id": "call_1",
        "name": "f",
        "arguments": '{"a": 1}',
        "id": "fc_1",
    }
    assert calls[1] == {"type": "function_call", "call_id": "call_2", "name": "f", "arguments": "not json"}
    assert len(calls[2]["call_id"]) <= 64
    assert calls[2]["arguments"] == ""
    assert [o["call_id"] for o in outputs] == [c["call_id"] for c in calls]
    assert [o["output"] for o in outputs] == ["r1", "r2", "r3"]
    assert codes(r) == ["tool-id-mapped", "item-id-dropped"]


def test_item_ids_are_not_sent_when_their_reasoning_is_dropped() -> None:
    # Review finding (golden openai-responses-mixed_provider_history): the gpt-5.1-codex-max
    # turn's reasoning item is dropped for another model, but its fc_ id was still sent;
    # the API rejects "Item 'fc_...' of type 'function_call' was provided without its
    # required 'reasoning' item" (laravel/ai PR 1052, cline/cline issue 12242).
    turn = assistant(
        ThinkingTextPart(id="rs_1", text="t", model_id="o3"),
        reasoning_sig("ENC", model="o3"),
        TextPart(text="calling"),
        ToolCallPart(call_id="call_1", tool_name="f", arguments_json="{}", item_id="fc_1"),
        id="msg_1",
    )
    result = ToolResultMessage(call_id="call_1", tool_name="f", status="success", output_text="r")
    r = render([USER, turn, result])
    assert items(r)[1:] == [
        {"type": "message", "role": "assistant", "content": "calling"},
        {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "r"},
    ]
    assert [(w.part_index, w.code) for w in r.warnings] == [
        (0, "thinking-foreign"),
        (1, "thinking-foreign"),
        (None, "item-id-dropped"),
        (3, "item-id-dropped"),
    ]
    # the same turn from the model being called keeps every id, beside its reasoning
    native = render([USER, turn, result], CallParams(model="o3", tools=[ToolSpec(name="f")]))
    assert [(i["type"], i.get("id")) for i in items(native)[1:]] == [
        ("reasoning", "rs_1"),
        ("message", "msg_1"),
        ("function_call", "fc_1"),
        ("function_call_output", None),
    ]
    assert native.warnings == []
    # a turn without any reasoning keeps its fc_ id (the recorded codex chain does this)
    bare = render([USER, assistant(turn.parts[3]), result])
    assert items(bare)[1]["id"] == "fc_1"


def test_results_in_call_order_and_dangling_call_answered() -> None:
    r = render(
        [
            USER,
            assistant(
                ToolCallPart(call_id="a", tool_name="f", arguments_json="{}"),
                ToolCallPart(call_id="b", tool_name="f", arguments_json="{}"),
                ToolCallPart(call_id="c", tool_name="f", arguments_json="{}"),
            ),
            ToolResultMessage(call_id="b", tool_name="f", status="success", output_text="B"),
            ToolResultMessage(call_id="a", tool_name="f", status="aborted", output_text="A"),
        ]
    )
    outputs = [(i["call_id"], i["output"]) for i in items(r) if i["type"] == "function_call_output"]
    assert outputs == [("a", "A"), ("b", "B"), ("c", SYNTHETIC_RESULT_TEXT)]
    assert sorted(codes(r)) == ["tool-result-missing", "tool-results-reordered", "tool-status-not-sent"]


def test_error_status_text_sent_unchanged_with_warning() -> None:
    r = render(
        [
            USER,
            assistant(ToolCallPart(call_id="c", tool_name="f", arguments_json="{}")),
            ToolResultMessage(call_id="c", tool_name="f", status="error", output_text="boom"),
        ]
    )
    assert items(r)[-1] == {"type": "function_call_output", "call_id": "c", "output": "boom"}
    assert [(w.message_index, w.code) for w in r.warnings] == [(2, "tool-status-not-sent")]


def test_tool_images_and_developer_parts_go_inside_the_output() -> None:
    r = render(
        [
            USER,
            assistant(ToolCallPart(call_id="c", tool_name="shot", arguments_json="{}")),
            ToolResultMessage(
                call_id="c",
                tool_name="shot",
                status="success",
                output_text="took a screenshot",
                parts=[ImageURLPart(url=PNG), ImageFilePart(file_path="/s.png")],
            ),
            DeveloperMessage(
                parts=[TextPart(text="reminder"), ImageURLPart(url="https://example.test/b.png")]
            ),
        ]
    )
    assert items(r)[-1] == {
        "type": "function_call_output",
        "call_id": "c",
        "output": [
            {"type": "input_text", "text": "took a screenshot"},
            {"type": "input_image", "image_url": PNG, "detail": "auto"},
            {"type": "input_text", "text": "reminder\n"},
            {"type": "input_image", "image_url": "https://example.test/b.png", "detail": "auto"},
        ],
    }
    assert codes(r) == ["image-file-not-inlined"]


def test_output_falls_back_to_string_when_only_tool_text_survives() -> None:
    r = render(
        [
            USER,
            assistant(ToolCallPart(call_id="c", tool_name="f", arguments_json="{}")),
            ToolResultMessage(
                call_id="c",
                tool_name="f",
                status="success",
                output_text="t",
                parts=[ImageFilePart(file_path="/s.png")],
            ),
        ]
    )
    assert items(r)[-1]["output"] == "t"


def test_developer_text_kept_when_tool_text_is_empty() -> None:
    r = render(
        [
            USER,
            assistant(ToolCallPart(call_id="c", tool_name="f", arguments_json="{}")),
            ToolResultMessage(call_id="c", tool_name="f", status="success", output_text=""),
            DeveloperMessage(parts=[TextPart(text="note")]),
        ]
    )
    assert items(r)[-1]["output"] == [{"type": "input_text", "text": "note\n"}]


# ---------------------------------------------------------------- real traffic


def test_matches_the_recorded_round_trip_request() -> None:
    """Shape of turn 2 of pydantic-ai's gpt-5.5 cassette (reasoning + message + call + output).

    One deliberate difference from the recording: ``logprobs: []`` (the spec requires it;
    the API accepts both). The message item's id and ``phase`` come from the text part.
    """
    history = [
        UserMessage(parts=[TextPart(text="What is the capital of PotatoLand?")]),
        AssistantMessage(
            parts=[
                ThinkingSignaturePart(
                    id="rs_0fab", signature="gAAAABqaR3", format="openai-responses", model_id=MODEL
                ),
                TextPart(
                    text='I\'ll check the capital lookup tool for "PotatoLand."',
                    item_id="msg_0fab",
                    phase="commentary",
                ),
                ToolCallPart(
                    call_id="call_LabG58Uhrq9kZvR52BYKjToD",
                    tool_name="get_capital",
                    arguments_json='{"country":"PotatoLand"}',
                    item_id="fc_0fab",
                ),
            ],
        ),
        ToolResultMessage(
            call_id="call_LabG58Uhrq9kZvR52BYKjToD",
            tool_name="get_capital",
            status="success",
            output_text="Potato City",
        ),
    ]
    params = CallParams(
        model=MODEL,
        system="Briefly narrate what you are about to do before calling each tool.",
        tools=[
            ToolSpec(
                name="get_capital",
                parameters={"type": "object", "properties": {"country": {"type": "string"}}},
            )
        ],
    )
    r = render(history, params)
    assert r.warnings == []
    assert items(r) == [
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": "What is the capital of PotatoLand?"}],
        },
        {"type": "reasoning", "id": "rs_0fab", "summary": [], "encrypted_content": "gAAAABqaR3"},
        {
            "type": "message",
            "role": "assistant",
            "id": "msg_0fab",
            "status": "completed",
            "content": [
                {
                    "type": "output_text",
                    "text": 'I\'ll check the capital lookup tool for "PotatoLand."',
                    "annotations": [],
                    "logprobs": [],
                }
            ],
            "phase": "commentary",
        },
        {
            "type": "function_call",
            "call_id": "call_LabG58Uhrq9kZvR52BYKjToD",
            "name": "get_capital",
            "arguments": '{"country":"PotatoLand"}',
            "id": "fc_0fab",
        },
        {"type": "function_call_output", "call_id": "call_LabG58Uhrq9kZvR52BYKjToD", "output": "Potato City"},
    ]
    assert r.body["instructions"] == params.system
    assert r.body["include"] == ["reasoning.encrypted_content"]


def test_a_history_with_nothing_to_send_gets_an_empty_user_message() -> None:
    # content "" is accepted beside instructions (docs/import-check-decisions.md#placeholder-turns).
    from harness.params import CallParams
    from harness.providers import get_adapter

    out = get_adapter("openai-responses").render([], CallParams(system="be brief"))
    assert out.body["input"] == [{"type": "message", "role": "user", "content": ""}]
    assert [w.code for w in out.warnings] == ["placeholder-user"]


# ---------------------------------------------------------------- generated images


def test_a_generated_image_goes_back_as_its_image_generation_call_by_id() -> None:
    """The image the image_generation tool made (an assistant file part with its ig_ item id, as
    the stream parser gives it) goes back as that item by id, in its place (recorded accepted:
    LangChain's test_image_generation_multi_turn#1); another assistant file is dropped, warned."""
    generated = FilePart(media_type="image/jpeg", data="/9j/4AAQ", id="ig_684db37c")
    other = FilePart(media_type="image/png", data="iVBORw0KGgo=")
    rendered = render(
        [
            USER,
            AssistantMessage(parts=[generated, TextPart(text="Here it is."), other]),
            UserMessage(parts=[TextPart(text="Now in blue.")]),
        ]
    )
    sent = items(rendered)
    assert sent[1] == {"type": "image_generation_call", "id": "ig_684db37c"}
    assert sent[2]["type"] == "message" and sent[2]["role"] == "assistant"
    assert codes(rendered) == ["assistant-image-dropped"]

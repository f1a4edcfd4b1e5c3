"""The Gemini input adapter: the mappings that are easy to get wrong, asserted on the body."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from harness.contract.rendered import Rendered, canonical_json
from harness.mapping.toolbox import PLACEHOLDER_USER_TEXT
from harness.model import (
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
from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.providers.gemini.request import ADAPTER, SKIP_SIGNATURE, endpoint_path
from harness.scenarios.dsl import assistant, call, result, user
from tests.support.adapters import codes

G3 = "gemini-3-pro-preview"
G25 = "gemini-2.5-flash"
PNG = "data:image/png;base64,iVBORw0KGgo="
PARIS = '{"city": "Paris"}'  # the get_weather arguments most tests call with


TOOLS = [ToolSpec(name="get_weather"), ToolSpec(name="get_country")]


def render(history: Sequence[HistoryEvent], **params: Any) -> Rendered:
    """Render with the tools the calls use (pass ``tools=None`` to test derivation)."""
    params.setdefault("tools", TOOLS)
    return ADAPTER.render(history, CallParams(**params))


def gsig(signature: str, model: str | None = None) -> ThinkingSignaturePart:
    return ThinkingSignaturePart(signature=signature, format="google", model_id=model)


# ---------------------------------------------------------------- request shape and params


def test_body_has_no_model_or_stream_and_system_is_one_part_per_entry() -> None:
    history = [SystemMessage(parts=[TextPart(text="Be brief.")]), user("hi")]
    out = render(history, model=G25, system="You are a bot.", max_tokens=256, temperature=0.5, tools=None)
    assert out.body == {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "systemInstruction": {"parts": [{"text": "You are a bot."}, {"text": "Be brief."}]},
        "generationConfig": {"maxOutputTokens": 256, "temperature": 0.5},
    }
    assert out.warnings == []


def test_no_system_means_no_system_instruction() -> None:
    body = render([user("hi")], tools=None).body
    assert set(body) == {"contents"}


def test_endpoint_path_carries_model_and_streaming() -> None:
    assert endpoint_path(CallParams(model=G3)) == f"models/{G3}:streamGenerateContent?alt=sse"
    assert endpoint_path(CallParams(model=f"models/{G3}", stream=False)) == f"models/{G3}:generateContent"
    assert endpoint_path(CallParams()) == "models/gemini-2.5-flash:streamGenerateContent?alt=sse"


def test_tools_use_parameters_json_schema_verbatim() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"city": {"type": "string", "minLength": 1}},
        "required": ["city"],
        "additionalProperties": False,
    }
    out = render(
        [user("hi")], tools=[ToolSpec(name="get_weather", description="Weather.", parameters=schema)]
    )
    assert out.body["tools"] == [
        {
            "functionDeclarations": [
                {"name": "get_weather", "description": "Weather.", "parametersJsonSchema": schema}
            ]
        }
    ]


def test_tools_are_derived_from_calls_when_none_given() -> None:
    out = render(
        [
            user("hi"),
            assistant(call("c1", "get_weather", PARIS)),
            result(call("c1", "get_weather"), "sunny"),
        ],
        tools=None,
    )
    [tool] = out.body["tools"]
    assert [d["name"] for d in tool["functionDeclarations"]] == ["get_weather"]
    assert "tools-derived" in codes(out)


@pytest.mark.parametrize(
    ("model", "thinking", "expected", "warning"),
    [
        (
            G3,
            ThinkingParams(effort="high", budget_tokens=2048),
            {"includeThoughts": True, "thinkingLevel": "HIGH"},
            None,
        ),
        (G3, ThinkingParams(budget_tokens=2048, include_thoughts=False), {"thinkingBudget": 2048}, None),
        (G25, ThinkingParams(budget_tokens=1024), {"includeThoughts": True, "thinkingBudget": 1024}, None),
        (G25, ThinkingParams(effort="low"), {"includeThoughts": True}, "thinking-effort-ignored"),
        (G25, ThinkingParams(enabled=False), {"thinkingBudget": 0}, None),
        ("gemini-2.5-pro", ThinkingParams(enabled=False), None, "thinking-cannot-disable"),
        (G3, ThinkingParams(enabled=False), None, "thinking-cannot-disable"),
        ("gemini-2.0-flash", ThinkingParams(budget_tokens=512), None, "thinking-unsupported"),
        (
            "gemini-flash-latest",
            ThinkingParams(effort="low"),
            {"includeThoughts": True, "thinkingLevel": "LOW"},
            None,
        ),
        (
            "gemini-pro-latest",
            ThinkingParams(effort="low", budget_tokens=64),
            {"includeThoughts": True, "thinkingBudget": 64},
            None,
        ),
    ],
)
def test_thinking_config_per_model_generation(
    model: str, thinking: ThinkingParams, expected: dict[str, Any] | None, warning: str | None
) -> None:
    out = render([user("hi")], model=model, thinking=thinking)
    assert out.body.get("generationConfig", {}).get("thinkingConfig") == expected
    assert codes(out) == ([warning] if warning else [])


# ---------------------------------------------------------------- tool calls and results


def test_function_call_roundtrip_matches_recorded_wire_shape() -> None:
    """The shape pydantic-ai sent to gemini-3-pro in the recorded round trip (ids, signature, response)."""
    history = [
        user("What is the capital of the user country? Call the tool"),
        assistant(call("pyd_ai_29bf", "get_country", "{}"), gsig("EpwICpk=", G3)),
        result(call("pyd_ai_29bf", "get_country"), "Mexico"),
    ]
    out = render(history, model=G3)
    assert out.body["contents"][1:] == [
        {
            "role": "model",
            "parts": [
                {
                    "functionCall": {"id": "pyd_ai_29bf", "name": "get_country", "args": {}},
                    "thoughtSignature": "EpwICpk=",
                }
            ],
        },
        {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "id": "pyd_ai_29bf",
                        "name": "get_country",
                        "response": {"output": "Mexico"},
                    }
                }
            ],
        },
    ]
    assert out.warnings == []


def test_results_of_one_turn_share_one_user_content_in_call_order_with_error_status() -> None:
    history = [
        user("go"),
        assistant(
            call("a", "get_weather", PARIS),
            call("b", "get_weather", PARIS),
            call("c", "get_weather", PARIS),
        ),
        result(call("c", "get_weather"), "cancelled", "aborted"),
        result(call("a", "get_weather"), "ok"),
        result(call("b", "get_weather"), "boom", "error"),
    ]
    out = render(history, model=G25)
    assert len(out.body["contents"]) == 3
    responses = [p["functionResponse"] for p in out.body["contents"][2]["parts"]]
    assert [(r["id"], r["response"]) for r in responses] == [
        ("a", {"output": "ok"}),
        ("b", {"error": "boom"}),
        ("c", {"error": "cancelled"}),
    ]
    assert "tool-results-reordered" in codes(out)


def test_dangling_call_gets_an_error_response() -> None:
    out = render([user("go"), assistant(call("a", "get_weather", PARIS)), user("never mind")], model=G25)
    last = out.body["contents"][-1]
    assert last["role"] == "user"
    assert last["parts"][0]["functionResponse"]["id"] == "a"
    assert "error" in last["parts"][0]["functionResponse"]["response"]
    assert last["parts"][1] == {"text": "never mind"}  # merged: Gemini alternates roles
    assert {"tool-result-missing", "roles-merged"} <= set(codes(out))


def test_call_ids_are_sent_verbatim_when_foreign_looking() -> None:
    out = render(
        [
            user("go"),
            assistant(call("functions.write_todos:0", "get_weather", PARIS)),
            result(call("functions.write_todos:0", "get_weather"), "sunny"),
        ]
    )
    assert out.body["contents"][1]["parts"][0]["functionCall"]["id"] == "functions.write_todos:0"
    assert out.body["contents"][2]["parts"][0]["functionResponse"]["id"] == "functions.write_todos:0"


def test_invalid_arguments_become_an_empty_object_with_a_warning() -> None:
    out = render(
        [
            user("go"),
            assistant(call("a", "get_weather", "[1, 2]")),
            result(call("a", "get_weather"), "sunny"),
        ],
        model=G25,
    )
    assert out.body["contents"][1]["parts"][0]["functionCall"]["args"] == {}
    assert "tool-arguments-invalid" in codes(out)


def test_tool_images_and_developer_parts_follow_the_function_responses() -> None:
    history = [
        user("go"),
        assistant(call("a", "get_weather", PARIS), call("b", "get_weather", PARIS)),
        result(call("a", "get_weather"), "sunny", images=[ImageURLPart(url=PNG)]),
        DeveloperMessage(parts=[TextPart(text="reminder A")]),
        result(call("b", "get_weather"), "sunny"),
        DeveloperMessage(parts=[TextPart(text="reminder B")]),
    ]
    out = render(history, model=G25)
    # Media never shares a content with function responses (import-check gemini-tool-result-media):
    # the image goes in a user content of its own, right after; the developer texts stay with them.
    responses, media = out.body["contents"][2:]
    assert [next(iter(p)) for p in responses["parts"]] == [
        "functionResponse",
        "functionResponse",
        "text",
        "text",
    ]
    assert responses["parts"][2:] == [{"text": "reminder A\n"}, {"text": "reminder B\n"}]
    assert media["role"] == "user"
    assert [next(iter(p)) for p in media["parts"]] == ["inlineData"]
    assert {"tool-image-moved", "tool-attachment-moved"} <= set(codes(out))


def test_text_after_function_responses_joins_them_media_stays_apart() -> None:
    tail = [user("go"), assistant(call("a", "get_weather", PARIS)), result(call("a", "get_weather"), "sunny")]
    text_only = render([*tail, DeveloperMessage(parts=[TextPart(text="note")])], model=G25)
    assert [next(iter(p)) for p in text_only.body["contents"][2]["parts"]] == ["functionResponse", "text"]
    assert len(text_only.body["contents"]) == 3
    with_image = render([*tail, user(TextPart(text="see"), ImageURLPart(url=PNG))], model=G25)
    assert [c["role"] for c in with_image.body["contents"]] == ["user", "model", "user", "user"]
    assert [next(iter(p)) for p in with_image.body["contents"][3]["parts"]] == ["text", "inlineData"]
    assert "roles-merged" not in codes(with_image)


# ---------------------------------------------------------------- thought signatures


def test_signature_belongs_to_the_part_right_before_it() -> None:
    history = [
        user("hi"),
        assistant(
            ThinkingTextPart(text="Let me think."),
            gsig("sigT"),
            TextPart(text="Answer."),
            gsig("sigA"),
            call("a", "get_weather", PARIS),
            gsig("sigC"),
        ),
        result(call("a", "get_weather"), "sunny"),
    ]
    out = render(history, model=G25)
    assert out.body["contents"][1]["parts"] == [
        {"text": "Let me think.", "thought": True, "thoughtSignature": "sigT"},
        {"text": "Answer.", "thoughtSignature": "sigA"},
        {
            "functionCall": {"id": "a", "name": "get_weather", "args": {"city": "Paris"}},
            "thoughtSignature": "sigC",
        },
    ]
    assert out.warnings == []


def test_unsigned_and_foreign_thinking_is_dropped_never_sent_as_text() -> None:
    history = [
        user("hi"),
        assistant(
            ThinkingTextPart(text="unsigned"),
            ThinkingTextPart(text="claude thoughts"),
            ThinkingSignaturePart(signature="anth", format="anthropic"),
            TextPart(text="Answer."),
            gsig("other-model", "gemini-2.5-pro"),
        ),
    ]
    out = render(history, model=G25)
    assert out.body["contents"][1]["parts"] == [{"text": "Answer."}]
    assert [(w.part_index, w.code) for w in out.warnings] == [
        (0, "thinking-unsigned"),
        (1, "thinking-foreign"),
        (2, "thinking-foreign"),
        (4, "thinking-foreign"),
    ]


def test_signature_without_a_carrier_is_dropped_with_a_warning() -> None:
    history = [
        user("hi"),
        assistant(gsig("Zmlyc3Q="), TextPart(text=""), gsig("YWZ0ZXI="), TextPart(text="ok")),
    ]
    out = render(history, model=G25)
    assert out.body["contents"][1]["parts"] == [{"text": "ok"}]
    assert [(w.part_index, w.code) for w in out.warnings] == [
        (1, "empty-text"),
        (0, "thinking-signature-unpaired"),
        (2, "thinking-signature-unpaired"),
    ]


def test_gemini3_unsigned_first_call_of_every_step_gets_the_documented_sentinel() -> None:
    # Earlier turns get it too, so appending a turn never changes earlier contents (I9).
    history = [
        user("earlier"),
        assistant(
            call("old", "get_weather", PARIS)
        ),  # previous turn: not validated by Gemini, sentinel kept for prefix stability
        result(call("old", "get_weather"), "sunny"),
        assistant(TextPart(text="done")),
        user("now"),
        assistant(
            call("p1", "get_weather", PARIS), call("p2", "get_weather", PARIS)
        ),  # current turn, parallel calls: only the first is validated
        result(call("p1", "get_weather"), "sunny"),
        result(call("p2", "get_weather"), "sunny"),
        assistant(call("s1", "get_weather", PARIS), gsig("real")),  # current turn, natively signed: untouched
        result(call("s1", "get_weather"), "sunny"),
    ]
    out = render(history, model=G3)
    contents = out.body["contents"]
    assert contents[1]["parts"][0]["thoughtSignature"] == SKIP_SIGNATURE
    assert contents[5]["parts"][0]["thoughtSignature"] == SKIP_SIGNATURE
    assert "thoughtSignature" not in contents[5]["parts"][1]
    assert contents[7]["parts"][0]["thoughtSignature"] == "real"
    dummies = [w for w in out.warnings if w.code == "thought-signature-dummy"]
    assert [(w.message_index, w.part_index) for w in dummies] == [(1, 0), (5, 0)]


def test_a_google_signature_that_is_not_base64_is_dropped() -> None:
    # Finding F4 of the invariants: both oracles reject it (thoughtSignature is bytes).
    out = render([user("go"), assistant(TextPart(text="a"), gsig("=DD6/4A4=CA"))], model=G25)
    assert "thoughtSignature" not in out.body["contents"][1]["parts"][0]
    assert codes(out) == ["signature-invalid"]


def test_foreign_signature_on_a_gemini3_call_is_replaced_by_the_sentinel() -> None:
    history = [
        user("go"),
        assistant(call("a", "get_weather", PARIS), gsig("from-2.5", "gemini-2.5-pro")),
        result(call("a", "get_weather"), "sunny"),
    ]
    out = render(history, model=G3)
    assert out.body["contents"][1]["parts"][0]["thoughtSignature"] == SKIP_SIGNATURE
    assert codes(out) == ["thinking-foreign", "thought-signature-dummy"]


def test_no_sentinel_for_gemini_25() -> None:
    out = render(
        [
            user("go"),
            assistant(call("a", "get_weather", PARIS)),
            result(call("a", "get_weather"), "sunny"),
        ],
        model=G25,
    )
    assert "thoughtSignature" not in out.body["contents"][1]["parts"][0]


# ---------------------------------------------------------------- images, developer, alternation


def test_images_map_to_inline_and_file_data() -> None:
    history = [
        UserMessage(
            parts=[
                ImageURLPart(url=PNG),
                ImageURLPart(url="https://example.com/cat.JPG?size=2"),
                ImageURLPart(url="https://example.com/render"),
                ImageURLPart(url="ftp://example.com/a.png"),
                ImageFilePart(file_path="/tmp/a.png"),
            ]
        )
    ]
    out = render(history)
    assert out.body["contents"][0]["parts"] == [
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
        {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/cat.JPG?size=2"}},
        {"fileData": {"fileUri": "https://example.com/render"}},
    ]
    assert [(w.part_index, w.code) for w in out.warnings] == [
        (2, "image-mime-unknown"),
        (3, "image-url-unsupported"),
        (4, "image-file-not-inlined"),
    ]


def test_images_in_model_turns_are_sent_natively() -> None:
    out = render([user("draw"), assistant(ImageURLPart(url=PNG), gsig("img-sig"))], model=G25)
    assert out.body["contents"][1]["parts"] == [
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}, "thoughtSignature": "img-sig"}
    ]


def test_developer_text_joins_the_user_turn_and_consecutive_users_merge() -> None:
    history = [
        user("one"),
        DeveloperMessage(parts=[TextPart(text="dev")], ui_extra={"x": 1}),
        assistant(TextPart(text="reply")),
        assistant(TextPart(text="more")),
        user("two"),
    ]
    out = render(history, model=G25)
    assert out.body["contents"] == [
        {"role": "user", "parts": [{"text": "one"}, {"text": "dev\n"}]},
        {"role": "model", "parts": [{"text": "reply"}, {"text": "more"}]},
        {"role": "user", "parts": [{"text": "two"}]},
    ]
    assert codes(out) == ["roles-merged"]


def test_assistant_left_without_parts_is_not_sent_empty() -> None:
    out = render([user("a"), assistant(ThinkingTextPart(text="unsigned")), user("b")], model=G25)
    assert out.body["contents"] == [{"role": "user", "parts": [{"text": "a"}, {"text": "b"}]}]
    assert codes(out) == ["thinking-unsigned", "empty-message", "roles-merged"]


def test_render_is_deterministic() -> None:
    history = [
        user("go"),
        assistant(
            ThinkingTextPart(text="t"),
            gsig("c2ln"),
            call("a", "get_weather", PARIS),
            call("b", "get_weather", PARIS),
        ),
        result(call("b", "get_weather"), "sunny"),
        result(call("a", "get_weather"), "sunny"),
    ]
    params = {"model": G3, "thinking": ThinkingParams(effort="low"), "max_tokens": 100}
    assert canonical_json(render(history, **params).body) == canonical_json(render(history, **params).body)


def test_function_response_uses_the_call_name() -> None:
    out = render(
        [
            user("go"),
            assistant(call("a", "get_weather", PARIS)),
            result(call("a", "weather"), "sunny"),
        ],
        model=G25,
    )
    assert out.body["contents"][2]["parts"][0]["functionResponse"]["name"] == "get_weather"
    assert codes(out) == ["tool-name-mismatch"]


def test_empty_history_still_sends_a_user_content() -> None:
    # Gemini rejects a request without contents: a placeholder is sent, warned.
    out = render([], tools=None)
    assert out.body == {"contents": [{"role": "user", "parts": [{"text": PLACEHOLDER_USER_TEXT}]}]}
    assert codes(out) == ["placeholder-user"]


def test_history_trimmed_to_a_model_turn_opens_with_a_placeholder_user_content() -> None:
    # Scenario tool_result_orphan_after_trim: the orphan result is dropped, which left the
    # model's answer first; Gemini (and Google's SDKs) want contents to open with a user turn.
    history = [
        result(call("gone", "get_weather"), "sunny"),
        assistant(TextPart(text="Three call sites.")),
        user("Fix them."),
    ]
    out = render(history, model=G25)
    assert out.body["contents"] == [
        {"role": "user", "parts": [{"text": PLACEHOLDER_USER_TEXT}]},
        {"role": "model", "parts": [{"text": "Three call sites."}]},
        {"role": "user", "parts": [{"text": "Fix them."}]},
    ]
    assert codes(out) == ["tool-result-orphan", "placeholder-user"]


def test_leading_model_function_call_gets_a_user_content_before_it() -> None:
    # "function call turn comes immediately after a user turn or after a function response turn"
    out = render(
        [assistant(call("a", "get_weather", PARIS)), result(call("a", "get_weather"), "sunny")],
        model=G3,
    )
    contents = out.body["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user"]
    assert contents[1]["parts"][0]["thoughtSignature"] == SKIP_SIGNATURE


def test_empty_signature_is_unsigned_not_foreign() -> None:
    # Field lesson 2 (scenario thinking_interrupted_empty_signature): the thinking is dropped
    # because its signature never arrived, which is not another provider's signature.
    history = [
        user("plan"),
        assistant(ThinkingTextPart(text="half a thought"), gsig("", G25)),
        user("go on"),
    ]
    out = render(history, model=G25)
    assert out.body["contents"] == [{"role": "user", "parts": [{"text": "plan"}, {"text": "go on"}]}]
    assert [(w.part_index, w.code) for w in out.warnings] == [
        (0, "thinking-unsigned"),
        (1, "thinking-unsigned"),
        (None, "empty-message"),
        (None, "roles-merged"),
    ]
    assert all("empty" in w.reason for w in out.warnings[:2])

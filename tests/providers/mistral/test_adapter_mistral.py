"""Mistral's input adapter: a history with another provider's tool call ids renders with valid,
consistently renumbered ids (9 characters from [a-zA-Z0-9]), judged by the rule and the SDK oracle."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from harness.mapping.dialects import AlnumIdPolicy
from harness.model import TextPart, UserMessage
from harness.oracles import validate
from harness.params import CallParams
from harness.providers import get_adapter
from harness.rules import check_body
from harness.scenarios.dsl import assistant, call, result

_MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")


def test_foreign_ids_are_renumbered_consistently_in_call_and_result() -> None:
    foreign = ["toolu_01ABCdefGHIjklMNOpqr", "call_AB6AaRZ1FYZB2RwS6A5vbdqn", "fc_311ba17b-89f9", "rHU0eZiMa"]
    history = [UserMessage(parts=[TextPart(text="go")])]
    for cid in foreign:
        read = call(cid, "read")
        history += [assistant(read), result(read, "ok")]
    history.append(UserMessage(parts=[TextPart(text="thanks")]))
    rendered = get_adapter("mistral").render(history, CallParams(stream=False))
    messages = rendered.body["messages"]
    calls = [m["tool_calls"][0]["id"] for m in messages if m["role"] == "assistant"]
    results = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert calls == results
    assert all(_MISTRAL_ID.fullmatch(i) for i in calls)
    assert len(set(calls)) == len(calls)
    assert calls[3] == "rHU0eZiMa"  # a valid Mistral id is kept verbatim
    assert [m["name"] for m in messages if m["role"] == "tool"] == ["read"] * 4
    mapped = [w for w in rendered.warnings if w.code == "tool-id-mapped"]
    assert len(mapped) == 3
    assert check_body("mistral", rendered.body) == []
    assert validate("mistral", rendered.body).ok
    # the same history renders the same ids again (a loop's next request keeps its prefix)
    again = get_adapter("mistral").render(history, CallParams(stream=False))
    assert again.body == rendered.body


def test_tool_choice_required_is_any_and_max_tokens_is_mistrals_field() -> None:
    from harness.params import ToolSpec

    params = CallParams(
        tools=[ToolSpec(name="read", parameters={"type": "object"})], tool_choice="required", max_tokens=32
    )
    body = get_adapter("mistral").render([UserMessage(parts=[TextPart(text="go")])], params).body
    assert body["tool_choice"] == "any" and body["max_tokens"] == 32 and "max_completion_tokens" not in body
    assert validate("mistral", body).ok


@given(st.text(min_size=0, max_size=60))
def test_the_id_policy_always_gives_a_valid_id_and_keeps_valid_ones(call_id: str) -> None:
    policy = AlnumIdPolicy(length=9)
    sent = policy.map(call_id)
    assert _MISTRAL_ID.fullmatch(sent)
    assert (sent == call_id) == bool(_MISTRAL_ID.fullmatch(call_id))
    assert policy.map(call_id) == sent


def test_an_id_that_maps_onto_another_call_of_the_same_response_is_renumbered() -> None:
    foreign = "toolu_01ABCdefGHIjklMNOpqr"
    taken = AlnumIdPolicy(length=9).map(foreign)  # a valid id another call of the response already has
    first, second = call(taken, "read"), call(foreign, "read")
    history = [
        UserMessage(parts=[TextPart(text="go")]),
        assistant(first, second),
        result(first, "ok"),
        result(second, "ok"),
    ]
    rendered = get_adapter("mistral").render(history, CallParams(stream=False))
    messages = rendered.body["messages"]
    calls = [c["id"] for m in messages if m["role"] == "assistant" for c in m["tool_calls"]]
    results = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert calls == results and calls[0] == taken
    assert len(set(calls)) == 2 and all(_MISTRAL_ID.fullmatch(i) for i in calls)
    assert [w.code for w in rendered.warnings if w.code == "tool-id-renumbered"] == ["tool-id-renumbered"]
    assert validate("mistral", rendered.body).ok

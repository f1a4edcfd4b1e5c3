"""Request-side invariants (I1, I2, I4, I7, I8, I12, I13, I14): they hold for every provider, and they can fail.

Each holds over generated agent loops and arbitrary valid histories (``test_invariants_generated``:
one drawn history judged by every invariant), over adversarial histories and over the
scenario corpus (known reference findings aside, see ``tests.support.invariants.KNOWN_FINDINGS``);
each is then shown to report a violation when a deliberately broken target breaks it.
"""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness import strategies
from harness.contract.providers import CHAT_DIALECTS
from harness.invariants import Violation, run_invariants
from harness.invariants.base import as_dict, as_list, dicts
from harness.invariants.wire import tool_turns, wire_messages
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    FilePart,
    HistoryEvent,
    ImageURLPart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from harness.params import CallParams
from harness.providers import PROVIDERS
from harness.scenarios import load_scenarios
from harness.scenarios.dsl import call, result, user
from harness.targets import Target
from tests.support.invariants import REFERENCE, Mutant, assert_holds, assert_holds_everywhere

REQUEST = ("I1", "I2", "I4", "I7", "I8", "I12", "I13", "I14")
SCENARIOS = sorted(load_scenarios())
ANY_MODEL = st.sampled_from([None, "claude-sonnet-4-5", "gpt-5", "gemini-3-pro-preview", "o3"])


@given(history=strategies.adversarial_histories(), model=ANY_MODEL)
def test_hold_on_adversarial_histories(history: list[HistoryEvent], model: str | None) -> None:
    assert_holds_everywhere(history, CallParams(model=model), PROVIDERS, REQUEST)


@pytest.mark.parametrize("name", SCENARIOS)
def test_hold_on_the_corpus(name: str) -> None:
    scenario = load_scenarios()[name]
    for provider in PROVIDERS:
        assert_holds(scenario.history, scenario.params, provider, REQUEST)


# ---------------------------------------------------------------- mutation helpers


def found(
    history: list[HistoryEvent], params: CallParams, provider: str, invariant: str, target: Target
) -> list[Violation]:
    return run_invariants(
        history, params, target=target, providers=[provider], invariants=[invariant]
    ).violations


def assert_caught(
    history: list[HistoryEvent],
    params: CallParams,
    provider: str,
    invariant: str,
    mutant: Target,
    fragment: str,
) -> None:
    """The reference passes this history; the mutant is reported, with a reason naming what broke."""
    assert found(history, params, provider, invariant, REFERENCE) == []
    violations = found(history, params, provider, invariant, mutant)
    assert violations, f"{invariant} did not notice the mutation"
    assert all(v.invariant == invariant for v in violations)
    assert any(fragment in v.reason for v in violations), [str(v) for v in violations]
    assert all(v.example for v in violations if v.message_index is not None)


def turn(*parts: Any) -> AssistantMessage:
    calls = any(isinstance(p, ToolCallPart) for p in parts)
    return AssistantMessage(
        parts=list(parts),
        usage=Usage(input_tokens=10, output_tokens=5),
        stop_reason="tool_use" if calls else "stop",
    )


PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"
AGENT_LOOP: list[HistoryEvent] = [
    user("Fix the failing test in parser.py please", ImageURLPart(url=PNG)),
    DeveloperMessage(
        parts=[TextPart(text="Reminder: keep the public API unchanged")],
        command_output="UI-ONLY: $ git status -> clean working tree",
        at_files=["ui/only/attached_file.py"],
    ),
    turn(
        TextPart(text="Let me look at both files."),
        call("call_a", "read", '{"path": "call_a.py"}'),
        call("call_b", "read", '{"path": "call_b.py"}'),
    ),
    result(call("call_a", "read"), "contents of call_a.py: def parse(): ..."),
    result(call("call_b", "read"), "contents of call_b.py: import parse"),
    DeveloperMessage(parts=[TextPart(text="Reminder: the tests live in tests/test_parser.py")]),
    turn(TextPart(text="The bug is in parse(); here is the fix.")),
    user("Thanks, now run the tests"),
]


def _remove_developers(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [e for e in history if not isinstance(e, DeveloperMessage)]


def _developer_first(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Moves each developer message before the message it should be appended to."""
    out = list(history)
    for n in range(1, len(out)):
        if isinstance(out[n], DeveloperMessage) and isinstance(out[n - 1], UserMessage):
            out[n - 1], out[n] = out[n], out[n - 1]
    return out


def _leak_ui_fields(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [
        e.model_copy(update={"parts": [*e.parts, TextPart(text=e.command_output)]})
        if isinstance(e, DeveloperMessage) and e.command_output
        else e
        for e in history
    ]


# ---------------------------------------------------------------- I1 developer-degradation


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i1_catches_dropped_developer_parts(provider: str) -> None:
    mutant = Mutant(history=_remove_developers)
    assert_caught(AGENT_LOOP, CallParams(), provider, "I1", mutant, "is in no string of the request")
    assert {v.kind for v in found(AGENT_LOOP, CallParams(), provider, "I1", mutant)} == {"degrade"}


_REMINDER = "Reminder: keep the public API unchanged"


def _strip_reminder_newline(_provider: str, body: dict[str, Any]) -> None:
    """The developer text sent without the trailing newline the design appends."""

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(_REMINDER + "\n", _REMINDER)
        if isinstance(value, list):
            return [walk(v) for v in cast(list[Any], value)]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in cast(dict[str, Any], value).items()}
        return value

    body.update(walk(body))


def _reminder_as_system_block(provider: str, body: dict[str, Any]) -> None:
    """The developer text moved out of the user message into a system block of its own."""
    _strip_reminder_newline(provider, body)
    for message in cast(list[dict[str, Any]], body["messages"]):
        content: Any = message["content"]
        for block in cast(list[dict[str, Any]], content if isinstance(content, list) else []):
            if block.get("type") == "text":
                block["text"] = str(block["text"]).replace(_REMINDER, "")
    if provider == "anthropic":
        body["system"] = [{"type": "text", "text": _REMINDER}]
    else:
        body["messages"].insert(0, {"role": "system", "content": _REMINDER})


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i1_text_without_its_trailing_newline_is_policy_and_says_so(provider: str) -> None:
    violations = found(AGENT_LOOP, CallParams(), provider, "I1", Mutant(body=_strip_reminder_newline))
    assert violations, "I1 did not notice the missing newline"
    assert all(v.kind == "policy" for v in violations), violations
    assert any("without the trailing newline" in v.reason for v in violations), violations
    assert not any("no string" in v.reason for v in violations), violations


@pytest.mark.parametrize("provider", ["anthropic", "openai-chat"])
def test_i1_text_as_its_own_system_block_is_policy_and_says_so(provider: str) -> None:
    violations = found(AGENT_LOOP, CallParams(), provider, "I1", Mutant(body=_reminder_as_system_block))
    assert violations, "I1 did not notice the moved text"
    assert all(v.kind == "policy" for v in violations), violations
    assert any("system block of its own" in v.reason for v in violations), violations


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i1_catches_developer_text_in_the_wrong_place(provider: str) -> None:
    mutant = Mutant(history=_developer_first)
    violations = found(AGENT_LOOP, CallParams(), provider, "I1", mutant)
    assert any("comes before" in v.reason or "is not inside" in v.reason for v in violations), violations


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i1_catches_ui_only_fields_sent(provider: str) -> None:
    assert_caught(AGENT_LOOP, CallParams(), provider, "I1", Mutant(history=_leak_ui_fields), "UI-only")


# ---------------------------------------------------------------- I2 thinking-pairing

THINKING: dict[str, tuple[str, list[Any]]] = {
    "anthropic": (
        "claude-sonnet-4-5",
        [
            ThinkingTextPart(text="First I consider the parser.", model_id="claude-sonnet-4-5"),
            ThinkingSignaturePart(
                signature="EqsBSigOneAnthropic", model_id="claude-sonnet-4-5", format="anthropic"
            ),
            ThinkingTextPart(text="Then I consider the tests.", model_id="claude-sonnet-4-5"),
            ThinkingSignaturePart(
                signature="EqsBSigTwoAnthropic", model_id="claude-sonnet-4-5", format="anthropic"
            ),
        ],
    ),
    "openai-responses": (
        "gpt-5",
        [
            ThinkingTextPart(id="rs_one", text="First I consider the parser.", model_id="gpt-5"),
            ThinkingSignaturePart(
                id="rs_one", signature="gAAAAencryptedOne", model_id="gpt-5", format="openai-responses"
            ),
            ThinkingTextPart(id="rs_two", text="Then I consider the tests.", model_id="gpt-5"),
            ThinkingSignaturePart(
                id="rs_two", signature="gAAAAencryptedTwo", model_id="gpt-5", format="openai-responses"
            ),
        ],
    ),
    "gemini": (
        "gemini-2.5-flash",
        [
            ThinkingTextPart(text="First I consider the parser.", model_id="gemini-2.5-flash"),
            ThinkingSignaturePart(signature="Z2VtaW5pLW9uZQ==", model_id="gemini-2.5-flash", format="google"),
            ThinkingTextPart(text="Then I consider the tests.", model_id="gemini-2.5-flash"),
            ThinkingSignaturePart(signature="Z2VtaW5pLXR3bw==", model_id="gemini-2.5-flash", format="google"),
        ],
    ),
    "openrouter": (
        "anthropic/claude-sonnet-4.5",
        [
            ThinkingTextPart(text="First I consider the parser.", model_id="anthropic/claude-sonnet-4.5"),
            ThinkingSignaturePart(
                signature="EqsBSigOneRouter",
                model_id="anthropic/claude-sonnet-4.5",
                format="anthropic-claude-v1",
            ),
            ThinkingTextPart(text="Then I consider the tests.", model_id="anthropic/claude-sonnet-4.5"),
            ThinkingSignaturePart(
                signature="EqsBSigTwoRouter",
                model_id="anthropic/claude-sonnet-4.5",
                format="anthropic-claude-v1",
            ),
        ],
    ),
}
FOREIGN = [
    ThinkingTextPart(
        id="rs_foreign", text="Foreign reasoning that must never be re-sent", model_id="other-model-x"
    ),
    ThinkingSignaturePart(
        id="rs_foreign",
        signature="ForeignSignatureFromAnotherProvider",
        model_id="other-model-x",
        format="xai-foreign",
    ),
]
SIGNATURE_KEYS = ("signature", "encrypted_content", "thoughtSignature")


def thinking_history(provider: str) -> tuple[list[HistoryEvent], CallParams]:
    model, parts = THINKING[provider]
    history: list[HistoryEvent] = [
        user("Why does the parser fail?"),
        turn(
            *FOREIGN,
            *parts,
            TextPart(text="It fails on empty input."),
            call("call_t", "read", '{"path": "call_t.py"}'),
        ),
        result(call("call_t", "read"), "test output: 1 failed"),
    ]
    return history, CallParams(model=model)


def _strip_signatures(_provider: str, body: dict[str, Any]) -> None:
    for d in dicts(body):
        for key in SIGNATURE_KEYS:
            if key in d:
                d[key] = ""
        if d.get("type") in ("redacted_thinking", "reasoning.encrypted"):
            d["data"] = ""


def _foreign_as_native(provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Relabels every signature as the provider's own: the foreign one goes out as native."""
    model, parts = THINKING[provider]
    native = next(p.format for p in parts if isinstance(p, ThinkingSignaturePart))
    out: list[HistoryEvent] = []
    for event in history:
        if isinstance(event, AssistantMessage):
            relabelled = [
                p.model_copy(update={"format": native, "model_id": model})
                if isinstance(p, ThinkingSignaturePart | ThinkingTextPart)
                else p
                for p in event.parts
            ]
            event = event.model_copy(update={"parts": relabelled})
        out.append(event)
    return out


def _thinking_as_text(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Field lesson 1: foreign thinking re-sent as literal ``<thinking>`` text."""
    out: list[HistoryEvent] = []
    for event in history:
        if isinstance(event, AssistantMessage):
            parts = [
                TextPart(text=f"<thinking>{p.text}</thinking>")
                if isinstance(p, ThinkingTextPart) and p.model_id == "other-model-x"
                else p
                for p in event.parts
            ]
            event = event.model_copy(update={"parts": parts})
        out.append(event)
    return out


def _swap_thinking_texts(_provider: str, body: dict[str, Any]) -> None:
    blocks = [d for d in dicts(body) if d.get("type") == "thinking"]
    blocks[0]["thinking"], blocks[1]["thinking"] = blocks[1]["thinking"], blocks[0]["thinking"]


@pytest.mark.parametrize("provider", sorted(THINKING))
def test_i2_catches_a_stripped_signature(provider: str) -> None:
    history, params = thinking_history(provider)
    assert_caught(
        history, params, provider, "I2", Mutant(body=_strip_signatures), "empty or missing signature"
    )


@pytest.mark.parametrize("provider", sorted(THINKING))
def test_i2_catches_a_foreign_signature_sent_as_native(provider: str) -> None:
    history, params = thinking_history(provider)
    assert_caught(
        history, params, provider, "I2", Mutant(history=_foreign_as_native), "not a native signature"
    )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i2_catches_foreign_thinking_resent_as_text(provider: str) -> None:
    history, params = thinking_history(provider) if provider in THINKING else thinking_history("anthropic")
    assert_caught(
        history, params, provider, "I2", Mutant(history=_thinking_as_text), "appears in the request"
    )


def test_i2_catches_a_signature_paired_with_the_wrong_text() -> None:
    history, params = thinking_history("anthropic")
    assert_caught(
        history, params, "anthropic", "I2", Mutant(body=_swap_thinking_texts), "not sent as one native unit"
    )


# ---------------------------------------------------------------- I4 tool-result-text


def _echo_tool_text(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Repeats each tool's output as a separate user text (the flattening seed 004 forbids)."""
    out: list[HistoryEvent] = []
    for event in history:
        out.append(event)
        if isinstance(event, ToolResultMessage):
            out.append(UserMessage(parts=[TextPart(text=event.output_text)]))
    return out


def _rewrite_tool_text(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [
        e.model_copy(update={"output_text": f"[tool output] {e.output_text}"})
        if isinstance(e, ToolResultMessage)
        else e
        for e in history
    ]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i4_catches_tool_text_repeated_as_user_text(provider: str) -> None:
    mutant = Mutant(history=_echo_tool_text)
    violations = found(AGENT_LOOP, CallParams(), provider, "I4", mutant)
    assert any("appears 2 times" in v.reason or "is not output_text" in v.reason for v in violations), (
        violations
    )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i4_catches_a_result_text_that_is_not_output_text(provider: str) -> None:
    assert_caught(
        AGENT_LOOP, CallParams(), provider, "I4", Mutant(history=_rewrite_tool_text), "is not output_text"
    )


#: Two calls that share an id, answered by one result whose text the user also said (hypothesis's
#: adversarial histories found it): an adapter that keeps both calls answers each with the result.
DUPLICATE_CALL_IDS: list[HistoryEvent] = [
    user("0"),
    turn(call("toolu_01", "read", "{}"), call("toolu_01", "read", "{}")),
    ToolResultMessage(call_id="toolu_01", tool_name="read", status="success", output_text="0"),
    turn(TextPart(text="0")),
    user("Thanks"),
]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i4_counts_the_result_once_per_call_that_shares_its_id(provider: str) -> None:
    """Gemini keeps both calls and sends the result for each: the text twice is not a repeat."""
    assert found(DUPLICATE_CALL_IDS, CallParams(), provider, "I4", REFERENCE) == []


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i4_still_catches_an_echo_beside_calls_that_share_an_id(provider: str) -> None:
    mutant = Mutant(history=_echo_tool_text)
    violations = found(DUPLICATE_CALL_IDS, CallParams(), provider, "I4", mutant)
    assert any("times in the request" in v.reason for v in violations), violations


# ---------------------------------------------------------------- I7 tool-pairing

_RESULT_ID_KEY = {
    "anthropic": "tool_use_id",
    "openai-chat": "tool_call_id",
    "openrouter": "tool_call_id",
    "openai-responses": "call_id",
    "gemini": "id",
    "bedrock": "toolUseId",
    **dict.fromkeys(CHAT_DIALECTS, "tool_call_id"),
    "cohere": "tool_call_id",
}


def _swap_result_ids(provider: str, body: dict[str, Any]) -> None:
    """Answers the calls in the wrong order (the ids of the first two results swapped)."""
    turns, _ = tool_turns(provider, body)
    first, second = next(t.results[:2] for t in turns if len(t.results) >= 2)
    key = _RESULT_ID_KEY[provider]
    first.unit[key], second.unit[key] = second.unit[key], first.unit[key]


def _rename_first_call(provider: str, body: dict[str, Any]) -> None:
    """Sends the first tool call under another id than the one its result answers."""
    for item in wire_messages(provider, body):
        if provider == "anthropic":
            units = [d for d in as_list(item.get("content")) if (as_dict(d) or {}).get("type") == "tool_use"]
            key = "id"
        elif provider in ("openai-chat", "openrouter", *CHAT_DIALECTS, "cohere"):
            units, key = as_list(item.get("tool_calls")), "id"
        elif provider == "openai-responses":
            units, key = ([item] if item.get("type") == "function_call" else []), "call_id"
        elif provider == "bedrock":
            units = [d["toolUse"] for d in as_list(item.get("content")) if "toolUse" in (as_dict(d) or {})]
            key = "toolUseId"
        else:
            units = [
                p["functionCall"] for p in as_list(item.get("parts")) if "functionCall" in (as_dict(p) or {})
            ]
            key = "id"
        if units:
            units[0][key] = "renamed_call_id"
            return


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i7_catches_results_out_of_call_order(provider: str) -> None:
    assert_caught(
        AGENT_LOOP, CallParams(), provider, "I7", Mutant(body=_swap_result_ids), "not in call order"
    )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i7_catches_a_changed_call_id(provider: str) -> None:
    violations = found(AGENT_LOOP, CallParams(), provider, "I7", Mutant(body=_rename_first_call))
    reasons = " / ".join(v.reason for v in violations)
    if provider == "mistral":  # every id of the loop is mapped (warned): the renamed call orphans its result
        assert "answers no call" in reasons and "is not sent and no warning names it" in reasons
        return
    assert "has 0 results" in reasons and "answers no call" in reasons and "not sent verbatim" in reasons


# ---------------------------------------------------------------- I8 provider-shape


def _inject_null(provider: str, body: dict[str, Any]) -> None:
    wire_messages(provider, body)[0]["name"] = None


def _second_system(provider: str, body: dict[str, Any]) -> None:
    messages = body["messages"] if provider != "openai-responses" else body["input"]
    messages.append({"role": "system", "content": "a second system prompt"})


def _empty_text_block(provider: str, body: dict[str, Any]) -> None:
    first = wire_messages(provider, body)[0]
    block: dict[str, Any] = {"text": ""} if provider == "gemini" else {"type": "text", "text": ""}
    if provider == "openai-responses":
        block["type"] = "input_text"
    key = "parts" if provider == "gemini" else "content"
    if isinstance(first[key], str):
        first[key] = [{"type": "text", "text": first[key]}]
    first[key].append(block)


def _split_user_message(provider: str, body: dict[str, Any]) -> None:
    messages = wire_messages(provider, body)
    key = LIST_KEYS[provider]
    body[key] = [messages[0], json.loads(json.dumps(messages[0])), *messages[1:]]


LIST_KEYS = {"anthropic": "messages", "gemini": "contents"}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i8_catches_an_explicit_null(provider: str) -> None:
    assert_caught(AGENT_LOOP, CallParams(), provider, "I8", Mutant(body=_inject_null), "explicit null")


@pytest.mark.parametrize("provider", ["openai-chat", "openai-responses", "openrouter"])
def test_i8_catches_a_second_system_prompt(provider: str) -> None:
    params = CallParams(system="You are a careful engineer.")
    assert_caught(
        AGENT_LOOP, params, provider, "I8", Mutant(body=_second_system), "system prompt is sent 2 times"
    )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i8_catches_an_empty_text_block(provider: str) -> None:
    assert_caught(AGENT_LOOP, CallParams(), provider, "I8", Mutant(body=_empty_text_block), "empty text")


@pytest.mark.parametrize("provider", sorted(LIST_KEYS))
def test_i8_catches_broken_alternation(provider: str) -> None:
    assert_caught(AGENT_LOOP, CallParams(), provider, "I8", Mutant(body=_split_user_message), "in a row")


# ---------------------------------------------------------------- I12 schema-conformance


def _bad_role(provider: str, body: dict[str, Any]) -> None:
    wire_messages(provider, body)[0]["role"] = 42


#: DeepSeek, Z.ai and Hugging Face's router publish neither a schema nor an SDK: I12 judges
#: them by the rules only (a note says so; tests/test_oracles_dialects.py).
WITH_ORACLE = [p for p in PROVIDERS if p not in ("deepseek", "zai", "huggingface")]


@pytest.mark.parametrize("provider", WITH_ORACLE)
def test_i12_catches_a_request_the_schema_rejects(provider: str) -> None:
    said = "expected tags" if provider == "mistral" else "role"  # mistralai's discriminated union on role
    assert_caught(AGENT_LOOP, CallParams(), provider, "I12", Mutant(body=_bad_role), said)


# ---------------------------------------------------------------- I13 no-silent-loss


def _drop_user_images(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [
        e.model_copy(update={"parts": [p for p in e.parts if not isinstance(p, ImageURLPart)]})
        if isinstance(e, UserMessage)
        else e
        for e in history
    ]


def _drop_tool_calls(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Drops the calls but keeps the message count (warning indices must still point at the same messages)."""
    return [
        e.model_copy(update={"parts": [p for p in e.parts if not isinstance(p, ToolCallPart)]})
        if isinstance(e, AssistantMessage)
        else e
        for e in history
    ]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i13_catches_an_image_dropped_without_warning(provider: str) -> None:
    assert_caught(AGENT_LOOP, CallParams(), provider, "I13", Mutant(history=_drop_user_images), "(image_url)")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i13_catches_tool_calls_dropped_without_warning(provider: str) -> None:
    violations = found(AGENT_LOOP, CallParams(), provider, "I13", Mutant(history=_drop_tool_calls))
    lost = {(v.message_index, v.reason.split(" is ")[0]) for v in violations}
    assert {(2, "part 1 (tool_call)"), (2, "part 2 (tool_call)")} <= lost


def _gemini_without_ids(reverse: bool) -> Any:
    def mutate(_provider: str, body: dict[str, Any]) -> None:
        for d in dicts(body):
            for key in ("functionCall", "functionResponse"):
                unit = as_dict(d.get(key))
                if unit is not None:
                    unit.pop("id", None)
        if reverse:
            for content in wire_messages("gemini", body):
                parts = as_list(content.get("parts"))
                responses = [p for p in parts if "functionResponse" in (as_dict(p) or {})]
                rest = [p for p in parts if "functionResponse" not in (as_dict(p) or {})]
                content["parts"] = [*reversed(responses), *rest]

    return mutate


def test_i7_pairs_gemini_calls_without_ids_by_position_and_name() -> None:
    history: list[HistoryEvent] = [
        user("look at both"),
        turn(call("c1", "read", '{"path": "c1.py"}'), call("c2", "bash", '{"path": "c2.py"}')),
        result(call("c1", "read"), "read output"),
        result(call("c2", "read"), "bash output"),
    ]
    in_order = found(history, CallParams(), "gemini", "I7", Mutant(body=_gemini_without_ids(False)))
    assert in_order and all("not sent" in v.reason for v in in_order), in_order  # ids lost, pairing fine
    swapped = found(history, CallParams(), "gemini", "I7", Mutant(body=_gemini_without_ids(True)))
    assert any("not answered one by one, in order, by name" in v.reason for v in swapped), swapped


def test_i13_counts_a_gemini_call_sent_without_its_id_as_sent() -> None:
    """Gemini's calls may go without ids (paired by name and position, I7): the call itself is not lost."""
    history: list[HistoryEvent] = [
        user("look"),
        turn(call("c1", "read", '{"path": "c1.py"}')),
        result(call("c1", "read"), "read output"),
    ]
    violations = found(history, CallParams(), "gemini", "I13", Mutant(body=_gemini_without_ids(False)))
    assert not [v for v in violations if "(tool_call)" in v.reason], violations


def _reserialise_arguments(_provider: str, body: dict[str, Any]) -> None:
    """What LangChain sends: each call's arguments as ``json.dumps`` of the parsed object."""
    for d in dicts(body):
        function = as_dict(d.get("function"))
        if function is not None and isinstance(function.get("arguments"), str):
            function["arguments"] = json.dumps(json.loads(function["arguments"]), indent=1)


def test_i13_counts_re_serialised_arguments_as_sent() -> None:
    history: list[HistoryEvent] = [
        user("look"),
        turn(call("c1", "read", '{"path":"c1.py","lines":[1,2]}')),
        result(call("c1", "read"), "read output"),
    ]
    assert found(history, CallParams(), "openai-chat", "I13", Mutant(body=_reserialise_arguments)) == []


def _invent_not_executed(_provider: str, body: dict[str, Any]) -> None:
    """What the adapters did before: the real result replaced by an invented "not executed" error."""

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace("42 passed in 3.1s", "Tool call was not executed.")
        if isinstance(value, list):
            return [walk(v) for v in cast(list[Any], value)]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in cast(dict[str, Any], value).items()}
        return value

    body.update(walk(body))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i7_catches_a_real_result_replaced_by_an_invented_one(provider: str) -> None:
    scenario = load_scenarios()["field_result_after_text"]
    params = scenario.params_for(provider)
    assert found(list(scenario.history), params, provider, "I7", REFERENCE) == []
    violations = found(list(scenario.history), params, provider, "I7", Mutant(body=_invent_not_executed))
    replaced = [v for v in violations if "real result (message 3)" in v.reason]
    assert replaced and all(v.kind == "degrade" for v in replaced), violations


# ---------------------------------------------------------------- I14 files

PDF = "JVBERi0xLjQKJcOkw7zDtsOfCg=="
PDF_2 = "JVBERi0xLjcKJeLjz9MK"
WITH_FILES: list[HistoryEvent] = [
    user(
        "Compare these two reports",
        FilePart(media_type="application/pdf", data=PDF, filename="q1.pdf"),
        FilePart(media_type="application/pdf", data=PDF_2, filename="q2.pdf"),
    ),
    turn(TextPart(text="Reading the weather first."), call("call_w", "weather", '{"city": "Oslo"}')),
    ToolResultMessage(
        call_id="call_w",
        tool_name="weather",
        status="success",
        output_text='{"temperature": 21, "unit": "C"}',
        output_json={"temperature": 21, "unit": "C"},
    ),
    turn(TextPart(text="Done.")),
    user("Thanks"),
]
#: Providers that send both PDFs natively (the others warn for each: nothing to reorder).
NATIVE_PDF = ("anthropic", "bedrock", "gemini", "mistral", "openai-chat", "openai-responses", "openrouter")
#: Providers whose tool results carry a structured value natively (the others warn tool-json-as-text).
NATIVE_JSON = ("bedrock", "gemini")


def _drop_files(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [
        e.model_copy(update={"parts": [p for p in e.parts if not isinstance(p, FilePart)]})
        if isinstance(e, UserMessage)
        else e
        for e in history
    ]


def _swap_files(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    out: list[HistoryEvent] = []
    for e in history:
        if isinstance(e, UserMessage) and sum(isinstance(p, FilePart) for p in e.parts) == 2:
            first, second = (p for p in e.parts if isinstance(p, FilePart))
            e = e.model_copy(
                update={"parts": [p for p in e.parts if not isinstance(p, FilePart)] + [second, first]}
            )
        out.append(e)
    return out


def _drop_structured(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [
        e.model_copy(update={"output_json": None, "output_text": "done"})
        if isinstance(e, ToolResultMessage)
        else e
        for e in history
    ]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i14_catches_a_dropped_file(provider: str) -> None:
    assert_caught(
        WITH_FILES, CallParams(), provider, "I14", Mutant(history=_drop_files), "neither in the request"
    )


@pytest.mark.parametrize("provider", NATIVE_PDF)
def test_i14_catches_reordered_files(provider: str) -> None:
    assert_caught(WITH_FILES, CallParams(), provider, "I14", Mutant(history=_swap_files), "reordered")


@pytest.mark.parametrize("provider", NATIVE_JSON)
def test_i14_catches_a_lost_structured_result(provider: str) -> None:
    assert_caught(
        WITH_FILES, CallParams(), provider, "I14", Mutant(history=_drop_structured), "structured value"
    )


SPLIT_RESULT: list[HistoryEvent] = [
    user("Run the tests"),
    turn(call("call_t", "run_tests", "{}")),
    ToolResultMessage(
        call_id="call_t",
        tool_name="run_tests",
        status="success",
        output_text="stdout: 3 passed\nstderr: 1 warning\n",
        text_blocks=[17, 18],
    ),
    turn(TextPart(text="All green.")),
    user("Thanks"),
]
#: Providers whose tool result is a block list: the blocks go back as the tool split them.
BLOCK_RESULTS = ("anthropic", "bedrock", "openai-responses")


def _merge_blocks(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [
        e.model_copy(update={"text_blocks": None}) if isinstance(e, ToolResultMessage) else e for e in history
    ]


@pytest.mark.parametrize("provider", BLOCK_RESULTS)
def test_i14_catches_merged_text_blocks(provider: str) -> None:
    assert_caught(SPLIT_RESULT, CallParams(), provider, "I14", Mutant(history=_merge_blocks), "text blocks")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_split_tool_text_is_output_text_for_i4_on_every_provider(provider: str) -> None:
    """Sent as blocks or as one string, the result's text is its output_text (I4 holds)."""
    assert found(SPLIT_RESULT, CallParams(), provider, "I4", REFERENCE) == []
    assert found(SPLIT_RESULT, CallParams(), provider, "I14", REFERENCE) == []


#: A tool result whose text follows its image (pydantic-ai's test_mixed_content_ordering shape).
MIXED_RESULT: list[HistoryEvent] = [
    user("Show me the chart"),
    turn(call("call_c", "get_chart", "{}")),
    ToolResultMessage(
        call_id="call_c",
        tool_name="get_chart",
        status="success",
        output_text="Here is the chart:Sales rose 4%.",
        text_blocks=[18, 14],
        parts=[
            ImageURLPart(
                url="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
            )
        ],
        part_positions=[1],
    ),
    turn(TextPart(text="Sales rose.")),
    user("Thanks"),
]


def _text_first(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [
        e.model_copy(update={"part_positions": None}) if isinstance(e, ToolResultMessage) else e
        for e in history
    ]


@pytest.mark.parametrize("provider", BLOCK_RESULTS)
def test_i14_catches_text_moved_before_a_tool_results_image(provider: str) -> None:
    # Bedrock: a model family that takes images inside toolResult (else the image moves, warned).
    params = (
        CallParams(model="us.anthropic.claude-sonnet-4-20250514-v1:0")
        if provider == "bedrock"
        else CallParams()
    )
    assert_caught(MIXED_RESULT, params, provider, "I14", Mutant(history=_text_first), "order")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_interleaved_tool_result_holds_i4_and_i14_on_every_provider(provider: str) -> None:
    """Kept in order on block-list wires, warned (tool-result-order-lost) elsewhere."""
    assert found(MIXED_RESULT, CallParams(), provider, "I4", REFERENCE) == []
    assert found(MIXED_RESULT, CallParams(), provider, "I14", REFERENCE) == []
    assert found(MIXED_RESULT, CallParams(), provider, "I13", REFERENCE) == []


#: A custom-content document and a container upload (LangChain's test_citations and
#: pydantic-ai's test_code_execution_files shapes).
CHUNKED_DOC = FilePart(
    media_type="text/plain",
    data="VGhlIGdyYXNzIGlzIGdyZWVuVGhlIHNreSBpcyBibHVl",
    text_chunks=[18, 15],
    citations=True,
    context="Field notes",
)
DOCUMENT_AND_UPLOAD: list[HistoryEvent] = [
    user(
        CHUNKED_DOC,
        FilePart(
            media_type="application/octet-stream",
            file_id="file_01A",
            provider="anthropic",
            purpose="container",
        ),
        "What colour is the grass?",
    ),
]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_document_options_and_container_uploads_hold_i13_and_i14_on_every_provider(provider: str) -> None:
    assert found(DOCUMENT_AND_UPLOAD, CallParams(), provider, "I14", REFERENCE) == []
    assert found(DOCUMENT_AND_UPLOAD, CallParams(), provider, "I13", REFERENCE) == []


def _drop_chunked(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [
        e.model_copy(update={"parts": [p for p in e.parts if p is not CHUNKED_DOC and p != CHUNKED_DOC]})
        if isinstance(e, UserMessage)
        else e
        for e in history
    ]


@pytest.mark.parametrize("provider", ("anthropic", "bedrock"))
def test_i14_catches_a_lost_custom_content_document(provider: str) -> None:
    assert_caught(DOCUMENT_AND_UPLOAD, CallParams(), provider, "I14", Mutant(history=_drop_chunked), "file")

"""The rules every provider shares (harness/mapping/), tested once at the source."""

from __future__ import annotations

import pytest

from harness.mapping.prepare import prepare
from harness.mapping.toolbox import same_model, signature_problem
from harness.mapping.wire import (
    IdPolicy,
    PartUnit,
    ThinkingUnit,
    WireAssistant,
    WireToolResult,
    WireUser,
    pair_thinking,
)
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    FilePart,
    HistoryEvent,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    UserMessage,
)
from harness.params import CallParams, ForcedTool, ToolChoice, ToolSpec
from harness.providers import PROVIDERS, get_adapter
from harness.providers.anthropic.profile import TOOL_NAMES as ANTHROPIC_NAMES
from harness.scenarios.dsl import call, result, user


def prepare_codes(history: list[HistoryEvent], params: CallParams | None = None) -> list[str]:
    return [
        w.code
        for w in prepare(history, params or CallParams(), "anthropic", IdPolicy(), ANTHROPIC_NAMES).warnings
    ]


def test_developer_after_user_is_appended_with_trailing_newline() -> None:
    dev = DeveloperMessage(
        parts=[TextPart(text="remember"), ImageURLPart(url="https://x/y.png")], command_output="UI ONLY"
    )
    prepared = prepare([user("hi"), dev], CallParams(), "anthropic", IdPolicy(), ANTHROPIC_NAMES)
    (item,) = prepared.items
    assert isinstance(item, WireUser)
    assert [getattr(ci.part, "text", None) for ci in item.items] == ["hi", "remember\n", None]
    assert [ci.message_index for ci in item.items] == [0, 1, 1]
    assert prepared.warnings == []


def test_developer_after_tool_result_is_appended_to_the_result() -> None:
    history: list[HistoryEvent] = [
        user("go"),
        AssistantMessage(parts=[call("c1", "read")], stop_reason="tool_use"),
        result(call("c1", "read"), "ok"),
        DeveloperMessage(parts=[TextPart(text="note")]),
    ]
    items = prepare(history, CallParams(), "anthropic", IdPolicy(), ANTHROPIC_NAMES).items
    assert isinstance(items[-1], WireToolResult)
    assert [getattr(ci.part, "text", None) for ci in items[-1].appended] == ["note\n"]


@pytest.mark.parametrize("before", [[], [user("q"), AssistantMessage(parts=[TextPart(text="a")])]])
def test_developer_with_no_user_or_tool_right_before_becomes_a_user_message(
    before: list[HistoryEvent],
) -> None:
    history = [*before, DeveloperMessage(parts=[TextPart(text="reminder")])]
    prepared = prepare(history, CallParams(), "anthropic", IdPolicy(), ANTHROPIC_NAMES)
    last = prepared.items[-1]
    assert isinstance(last, WireUser) and last.from_developer and last.index == len(before)
    assert "developer-as-user" in [w.code for w in prepared.warnings]


def test_results_are_put_in_call_order_and_missing_ones_synthesized() -> None:
    history: list[HistoryEvent] = [
        user("go"),
        AssistantMessage(
            parts=[call("a", "read"), call("b", "read"), call("c", "read")], stop_reason="tool_use"
        ),
        result(call("c", "read"), "C"),
        result(call("a", "read"), "A"),
        user("stop"),
    ]
    prepared = prepare(history, CallParams(), "anthropic", IdPolicy(), ANTHROPIC_NAMES)
    results = [i for i in prepared.items if isinstance(i, WireToolResult)]
    assert [(r.call_id, r.output_text, r.synthesized) for r in results] == [
        ("a", "A", False),
        ("b", results[1].output_text, True),
        ("c", "C", False),
    ]
    assert results[1].is_error
    assert {"tool-results-reordered", "tool-result-missing"} <= {w.code for w in prepared.warnings}


def _sent_results(history: list[HistoryEvent]) -> list[tuple[str, str, bool]]:
    prepared = prepare(history, CallParams(), "gemini", IdPolicy(), ANTHROPIC_NAMES)
    return [
        (r.call_id, r.output_text, r.synthesized) for r in prepared.items if isinstance(r, WireToolResult)
    ]


def test_a_result_after_a_text_turn_answers_its_call() -> None:
    """Never an invented "not executed" error while the real result is in the history."""
    history: list[HistoryEvent] = [
        user("go"),
        AssistantMessage(parts=[call("a", "read"), call("b", "read")], stop_reason="tool_use"),
        result(call("b", "read"), "B"),
        AssistantMessage(parts=[TextPart(text="still reading a...")], stop_reason="stop"),
        user("any news?"),
        result(call("a", "read"), "A"),
        user("well?"),
    ]
    prepared = prepare(history, CallParams(), "gemini", IdPolicy(), ANTHROPIC_NAMES)
    kinds = [type(i).__name__ for i in prepared.items]
    assert kinds == [
        "WireUser",
        "WireAssistant",
        "WireToolResult",
        "WireToolResult",
        "WireAssistant",
        "WireUser",
        "WireUser",
    ]
    assert _sent_results(history) == [("a", "A", False), ("b", "B", False)]
    warned = [w.code for w in prepared.warnings]
    assert "tool-result-after-text" in warned and "tool-result-missing" not in warned, warned


def test_a_result_after_a_later_call_with_the_same_id_answers_that_call() -> None:
    """Backends that number calls call_0 every turn: the later result is the later call's."""
    history: list[HistoryEvent] = [
        user("go"),
        AssistantMessage(parts=[call("call_0", "read")], stop_reason="tool_use"),
        AssistantMessage(parts=[TextPart(text="one moment")], stop_reason="stop"),
        AssistantMessage(parts=[call("call_0", "read")], stop_reason="tool_use"),
        result(call("call_0", "read"), "second"),
    ]
    results = _sent_results(history)
    assert [(r[1], r[2]) for r in results][1] == ("second", False)
    assert results[0][2] is True  # the first call really has no result


def test_orphan_and_duplicate_results_are_dropped_with_warnings() -> None:
    history: list[HistoryEvent] = [
        result(call("trimmed", "read"), "ok"),
        user("go"),
        AssistantMessage(parts=[call("a", "read")], stop_reason="tool_use"),
        result(call("a", "read"), "ok"),
        result(call("a", "read"), "again"),
    ]
    assert prepare_codes(history).count("tool-result-orphan") == 1
    assert "tool-result-duplicate" in prepare_codes(history)


def test_invalid_ids_are_mapped_consistently_in_call_and_result() -> None:
    policy = IdPolicy(pattern=r"[a-zA-Z0-9_-]+", max_length=64)
    history: list[HistoryEvent] = [
        user("go"),
        AssistantMessage(parts=[call("functions.write_todos:0", "read")], stop_reason="tool_use"),
        result(call("functions.write_todos:0", "read"), "ok"),
    ]
    prepared = prepare(history, CallParams(), "anthropic", policy, ANTHROPIC_NAMES)
    assistant, res = prepared.items[1], prepared.items[2]
    assert isinstance(assistant, WireAssistant) and isinstance(res, WireToolResult)
    sent = assistant.call_ids["functions.write_todos:0"]
    assert sent == res.call_id and policy.ok(sent) and sent != "functions.write_todos:0"
    assert policy.map("x" * 80) == policy.map("x" * 80) and len(policy.map("x" * 80)) <= 64


def test_system_text_is_collected_once_in_order() -> None:
    history: list[HistoryEvent] = [
        SystemMessage(parts=[TextPart(text="one")]),
        user("hi"),
        SystemMessage(parts=[TextPart(text="two")]),
    ]
    prepared = prepare(history, CallParams(system="params"), "anthropic", IdPolicy(), ANTHROPIC_NAMES)
    assert [t for _, t in prepared.system] == ["params", "one", "two"]
    assert "system-hoisted" in [w.code for w in prepared.warnings]


def test_thinking_pairs_with_nearest_preceding_unpaired_text() -> None:
    t1, t2 = ThinkingTextPart(text="first"), ThinkingTextPart(text="second")
    sig = ThinkingSignaturePart(signature="S", format="anthropic")
    redacted = ThinkingSignaturePart(signature="R", format="anthropic-redacted")
    units = pair_thinking(AssistantMessage(parts=[t1, t2, sig, redacted, TextPart(text="answer")]))
    assert units == [
        ThinkingUnit(t1, 0, None, None),
        ThinkingUnit(t2, 1, sig, 2),
        ThinkingUnit(None, None, redacted, 3),
        PartUnit(TextPart(text="answer"), 4),
    ]


@pytest.mark.parametrize(
    ("sig", "model", "problem"),
    [
        (
            ThinkingSignaturePart(signature="S", format="anthropic", model_id="claude-sonnet-4-5-20250929"),
            "claude-sonnet-4-5",
            None,
        ),
        (
            ThinkingSignaturePart(signature="S", format="anthropic", model_id="claude-opus-4-1"),
            "claude-sonnet-4-5",
            "produced by model",
        ),
        (ThinkingSignaturePart(signature="S", format="google"), "claude-sonnet-4-5", "not native"),
        (ThinkingSignaturePart(signature="", format="anthropic"), "claude-sonnet-4-5", "empty"),
        (ThinkingSignaturePart(signature="S"), "claude-sonnet-4-5", "no format"),
    ],
)
def test_signature_nativeness(sig: ThinkingSignaturePart, model: str, problem: str | None) -> None:
    found = signature_problem(sig, "anthropic", model)
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_same_model_matches_alias_and_dated_snapshot_only() -> None:
    assert same_model("gpt-5.5-2026-04-23", "gpt-5.5")
    assert same_model("claude-sonnet-4-5-20250929", "claude-sonnet-4-5")
    assert not same_model("claude-sonnet-4-0", "claude-sonnet-4-5")
    assert not same_model("gpt-5", "gpt-5.5")


def test_tools_are_derived_only_for_names_without_a_definition() -> None:
    history: list[HistoryEvent] = [user("go"), AssistantMessage(parts=[call("a", "read"), call("b", "time")])]
    prepared = prepare(
        history, CallParams(tools=[ToolSpec(name="read")]), "anthropic", IdPolicy(), ANTHROPIC_NAMES
    )
    assert [t.name for t in prepared.tools] == ["read", "time"]
    assert "tools-derived" in [w.code for w in prepared.warnings]


def test_empty_text_parts_and_messages_are_dropped_with_warnings() -> None:
    history: list[HistoryEvent] = [UserMessage(parts=[TextPart(text=" ")]), user("real")]
    found = prepare_codes(history)
    assert found.count("empty-text") == 1 and found.count("empty-message") == 1


def test_google_signature_pairs_only_with_the_part_right_before_it() -> None:
    thought = ThinkingTextPart(text="thought")
    answer = TextPart(text="answer")
    sig = ThinkingSignaturePart(signature="G", format="google")
    units = pair_thinking(AssistantMessage(parts=[thought, answer, sig]))
    assert units == [
        ThinkingUnit(thought, 0, None, None),
        PartUnit(answer, 1),
        ThinkingUnit(None, None, sig, 2),
    ]
    signed = pair_thinking(AssistantMessage(parts=[thought, sig]))
    assert signed == [ThinkingUnit(thought, 0, sig, 1)]


@pytest.mark.parametrize("dropped", ["orphan", "duplicate"])
def test_developer_parts_on_a_dropped_result_are_sent_as_a_user_message(dropped: str) -> None:
    # Finding F1 of the invariants: they vanished with the result, unwarned.
    dev = DeveloperMessage(parts=[TextPart(text="Reminder: tabs")])
    if dropped == "orphan":
        history: list[HistoryEvent] = [result(call("trimmed", "read"), "ok"), dev, user("continue")]
    else:
        history = [
            user("go"),
            AssistantMessage(parts=[call("c1", "read")]),
            result(call("c1", "read"), "ok"),
            result(call("c1", "read"), "again"),
            dev,
            user("continue"),
        ]
    prepared = prepare(history, CallParams(), "anthropic", IdPolicy(), ANTHROPIC_NAMES)
    users = [i for i in prepared.items if isinstance(i, WireUser)]
    texts = [getattr(ci.part, "text", None) for u in users for ci in u.items]
    assert texts[-2:] == ["Reminder: tabs\n", "continue"]
    assert "developer-as-user" in [w.code for w in prepared.warnings]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    ("tools", "choice"),
    [([], "required"), ([ToolSpec(name="get_weather")], ForcedTool(name="not_declared"))],
    ids=["no-tools", "forced-undeclared"],
)
def test_a_tool_choice_that_cannot_be_sent_is_warned_not_sent(
    provider: str, tools: list[ToolSpec], choice: ToolChoice
) -> None:
    params = CallParams(tools=tools or None, tool_choice=choice)
    rendered = get_adapter(provider).render([user("Weather in Paris?")], params)
    if provider == "bedrock":  # toolConfig carries the tools too; the choice is its toolChoice
        assert "toolChoice" not in rendered.body.get("toolConfig", {})
    else:
        assert "tool_choice" not in rendered.body and "toolConfig" not in rendered.body
    assert "tool-choice-not-sent" in [w.code for w in rendered.warnings]


# ---------------------------------------------------------------- files


def test_a_file_media_type_alias_is_sent_as_its_standard_label_with_a_warning() -> None:
    history = [user("What is in this picture?", FilePart(media_type="image/jpg", uri="s3://bucket/cat.jpg"))]
    rendered = get_adapter("bedrock").render(history, CallParams())
    image = rendered.body["messages"][0]["content"][1]["image"]
    assert image == {"format": "jpeg", "source": {"s3Location": {"uri": "s3://bucket/cat.jpg"}}}
    assert [(w.code, w.part_type) for w in rendered.warnings] == [("media-type-normalized", "file")]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_file_is_sent_or_named_by_a_warning_on_every_provider(provider: str) -> None:
    pdf = FilePart(media_type="application/pdf", url="https://example.com/a.pdf")
    rendered = get_adapter(provider).render([user("Summarise", pdf)], CallParams())
    sent = "https://example.com/a.pdf" in str(rendered.body)
    warned = [w.code for w in rendered.warnings if w.message_index == 0 and w.part_index == 1]
    assert sent != bool(warned), (sent, warned)
    assert not warned or warned[0] in ("file-kind-unsupported", "file-source-unsupported")

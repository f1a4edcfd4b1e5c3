"""Invariants across renders (I9 prefix stability, I10 determinism): hold everywhere, and can fail.

I9 compares the request for a history with the request after a plain next turn; I10
renders the same history again, from a deep copy and from its JSON Lines. Broken
targets that rewrite earlier messages as the history grows, or that are not pure,
are reported. Both hold over generated loops and arbitrary histories in
``test_invariants_generated`` (one drawn history judged by every invariant).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness import strategies
from harness.invariants import run_invariants
from harness.invariants.continuation import next_turn
from harness.invariants.prefix import first_difference
from harness.invariants.wire import wire_messages
from harness.model import AssistantMessage, HistoryEvent, TextPart, ToolResultMessage, UserMessage
from harness.params import CallParams
from harness.providers import PROVIDERS
from harness.scenarios import load_scenarios
from tests.support.invariants import Mutant, assert_holds

SCENARIOS = sorted(load_scenarios())


@pytest.mark.parametrize("provider", PROVIDERS)
@given(data=st.data())
def test_i9_holds_for_generated_continuations(provider: str, data: st.DataObject) -> None:
    """``harness.strategies``: a generated loop, then the turn an agent loop would append to it."""
    history = data.draw(strategies.agent_loops(provider))
    turn = data.draw(strategies.well_formed_turn(history, provider))
    model = data.draw(st.sampled_from(strategies.PROVIDER_MODELS[provider]))

    def continuation(_history: Sequence[HistoryEvent]) -> list[HistoryEvent]:
        return list(turn)

    assert_holds(history, CallParams(model=model), provider, ("I9",), next_turn=continuation)


@pytest.mark.parametrize("name", SCENARIOS)
def test_hold_on_the_corpus(name: str) -> None:
    scenario = load_scenarios()[name]
    for provider in PROVIDERS:
        assert_holds(scenario.history, scenario.params, provider, ("I9", "I10"))


def test_next_turn_answers_then_asks() -> None:
    asked: list[HistoryEvent] = [UserMessage(parts=[TextPart(text="q")])]
    assert [type(e) for e in next_turn(asked)] == [AssistantMessage, UserMessage]
    answered = [*asked, AssistantMessage(parts=[TextPart(text="a")])]
    assert [type(e) for e in next_turn(answered)] == [UserMessage]


def test_first_difference_points_at_the_changed_leaf() -> None:
    assert first_difference({"a": [1, {"b": "x"}]}, {"a": [1, {"b": "y"}]}) == (".a[1].b", "x", "y")
    assert first_difference([1, 2], [1, 2, 3]) == (".length", 2, 3)
    assert first_difference({"a": 1}, {"a": 1}) is None
    assert first_difference(1, True) == ("<root>", 1, True)


LOOP: list[HistoryEvent] = [
    UserMessage(parts=[TextPart(text="what is in the repo?")]),
    AssistantMessage.model_validate(
        {
            "parts": [
                {"type": "tool_call", "call_id": "c1", "tool_name": "bash", "arguments_json": '{"cmd":"ls"}'}
            ],
            "usage": {"input_tokens": 5, "output_tokens": 3},
            "stop_reason": "tool_use",
        }
    ),
    ToolResultMessage(call_id="c1", tool_name="bash", status="success", output_text="README.md\nsrc/"),
    AssistantMessage.model_validate(
        {"parts": [{"type": "text", "text": "A README and src/."}], "usage": {}, "stop_reason": "stop"}
    ),
    UserMessage(parts=[TextPart(text="and in src?")]),
]


# ---------------------------------------------------------------- I9 prefix-stability


def _count_events(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Stamps the history length into the first message: every appended turn rewrites it."""
    first = history[0]
    assert isinstance(first, UserMessage)
    stamped = first.model_copy(update={"parts": [TextPart(text=f"[{len(history)} events] "), *first.parts]})
    return [stamped, *history[1:]]


def _system_with_turn_count(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    from harness.model import SystemMessage

    turns = sum(isinstance(e, UserMessage) for e in history)
    return [SystemMessage(parts=[TextPart(text=f"This is turn {turns}.")]), *history]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i9_catches_earlier_messages_rewritten_when_a_turn_is_appended(provider: str) -> None:
    assert run_invariants(LOOP, CallParams(), providers=[provider], invariants=["I9"]).ok
    violations = run_invariants(
        LOOP, CallParams(), target=Mutant(history=_count_events), providers=[provider], invariants=["I9"]
    ).violations
    assert [v.reason.split(" (at")[0] for v in violations] == [
        "appending a turn rewrote conversation entry 0"
    ]
    assert "events]" in violations[0].example


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i9_catches_a_system_prompt_that_moves(provider: str) -> None:
    violations = run_invariants(
        LOOP,
        CallParams(),
        target=Mutant(history=_system_with_turn_count),
        providers=[provider],
        invariants=["I9"],
    ).violations
    assert any(
        "changed the system prompt" in v.reason or "rewrote conversation entry 0" in v.reason
        for v in violations
    )


# ---------------------------------------------------------------- I10 determinism

_COUNTER = itertools.count()


def _nonce(provider: str, body: dict[str, Any]) -> None:
    """A request id that changes on every render (a clock or a random id would do the same)."""
    wire_messages(provider, body)[-1]["request_nonce"] = next(_COUNTER)


_CALLS: dict[int, int] = {}


def _identity_dependent(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    """Caches by object identity: a deep copy of the same history renders differently."""
    seen = _CALLS.setdefault(id(history[0]), len(_CALLS))
    return [*history, UserMessage(parts=[TextPart(text=f"cache slot {seen}")])]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i10_catches_a_nondeterministic_render(provider: str) -> None:
    assert run_invariants(LOOP, CallParams(), providers=[provider], invariants=["I10"]).ok
    violations = run_invariants(
        LOOP, CallParams(), target=Mutant(body=_nonce), providers=[provider], invariants=["I10"]
    ).violations
    assert {v.reason.split(":")[0] for v in violations} >= {"a second render differs from the first"}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i10_catches_a_render_that_depends_on_object_identity(provider: str) -> None:
    violations = run_invariants(
        LOOP,
        CallParams(),
        target=Mutant(history=_identity_dependent),
        providers=[provider],
        invariants=["I10"],
    ).violations
    assert any(v.reason.startswith("a render of a deep copy differs") for v in violations), violations

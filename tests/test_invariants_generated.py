"""Every invariant on generated histories: one drawn history is judged by all the checks at once.

The request-side (I1, I2, I4, I7, I8, I12, I13, I14), history (I3, I5, I6, I11) and cross-render
(I9, I10) invariants each hold over the same generators, for every provider. Drawing one
history and judging it by every check in one ``run_invariants`` gives each check as many
examples as a test of its own would, from the same distribution, while the history is drawn
(and rendered) once instead of once per group of checks: drawing was about half of these
tests' time. A failure names the check that broke (``assert_holds`` prints each violation).

Kept apart: I3 on arbitrary histories (one may lack usage, which I3 rightly reports), and
I9 with a generated next turn (``test_invariants_turns``).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness import strategies
from harness.model import AnyPart, AssistantMessage, HistoryEvent, TextPart, Usage, UserMessage
from harness.params import CallParams
from harness.providers import PROVIDERS
from harness.strategies import histories
from tests.support.invariants import agent_loops, assert_holds, assert_holds_everywhere

REQUEST = ("I1", "I2", "I4", "I7", "I8", "I12", "I13", "I14", "I16", "I17", "I18")
HISTORY = ("I3", "I5", "I6", "I11", "I15")
TURNS = ("I9", "I10")
EVERY = tuple(sorted({*REQUEST, *HISTORY, *TURNS}, key=lambda i: int(i[1:])))
#: A model named or not: models switch model-specific code paths (thinking, reasoning effort).
ANY_MODEL = st.sampled_from([None, "claude-sonnet-4-5", "gpt-5", "gemini-3-pro-preview", "o3"])


def test_every_invariant_is_judged_here() -> None:
    from harness.invariants import INVARIANTS

    assert {i.id for i in INVARIANTS} == set(EVERY)


@given(run=strategies.server_tool_runs, extra=st.lists(strategies.provider_parts, max_size=2))
def test_hold_on_provider_executed_tools_and_sources(run: list[AnyPart], extra: list[AnyPart]) -> None:
    """Server tool calls, results and citations of Anthropic or OpenAI Responses (and stray ones),
    rendered for every provider: back byte-exact to their own, degraded with a warning elsewhere."""
    history: list[HistoryEvent] = [
        UserMessage(parts=[TextPart(text="Search the news.")]),
        AssistantMessage(
            parts=[*run, *extra], stop_reason="stop", usage=Usage(input_tokens=9, output_tokens=3)
        ),
        UserMessage(parts=[TextPart(text="More.")]),
    ]
    assert_holds_everywhere(history, CallParams(), PROVIDERS, EVERY)


@pytest.mark.parametrize("provider", PROVIDERS)
@given(data=st.data())
def test_hold_on_agent_loops(provider: str, data: st.DataObject) -> None:
    history, params = data.draw(agent_loops(provider))
    assert_holds(history, params, provider, EVERY)


@pytest.mark.parametrize("provider", PROVIDERS)
@given(data=st.data())
def test_hold_on_generated_agent_loops(provider: str, data: st.DataObject) -> None:
    """``harness.strategies.agent_loops``: the shared loop generator, rendered for one of the provider's models."""
    history = data.draw(strategies.agent_loops(provider))
    model = data.draw(st.sampled_from(strategies.PROVIDER_MODELS[provider]))
    assert_holds(history, CallParams(model=model), provider, EVERY)


@given(history=histories, model=ANY_MODEL)
def test_hold_on_any_valid_history(history: list[HistoryEvent], model: str | None) -> None:
    """I3 is left out: an arbitrary history may lack usage, which I3 rightly reports."""
    assert_holds_everywhere(history, CallParams(model=model), PROVIDERS, tuple(i for i in EVERY if i != "I3"))

"""The pydantic-ai target: its bridge renders scenarios per provider and replays every bundled cassette.

Skipped (with the install hint as the reason) when no environment with pydantic-ai is found;
see ``harness.targets.pydantic_ai`` for where it looks. The install hint itself is checked
without pydantic-ai.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.audit.replay_summary import summarize
from harness.contract.providers import PROVIDERS
from harness.contract.routing import route
from harness.model import ToolCallPart
from harness.rules import check_body
from harness.scenarios import load_scenarios
from harness.targets import Target, get_target
from tests.support.cassettes import case_id, cassette_cases, model_calls
from tests.support.worker_targets import load_or_skip, or_one_skip, render_without_library

SCENARIOS = load_scenarios()
REFERENCE = get_target("reference")
CASSETTES = cassette_cases()
#: A few scenarios that exercise thinking, tools, images and system prompts on every provider.
PICKED = ("agent_loop_long", "developer_after_tool_result", "aborted_turn_dangling_tool_call")
#: Where each provider's messages live in the body the SDK sent, where it is not ``messages``.
MESSAGES_KEY = {"gemini": "contents", "openai-responses": "input"}


@pytest.fixture(scope="module")
def pydantic_ai() -> Target:
    return load_or_skip("pydantic-ai")


def test_missing_pydantic_ai_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    lines = render_without_library(tmp_path, "pydantic-ai", "HARNESS_PYDANTIC_AI_PYTHON")
    assert len(lines) == 1 and "--extra pydantic-ai" in lines[0], lines


def test_version_and_providers(pydantic_ai: Target) -> None:
    assert pydantic_ai.version == "2.68.0"
    assert tuple(pydantic_ai.providers()) == PROVIDERS
    assert pydantic_ai.lacks == frozenset({"warnings"})


@pytest.mark.parametrize(
    ("provider", "name"), or_one_skip("pydantic-ai", [(p, n) for n in PICKED for p in PROVIDERS], width=2)
)
def test_scenarios_render_through_pydantic_ais_model(pydantic_ai: Target, provider: str, name: str) -> None:
    scenario = SCENARIOS[name]
    rendered = pydantic_ai.render(provider, scenario.history, scenario.params)
    messages = rendered.body[MESSAGES_KEY.get(provider, "messages")]
    assert isinstance(messages, list) and messages, rendered.body
    assert not rendered.warnings
    calls = [
        p.call_id for e in scenario.history for p in getattr(e, "parts", []) if isinstance(p, ToolCallPart)
    ]
    if provider == "mistral":  # renumbered to Mistral's rule (pydantic-ai's ``tool_call_id_length``)
        assert check_body("mistral", rendered.body) == []
        return
    # the call ids the history holds reach the wire verbatim (never minted)
    assert all(call_id in str(rendered.body) for call_id in calls)


def test_an_unsupported_provider_is_not_implemented(pydantic_ai: Target) -> None:
    scenario = SCENARIOS[PICKED[0]]
    with pytest.raises(NotImplementedError):
        pydantic_ai.render("no-such-provider", scenario.history, scenario.params)


@pytest.mark.parametrize(
    "case", or_one_skip("pydantic-ai", [pytest.param(c, id=case_id(c)) for c in CASSETTES])
)
def test_every_cassette_replays(pydantic_ai: Target, case: tuple[str, Path]) -> None:
    provider, path = case
    for exchange in model_calls(provider, path):
        found = route(exchange.method, exchange.uri)
        if provider == "openrouter" and found is not None and found.wire != "openai-chat":
            with pytest.raises(NotImplementedError, match="Chat Completions only"):
                pydantic_ai.replay(provider, exchange)
            continue
        whole = pydantic_ai.replay(provider, exchange)
        chunked = pydantic_ai.replay(provider, exchange, chunk_size=5)
        assert summarize(whole, exchange) == summarize(chunked, exchange)
        if REFERENCE.replay(provider, exchange).errors:  # a recorded failure (Groq's tool_use_failed stream)
            assert whole.errors and whole.message.stop_reason == "error", path.name
            continue
        assert whole.message.parts and not whole.errors, f"{path.name}: {whole.errors}"
        assert whole.message.usage is not None and whole.message.stop_reason in ("stop", "tool_use", "length")

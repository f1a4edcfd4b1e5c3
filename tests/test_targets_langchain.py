"""The langchain target: LangChain's integrations render scenarios per provider and replay every cassette.

Skipped (with the install hint as the reason) when no environment with LangChain is found;
see ``harness.targets.langchain`` for where it looks. The install hint itself is checked
without LangChain.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.audit.replay_summary import summarize
from harness.contract.target import TargetRefusal
from harness.model import ToolCallPart
from harness.scenarios import load_scenarios
from harness.targets import Target, get_target
from tests.support.cassettes import case_id, cassette_cases, model_calls
from tests.support.worker_targets import load_or_skip, or_one_skip, render_without_library

SCENARIOS = load_scenarios()
REFERENCE = get_target("reference")
#: The providers LangChain serves that the harness speaks, and the package whose version is pinned.
PROVIDERS = (
    "anthropic",
    "openai-chat",
    "openai-responses",
    "gemini",
    "bedrock",
    "groq",
    "mistral",
    "deepseek",
)
CASSETTES = [c for c in cassette_cases() if c[0] in PROVIDERS]
PICKED = ("agent_loop_long", "developer_after_tool_result", "aborted_turn_dangling_tool_call")
MESSAGES_KEY = {"gemini": "contents", "openai-responses": "input"}


@pytest.fixture(scope="module")
def langchain() -> Target:
    return load_or_skip("langchain")


def test_missing_langchain_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    lines = render_without_library(tmp_path, "langchain", "HARNESS_LANGCHAIN_PYTHON")
    assert len(lines) == 1 and "--extra langchain" in lines[0], lines


def test_version_providers_and_channels(langchain: Target) -> None:
    assert langchain.version == "1.8.1"
    assert tuple(langchain.providers()) == PROVIDERS
    assert getattr(langchain, "warning_channels", None) == frozenset({"returned", "warnings", "logging"})


@pytest.mark.parametrize(
    ("provider", "name"), or_one_skip("langchain", [(p, n) for n in PICKED for p in PROVIDERS], width=2)
)
def test_scenarios_render_through_langchains_integrations(
    langchain: Target, provider: str, name: str
) -> None:
    scenario = SCENARIOS[name]
    try:
        rendered = langchain.render(provider, scenario.history, scenario.params_for(provider))
    except TargetRefusal as refusal:  # ChatAnthropic's own error before sending (docs/audits/langchain.md)
        assert (provider, name) == ("anthropic", "agent_loop_long"), refusal
        assert "non-consecutive system messages" in str(refusal)
        return
    messages = rendered.body[MESSAGES_KEY.get(provider, "messages")]
    assert isinstance(messages, list) and messages, rendered.body
    calls = [
        p.call_id for e in scenario.history for p in getattr(e, "parts", []) if isinstance(p, ToolCallPart)
    ]
    if provider in ("gemini", "bedrock", "mistral"):  # ids rewritten or absent on these wires
        return
    assert all(call_id in str(rendered.body) for call_id in calls)


def test_langchains_image_download_is_blocked_and_said(langchain: Target) -> None:
    scenario = SCENARIOS["user_multipart_images"]
    with pytest.raises(NotImplementedError, match=r"downloads .* itself"):
        langchain.render("gemini", scenario.history, scenario.params_for("gemini"))


@pytest.mark.parametrize(
    "case", or_one_skip("langchain", [pytest.param(c, id=case_id(c)) for c in CASSETTES])
)
def test_every_cassette_replays_the_same_whole_and_in_chunks(
    langchain: Target, case: tuple[str, Path]
) -> None:
    provider, path = case
    for exchange in model_calls(provider, path):
        try:
            whole = langchain.replay(provider, exchange)
        except NotImplementedError:
            continue  # a Bedrock operation other than Converse: unsupported, said
        chunked = langchain.replay(provider, exchange, chunk_size=5)
        assert summarize(whole, exchange) == summarize(chunked, exchange), path.name
        assert whole.message.usage is not None or whole.errors, path.name
        assert whole.message.stop_reason is not None

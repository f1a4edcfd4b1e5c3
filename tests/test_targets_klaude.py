"""The klaude-code target: its bridge renders every scenario and replays every cassette without crashing.

Skipped (with the install hint as the reason) when no environment with klaude-code is
found; see ``harness.targets.klaude`` for where it looks. The install hint itself is
checked without klaude-code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.audit.replay_summary import summarize
from harness.contract.rendered import canonical_json
from harness.kit.worker import BridgeError
from harness.providers import PROVIDERS
from harness.scenarios import load_scenarios
from harness.targets import Target, TargetError, get_target
from tests.support.cassettes import case_id, cassette_cases, model_calls
from tests.support.worker_targets import load_or_skip, or_one_skip, render_without_library

SCENARIOS = load_scenarios()
CASSETTES = cassette_cases()


@pytest.fixture(scope="module")
def klaude() -> Target:
    return load_or_skip("klaude-code")


def test_missing_klaude_code_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    lines = render_without_library(tmp_path, "klaude-code", "HARNESS_KLAUDE_PYTHON")
    assert len(lines) == 1 and "uv sync --extra klaude" in lines[0], lines


def _klaude_providers() -> list[str]:
    """The providers the klaude-code target implements (all of them when it cannot load: skipped then)."""
    try:
        return list(get_target("klaude-code").providers())
    except TargetError:
        return list(PROVIDERS)


@pytest.mark.parametrize("provider", or_one_skip("klaude-code", _klaude_providers()))
def test_every_scenario_renders(klaude: Target, provider: str) -> None:
    raised: set[str] = set()
    for name, scenario in SCENARIOS.items():  # determinism is the audit's I10
        try:
            rendered = klaude.render(provider, scenario.history, scenario.params)
        except BridgeError as exc:  # klaude-code's own refusal is a finding (the audit's render check)
            assert "klaude-code raised" in str(exc), f"{name}: {exc}"
            raised.add(name)
            continue
        assert rendered.body and not rendered.warnings, name
        assert canonical_json(rendered.body).startswith("{"), name
    assert raised == KLAUDE_RAISES.get(provider, set()), "klaude-code's own refusals changed"


#: Histories klaude-code 2.43.0 refuses to render itself (the audit reports each as a failing
#: ``render`` square). A system-only history reaches Gemini with no contents, and google-genai's
#: request validation raises ``ValueError: contents are required``.
KLAUDE_RAISES = {"gemini": {"regression_system_only_history"}}


@pytest.mark.parametrize(
    "case",
    or_one_skip(
        "klaude-code", [pytest.param(c, id=case_id(c)) for c in CASSETTES if c[0] in _klaude_providers()]
    ),
)
def test_every_cassette_replays(klaude: Target, case: tuple[str, Path]) -> None:
    provider, path = case
    for exchange in model_calls(provider, path):
        try:
            whole = klaude.replay(provider, exchange)
        except NotImplementedError as exc:  # a JSON body, or OpenRouter's Responses endpoint
            if "Chat Completions only" in str(exc):
                assert "/responses" in exchange.uri
                continue
            assert "always streams" in str(exc)
            assert not exchange.body.lstrip().startswith((b"data:", b"event:"))
            continue
        chunked = klaude.replay(provider, exchange, chunk_size=5)
        assert whole.message.parts, f"{path.name}: no parts"
        # klaude mints uuid4 ids for Gemini calls without one: compare what the stream said
        assert summarize(whole, exchange) == summarize(chunked, exchange)


@pytest.mark.parametrize(
    "provider", or_one_skip("klaude-code", [p for p in PROVIDERS if p not in _klaude_providers()])
)
def test_a_provider_klaude_code_has_no_protocol_for_is_not_implemented(klaude: Target, provider: str) -> None:
    scenario = next(iter(SCENARIOS.values()))
    with pytest.raises(
        NotImplementedError, match=r"klaude-code target: (unsupported provider|no klaude-code protocol)"
    ):
        klaude.render(provider, scenario.history, scenario.params)

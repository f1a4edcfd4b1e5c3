"""The klaude-code target: its bridge renders every scenario and replays every cassette without crashing.

Skipped (with the install hint as the reason) when no environment with klaude-code is
found; see ``harness.targets.klaude`` for where it looks. The install hint itself is
checked without klaude-code.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.audit.replay_summary import summarize
from harness.contract.rendered import canonical_json
from harness.providers import PROVIDERS
from harness.scenarios import load_scenarios
from harness.targets import Target, TargetError, get_target
from tests.cassette_cases import case_id, cassette_cases, model_calls

SCENARIOS = load_scenarios()
CASSETTES = cassette_cases()


@pytest.fixture(scope="module")
def klaude() -> Target:
    try:
        return get_target("klaude-code")
    except TargetError as exc:
        pytest.skip(str(exc))


def test_missing_klaude_code_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    history = tmp_path / "h.jsonl"
    history.write_text('{"role":"user","parts":[{"type":"text","text":"hi"}]}\n', encoding="utf-8")
    env = {**os.environ, "HARNESS_KLAUDE_PYTHON": sys.executable}  # this interpreter has no klaude-code
    code = "from harness.cli import app; app()"
    args = ["render", str(history), "--provider", "anthropic", "--target", "klaude-code"]
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode == 0:
        pytest.skip("this interpreter has klaude-code installed")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "uv sync --extra klaude" in lines[0], done.stderr


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_scenario_renders(klaude: Target, provider: str) -> None:
    for name, scenario in SCENARIOS.items():  # determinism is the audit's I10
        rendered = klaude.render(provider, scenario.history, scenario.params)
        assert rendered.body and not rendered.warnings, name
        assert canonical_json(rendered.body).startswith("{"), name


@pytest.mark.parametrize("case", CASSETTES, ids=[case_id(c) for c in CASSETTES])
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

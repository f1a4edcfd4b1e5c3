"""The kit makes a bridge short: a bridge for a library of LangChain's shape, four providers in both
directions, on the kit (``examples/kit-bridges/langchain_four.py``), stays within 200 non-blank lines
and, where LangChain is installed, reads every recording as the full target does."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from harness.kit import find_python
from harness.targets.langchain_bridge import INSTALL_HINT

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = ROOT / "examples" / "kit-bridges" / "langchain_four.py"
#: The issue's bound for a LangChain-shaped bridge on the kit (four providers, both directions).
MAX_LINES = 200

_RUN = """
import importlib.util, json, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("langchain_four", sys.argv[1])
module = importlib.util.module_from_spec(spec); sys.modules["langchain_four"] = module; spec.loader.exec_module(module)
from harness.audit.replay_summary import summarize
from harness.contract.target import TargetRefusal
from harness.kit import WireError, load_cassette
from harness.kit.netguard import offline
from harness.scenarios import load_scenarios
from harness.targets.langchain_bridge.target import TARGET as FULL
small, report = module.TARGET, {"rendered": 0, "replayed": 0, "differ": []}
with offline("langchain-four"):
    for provider in small.providers():
        for name in ("plain_multi_turn", "developer_after_tool_result", "tool_parallel_results_out_of_order"):
            scenario = load_scenarios()[name]
            small.render(provider, scenario.history, scenario.params_for(provider))
            report["rendered"] += 1
        for path in sorted((Path(sys.argv[2]) / provider).glob("*.yaml")):
            for exchange in load_cassette(path, model_calls=True):
                a, b = small.replay(provider, exchange), FULL.replay(provider, exchange)
                report["replayed"] += 1
                if not (a.errors or b.errors) and summarize(a, exchange) != summarize(b, exchange):
                    report["differ"].append(path.name)
print(json.dumps(report))
"""


def test_a_langchain_shaped_bridge_on_the_kit_is_at_most_200_lines() -> None:
    lines = [line for line in BRIDGE.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) <= MAX_LINES, f"{BRIDGE.name}: {len(lines)} non-blank lines"


def test_the_short_bridge_reads_every_recording_as_the_full_target_does() -> None:
    python = find_python("HARNESS_LANGCHAIN_PYTHON", "langchain_google_genai", ".venv-langchain")
    if python is None:
        pytest.skip(INSTALL_HINT)
    done = subprocess.run(
        [python, "-c", _RUN, str(BRIDGE), str(ROOT / "cassettes")],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["rendered"] == 12 and report["replayed"] >= 15, report
    assert report["differ"] == [], report


LITELLM_STYLE = ROOT / "tests" / "support" / "litellm_style_bridge.py"


def test_a_litellm_style_bridge_on_the_kit_is_short() -> None:
    """One client for four providers, both directions: conversion and result mapping are the kit's."""
    lines = [line for line in LITELLM_STYLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) <= 80, f"{LITELLM_STYLE.name}: {len(lines)} non-blank lines"


def test_the_litellm_style_bridge_renders_and_reads_recordings_as_the_reference_does() -> None:
    from harness.audit.replay_summary import summarize
    from harness.kit import load_cassette
    from harness.scenarios import load_scenarios
    from harness.targets import get_target
    from tests.support.litellm_style_bridge import TARGET

    scenario = load_scenarios()["tool_parallel_results_out_of_order"]
    for provider in TARGET.providers():
        body = TARGET.render(provider, scenario.history, scenario.params_for(provider)).body
        assert [m["role"] for m in body["messages"]][:2] == ["user", "assistant"], body
    reference, compared = get_target("reference"), 0
    for provider in TARGET.providers():
        for path in sorted((ROOT / "cassettes" / provider).glob("*.yaml"))[:2]:  # cheap: two per provider
            for exchange in load_cassette(path, model_calls=True):
                if "chat/completions" not in exchange.uri:
                    continue  # the client speaks Chat Completions only
                ours, theirs = TARGET.replay(provider, exchange), reference.replay(provider, exchange)
                if not (ours.errors or theirs.errors):
                    assert summarize(ours, exchange)["text"] == summarize(theirs, exchange)["text"], path.name
                    compared += 1
    assert compared >= 3

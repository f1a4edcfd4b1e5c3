"""The worked example in docs/writing-a-target.md runs: it renders scenarios and replays the cassettes.

The example is executed from the doc itself, so the doc cannot drift from the kit it shows.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import types
from pathlib import Path

import pytest

from harness import Target, load_scenarios
from tests.support.cassettes import cassette_cases, model_calls

DOC = Path(__file__).resolve().parent.parent / "docs" / "writing-a-target.md"


@pytest.fixture(scope="module")
def example() -> Target:
    (code, *_) = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    module = types.ModuleType("writing_a_target_example")
    sys.modules[module.__name__] = module  # dataclasses and typing resolve names through sys.modules
    exec(compile(code, str(DOC), "exec"), module.__dict__)
    target = module.TARGET
    assert isinstance(target, Target)
    return target


def test_the_example_renders_what_the_sdk_sends(example: Target) -> None:
    scenario = load_scenarios()["developer_after_tool_result"]
    body = example.render("openai-chat", scenario.history, scenario.params).body
    assert body["model"] == (scenario.params.model or "gpt-4.1-mini")
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "tool", "developer"]
    with pytest.raises(NotImplementedError):
        example.render("anthropic", scenario.history, scenario.params)


def test_the_example_replays_and_reports_a_cut_stream(example: Target) -> None:
    calls = [e for p, path in cassette_cases() if p == "openai-chat" for e in model_calls(p, path)]
    assert calls
    for exchange in calls:
        whole = example.replay("openai-chat", exchange)
        assert whole.message.stop_reason in ("stop", "tool_use") and not whole.errors
        assert example.replay("openai-chat", exchange, chunk_size=5).message == whole.message
        cut = example.replay(
            "openai-chat", dataclasses.replace(exchange, body=exchange.body[: len(exchange.body) // 2])
        )
        assert cut.message.stop_reason == "error" and cut.errors

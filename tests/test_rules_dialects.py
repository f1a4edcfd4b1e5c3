"""The OpenAI-compatible dialects' rules (harness/rules/dialects.py): each fires on a minimal
violating body and stays quiet on the accepted shape. Bodies are synthetic (labelled so); the
calibration on the recordings (traffic/pydantic-ai-more/) is tests/test_calibration_dialects.py's job.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from harness.rules import check_body, rules_for
from harness.rules.dialects import DIALECT_RULES

Body = dict[str, Any]


def _loop(model: str, ids: tuple[str, str] = ("call_1", "call_1")) -> Body:
    """A tool loop: user, assistant calling a tool, its result, the answer (synthetic)."""
    return {
        "model": model,
        "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "reasoning_content": "need the tool", "tool_calls": [
                {"id": ids[0], "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": ids[1], "content": "sunny"},
            {"role": "assistant", "reasoning_content": "answer", "content": "Sunny."},
            {"role": "user", "content": "thanks"},
        ],
    }  # fmt: skip


def _current(model: str, **extra: object) -> Body:
    """The same loop as the turn being answered: no user message after it (synthetic)."""
    body = _loop(model)
    body["messages"].pop()
    return {**body, **extra}


def _no_reasoning(messages: list[Body]) -> None:
    for message in messages:
        message.pop("reasoning_content", None)


RESPONSES_SETTLED: Body = {
    "model": "deepseek-v4-flash",
    "input": [
        {"role": "assistant", "content": "<think>a</think>"},
        {"type": "function_call", "call_id": "call-a", "name": "read", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call-a", "output": "x"},
        {"role": "user", "content": "go on"},
    ],
}

Mutate = Callable[[Body], object]

# (case id, provider, wire, base body, mutation, the rule that must fire, path)
CASES: list[tuple[str, str, str | None, Body, Mutate, str, str]] = [
    ("mistral-foreign-call-id", "mistral", None, _loop("mistral-large-latest", ("rHU0eZiMa", "rHU0eZiMa")),
     lambda b: b["messages"][1]["tool_calls"][0].update(id="call_abc") or b["messages"][2].update(tool_call_id="call_abc"),
     "mistral-tool-call-id", "messages/1/tool_calls/0/id"),
    ("groq-message-name", "groq", None, _loop("llama-3.3-70b-versatile"),
     lambda b: b["messages"][0].update(name="alice"), "groq-refused-fields", "messages/0/name"),
    ("groq-logprobs", "groq", None, _loop("llama-3.3-70b-versatile"), lambda b: b.update(logprobs=True),
     "groq-refused-fields", "logprobs"),
    ("groq-raw-with-tools", "groq", None, _loop("qwen/qwen3-32b"),
     lambda b: b.update(reasoning_format="raw", tools=[{"type": "function", "function": {"name": "f"}}]),
     "groq-raw-reasoning-with-tools", "reasoning_format"),
    ("deepseek-loop-without-reasoning", "deepseek", None, _current("deepseek-v4-pro"),
     lambda b: b["messages"][1].pop("reasoning_content"), "deepseek-tool-loop-reasoning", "messages/1"),
    ("deepseek-reasoner-loop-without-reasoning", "deepseek", None, _current("deepseek-reasoner"),
     lambda b: b["messages"][1].pop("reasoning_content"), "deepseek-tool-loop-reasoning", "messages/1"),
    ("deepseek-chat-thinking-loop-without-reasoning", "deepseek", None,
     _current("deepseek-chat", thinking={"type": "enabled"}),
     lambda b: b["messages"][1].pop("reasoning_content"), "deepseek-tool-loop-reasoning", "messages/1"),
    ("kimi-tool-call-without-reasoning", "groq", None, _loop("moonshotai/kimi-k2.5"),
     lambda b: b["messages"][1].pop("reasoning_content"), "kimi-tool-call-reasoning", "messages/1"),
    ("kimi-thinking-on-hf-without-reasoning", "huggingface", None, _loop("moonshotai/Kimi-K2-Thinking"),
     lambda b: b["messages"][1].pop("reasoning_content"), "kimi-tool-call-reasoning", "messages/1"),
    ("deepseek-responses-interleaved", "deepseek", "openai-responses", RESPONSES_SETTLED,
     lambda b: b["input"].insert(2, {"role": "assistant", "content": "<think>b</think>"}),
     "deepseek-responses-output-before-message", "input/1"),
]  # fmt: skip

#: The rules these cases cover (tests/test_rules.py checks every rule has a violating body).
COVERED: frozenset[str] = frozenset(case[5] for case in CASES)

ACCEPTED: list[tuple[str, str, Body, Mutate]] = [
    ("deepseek-chat-needs-no-reasoning", "deepseek", _loop("deepseek-chat"),
     lambda b: [m.pop("reasoning_content", None) for m in b["messages"]]),
    ("deepseek-thinking-disabled", "deepseek", _loop("deepseek-v4-pro"),
     lambda b: [m.pop("reasoning_content", None) for m in b["messages"]] and b.update(thinking={"type": "disabled"})),
    ("deepseek-outside-loop", "deepseek", _loop("deepseek-v4-pro"),
     lambda b: b["messages"].extend([{"role": "assistant", "content": "welcome"}, {"role": "user", "content": "bye"}])),
    ("kimi-instruct-does-not-think", "groq", _loop("moonshotai/kimi-k2-instruct"),
     lambda b: b["messages"][1].pop("reasoning_content")),
    ("kimi-on-groq-in-groqs-reasoning-field", "groq", _loop("moonshotai/kimi-k2.5"),
     lambda b: b["messages"][1].update(reasoning=b["messages"][1].pop("reasoning_content"))),
    # pydantic-ai's recorded requests: an earlier turn's tool loop without it was accepted
    # (pydantic_ai/models/openai/_chat_model.py lines 1181-1185)
    ("deepseek-earlier-turn-loop", "deepseek", _loop("deepseek-v4-pro"), lambda b: _no_reasoning(b["messages"])),
    ("deepseek-reasoner-takes-loop-reasoning", "deepseek", _current("deepseek-reasoner"), lambda b: None),
    ("deepseek-chat-current-loop-thinking-off", "deepseek", _current("deepseek-chat"),
     lambda b: _no_reasoning(b["messages"])),
    ("groq-n-1", "groq", _loop("llama-3.3-70b-versatile"), lambda b: b.update(n=1)),
]  # fmt: skip


@pytest.mark.parametrize(
    ("provider", "wire", "base", "mutate", "rule", "path"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_dialect_rule_catches_violation(
    provider: str, wire: str | None, base: Body, mutate: Mutate, rule: str, path: str
) -> None:
    body = copy.deepcopy(base)
    assert check_body(provider, body, wire=wire) == []
    mutate(body)
    findings = check_body(provider, body, wire=wire)
    assert {f.rule for f in findings} == {rule}, findings
    assert findings[0].path == path
    assert findings[0].kind == "reject" and findings[0].message and findings[0].why


@pytest.mark.parametrize(
    ("provider", "base", "mutate"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED]
)
def test_dialect_rules_quiet_on_accepted_shape(provider: str, base: Body, mutate: Mutate) -> None:
    body = copy.deepcopy(base)
    mutate(body)
    assert check_body(provider, body) == []


def test_deepseek_responses_keeps_responses_rules_but_not_reasoning_followed() -> None:
    ids = {r.id for r in rules_for("deepseek", wire="openai-responses")}
    assert {"responses-output-has-call", "deepseek-responses-output-before-message"} <= ids
    assert "responses-reasoning-followed" not in ids
    assert "deepseek-responses-output-before-message" not in {r.id for r in rules_for("openai-responses")}


@pytest.mark.parametrize(
    "model",
    ["moonshotai/kimi-k2.5", "moonshotai/Kimi-K2-Thinking", "kimi-k2-6", "moonshotai/kimi-k2-instruct-0905",
     "moonshotai/Kimi-K2-Instruct", "llama-3.3-70b-versatile"],
)  # fmt: skip
def test_kimi_rule_and_adapter_name_the_same_models(model: str) -> None:
    """The adapters send reasoning on Kimi tool calls for exactly the models the rule judges."""
    from harness.mapping.dialects import kimi_thinks

    body = _loop(model)
    body["messages"][1].pop("reasoning_content")
    fires = any(f.rule == "kimi-tool-call-reasoning" for f in check_body("huggingface", body))
    assert fires == kimi_thinks(model)


def test_every_dialect_rule_has_a_violating_body() -> None:
    assert {rule.id for rule in DIALECT_RULES} == COVERED

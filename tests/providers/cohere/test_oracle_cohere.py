"""Cohere's SDK oracle (the cohere SDK's ``RawV2Client.chat`` parameters, strict and closed) and its
rule: quiet on a body in the shapes the recordings show accepted, loud on what Cohere's types refuse."""

from __future__ import annotations

import copy
from typing import Any

from harness.oracles import describe, validate
from harness.rules import check_body

Body = dict[str, Any]

#: Synthetic, in the shapes traffic/pydantic-ai-more/ (api.cohere.com/v2/chat) and
#: traffic/pydantic-ai/models__test_cohere__test_cohere_model_thinking_part.yaml#1 show accepted.
RICH: Body = {
    "model": "command-a-reasoning-08-2025",
    "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "weather?"},
                                     {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "use the tool"}],
         "tool_plan": "I will check.",
         "tool_calls": [{"id": "get_weather_9gpb31r7h7mj", "type": "function",
                         "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "get_weather_9gpb31r7h7mj", "content": "sunny"},
    ],
    "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
    "strict_tools": True,
    "tool_choice": "REQUIRED",
    "thinking": {"type": "enabled", "token_budget": 1024},
    "max_tokens": 64,
    "temperature": 0.3,
    "stream": True,
}  # fmt: skip


#: Cohere's rules whose violating body is tested here (tests/test_rules.py counts them as covered).
COVERED = {"cohere-tool-choice-needs-tools"}


def _errors(body: Body) -> list[str]:
    return [e.path for e in validate("cohere", body).errors]


def test_the_rich_body_passes_and_the_sdk_oracle_runs() -> None:
    report = validate("cohere", RICH)
    assert report.ok and report.skipped == ["spec"], str(report)
    assert describe("cohere")["sdk"].startswith("cohere.v2.raw_client.RawV2Client.chat")
    assert check_body("cohere", RICH) == []


def test_unknown_keys_wrong_roles_and_types_are_refused() -> None:
    extra = copy.deepcopy(RICH)
    extra["messages"][3]["is_error"] = True
    extra["tools"][0]["function"]["strict"] = True
    assert _errors(extra) == ["messages/3/is_error", "tools/0/function/strict"]
    openai_choice = copy.deepcopy(RICH)
    openai_choice["tool_choice"] = {"type": "function", "function": {"name": "get_weather"}}
    assert _errors(openai_choice) == ["tool_choice"]
    developer = copy.deepcopy(RICH)
    developer["messages"][0]["role"] = "developer"
    assert _errors(developer)[0].startswith("messages/0")
    no_call_id = copy.deepcopy(RICH)
    del no_call_id["messages"][3]["tool_call_id"]
    assert _errors(no_call_id)[0].startswith("messages/3")


def test_required_choice_without_tools_breaks_the_documented_rule() -> None:
    body = {k: v for k, v in RICH.items() if k not in ("tools", "strict_tools")}
    assert [f.rule for f in check_body("cohere", body)] == ["cohere-tool-choice-needs-tools"]
    assert check_body("cohere", {**body, "tool_choice": "NONE"}) == []

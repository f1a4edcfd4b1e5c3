"""Cohere's SDK oracle (the cohere SDK's ``RawV2Client.chat`` parameters, strict and closed) and its
rule: quiet on a body in the shapes the recordings show accepted, loud on what Cohere's types refuse."""

from __future__ import annotations

import copy

from harness.oracles import describe, validate
from harness.rules import check_body
from harness.rules.cohere import COHERE_RULES
from tests.support.bodies import COHERE, Body

#: Cohere's rules whose violating body is tested here: every one of them.
COVERED = {"cohere-tool-choice-needs-tools"}


def _errors(body: Body) -> list[str]:
    return [e.path for e in validate("cohere", body).errors]


def test_the_rich_body_passes_and_the_sdk_oracle_runs() -> None:
    report = validate("cohere", COHERE)
    assert report.ok and report.skipped == ["spec"], str(report)
    assert describe("cohere")["sdk"].startswith("cohere.v2.raw_client.RawV2Client.chat")
    assert check_body("cohere", COHERE) == []


def test_unknown_keys_wrong_roles_and_types_are_refused() -> None:
    extra = copy.deepcopy(COHERE)
    extra["messages"][3]["is_error"] = True
    extra["tools"][0]["function"]["strict"] = True
    assert _errors(extra) == ["messages/3/is_error", "tools/0/function/strict"]
    openai_choice = copy.deepcopy(COHERE)
    openai_choice["tool_choice"] = {"type": "function", "function": {"name": "get_weather"}}
    assert _errors(openai_choice) == ["tool_choice"]
    developer = copy.deepcopy(COHERE)
    developer["messages"][0]["role"] = "developer"
    assert _errors(developer)[0].startswith("messages/0")
    no_call_id = copy.deepcopy(COHERE)
    del no_call_id["messages"][3]["tool_call_id"]
    assert _errors(no_call_id)[0].startswith("messages/3")


def test_required_choice_without_tools_breaks_the_documented_rule() -> None:
    body = {k: v for k, v in COHERE.items() if k not in ("tools", "strict_tools")}
    assert [f.rule for f in check_body("cohere", body)] == ["cohere-tool-choice-needs-tools"]
    assert check_body("cohere", {**body, "tool_choice": "NONE"}) == []


def test_every_cohere_rule_has_a_violating_body() -> None:
    assert {rule.id for rule in COHERE_RULES} == COVERED

"""The dialects' schema oracles: the official SDKs' request types (``mistralai``, ``groq``,
``cerebras-cloud-sdk``), strict and closed, and no oracle at all (reported, never a pass) for the
dialects that publish none (DeepSeek, Z.ai, Hugging Face's router). Bodies are synthetic, in
the shapes the recordings of traffic/pydantic-ai-more/ show accepted.
"""

from __future__ import annotations

import copy

import pytest

from harness.oracles import describe, validate
from tests.support.bodies import DIALECT_RICH

WITH_SDK = ("mistral", "groq", "cerebras")


@pytest.mark.parametrize("provider", WITH_SDK)
def test_the_sdk_oracle_accepts_the_documented_shape(provider: str) -> None:
    report = validate(provider, copy.deepcopy(DIALECT_RICH[provider]))
    assert report.ok, str(report)
    assert report.skipped == ["spec"]


@pytest.mark.parametrize("provider", WITH_SDK)
def test_the_sdk_oracle_is_closed(provider: str) -> None:
    body = copy.deepcopy(DIALECT_RICH[provider])
    body["messages"][1]["not_a_field"] = 1
    report = validate(provider, body)
    assert [e.path for e in report.errors] == ["messages/1/not_a_field"], str(report)


def test_mistral_oracle_knows_its_own_tool_choice_and_refuses_a_foreign_one() -> None:
    body = copy.deepcopy(DIALECT_RICH["mistral"])
    body["tool_choice"] = "sometimes"
    assert [e.path for e in validate("mistral", body).errors] == ["tool_choice"]


@pytest.mark.parametrize("provider", ["deepseek", "zai", "huggingface"])
def test_a_dialect_without_schema_or_sdk_is_reported_as_not_judged(provider: str) -> None:
    report = validate(provider, copy.deepcopy(DIALECT_RICH[provider]))
    assert report.skipped == ["spec", "sdk"] and not report.errors
    assert describe(provider) == {"spec": "none (not run)", "sdk": "none (not run)"}

"""A judge that raises on a recorded body is one finding on that body, never a traceback (issue 36).

Hostile input for every oracle: each oracle of each provider is made to raise, and a real body
that makes google-genai's own validation raise (an integer beyond the ``Schema.type`` enum:
``_missing_`` calls ``.upper()`` on it) goes through ``harness calibrate`` and
``harness audit-traffic``: exit 1, one finding per body naming the oracle, the run goes on.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

import harness.oracles as oracles
import harness.rules as rules
from harness.cli.main import app
from harness.oracles import validate
from harness.oracles.sdk import SDK_TARGETS
from harness.oracles.spec_targets import SPEC_TARGETS
from harness.rules import RULES, check_body

_GEMINI_URL = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"


class _Raises:
    def errors(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        raise RuntimeError("boom on this body")


@pytest.mark.parametrize(
    ("oracle", "provider"),
    [("spec", p) for p in sorted(SPEC_TARGETS)] + [("sdk", p) for p in sorted(SDK_TARGETS)],
)
def test_every_oracle_that_raises_is_one_error(
    oracle: str, provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def built(provider: str) -> _Raises:
        return _Raises()

    monkeypatch.setattr(oracles, "spec_oracle" if oracle == "spec" else "sdk_oracle", built)
    report = validate(provider, {"model": "m", "messages": []}, oracles=(oracle,))
    (error,) = report.errors
    assert (error.oracle, error.path) == (oracle, "")
    assert error.message == "the oracle could not judge this body: RuntimeError: boom on this body"


def test_a_rule_that_raises_is_one_reject_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    rule = next(r for r in RULES if "anthropic" in r.providers)

    def boom(provider: str, body: dict[str, Any], model: str | None) -> list[Any]:
        raise KeyError("x")

    broken = dataclasses.replace(rule, check=boom)
    monkeypatch.setattr(rules, "RULES", tuple(broken if r is rule else r for r in RULES))
    found = [f for f in check_body("anthropic", {"messages": []}) if f.rule == rule.id]
    assert [(f.kind, f.message) for f in found] == [
        ("reject", "the rule could not judge this body: KeyError: 'x'")
    ]


def _gemini_body(schema_type: object) -> dict[str, Any]:
    declaration = {"name": "f", "parameters": {"type": schema_type, "properties": {"a": {"type": 1}}}}
    return {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [{"functionDeclarations": [declaration]}],
    }


def _cassette(tmp: Path, bodies: list[dict[str, Any]]) -> Path:
    """Synthetic: a cassette of accepted Gemini calls with the given bodies (not a recording)."""
    response = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}]}
    interactions: list[dict[str, Any]] = [
        {
            "request": {"method": "POST", "uri": _GEMINI_URL, "body": json.dumps(body), "headers": {}},
            "response": {"status": {"code": 200}, "headers": {}, "body": {"string": json.dumps(response)}},
        }
        for body in bodies
    ]
    path = tmp / "synthetic_hostile.yaml"
    path.write_text(yaml.safe_dump({"interactions": interactions}), encoding="utf-8")
    return path


def test_integer_enum_numbers_are_read_and_an_unknown_number_is_one_finding(tmp_path: Path) -> None:
    assert validate(
        "gemini", _gemini_body(6)
    ).ok  # OBJECT by number (proto3 JSON, Vertex's enum-encoding=int)
    report = validate("gemini", _gemini_body(99))
    assert any(
        e.message.startswith("the oracle could not judge this body: AttributeError") for e in report.errors
    )


@pytest.mark.parametrize("command", ["calibrate", "audit-traffic"])
def test_a_body_an_oracle_raises_on_fails_the_run_with_one_finding_per_body(
    tmp_path: Path, command: str
) -> None:
    path = _cassette(tmp_path, [_gemini_body(99), _gemini_body(6), _gemini_body(99)])
    result = CliRunner().invoke(app, [command, str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    crashed = [line for line in result.output.splitlines() if "could not judge this body" in line]
    assert len(crashed) == 2, result.output  # one per hostile body (#0 and #2), none for #1
    assert any("#0" in line for line in crashed) and any("#2" in line for line in crashed)

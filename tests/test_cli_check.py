"""``harness check`` as a user meets it: the invariant list, a clean report, violations, input errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness.targets
from harness.cli.main import app
from harness.codec import dumps_history
from harness.contract.providers import PROVIDERS
from harness.invariants import INVARIANTS
from harness.model import DeveloperMessage, HistoryEvent
from harness.scenarios import get_scenario
from harness.targets import Target, TargetError
from tests.support.invariants import REFERENCE, Mutant

runner = CliRunner()

PINNED = [
    ("I1", "developer-degradation"),
    ("I2", "thinking-pairing"),
    ("I3", "one-assistant-per-call"),
    ("I4", "tool-result-text"),
    ("I5", "interrupt-semantics"),
    ("I6", "event-order"),
    ("I7", "tool-pairing"),
    ("I8", "provider-shape"),
    ("I9", "prefix-stability"),
    ("I10", "determinism"),
    ("I11", "round-trips"),
    ("I12", "schema-conformance"),
    ("I13", "no-silent-loss"),
    ("I14", "files"),
    ("I15", "sources-reach-the-message"),
    ("I16", "provider-executed-calls"),
    ("I17", "cache-breakpoints"),
    ("I18", "call-controls"),
]


def _write(tmp_path: Path, scenario: str) -> tuple[Path, Path]:
    case = get_scenario(scenario)
    history = tmp_path / "h.jsonl"
    history.write_text(dumps_history(case.history), encoding="utf-8")
    params = tmp_path / "p.json"
    params.write_text(case.params.model_dump_json(exclude_none=True), encoding="utf-8")
    return history, params


def test_list_prints_each_invariant_in_order() -> None:
    result = runner.invoke(app, ["check", "--list"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert [tuple(line.split()[:2]) for line in lines] == PINNED
    assert [(i.id, i.name) for i in INVARIANTS] == PINNED
    for line, inv in zip(lines, INVARIANTS, strict=True):
        assert line.endswith(inv.description)


def test_a_clean_history_exits_0(tmp_path: Path) -> None:
    history, params = _write(tmp_path, "developer_after_tool_result")
    result = runner.invoke(app, ["check", str(history), "--params", str(params)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())  # the line wraps at the terminal width
    assert f"all {len(PINNED)} invariants hold ({', '.join(PROVIDERS)})" in said
    assert "note: I12: no spec oracle for mistral; judged by the rules and the other oracle" in result.stdout
    assert "note: I12: no spec or sdk oracle for zai; judged by the rules" in result.stdout


def test_violations_exit_1_with_a_report_grouped_by_invariant(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text(
        '{"role":"user","parts":[{"type":"text","text":"hi"}]}\n'
        '{"role":"assistant","parts":[{"type":"text","text":"hello"}],"stop_reason":"tool_use"}\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["check", str(path), "--provider", "openai-chat"])
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "I3 one-assistant-per-call: 2 violation(s)" in out
    assert "history message 1: assistant message has no usage" in out
    assert "history message 1: stop_reason tool_use but the message calls no tool" in out
    assert "example: " in out
    assert (
        out.strip().splitlines()[-1]
        == "2 violation(s) of 1 invariant(s) (0 reject, 0 degrade, 2 policy; openai-chat)"
    )


def _drop_developers(_provider: str, history: list[HistoryEvent]) -> list[HistoryEvent]:
    return [e for e in history if not isinstance(e, DeveloperMessage)]


def test_a_broken_target_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_get_target(name: str) -> Target:
        if name == "mutant":
            return Mutant(history=_drop_developers)
        if name == "reference":
            return REFERENCE
        raise TargetError(f"unknown target '{name}'")

    monkeypatch.setattr(
        harness.targets, "get_target", fake_get_target
    )  # the CLI looks it up when a command runs
    history, params = _write(tmp_path, "developer_after_user")
    args = ["check", str(history), "--params", str(params), "--target", "mutant", "--provider", "anthropic"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "I1 developer-degradation: " in result.stdout
    assert "anthropic message 1: developer text (part 0) is in no string of the request" in result.stdout
    assert "I13 no-silent-loss: " in result.stdout


@pytest.mark.parametrize(
    ("args", "content", "expected"),
    [
        (["--provider", "nope"], None, "--provider: unknown provider 'nope'"),
        (["--target", "nope"], None, "--target: unknown target 'nope'"),
        ([], '{"role":"user","parts":[{"type":"text"}]}\n', "h.jsonl:1: parts[0].text: Field required"),
        ([], "not json\n", "h.jsonl:1: (json): invalid JSON"),
        (["--params", "missing.json"], None, "missing.json:0: (file): no such file"),
    ],
    ids=["provider", "target", "history-field", "history-json", "params"],
)
def test_invalid_input_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], content: str | None, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "h.jsonl"
    path.write_text(content or '{"role":"user","parts":[{"type":"text","text":"hi"}]}\n', encoding="utf-8")
    result = runner.invoke(app, ["check", str(path), *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_missing_history_is_exit_2() -> None:
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "harness: HISTORY: missing (give a JSON Lines history file, or --list)"


def test_fail_on_chooses_which_kinds_fail_the_run(tmp_path: Path) -> None:
    history = tmp_path / "h.jsonl"
    history.write_text(
        '{"role": "user", "parts": [{"type": "text", "text": "hi"}]}\n'
        '{"role": "assistant", "parts": [{"type": "text", "text": "hello"}], "stop_reason": "tool_use"}\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    args = ["check", str(history), "--provider", "openai-chat"]
    assert runner.invoke(app, args).exit_code == 1  # a history-side policy finding, fatal by default here
    assert runner.invoke(app, [*args, "--fail-on", "reject,degrade"]).exit_code == 0
    bad = runner.invoke(app, [*args, "--fail-on", "fatal"])
    assert bad.exit_code == 2 and "--fail-on: unknown finding kind 'fatal'" in bad.output

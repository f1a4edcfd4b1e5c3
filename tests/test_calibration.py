"""Calibration of every check on real traffic: quiet on what the APIs accepted, and every
recorded rejection caught by a check or classified as not visible in the body.

Runs ``harness calibrate`` logic over the in-repo ``traffic/`` (pydantic-ai's recorded
cassettes, see traffic/pydantic-ai/SOURCES.md) and the project's own ``cassettes/``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from harness.cli.main import app
from harness.oracles import ALLOWANCES
from harness.traffic.calibrate import Calibration, calibrate

ROOT = Path(__file__).resolve().parent.parent
PATHS = [ROOT / "traffic", ROOT / "cassettes"]


@pytest.fixture(scope="module")
def result() -> Calibration:
    return calibrate(PATHS)


def test_every_accepted_request_passes_every_reject_check(result: Calibration) -> None:
    assert result.failures == [], "\n".join(str(f) for f in result.failures)
    assert result.unreadable == []
    judged = sum(result.accepted.values())
    assert judged > 700 and all(result.summary(p)["accepted"] > 0 for p in result.accepted)
    assert sum(result.accepted_pass.values()) == judged


def test_every_rejection_is_caught_or_classified(result: Calibration) -> None:
    unexplained = [str(r) for r in result.rejections if r.verdict == "unexplained"]
    assert unexplained == []
    assert len(result.rejections) >= 14
    caught = {r.where.split("/")[-1]: r.by for r in result.rejections if r.verdict == "caught"}
    assert caught[
        "models__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml#1"
    ] == ("rule:responses-reasoning-followed",)


def test_skips_say_why(result: Calibration) -> None:
    assert all(": " in s for s in result.skipped)


def test_every_recorded_allowance_is_needed_by_its_evidence(result: Calibration) -> None:
    """An allowance that cites an accepted interaction must be the one that interaction needs."""
    for allowance in ALLOWANCES:
        recorded = [e for e in allowance.evidence if e.startswith(("traffic/", "cassettes/"))]
        used = {w.removeprefix(f"{ROOT}/") for w in result.allowances.get(allowance.id, [])}
        for evidence in recorded:
            assert evidence in used, f"{allowance.id}: {evidence} does not need it"


def _cassette(tmp: Path, mutate: Callable[[dict[str, Any]], object]) -> Path:
    source = ROOT / "cassettes" / "anthropic" / "llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml"
    document = yaml.safe_load(source.read_text(encoding="utf-8"))
    document["interactions"] = document["interactions"][:1]
    body = copy.deepcopy(document["interactions"][0]["request"]["parsed_body"])
    mutate(body)
    document["interactions"][0]["request"]["parsed_body"] = body
    path = tmp / "synthetic.yaml"  # synthetic: a real cassette with its request body edited
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def _empty_messages(body: dict[str, Any]) -> None:
    body["messages"] = []


def test_cli_exit_statuses_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    good = runner.invoke(app, ["calibrate", "--json", str(ROOT / "cassettes" / "anthropic")])
    assert good.exit_code == 0, good.output
    data = json.loads(good.output)
    assert data["ok"] is True and data["providers"]["anthropic"]["accepted"] > 0
    bad = runner.invoke(app, ["calibrate", str(_cassette(tmp_path, _empty_messages))])
    assert bad.exit_code == 1
    assert "synthetic.yaml#0 anthropic rule:empty-conversation messages:" in bad.output
    assert "anthropic: accepted 0/1 pass" in bad.output
    usage = runner.invoke(app, ["calibrate", str(tmp_path / "missing")])
    assert usage.exit_code == 2


def test_unexplained_rejection_fails_the_run(tmp_path: Path) -> None:
    path = _cassette(tmp_path, lambda _: None)
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    response = document["interactions"][0]["response"]
    response["status"] = {"code": 400, "message": "Bad Request"}
    response.pop("parsed_body", None)
    response["body"] = {"string": '{"error": {"message": "something no check knows"}}'}
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = calibrate([path])
    assert not result.ok
    assert [r.verdict for r in result.rejections] == ["unexplained"]
    assert "something no check knows" in result.rejections[0].reason


def test_unreadable_file_is_one_line_and_fails_the_run(tmp_path: Path) -> None:
    (tmp_path / "a_bad.yaml").write_text("interactions: [\n  - {request: {", encoding="utf-8")
    _cassette(tmp_path, lambda _: None)
    result = calibrate([tmp_path])
    assert len(result.unreadable) == 1 and "a_bad.yaml#0: file: invalid YAML" in result.unreadable[0]
    assert sum(result.accepted.values()) == 1 and not result.ok


def test_a_reject_on_an_accepted_request_is_an_oracle_disagreement(tmp_path: Path) -> None:
    """Issue 24: a 2xx outranks the check; the miss is counted and listed apart, per provider."""
    result = calibrate([_cassette(tmp_path, _empty_messages)])
    assert result.disagreements and result.summary("anthropic")["disagreements"] == 1
    lines = result.lines()
    assert lines[0].startswith("oracle disagreements: ") and "1 accepted request(s)" in lines[0]
    assert any(line.startswith("anthropic: accepted 0/1 pass, 1 oracle disagreement(s)") for line in lines)
    assert result.to_json()["disagreements"] == len(result.failures)


def test_calls_to_providers_without_an_id_are_not_judged_with_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every pending host has its provider now; a PROVIDERS trimmed of one (here cohere) must
    # still list its calls as not judged rather than judge them as another provider's.
    import harness.traffic.pending as pending

    monkeypatch.setattr(pending, "PROVIDERS", tuple(p for p in pending.PROVIDERS if p != "cohere"))
    path = _cassette(tmp_path, lambda _: None)
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    document["interactions"][0]["request"]["uri"] = "https://api.cohere.com/v2/chat"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = calibrate([path])
    assert result.ok and sum(result.accepted.values()) == 0
    assert result.skipped == [
        f"{path}#0: provider 'cohere' (api.cohere.com) is not a provider of the harness yet; not judged"
    ]
    assert any("provider 'cohere'" in line for line in result.lines())

"""Calibration of every check on real traffic: quiet on what the APIs accepted, and every
recorded rejection caught by a check or classified as not visible in the body.

Runs ``harness calibrate`` logic over the in-repo ``traffic/`` (pydantic-ai's recorded
cassettes, see traffic/pydantic-ai/SOURCES.md) and the project's own ``cassettes/``.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from harness.accepted.registry import for_judge
from harness.cli.main import app
from harness.traffic.calibrate import EDITED_REASON, Calibration, calibrate
from tests.support.traffic import calibration

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def result() -> Calibration:
    return calibration()  # traffic/ and cassettes/, shared with test_accepted_needed


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
    for allowance in for_judge("oracle"):
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


def _string_body(tmp: Path, body: str, content_length: int | None) -> Path:
    """A real cassette whose request body is replaced by ``body``, recorded as a string (synthetic)."""
    path = _cassette(tmp, lambda _: None)
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    request = document["interactions"][0]["request"]
    request.pop("parsed_body")
    request["body"] = body
    request["headers"] = {} if content_length is None else {"content-length": [str(content_length)]}
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


@pytest.mark.parametrize("content_length", [None, len('{"messages": [')])
def test_a_body_that_does_not_parse_fails_the_run_unless_the_recording_shows_it_was_edited(
    tmp_path: Path, content_length: int | None
) -> None:
    """The rule (harness/traffic/loader.py ``_edited``): a request body that is not JSON is an
    unreadable recording (exit 1), except when its own Content-Length says other bytes were sent;
    then it is listed as not judged, naming the file#interaction and both lengths."""
    body = '{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 5'
    path = _string_body(tmp_path, body, content_length)
    result = calibrate([path])
    if content_length is None:
        assert (
            not result.ok
            and len(result.unreadable) == 1
            and "synthetic.yaml#0: request body:" in (result.unreadable[0])
        )
        assert result.edited == [] and result.skipped == []
    else:
        assert result.ok and result.unreadable == [] and sum(result.accepted.values()) == 0
        assert result.edited == [
            f"{path}#0: request body: not the request sent: {len(body)} bytes recorded under "
            f"Content-Length {content_length} (invalid JSON: Expecting ',' delimiter at column {len(body) + 1})"
        ]
        assert [s.split(": ", 1)[1] for s in result.skipped] == [EDITED_REASON]
    same = _string_body(tmp_path, body, len(body.encode()))  # the bytes sent, broken: unreadable
    assert not calibrate([same]).ok


def test_the_recording_edited_by_hand_is_listed_not_judged(result: Calibration) -> None:
    """traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_other_parameters.yaml#0:
    320 bytes, not JSON, under content-length 178 (see traffic/pydantic-ai-more/SOURCES.md)."""
    edited = [e.removeprefix(f"{ROOT}/") for e in result.edited]
    assert edited == [
        "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_other_parameters.yaml#0: "
        "request body: not the request sent: 320 bytes recorded under Content-Length 178 "
        "(invalid JSON: Expecting ',' delimiter at column 321)"
    ]
    # the same rule in audit-traffic and import-check: listed as not judged, never unreadable
    from harness.importcheck.check import check_traffic
    from harness.traffic.audit import audit_traffic

    path = (
        ROOT
        / "traffic"
        / "pydantic-ai-more"
        / "models__test_bedrock__test_bedrock_model_other_parameters.yaml"
    )
    audited = audit_traffic([path])
    assert audited.unreadable == [] and audited.skipped == [f"{path}#0: {EDITED_REASON}"]
    imported = check_traffic([path])
    assert imported.unreadable == [] and imported.requests == [] and imported.skipped == {EDITED_REASON: 1}


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


def test_the_result_from_two_processes_is_the_single_process_result() -> None:
    """The command in a fresh process (one thread: its two workers are forked) against one process."""
    folder = ROOT / "traffic" / "pydantic-ai"  # OpenAI's Chat and Responses: one SDK for the workers to build
    files = (
        sorted(folder.glob("models__test_openai__*.yaml"))[::12]
        + sorted(folder.glob("models__test_openai_responses__*.yaml"))[::22]
    )
    code = "from harness.cli.main import app; app(prog_name='harness')"
    args = ["calibrate", *map(str, files), "--jobs", "2", "--json"]
    two = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
    one = calibrate(files, jobs=1)
    assert len(one.accepted) == 2 and sum(one.accepted.values()) > len(files)  # two providers to merge
    assert two.stdout == json.dumps(one.to_json(), sort_keys=True, indent=1) + "\n"

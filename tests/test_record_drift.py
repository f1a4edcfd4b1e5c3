"""Semantic diff of re-recordings: request fields as JSON paths, stream contents, event types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from harness.cli.main import app
from harness.record.cassette_format import dump_cassette
from harness.record.drift import diff_files, json_changes
from harness.record.fakeserver import FakeProvider
from tests.support.cassettes import model_calls
from tests.support.record import CASSETTES, key_env, run_record, write_history

SOURCE = CASSETTES / "anthropic" / "llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml"
CITATION = (
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
    '"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"x"}}}\n\n'
)


def _drifted(tmp_path: Path) -> Path:
    """The source cassette as if the provider had changed: new request field, new event type, other text."""
    data: dict[str, Any] = yaml.safe_load(SOURCE.read_text(encoding="utf-8"))
    first = data["interactions"][0]
    first["request"]["parsed_body"]["model"] = "claude-haiku-4-5"
    first["request"]["parsed_body"]["metadata"] = {"user_id": "u1"}
    body: str = first["response"]["body"]["string"]
    body = body.replace('"text":" help"', '"text":" gladly help"', 1)
    body = body.replace('"output_tokens":84', '"output_tokens":90', 1)
    body = body.replace("event: content_block_stop", CITATION + "event: content_block_stop", 1)
    first["response"]["body"]["string"] = body
    path = tmp_path / "anthropic" / "drifted.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(dump_cassette(data), encoding="utf-8")
    return path


def test_json_changes_are_json_paths() -> None:
    old = {"a": [1, {"b": "x"}], "weird-key": 1, "gone": True}
    new = {"a": [1, {"b": "y"}, 3], "weird-key": 1.0, "new": None}
    assert [str(c) for c in json_changes(old, new)] == [
        'changed $.a[1].b: "x" -> "y"',
        "added   $.a[2] = 3",
        'changed $["weird-key"]: 1 -> 1.0',
        "removed $.gone (was true)",
        "added   $.new = null",
    ]


def test_same_recording_has_no_drift() -> None:
    result = CliRunner().invoke(app, ["diff", str(SOURCE), str(SOURCE), "--provider", "anthropic"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == ["  no semantic drift"]


def test_drift_names_request_fields_and_stream_changes(tmp_path: Path) -> None:
    lines = diff_files(SOURCE, _drifted(tmp_path), "anthropic").lines
    assert lines[:3] == [
        "call 1 request:",
        '  changed $.model: "claude-3-5-haiku-latest" -> "claude-haiku-4-5"',
        '  added   $.metadata = {"user_id": "u1"}',
    ]
    assert lines[3] == "call 1 response:"
    response = "\n".join(lines[4:])
    assert "final text: 102 -> 109 chars, first difference at char 5" in response
    assert "usage: output_tokens 84 -> 90" in response
    assert "event types: added ['content_block_delta:citations_delta']" in response
    assert "call 2" not in response  # the second call did not change


def test_diff_command_exits_1_on_drift(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["diff", str(SOURCE), str(_drifted(tmp_path)), "--provider", "anthropic"]
    )
    assert result.exit_code == 1
    assert "citations_delta" in result.stdout
    missing = CliRunner().invoke(
        app, ["diff", str(SOURCE), str(tmp_path / "none.yaml"), "--provider", "anthropic"]
    )
    assert missing.exit_code == 2 and missing.stderr.startswith("harness: ")


def test_rerecording_prints_the_semantic_diff(tmp_path: Path) -> None:
    out = tmp_path / "cassette.yaml"
    history = write_history(tmp_path)
    for source in (SOURCE, _drifted(tmp_path)):
        with FakeProvider(model_calls("anthropic", source)) as fake:
            result = run_record(
                "anthropic", history, out, fake.base_url, key_env("anthropic"), "--turns", "2"
            )
        assert result.exit_code == 0, result.stderr
    assert f"semantic diff against the previous {out}:" in result.stderr
    assert "event types: added ['content_block_delta:citations_delta']" in result.stderr
    assert "usage: output_tokens 84 -> 90" in result.stderr

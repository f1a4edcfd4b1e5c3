"""``harness replay`` of other clients' recordings: LangChain's cassette format, a URL the
recorder redacted, a URL with a fragment (the mistralai SDK's ``#stream``), a request without a body.

Recordings are bundled under ``traffic/clients2/`` (sources and licenses in its SOURCES.md); the
cassettes built here are labelled synthetic.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from harness.cli.main import app
from harness.providers.replay import load_exchanges, replay_file

ROOT = Path(__file__).resolve().parent.parent
CLIENTS2 = ROOT / "traffic" / "clients2"
LC_ANTHROPIC = CLIENTS2 / "langchain/libs/partners/anthropic/tests/cassettes/test_thinking.yaml.gz"
LC_OPENAI = (
    CLIENTS2 / "langchain/libs/partners/openai/tests/cassettes/test_configuration_update_block.yaml.gz"
)
MISTRAL = next(
    (CLIENTS2 / "openinference/python/instrumentation/openinference-instrumentation-mistralai").rglob(
        "*.yaml"
    )
)
runner = CliRunner()


def _notes(path: Path) -> tuple[int, list[str]]:
    notes: list[str] = []
    results = replay_file(path, None, on_note=notes.append)
    return len(results), notes


def test_langchains_cassettes_are_read_as_stored() -> None:
    count, notes = _notes(LC_ANTHROPIC)
    assert count == 3 and "replayed as anthropic (Anthropic Messages)" in notes


def test_a_redacted_url_is_replayed_by_its_responses_events_with_a_note() -> None:
    count, notes = _notes(LC_OPENAI)
    redacted = [n for n in notes if "the request URL is not recorded ('**REDACTED**')" in n]
    assert count == 3 and len(redacted) == 3, notes
    assert all("OpenAI Responses" in n for n in redacted)


def test_langchains_unpaired_lists_are_one_line(tmp_path: Path) -> None:
    """SYNTHETIC: two requests, one response."""
    document = {"requests": [{"method": "POST", "uri": "x"}] * 2, "responses": [{"status": {"code": 200}}]}
    path = tmp_path / "bad.yaml.gz"
    path.write_bytes(gzip.compress(yaml.safe_dump(document).encode()))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "2 requests but 1 responses" in result.stderr
    assert result.stderr.count("\n") == 1 and str(path) in result.stderr


def test_a_url_fragment_is_no_part_of_the_path() -> None:
    """The mistralai SDK's URL ``.../chat/completions#stream``, as vcrpy stored it: a model call."""
    (exchange,) = load_exchanges(MISTRAL, None)
    assert exchange.uri.endswith("#stream") and exchange.is_model_call
    count, notes = _notes(MISTRAL)
    assert count == 1 and "replayed as mistral (OpenAI Chat Completions)" in notes


def _cassette(tmp_path: Path, method: str, uri: str, body: str, response: str) -> Path:
    path = tmp_path / "synthetic.yaml"
    interaction: dict[str, Any] = {
        "request": {"method": method, "uri": uri, "body": body, "headers": {}},
        "response": {"status": {"code": 200}, "headers": {}, "body": {"string": response}},
    }
    path.write_text(yaml.safe_dump({"interactions": [interaction]}), encoding="utf-8")
    return path


_EVENTS: tuple[dict[str, Any], ...] = (
        {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
         "content": [], "model": "claude-x", "usage": {"input_tokens": 3, "output_tokens": 0}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
        {"type": "message_stop"},
)  # fmt: skip
SSE = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in _EVENTS)


def test_a_model_stream_answering_a_request_without_a_body_is_replayed(tmp_path: Path) -> None:
    """SYNTHETIC: a recorder that kept no request body, at a path that names no model call."""
    path = _cassette(tmp_path, "POST", "https://gateway.example/v1/run", "", SSE)
    count, notes = _notes(path)
    assert count == 1 and any("no request body" in n and "Anthropic Messages stream" in n for n in notes)
    assert replay_file(path, None)[0].message.stop_reason == "stop"


def test_a_json_answer_to_a_request_without_a_body_is_not_a_model_call(tmp_path: Path) -> None:
    """SYNTHETIC: a model listing (GET, no body) whose JSON could be read as a model's: skipped."""
    listing = json.dumps({"id": "msg_1", "type": "message", "role": "assistant", "content": []})
    path = _cassette(tmp_path, "GET", "https://api.anthropic.com/v1/models/claude-x", "", listing)
    count, notes = _notes(path)
    assert count == 0 and any("not a model call" in n for n in notes)


def test_a_recorded_image_generation_stream_replays_to_the_generated_image() -> None:
    """Recorded (LangChain's ``test_image_generation_streaming``, gpt-4.1 with the ``image_generation``
    tool, ``partial_images: 1``, streamed): ``harness replay`` yields the generated image as the
    assistant's file part (image/jpeg from ``output_format``, the ``ig_`` item id), the final result
    having replaced the partial image."""
    path = CLIENTS2 / "langchain/libs/partners/openai/tests/cassettes/test_image_generation_streaming.yaml.gz"
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.stderr
    (call,) = json.loads(result.stdout)
    files = [p for p in call["message"]["parts"] if p["type"] == "file"]
    assert len(files) == 1 and files[0]["media_type"] == "image/jpeg", files
    assert files[0]["id"].startswith("ig_") and files[0]["data"].startswith("/9j/")
    assert call["message"]["stop_reason"] == "stop" and not call["errors"]

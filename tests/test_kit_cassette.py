"""``harness.kit.load_cassette``: the public loader from a recorded cassette (vcrpy YAML, LangChain's gzip
format, the bundled cassettes) to the ``Exchange``s ``replay`` takes; bad input is one line."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from harness.kit import CassetteError, load_cassette, provider_of

_VCR = """interactions:
- request:
    body: '{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}'
    headers: {content-type: [application/json]}
    method: POST
    uri: https://api.openai.com/v1/chat/completions
  response:
    body: {string: '{"id": "chatcmpl-1", "choices": []}'}
    headers: {content-type: [application/json]}
    status: {code: 200, message: OK}
- request:
    body: ''
    headers: {}
    method: GET
    uri: https://api.openai.com/v1/models
  response:
    body: {string: '{"data": []}'}
    headers: {}
    status: {code: 200, message: OK}
version: 1
"""

_LANGCHAIN = """requests:
- body: !!binary eyJtb2RlbCI6ICJncHQtNG8iLCAibWVzc2FnZXMiOiBbeyJyb2xlIjogInVzZXIiLCAiY29udGVudCI6ICJoaSJ9XX0=
  headers: {}
  method: POST
  uri: '**REDACTED**'
responses:
- body: {string: '{"id": "chatcmpl-2", "choices": []}'}
  headers: {}
  status: {code: 200, message: OK}
"""


def test_load_cassette_reads_vcrpy_yaml(tmp_path: Path) -> None:
    path = tmp_path / "chat.yaml"
    path.write_text(_VCR, encoding="utf-8")
    every = load_cassette(path)
    assert [(e.method, e.status) for e in every] == [("POST", 200), ("GET", 200)]
    (call,) = load_cassette(path, model_calls=True)
    assert call.request_body == {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    assert call.body == b'{"id": "chatcmpl-1", "choices": []}'
    assert call.header("Content-Type") == "application/json" and provider_of(call) == "openai-chat"


def test_load_cassette_reads_langchains_gzip_format_and_routes_a_redacted_url_by_shape(
    tmp_path: Path,
) -> None:
    path = tmp_path / "test_chat.yaml.gz"
    path.write_bytes(gzip.compress(_LANGCHAIN.encode()))
    (call,) = load_cassette(path, model_calls=True)
    assert call.uri == "**REDACTED**" and call.request_body["model"] == "gpt-4o"
    assert provider_of(call) == "openai-chat"


def test_load_cassette_reads_the_bundled_cassettes() -> None:
    bundled = sorted(Path(__file__).resolve().parent.parent.joinpath("cassettes", "anthropic").glob("*.yaml"))
    calls = load_cassette(bundled[0], model_calls=True)
    assert calls and all(provider_of(c) == "anthropic" for c in calls)


def test_load_cassette_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("interactions: [\n", encoding="utf-8")
    with pytest.raises(CassetteError) as caught:
        load_cassette(path)
    assert str(caught.value).startswith(f"{path}#0: file:") and "\n" not in str(caught.value)
    with pytest.raises(CassetteError, match="no such file"):
        load_cassette(tmp_path / "missing.yaml")

"""``harness record --provider bedrock``: SigV4 by botocore, binary event streams kept, no key on disk.

Everything runs against the fake provider on 127.0.0.1 (``harness/record/fakeserver.py``)
serving the bundled Bedrock cassettes, with fake AWS credentials shaped like real ones
(``tests.support.record.FAKE_KEYS``): never the network. The signature each request
arrived with is recomputed here with botocore from what the server received.
"""

from __future__ import annotations

import base64
import json
import re
from importlib import import_module
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import yaml
from typer.testing import CliRunner

from harness.cli.main import app
from harness.params import CallParams
from harness.providers.replay import Exchange, load_exchanges, replay_file, result_to_json
from harness.record import aws
from harness.record.endpoints import MissingKeyError, api_key_for, build_request
from harness.record.fakeserver import FakeProvider, ReceivedRequest, split_frames
from harness.record.scrub import scrub_text
from harness.record.secrets import find_secrets
from tests.support.cassettes import model_calls
from tests.support.record import CASSETTES, FAKE_KEYS, key_env, run_record, write_history

SOURCE = CASSETTES / "bedrock" / "models__test_bedrock__test_bedrock_model_iter_stream.yaml"
ENV = key_env("bedrock")
SECRETS = [ENV["AWS_ACCESS_KEY_ID"], ENV["AWS_SECRET_ACCESS_KEY"], ENV["AWS_SESSION_TOKEN"]]


def record(
    tmp_path: Path, calls: list[Exchange], *extra: str, env: dict[str, str] | None = None
) -> tuple[Any, list[ReceivedRequest], Path, str]:
    out = tmp_path / "out.yaml"
    with FakeProvider(calls, lifetime=20) as fake:
        result = run_record(
            "bedrock",
            write_history(tmp_path),
            out,
            fake.base_url,
            env or ENV,
            "--turns",
            str(len(calls)),
            *extra,
        )
        return result, list(fake.requests), out, fake.base_url


def test_the_signing_name_is_the_service_models() -> None:
    session: Any = import_module("botocore.session").get_session()
    assert session.get_service_model("bedrock-runtime").signing_name == aws.SIGNING_NAME


def test_live_request_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_REGION", "eu-west-3")
    request = build_request(
        "bedrock", {"messages": []}, CallParams(model="us.amazon.nova-pro-v1:0"), "ignored"
    )
    assert (
        request.url
        == "https://bedrock-runtime.eu-west-3.amazonaws.com/model/us.amazon.nova-pro-v1%3A0/converse-stream"
    )
    assert request.headers["accept"] == "application/vnd.amazon.eventstream"
    assert request.headers["authorization"].startswith(
        f"AWS4-HMAC-SHA256 Credential={ENV['AWS_ACCESS_KEY_ID']}/"
    )
    assert "/eu-west-3/bedrock/aws4_request" in request.headers["authorization"]
    assert request.headers["x-amz-security-token"] == ENV["AWS_SESSION_TOKEN"]
    assert not any(s in repr(request) for s in SECRETS)
    unstreamed = build_request("bedrock", {}, CallParams(stream=False), "ignored")
    assert unstreamed.url.endswith(
        f"/model/{quote('us.anthropic.claude-sonnet-4-5-20250929-v1:0', safe='')}/converse"
    )
    assert unstreamed.headers["accept"] == "application/json"


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID is not set (needed to record bedrock)"),
        ("AWS_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY is not set (needed to record bedrock)"),
        ("AWS_REGION", "AWS_REGION is not set (needed to record bedrock: the region signs the request)"),
    ],
)
def test_a_missing_credential_is_one_line_exit_2(tmp_path: Path, missing: str, message: str) -> None:
    env: dict[str, str | None] = {**ENV, missing: None, "AWS_DEFAULT_REGION": None}
    with pytest.raises(MissingKeyError, match=f"^{re.escape(message)}$"):
        api_key_for("bedrock", {k: v for k, v in env.items() if v is not None})
    result = CliRunner().invoke(
        app,
        [
            "record",
            "--provider",
            "bedrock",
            "--history",
            str(write_history(tmp_path)),
            "--out",
            str(tmp_path / "o.yaml"),
        ],
        env=env,
    )
    assert (result.exit_code, result.stderr) == (2, f"harness: {message}\n")
    assert not (tmp_path / "o.yaml").exists()


def _signature_by_botocore(request: ReceivedRequest, base_url: str) -> tuple[str, str, str]:
    """(credential scope, signed headers, signature) botocore computes for the request as received."""
    fields = dict(
        f.strip().split("=", 1)
        for f in request.headers["authorization"].removeprefix("AWS4-HMAC-SHA256 ").split(",")
    )
    signed = fields["SignedHeaders"].split(";")
    awsrequest: Any = import_module("botocore.awsrequest")
    auth: Any = import_module("botocore.auth")
    credentials: Any = import_module("botocore.credentials").Credentials(*SECRETS)
    received: Any = awsrequest.AWSRequest(
        method=request.method,
        url=base_url + request.path,
        data=request.body,
        headers={name: request.headers[name] for name in signed},
    )
    received.context["timestamp"] = request.headers["x-amz-date"]
    signer: Any = auth.SigV4Auth(credentials, "bedrock", ENV["AWS_REGION"])
    canonical = signer.canonical_request(received)
    signature = signer.signature(signer.string_to_sign(received, canonical), received)
    return signer.scope(received), signer.signed_headers(signer.headers_to_sign(received)), signature


def test_each_request_carries_botocores_signature_and_the_cassette_replays_like_the_source(
    tmp_path: Path,
) -> None:
    calls = model_calls("bedrock", SOURCE)
    result, requests, out, base_url = record(tmp_path, calls)
    assert result.exit_code == 0, result.stderr
    assert len(requests) == len(calls) == 2
    for request in requests:
        assert request.path == "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream"
        fields = dict(
            f.strip().split("=", 1)
            for f in request.headers["authorization"].removeprefix("AWS4-HMAC-SHA256 ").split(",")
        )
        scope, signed, signature = _signature_by_botocore(request, base_url)
        assert fields["Credential"] == scope
        assert (
            scope
            == f"{ENV['AWS_ACCESS_KEY_ID']}/{request.headers['x-amz-date'][:8]}/us-east-1/bedrock/aws4_request"
        )
        assert fields["SignedHeaders"] == signed
        assert {"host", "x-amz-date", "x-amz-security-token", "content-type"} <= set(signed.split(";"))
        assert fields["Signature"] == signature
        tampered = ReceivedRequest(
            request.method, request.path, request.query, request.headers, request.body + b" "
        )
        assert _signature_by_botocore(tampered, base_url)[2] != signature  # the body is signed
    # offline: the recorded frames, stored as bytes (!!binary) like cassettes/bedrock/*.yaml, replay as the source
    text = out.read_text(encoding="utf-8")
    assert text.count("string: !!binary |") == 2
    assert [e.body for e in load_exchanges(out, "bedrock")] == [c.body for c in calls]
    recorded = [result_to_json(r) for r in replay_file(out, "bedrock")]
    assert recorded == [result_to_json(r) for r in replay_file(SOURCE, "bedrock")]
    provenance = yaml.safe_load(text)["provenance"]
    assert provenance["model"] == "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def _encodings(value: str) -> list[str]:
    return [
        value,
        quote(value, safe=""),
        json.dumps(value)[1:-1].replace("/", "\\/"),
        base64.b64encode(value.encode()).decode(),
    ]


def test_no_key_material_reaches_disk(tmp_path: Path) -> None:
    result, requests, out, _ = record(tmp_path, model_calls("bedrock", SOURCE))
    assert result.exit_code == 0, result.stderr
    sent = [
        requests[0].headers["authorization"].rsplit("Signature=", 1)[1],
        requests[0].headers["x-amz-date"],
    ]
    written = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    for value in [*SECRETS, *sent]:
        for form in _encodings(value):
            assert form.encode() not in written
    text = out.read_text(encoding="utf-8").lower()
    assert "authorization" not in text and "x-amz-" not in text and "aws4-hmac" not in text
    scan = CliRunner().invoke(app, ["scan", str(out)])
    assert scan.exit_code == 0, scan.output


def test_credentials_a_provider_echoes_back_are_scrubbed(tmp_path: Path) -> None:
    """Synthetic: a Converse JSON body (not streamed) into which the fake server echoes the
    Authorization and X-Amz-Security-Token values it received."""
    body = {
        "output": {"message": {"role": "assistant", "content": [{"text": "Hi."}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 3, "outputTokens": 2, "totalTokens": 5},
        "metrics": {"latencyMs": 10},
    }
    answer = Exchange(
        "POST",
        "/model/m/converse",
        None,
        200,
        {"content-type": ["application/json"]},
        json.dumps(body).encode(),
    )
    params = tmp_path / "params.json"
    params.write_text(json.dumps({"stream": False}), encoding="utf-8")
    out = tmp_path / "out.yaml"
    with FakeProvider([answer], echo_credentials=True) as fake:
        result = run_record(
            "bedrock", write_history(tmp_path), out, fake.base_url, ENV, "--params", str(params)
        )
        sent = fake.requests[0].headers
    assert result.exit_code == 0, result.stderr
    assert sent["x-amz-security-token"] == ENV["AWS_SESSION_TOKEN"]
    text = out.read_text(encoding="utf-8")
    assert "REDACTED" in text
    for value in [*SECRETS, sent["authorization"].rsplit("Signature=", 1)[1]]:
        assert value not in text
    assert load_exchanges(out, "bedrock")[0].uri.endswith("/converse")


def test_split_frames_keeps_every_byte_one_frame_a_piece() -> None:
    body = model_calls("bedrock", SOURCE)[0].body
    pieces = split_frames(body)
    assert b"".join(pieces) == body and len(pieces) > 5
    assert all(int.from_bytes(p[:4], "big") == len(p) for p in pieces)
    assert split_frames(body + b"\x00\x01") == [*pieces, b"\x00\x01"]


def _placed(form: str, token: str) -> str:
    if form == "header":
        return f"X-Amz-Security-Token: {token}"
    if form == "json-escaped":
        return json.dumps({"token": token}).replace("/", "\\/")
    if form == "percent-encoded":
        return "https://h/x?X-Amz-Security-Token=" + quote(token, safe="")
    return "blob " + base64.b64encode(f"token={token}".encode()).decode()


@pytest.mark.parametrize(
    ("form", "by_rule"),
    [("header", True), ("json-escaped", False), ("percent-encoded", False), ("inside-base64", False)],
)
def test_an_aws_session_token_is_found_and_scrubbed_in_any_encoding(form: str, by_rule: bool) -> None:
    """Found by its own rule where written plainly (no name needed), through the decoded views otherwise."""
    token = FAKE_KEYS["AWS_SESSION_TOKEN"]
    text = _placed(form, token)
    if by_rule:
        assert "aws-session-token" in {m.kind for m in find_secrets(text)}
    scrubbed = scrub_text(text)
    assert "REDACTED" in scrubbed
    assert all(f not in scrubbed for f in _encodings(token))


def test_an_aws_access_key_id_is_found_in_any_encoding() -> None:
    for key in (ENV["AWS_ACCESS_KEY_ID"], "ASIA" + "Q" * 16):
        for form in _encodings(key)[:3]:
            assert key not in scrub_text(f"id={form} ")

"""The scrubber: deny-by-default headers, ``key=`` queries, key-like and account-id strings, bodies intact.

The real, unscrubbed recordings in tests/data/realstreams (with organization ids and
rate-limit headers) are the main input; those tests skip where that directory is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.record.cassette_format import deserialize, dump_cassette
from harness.record.scan import scan_text
from harness.record.scrub import (
    ALLOWED_REQUEST_HEADERS,
    ALLOWED_RESPONSE_HEADERS,
    SECRET_HEADERS,
    find_keys,
    scrub_interaction,
    scrub_mcp_credentials,
    scrub_uri,
)
from tests.support.record import REALSTREAMS

RAW = sorted(REALSTREAMS.glob("*/*.yaml")) if REALSTREAMS.is_dir() else []
needs_raw = pytest.mark.skipif(not RAW, reason=f"{REALSTREAMS} not present")


#: libyaml's safe loader when PyYAML has it (the pure-Python one took most of this module's time).
_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _interactions(path: Path) -> list[dict[str, Any]]:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)["interactions"]


def _response_payload(interaction: dict[str, Any]) -> Any:
    response: dict[str, Any] = interaction["response"]
    body: dict[str, Any] = response.get("body") or {}
    return response.get("parsed_body", body.get("string"))


@needs_raw
@pytest.mark.parametrize("path", RAW, ids=[f"{p.parent.name}-{p.stem}" for p in RAW])
def test_real_recordings_lose_account_headers_and_keep_bodies_byte_identical(path: Path) -> None:
    for raw in _interactions(path):
        clean = scrub_interaction(raw)
        assert set(clean["request"]["headers"]) <= ALLOWED_REQUEST_HEADERS
        assert set(clean["response"]["headers"]) <= ALLOWED_RESPONSE_HEADERS
        assert _response_payload(clean) == _response_payload(raw)  # the SSE text, byte for byte
        # and through the harness cassette format and back, as vcrpy would load it
        reloaded = deserialize(dump_cassette({"interactions": [clean]}))["interactions"][0]
        original = _response_payload(raw)
        if isinstance(original, str):
            assert reloaded["response"]["body"]["string"] == original


@needs_raw
def test_real_recordings_had_something_to_remove() -> None:
    """Guard against a vacuous pass: the raw files do carry an organization id and tracking headers."""
    dropped: set[str] = set()
    scrubbed: list[dict[str, Any]] = []
    for path in RAW:
        for raw in _interactions(path):
            clean = scrub_interaction(raw)
            scrubbed.append(clean)
            for side in ("request", "response"):
                headers: dict[str, Any] = raw[side].get("headers") or {}
                dropped |= {k.lower() for k in headers} - set(clean[side]["headers"])
    assert {"anthropic-organization-id", "cf-ray", "request-id", "user-agent"} <= dropped
    text = dump_cassette({"interactions": scrubbed})
    assert "b320df16-c763-4455-b901-3f7d54e9a012" not in text  # the organization id in the raw file


def test_secret_headers_are_never_allowed() -> None:
    assert not (SECRET_HEADERS & (ALLOWED_REQUEST_HEADERS | ALLOWED_RESPONSE_HEADERS))


def test_every_secret_shape_is_removed() -> None:
    key = "sk-proj-" + "A" * 40
    raw: dict[str, Any] = {
        "request": {
            "method": "POST",
            "uri": "https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent?alt=sse&key=AIza"
            + "B" * 35,
            "headers": {
                "Authorization": [f"Bearer {key}"],
                "x-goog-api-key": ["AIza" + "C" * 35],
                "api-key": ["azure-key-value"],
                "Cookie": ["session=abc"],
                "OpenAI-Organization": ["org-" + "D" * 24],
                "OpenAI-Project": ["proj_" + "E" * 24],
                "Content-Type": ["application/json"],
            },
            "body": b'{"note": "' + key.encode() + b'"}',
        },
        "response": {
            "status": {"code": 429, "message": "Too Many Requests"},
            "headers": {"Set-Cookie": ["__cf_bm=xyz"], "content-type": ["application/json"]},
            "body": {
                "string": '{"error": {"message": "Rate limit reached in organization org-' + "F" * 24 + '"}}'
            },
        },
    }
    clean = scrub_interaction(raw)
    text = dump_cassette({"interactions": [clean]})
    assert clean["request"]["headers"] == {"content-type": ["application/json"]}
    assert clean["response"]["headers"] == {"content-type": ["application/json"]}
    assert "key=REDACTED" in clean["request"]["uri"] and "alt=sse" in clean["request"]["uri"]
    assert clean["request"]["body"] == b'{"note": "REDACTED"}'
    assert "organization REDACTED" in clean["response"]["body"]["string"]
    for secret in ("AAAA", "BBBB", "CCCC", "azure-key", "abc", "DDDD", "EEEE", "FFFF", "__cf_bm"):
        assert secret not in text
    assert find_keys(text) == []
    assert scan_text(text, "x.yaml") == []


def test_scrub_uri_keeps_everything_but_the_secret() -> None:
    assert scrub_uri("https://h/p?alt=sse&key=secret") == "https://h/p?alt=sse&key=REDACTED"
    assert scrub_uri("https://h/v1/messages") == "https://h/v1/messages"


def test_mcp_server_credentials_never_reach_a_file_whatever_they_look_like() -> None:
    # Low-entropy values no key-shape rule would catch: the keys say they are credentials.
    body = {
        "model": "m",
        "mcp_servers": [
            {"type": "url", "name": "wiki", "url": "https://mcp.x", "authorization_token": "pw1234"}
        ],
        "tools": [
            {
                "type": "mcp",
                "server_label": "wiki",
                "server_url": "https://mcp.x",
                "authorization": "letmein9",  # gitleaks:allow (a planted credential)
                "headers": {"X-Team": "team42"},
            }
        ],
    }
    interaction = {
        "request": {"method": "POST", "uri": "https://api.x/v1", "headers": {}, "parsed_body": body},
        "response": {"status": {"code": 200}, "headers": {}, "body": {"string": ""}},
    }
    scrubbed = scrub_interaction(interaction)["request"]["parsed_body"]
    assert scrubbed["mcp_servers"][0]["authorization_token"] == "REDACTED"
    assert scrubbed["tools"][0]["authorization"] == "REDACTED"
    assert scrubbed["tools"][0]["headers"] == {"X-Team": "REDACTED"}
    assert scrubbed["tools"][0]["server_url"] == "https://mcp.x"  # nothing else changes
    as_text = {**interaction, "request": {**interaction["request"], "body": {"string": json.dumps(body)}}}
    del as_text["request"]["parsed_body"]
    text = scrub_interaction(as_text)["request"]["body"]["string"]
    assert "pw1234" not in text and "letmein9" not in text and "team42" not in text
    assert scrub_mcp_credentials({"authorization": "kept", "type": "text"}) == {
        "authorization": "kept",
        "type": "text",
    }  # only inside an MCP server definition


def test_scan_reports_an_mcp_authorization_left_in_a_body() -> None:
    found = scan_text('{"authorization_token": "tok3nvalue"}', "x.json")  # gitleaks:allow
    assert [f.kind for f in found] == ["mcp-authorization"]
    assert not scan_text('{"authorization_token": "REDACTED"}', "x.json")

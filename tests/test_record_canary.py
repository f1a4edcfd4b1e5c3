"""Secrets never reach disk: canary keys through the whole record path, then grep every file.

The canaries go out in the auth header, in a ``key=`` query parameter, and come back
echoed in the response body by the loopback provider. ``harness record`` runs as a
real subprocess with TMPDIR and HOME inside the test's directory, so any file it
could write (cassette, temporary file, cache) is under the directory we grep.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from harness.record.fakeserver import FakeProvider
from tests.support.cassettes import model_calls
from tests.support.record import CASSETTES, write_history
from tests.support.secret_samples import EVERY_KIND, TAIL

CANARIES = {
    "anthropic": ("ANTHROPIC_API_KEY", "sk-ant-CANARY" + TAIL, ""),
    "openai-responses": ("OPENAI_API_KEY", "sk-proj-CANARY" + TAIL, ""),
    "gemini": ("GEMINI_API_KEY", "AIzaCANARYHEADER" + TAIL, "AIzaCANARYQUERY" + TAIL),
}
SOURCES = {
    "anthropic": "pai__sonnet45_thinking_tool_use_roundtrip.yaml",
    "openai-responses": "pai__gpt55_reasoning_function_call_phase_roundtrip.yaml",
    "gemini": "pai__gemini3pro_functioncall_thoughtsig_roundtrip.yaml",
}


def _files_containing(root: Path, secrets: list[str]) -> list[str]:
    hits: list[str] = []
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            hits += [f"{path}: {s[:12]}..." for s in secrets if s.encode() in data]
    return hits


@pytest.mark.parametrize("provider", sorted(CANARIES))
def test_canary_keys_never_reach_disk(provider: str, tmp_path: Path) -> None:
    env_name, key, query_key = CANARIES[provider]
    secrets = [s for s in (key, query_key) if s]
    for sub in ("tmp", "home", "work"):
        (tmp_path / sub).mkdir()
    out = tmp_path / "work" / "cassettes" / provider / "canary.yaml"
    history = write_history(tmp_path / "work")
    calls = model_calls(provider, CASSETTES / provider / SOURCES[provider])
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path / "home"),
        "TMPDIR": str(tmp_path / "tmp"),
        "XDG_CACHE_HOME": str(tmp_path / "home" / ".cache"),
        env_name: key,
    }
    with FakeProvider(calls, echo_credentials=True) as fake:
        base = fake.base_url + (
            "/v1beta" if provider == "gemini" else "/v1" if provider != "anthropic" else ""
        )
        if query_key:
            base += f"?key={query_key}"
        command = [
            sys.executable,
            "-c",
            "from harness.cli.main import app; app(prog_name='harness')",
            "record",
        ]
        args = ["--provider", provider, "--history", str(history), "--out", str(out), "--base-url", base]
        proc = subprocess.run(
            [*command, *args, "--turns", "2", "--retries", "0"],
            cwd=tmp_path / "work",
            env=env,
            capture_output=True,
            timeout=60,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr.decode()
    # the canaries really went out, in the header and the query, and came back in the body
    sent = [r.headers.get("x-api-key", "") + r.headers.get("authorization", "") for r in fake.requests]
    sent += [r.headers.get("x-goog-api-key", "") + r.query.get("key", "") for r in fake.requests]
    assert all(any(s in line for line in sent) for s in secrets)
    assert len(fake.requests) == 2
    # ...and are nowhere on disk, nor in what the command printed
    assert out.is_file()
    assert _files_containing(tmp_path, secrets) == []
    assert not any(s.encode() in proc.stdout + proc.stderr for s in secrets)
    text = out.read_text(encoding="utf-8")
    assert "REDACTED" in text  # the echoed copies were replaced, not dropped with the body
    if query_key:
        assert "key=REDACTED" in text


def test_canary_through_the_vcr_fixture_path(tmp_path: Path) -> None:
    """The harness_cassette machinery (vcrpy hooks, serializer, persister) scrubs the same way."""
    from harness.record.vcr_setup import harness_vcr

    key, query_key = "sk-ant-CANARY" + TAIL, "AIzaCANARYQUERY" + TAIL
    cassette = tmp_path / "vcr.yaml"
    calls = model_calls("anthropic", CASSETTES / "anthropic" / SOURCES["anthropic"])
    with (
        FakeProvider(calls[:1], echo_credentials=True) as fake,
        harness_vcr("once").use_cassette(str(cassette)),
    ):
        response = httpx.post(
            f"{fake.base_url}/v1/messages?key={query_key}",
            headers={"x-api-key": key, "cookie": "session=" + TAIL, "content-type": "application/json"},
            json={"model": "m", "messages": [], "note": key},
        )
        assert key.encode() in response.content  # echoed live
    assert cassette.is_file()
    assert _files_containing(tmp_path, [key, query_key, TAIL]) == []


@pytest.mark.parametrize("kind", sorted(EVERY_KIND))
def test_canary_of_every_kind_in_path_query_body_and_echo(kind: str, tmp_path: Path) -> None:
    """A key in the URL path, in a query parameter not named like a secret, in the JSON body, echoed back."""
    from harness.record.vcr_setup import harness_vcr

    key = EVERY_KIND[kind]
    cassette = tmp_path / "vcr.yaml"
    calls = model_calls("anthropic", CASSETTES / "anthropic" / SOURCES["anthropic"])
    with (
        FakeProvider(calls[:1], echo_credentials=True) as fake,
        harness_vcr("once").use_cassette(str(cassette)),
    ):
        response = httpx.post(
            f"{fake.base_url}/proxy/{key}/v1/messages?sig={key}&X-Amz-Signature={TAIL}",
            headers={"x-api-key": key, "content-type": "application/json"},
            json={"model": "m", "messages": [{"role": "user", "content": f"my key is {key}"}]},
        )
        assert key.encode() in response.content  # echoed live
    assert cassette.is_file()
    assert _files_containing(tmp_path, [key, TAIL]) == []

"""vcrpy the harness way: record once against a loopback provider, replay offline, scrubbed on disk.

Also the pytest side: ``--record-mode`` and the ``harness_cassette`` fixture/marker, in
an inner pytest session (pytester) so the modes can be switched.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from harness.record.fakeserver import FakeProvider
from harness.record.vcr_setup import harness_vcr
from tests.support.cassettes import model_calls
from tests.support.record import CASSETTES

pytest_plugins = ["pytester"]
SOURCE = CASSETTES / "anthropic" / "pai__sonnet40_thinking_then_text.yaml"
KEY = "sk-ant-api03-" + "v" * 40


def _post(base_url: str, key: str, body: dict[str, Any]) -> httpx.Response:
    headers = {"x-api-key": key, "anthropic-version": "2023-06-01", "user-agent": "test/1"}
    return httpx.post(f"{base_url}/v1/messages?beta=true", headers=headers, json=body)


def test_record_once_then_replay_offline(tmp_path: Path) -> None:
    cassette = tmp_path / "c.yaml"
    body = {"model": "claude-sonnet-4-0", "messages": [{"role": "user", "content": "hi"}], "stream": True}
    with (
        FakeProvider(model_calls("anthropic", SOURCE)) as fake,
        harness_vcr("once").use_cassette(str(cassette)),
    ):
        live = _post(fake.base_url, KEY, body)
        base_url = fake.base_url
    assert len(fake.requests) == 1
    stored = yaml.safe_load(cassette.read_text(encoding="utf-8"))
    (interaction,) = stored["interactions"]
    assert interaction["request"]["parsed_body"] == body  # readable, not an escaped string
    assert set(interaction["request"]["headers"]) == {"anthropic-version", "content-type", "accept"}
    assert interaction["response"]["body"]["string"].startswith("event: message_start\n")
    assert KEY not in cassette.read_text(encoding="utf-8")
    # the server is gone; a replay with another key still matches (headers are not matched on)
    with harness_vcr("none").use_cassette(str(cassette)) as replay:
        again = _post(base_url, "sk-ant-api03-" + "w" * 40, body)
        assert replay.play_count == 1
        with pytest.raises(Exception, match="Can't play back this request"):
            _post(base_url, KEY, {**body, "model": "other"})
    assert again.content == live.content


def test_rewrite_drops_interactions_no_longer_made(tmp_path: Path) -> None:
    cassette = tmp_path / "c.yaml"
    calls = model_calls("anthropic", SOURCE)
    with FakeProvider(calls * 2) as fake, harness_vcr("once").use_cassette(str(cassette)):
        _post(fake.base_url, KEY, {"n": 1})
        _post(fake.base_url, KEY, {"n": 2})
    with FakeProvider(calls) as fake, harness_vcr("rewrite").use_cassette(str(cassette)):
        _post(fake.base_url, KEY, {"n": 2})
    (interaction,) = yaml.safe_load(cassette.read_text(encoding="utf-8"))["interactions"]
    assert interaction["request"]["parsed_body"] == {"n": 2}


def test_unknown_record_mode_is_rejected() -> None:
    with pytest.raises(ValueError, match="expected one of none, once, new_episodes, all, rewrite"):
        harness_vcr("sometimes")


INNER = f"""
import httpx
import pytest
from harness.record.fakeserver import FakeProvider
from harness.record.played import fingerprint
from harness.providers.replay import load_exchanges

CALLS = [e for e in load_exchanges({str(SOURCE)!r}, "anthropic") if e.is_model_call]


def _call(base_url):
    return httpx.post(base_url + "/v1/messages", headers={{"x-api-key": "sk-ant-" + "k" * 40}}, json={{"q": 1}})


@pytest.mark.harness_cassette("cassettes/anthropic/inner.yaml")
def test_marked(harness_cassette, request):
    mode = request.config.getoption("record_mode")
    with FakeProvider(CALLS) as fake:
        assert _call(fake.base_url).status_code == 200
    assert len(fake.requests) == (0 if mode == "none" else 1)


def test_default_path(harness_cassette):
    with FakeProvider(CALLS) as fake:
        _call(fake.base_url)


def test_registry_saw_the_response(harness_play_registry):
    assert fingerprint("POST", 200, CALLS[0].body) in harness_play_registry.played
"""


def test_record_mode_option_and_fixture(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner=textwrap.dedent(INNER))
    first = pytester.runpytest("-p", "no:cacheprovider", "--record-mode=once")
    first.assert_outcomes(passed=3)
    assert (pytester.path / "cassettes" / "anthropic" / "inner.yaml").is_file()
    assert (pytester.path / "cassettes" / "test_inner" / "test_default_path.yaml").is_file()
    offline = pytester.runpytest("-p", "no:cacheprovider")  # default none: the fake server sees nothing
    offline.assert_outcomes(passed=3)
    (pytester.path / "cassettes" / "anthropic" / "inner.yaml").unlink()
    missing = pytester.runpytest("-p", "no:cacheprovider", "-k", "marked")
    missing.assert_outcomes(failed=1)  # none mode never records: a missing cassette fails the test
    bad = pytester.runpytest("-p", "no:cacheprovider", "--record-mode=sometimes")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR


ROUNDTRIP = "cassettes/anthropic/llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml"


@pytest.mark.harness_cassette(ROUNDTRIP)
def test_committed_cassette_plays_through_the_fixture(harness_cassette: Any) -> None:
    """A committed cassette serves the requests it recorded, offline (default --record-mode none)."""
    exchanges = model_calls("anthropic", CASSETTES.parent / ROUNDTRIP)
    for exchange in exchanges:
        response = httpx.post(exchange.uri, json=exchange.request_body, headers={"x-api-key": KEY})
        assert response.content == exchange.body
    assert harness_cassette.all_played

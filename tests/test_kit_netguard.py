"""Offline means offline: a target that reaches for the network fails at once, in one line naming
the host and the target (``harness.kit.netguard``). No test here touches the network:
every attempt is refused before a packet leaves (loopback, a closed port, or a name that is
never resolved)."""

from __future__ import annotations

import asyncio
import functools
import io
import json
import socket
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

import harness.targets
from harness.audit.checks import check_replay, check_request
from harness.audit.corpus import CassetteCase, RequestCase
from harness.audit.invariant_checks import load_runner
from harness.cli.main import app
from harness.codec import dumps_history
from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.rendered import Rendered
from harness.contract.results import CallResult
from harness.kit import NetworkBlocked, final_result, offline
from harness.kit.protocol import encode_render_request
from harness.kit.serve import serve
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.scenarios import get_scenario
from harness.targets.reference import ReferenceTarget


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


PORT = _closed_port()


class Leaky(ReferenceTarget):
    """Ignores the client it was given: opens a socket of its own while rendering and replaying."""

    name = "leaky"

    def __init__(self, how: str = "socket", swallow: bool = False) -> None:
        self.how, self.swallow = how, swallow

    def _reach(self) -> None:
        try:
            if self.how == "socket":
                with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                    sock.connect(("127.0.0.1", PORT))
            else:  # an HTTP library with its own transport: resolving the host is refused already
                httpx.get("https://api.example.invalid/v1/chat/completions")
        except NetworkBlocked:
            if not self.swallow:
                raise

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        self._reach()
        return super().render(provider, history, params)

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        self._reach()
        return super().replay(provider, exchange, chunk_size)


def _leaky(name: str, *, swallow: bool) -> Leaky:
    return Leaky(swallow=swallow)


def _case() -> RequestCase:
    scenario = get_scenario("plain_single_turn")
    return RequestCase("scenario/plain_single_turn", "scenario", scenario.history, scenario.params)


@pytest.mark.parametrize(
    ("how", "host"),
    [("socket", f"127.0.0.1:{PORT}"), ("httpx", "api.example.invalid:443")],
    ids=["socket-loopback", "httpx"],  # the port differs per process: xdist workers must collect the same ids
)
@pytest.mark.parametrize("swallow", [False, True])
def test_an_audit_fails_the_render_in_one_line_naming_host_and_target(
    how: str, host: str, swallow: bool
) -> None:
    record = check_request(Leaky(how, swallow), "anthropic", _case(), load_runner(), only=("render",))
    outcome = record.checks["render"]
    assert outcome.status == "fail"
    (line,) = outcome.details
    assert "\n" not in line and f"target 'leaky' tried to open a network connection to {host}" in line


def test_a_replay_that_reaches_out_fails_the_replay_check() -> None:
    body = b'{"error": {"type": "overloaded_error", "message": "busy"}}'
    exchange = Exchange(
        method="POST",
        uri="https://api.anthropic.com/v1/messages",
        status=529,
        headers={"content-type": ["application/json"]},
        body=body,
        request_body={},
    )
    case = CassetteCase("cassette/x#0", "anthropic", "x.yaml", exchange)
    record = check_replay(Leaky(swallow=True), case, None)
    assert record.checks["replay"].status == "fail"
    assert f"127.0.0.1:{PORT}" in record.checks["replay"].details[0]


def test_the_cli_render_stops_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    history = tmp_path / "h.jsonl"
    history.write_text(dumps_history(get_scenario("plain_single_turn").history), encoding="utf-8")
    for swallow in (False, True):
        monkeypatch.setattr(harness.targets, "get_target", functools.partial(_leaky, swallow=swallow))
        result = CliRunner().invoke(
            app, ["render", str(history), "--provider", "anthropic", "--target", "leaky"]
        )
        assert result.exit_code == 1
        (line,) = result.stderr.strip().splitlines()
        assert f"target 'leaky' tried to open a network connection to 127.0.0.1:{PORT}" in line


def test_a_worker_refuses_too() -> None:
    scenario = get_scenario("plain_single_turn")
    request = encode_render_request("anthropic", scenario.history, scenario.params)
    for swallow in (False, True):
        replies = io.StringIO()
        serve(Leaky(swallow=swallow), io.StringIO(json.dumps(request) + "\n"), replies)
        reply = json.loads(replies.getvalue())
        assert (
            reply["ok"] is False
            and f"'leaky' tried to open a network connection to 127.0.0.1:{PORT}" in (reply["error"])
        )


def test_the_guard_leaves_local_plumbing_alone_and_restores_everything() -> None:
    originals = (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.getaddrinfo,
        socket.create_connection,
    )
    with offline("outer") as outer:
        assert asyncio.run(asyncio.sleep(0, result="ok")) == "ok"  # the event loop's socket pair
        left, right = socket.socketpair()
        with left, right:
            left.sendall(b"x")
            assert right.recv(1) == b"x"
        with offline("inner") as inner, pytest.raises(NetworkBlocked, match="target 'inner'"):
            socket.create_connection(("127.0.0.1", PORT))
        assert inner.attempts and not outer.attempts
        assert socket.socket.connect is not originals[0]  # still guarded after the inner block
    assert (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.getaddrinfo,
        socket.create_connection,
    ) == (originals)


def test_a_target_that_stays_offline_is_unaffected() -> None:
    record = check_request(ReferenceTarget(), "anthropic", _case(), load_runner(), only=("render",))
    assert record.checks["render"].status == "pass"
    assert final_result([], provider_stop="stop", usage=None).message.stop_reason == "stop"


def test_an_audit_of_a_leaky_target_fails_naming_the_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(harness.targets, "get_target", functools.partial(_leaky, swallow=True))
    (tmp_path / "cassettes").mkdir()
    args = ["audit", "--target", "leaky", "--provider", "anthropic", "--examples", "0"]
    args += ["--cassettes", str(tmp_path / "cassettes"), "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    matrix = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert f"target 'leaky' tried to open a network connection to 127.0.0.1:{PORT}" in json.dumps(matrix)

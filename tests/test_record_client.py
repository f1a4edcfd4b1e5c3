"""Our httpx client under respx: streaming, one-line errors, bounded retries on 429/5xx, timeouts."""

from __future__ import annotations

import httpx
import pytest
import respx

from harness.record.client import RecordHTTPError, RetryPolicy, error_detail, new_client, send
from harness.record.endpoints import HttpRequest

URL = "https://api.example.test/v1/messages"
NO_WAIT = RetryPolicy(attempts=3, base_delay=0, max_delay=0)
SSE = b"event: a\ndata: {}\n\nevent: b\ndata: {}\n\n"


def _request(url: str = URL) -> HttpRequest:
    return HttpRequest("POST", url, {"x-api-key": "sk-ant-" + "s" * 30}, b"{}")


@respx.mock
def test_streams_the_body_to_the_chunk_callback() -> None:
    respx.post(URL).mock(
        return_value=httpx.Response(200, content=SSE, headers={"content-type": "text/event-stream"})
    )
    seen: list[bytes] = []
    response = send(_request(), retry=NO_WAIT, on_chunk=seen.append)
    assert response.status == 200
    assert response.body == SSE == b"".join(seen)
    assert response.headers["content-type"] == ["text/event-stream"]
    assert response.attempts == 1


@respx.mock
def test_a_session_client_sends_no_cookie_a_response_set() -> None:
    """One client serves every turn of a recording; a cookie the provider sets is not sent back,
    so each request is the one rendered and recorded."""
    seen: list[httpx.Request] = []

    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, content=SSE, headers={"set-cookie": "__cf_bm=abc; Path=/"})

    respx.post(URL).mock(side_effect=reply)
    with new_client() as client:
        for _ in range(2):
            assert send(_request(), retry=NO_WAIT, client=client).status == 200
        assert not client.cookies
    assert len(seen) == 2
    assert all("cookie" not in request.headers for request in seen)


@respx.mock
def test_4xx_is_one_line_with_the_provider_message_and_no_retry() -> None:
    body = {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": "messages: at least one\nmessage"},
    }
    route = respx.post(URL).mock(return_value=httpx.Response(400, json=body))
    with pytest.raises(RecordHTTPError) as info:
        send(_request(URL + "?key=secret"), retry=NO_WAIT)
    message = str(info.value)
    assert message == f"POST {URL}: HTTP 400 Bad Request: messages: at least one message"
    assert "\n" not in message and "secret" not in message
    assert info.value.status == 400
    assert route.call_count == 1


@respx.mock
def test_429_then_success_retries_honouring_retry_after_within_the_cap() -> None:
    route = respx.post(URL).mock(
        side_effect=[
            httpx.Response(429, headers={"retry-after": "30"}, json={"error": {"message": "slow down"}}),
            httpx.Response(529, json={"error": {"message": "overloaded"}}),
            httpx.Response(200, content=SSE),
        ]
    )
    waits: list[float] = []
    notes: list[str] = []
    policy = RetryPolicy(attempts=3, base_delay=0.5, max_delay=2)
    response = send(_request(), retry=policy, sleep=waits.append, on_retry=notes.append)
    assert response.status == 200 and response.attempts == 3
    assert waits == [2, 1]  # Retry-After 30 capped to 2; then 0.5 * 2
    assert route.call_count == 3
    assert "HTTP 429" in notes[0] and "HTTP 529" in notes[1]


@respx.mock
def test_5xx_exhausts_the_retries() -> None:
    route = respx.post(URL).mock(return_value=httpx.Response(503, text="upstream unavailable"))
    with pytest.raises(
        RecordHTTPError, match=r"HTTP 503 Service Unavailable: upstream unavailable \(after 3 attempts\)$"
    ):
        send(_request(), retry=NO_WAIT)
    assert route.call_count == 3


@respx.mock
def test_timeouts_are_retried_then_reported() -> None:
    route = respx.post(URL).mock(side_effect=httpx.ReadTimeout("read timed out"))
    with pytest.raises(RecordHTTPError, match=r"timed out \(ReadTimeout, limit 5 s\) \(after 2 attempts\)"):
        send(_request(), timeout=5, retry=RetryPolicy(attempts=2, base_delay=0, max_delay=0))
    assert route.call_count == 2


@respx.mock
def test_connection_errors_are_retried() -> None:
    route = respx.post(URL).mock(
        side_effect=[httpx.ConnectError("refused"), httpx.Response(200, content=SSE)]
    )
    assert send(_request(), retry=NO_WAIT).body == SSE
    assert route.call_count == 2


def test_backoff_is_bounded_and_can_be_zero() -> None:
    policy = RetryPolicy(attempts=10, base_delay=1, max_delay=8)
    assert [policy.delay(n) for n in range(1, 6)] == [1, 2, 4, 8, 8]
    assert policy.delay(1, "not-a-number") == 1
    assert NO_WAIT.delay(5, "120") == 0
    with pytest.raises(ValueError):
        RetryPolicy(attempts=0)


def test_error_detail_is_scrubbed_and_short() -> None:
    leaked = b'{"error": {"message": "Incorrect API key provided: sk-proj-' + b"a" * 40 + b'"}}'
    assert error_detail(leaked) == "Incorrect API key provided: REDACTED"
    assert error_detail(b"[{" + b'"error": {"message": "gemini style"}}]') == "gemini style"
    assert len(error_detail(b"x" * 5000)) == 300
    assert error_detail(b"") == "(empty body)"


def test_progress_renders_on_a_terminal_and_stays_silent_otherwise() -> None:
    import io

    from rich.console import Console

    from harness.record.progress import StreamProgress

    for terminal in (True, False):
        buffer = io.StringIO()
        with StreamProgress(Console(file=buffer, force_terminal=terminal, width=100)).track(
            "turn 1/1 x"
        ) as feed:
            feed(SSE[:10])
            feed(SSE[10:])
        assert ("turn 1/1 x" in buffer.getvalue()) is terminal

"""The one HTTP call recording makes: stream a POST, retry 429/5xx with bounded backoff, fail in one line.

Plain httpx (not an SDK) so the recorded bytes are exactly what the provider sent and
the request is exactly what the reference adapter rendered. Errors never carry the
API key: URLs are reported without their query and error bodies are scrubbed.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

import httpx

from harness.record.endpoints import HttpRequest
from harness.record.scrub import scrub_text

__all__ = ["HttpResponse", "RecordHTTPError", "RetryPolicy", "new_client", "send"]

#: 529 is Anthropic's "overloaded"; every 5xx is worth another try, 4xx other than 429 never is.
RETRY_STATUSES = frozenset({429}) | frozenset(range(500, 600))


@dataclass(frozen=True)
class RetryPolicy:
    """``attempts`` tries in all; the wait doubles from ``base_delay`` and never exceeds ``max_delay``.

    A ``Retry-After`` header (seconds) is honoured up to ``max_delay``. Tests pass
    ``RetryPolicy(base_delay=0, max_delay=0)`` to retry without sleeping.
    """

    attempts: int = 3
    base_delay: float = 1.0
    max_delay: float = 20.0

    def __post_init__(self) -> None:
        if self.attempts < 1 or self.base_delay < 0 or self.max_delay < 0:
            raise ValueError("RetryPolicy: attempts >= 1 and non-negative delays")

    def delay(self, attempt: int, retry_after: str | None = None) -> float:
        wait = self.base_delay * 2 ** (attempt - 1)
        if retry_after:
            with contextlib.suppress(ValueError):  # an HTTP date: keep the exponential wait
                wait = max(wait, float(retry_after))
        return max(0.0, min(self.max_delay, wait))


class RecordHTTPError(RuntimeError):
    """A failed call; ``str()`` is one line, safe to print (no key, no query string)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class HttpResponse:
    status: int
    reason: str
    headers: dict[str, list[str]]
    body: bytes
    chunks: int = 0
    attempts: int = 1
    elapsed: float = 0.0
    retries: list[str] = field(default_factory=lambda: [])


def safe_url(url: str) -> str:
    """The URL without query or fragment, for messages (a query may hold ``key=``)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def error_detail(body: bytes) -> str:
    """The provider's error message from a JSON error body, else the body's start; one line, scrubbed."""
    text = body.decode("utf-8", errors="replace").strip()
    try:
        payload: Any = json.loads(text)
    except json.JSONDecodeError:
        payload = None
    if isinstance(payload, list) and payload:
        payload = cast(list[Any], payload)[0]
    if isinstance(payload, dict):
        err: Any = cast(dict[str, Any], payload).get("error", payload)
        if isinstance(err, dict) and "message" in err:
            text = str(cast(dict[str, Any], err)["message"])
        elif isinstance(err, str):
            text = err
    return scrub_text(" ".join(text.split()))[:300] or "(empty body)"


def _headers(response: httpx.Response) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, value in response.headers.multi_items():
        out.setdefault(key.lower(), []).append(value)
    return out


def _attempt(
    client: httpx.Client, request: HttpRequest, on_chunk: Callable[[bytes], None] | None
) -> HttpResponse:
    with client.stream(request.method, request.url, headers=request.headers, content=request.content) as r:
        if r.status_code >= 400:
            return HttpResponse(r.status_code, r.reason_phrase, _headers(r), r.read())
        parts: list[bytes] = []
        for chunk in r.iter_bytes():
            parts.append(chunk)
            if on_chunk is not None:
                on_chunk(chunk)
        return HttpResponse(r.status_code, r.reason_phrase, _headers(r), b"".join(parts), len(parts))


def new_client(timeout: float = 120.0) -> httpx.Client:
    """The client one recording session sends every turn through: its connection (and TLS
    session) is kept between turns, as an SDK's client keeps it, and its SSL context is built once
    (loading the CA bundle, tens of ms of CPU) instead of once per turn."""
    # No cookie is kept from one turn to the next (a jar whose policy accepts none): each request
    # is exactly the one rendered and recorded, as with a client per turn.
    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[]))
    return httpx.Client(timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)), cookies=jar)


def send(
    request: HttpRequest,
    *,
    timeout: float = 120.0,
    retry: RetryPolicy | None = None,
    on_chunk: Callable[[bytes], None] | None = None,
    on_retry: Callable[[str], None] | None = None,
    client: httpx.Client | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> HttpResponse:
    """Send ``request`` and read the whole (streamed) body; raise RecordHTTPError on failure.

    ``timeout`` bounds connecting and each wait for the next chunk, not the whole stream.
    """
    policy = retry or RetryPolicy()
    where = f"{request.method} {safe_url(request.url)}"
    owned = client is None
    http = client or new_client(timeout)
    started = time.monotonic()
    notes: list[str] = []
    try:
        for attempt in range(1, policy.attempts + 1):
            retry_after: str | None = None
            try:
                response = _attempt(http, request, on_chunk)
            except httpx.TimeoutException as exc:
                failure = RecordHTTPError(f"{where}: timed out ({type(exc).__name__}, limit {timeout:g} s)")
            except httpx.TransportError as exc:
                failure = RecordHTTPError(
                    f"{where}: {type(exc).__name__}: {scrub_text(str(exc)) or 'failed'}"
                )
            else:
                if response.status < 400:
                    response.attempts, response.retries = attempt, notes
                    response.elapsed = time.monotonic() - started
                    return response
                failure = RecordHTTPError(
                    f"{where}: HTTP {response.status} {response.reason}: {error_detail(response.body)}",
                    response.status,
                )
                if response.status not in RETRY_STATUSES:
                    raise failure
                retry_after = (response.headers.get("retry-after") or [None])[0]
            if attempt == policy.attempts:
                suffix = f" (after {attempt} attempts)" if attempt > 1 else ""
                raise RecordHTTPError(f"{failure}{suffix}", failure.status)
            wait = policy.delay(attempt, retry_after)
            note = f"attempt {attempt} failed: {failure}; retrying in {wait:g} s"
            notes.append(note)
            if on_retry is not None:
                on_retry(note)
            sleep(wait)
        raise AssertionError("unreachable: attempts < 1")  # pragma: no cover
    finally:
        if owned:
            http.close()

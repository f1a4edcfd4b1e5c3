"""Offline HTTP for a target's provider SDK clients: capture what goes on the wire, serve a recorded exchange.

Every provider SDK a bridge is likely to wrap (openai, anthropic, google-genai, openrouter,
and what is built on them) accepts an ``httpx.AsyncClient`` or an ``httpx2.AsyncClient``
(httpx2 is a separate package with httpx's API, which anthropic 2.x, google-genai and
pydantic-ai 2.x use). ``OfflineWire`` gives either one, backed by a mock transport that

- records every request (method, URL, headers, the JSON body the SDK serialized), and
- answers ``render`` calls with ``CAPTURED_STATUS`` (400), which no SDK retries
  (openai and anthropic retry 408/409/429/5xx and connection errors; google-genai retries
  nothing unless ``retry_options`` are set), so one call puts exactly one request on the wire;
- answers ``replay`` calls with the recorded status, headers (minus content-encoding,
  content-length and transfer-encoding: the recorded body is already decoded) and body,
  in the chunks ``chunk_size`` names (``harness.contract.chunking``: None is the whole body at once).

Retries are still worth turning off on the client (``max_retries=0``): a recorded failure
(a 429 or 5xx cassette) would otherwise be served again and again. Nothing here touches the
network, reads a clock or draws a random number.

A library that builds its own HTTP client and takes none (LangChain's ``ChatAnthropic`` makes
a cached ``anthropic.DefaultHttpxClient`` of its own; many wrappers do the like) gets the wire
through ``wire.intercept()`` instead: for the duration of the block, every httpx and httpx2
client's default transport (``HTTPTransport``/``AsyncHTTPTransport``, sync and async,
including clients built before the block and cached) is answered by this wire, and the
originals come back when it exits. ``OfflineWire(intercept_all=True)`` does that around
every ``run``/``render`` call. No private attribute of the library is touched.
"""

# httpx2 is optional: a bridge whose SDKs use httpx alone needs only httpx.
# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportAttributeAccessIssue=false

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import threading
from collections.abc import AsyncIterator, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import httpx

from harness.contract.chunking import Chunking, split
from harness.contract.exchange import Exchange
from harness.contract.rendered import Rendered, RenderWarning
from harness.contract.target import TargetRefusal

__all__ = ["CAPTURED_STATUS", "CapturedRequest", "OfflineWire", "WireError"]

#: What a render call is answered with: a client error, which no provider SDK retries.
CAPTURED_STATUS = 400
_CAPTURED_BODY = {"error": {"type": "invalid_request_error", "message": "harness: request captured"}}
#: Recorded headers not served again: the recorded body is already decoded and re-chunked.
_DROPPED_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})


class WireError(RuntimeError):
    """The code under audit did not put exactly one JSON request on the wire for one call."""


@dataclass(frozen=True)
class CapturedRequest:
    """One request as the SDK sent it: ``body`` is the parsed JSON (a str when it is not JSON)."""

    method: str
    url: str
    headers: dict[str, str]
    body: Any


def _httpx2() -> Any:
    try:
        import httpx2
    except ImportError as exc:  # the SDK that wants an httpx2 client brings httpx2 with it
        raise WireError("httpx2 is not installed; the SDK that needs an httpx2 client brings it") from exc
    return httpx2


class _Chunks(httpx.AsyncByteStream, httpx.SyncByteStream):
    """A recorded body in the chunks ``chunk_size`` names (chunk boundaries are where stream parsers
    break), for async and sync clients alike."""

    def __init__(self, body: bytes, chunk_size: Chunking) -> None:
        self.chunks = [chunk for chunk in split(body, chunk_size) if chunk]

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks

    async def aclose(self) -> None:
        return None

    def close(self) -> None:
        return None


@dataclass
class OfflineWire:
    """A mock transport's behaviour: capture each request, then answer from ``reply`` (None: render)."""

    requests: list[CapturedRequest] = field(default_factory=lambda: [])
    reply: Exchange | None = None
    chunk_size: Chunking = None
    #: Route every httpx/httpx2 client's default transport to this wire around each ``run`` (``intercept``).
    intercept_all: bool = False
    _loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)

    # --- the clients to hand to an SDK -----------------------------------------------------
    def httpx_client(self, **kwargs: Any) -> httpx.AsyncClient:
        """An ``httpx.AsyncClient`` whose every request is answered by this wire."""
        return httpx.AsyncClient(transport=httpx.MockTransport(self.handler), **kwargs)

    def httpx2_client(self, **kwargs: Any) -> Any:
        """An ``httpx2.AsyncClient`` whose every request is answered by this wire."""
        httpx2 = _httpx2()
        return httpx2.AsyncClient(transport=httpx2.MockTransport(self.handler), **kwargs)

    def httpx_sync_client(self, **kwargs: Any) -> httpx.Client:
        """An ``httpx.Client`` (sync) whose every request is answered by this wire."""
        return httpx.Client(transport=httpx.MockTransport(self.handler), **kwargs)

    @contextlib.contextmanager
    def intercept(self) -> Generator[OfflineWire]:
        """For the block, every httpx/httpx2 client's default transport is answered by this wire.

        For code that builds its own HTTP client and takes none. Blocks nest (the innermost
        wire answers); the default transports are restored when the outermost one exits.
        """
        with _INTERCEPT_LOCK:
            if not _INTERCEPTING:
                _patch_default_transports()
            _INTERCEPTING.append(self)
        try:
            yield self
        finally:
            with _INTERCEPT_LOCK:
                _INTERCEPTING.remove(self)
                if not _INTERCEPTING:
                    _restore_default_transports()

    # --- modes -------------------------------------------------------------------------------
    def capture(self) -> OfflineWire:
        """Render mode: forget earlier requests; every request is answered with ``CAPTURED_STATUS``."""
        self.requests.clear()
        self.reply, self.chunk_size = None, None
        return self

    def serve(self, exchange: Exchange, chunk_size: Chunking = None) -> OfflineWire:
        """Replay mode: forget earlier requests; every request is answered with ``exchange``'s response."""
        self.requests.clear()
        self.reply, self.chunk_size = exchange, chunk_size
        return self

    def only_request(self) -> CapturedRequest:
        """The one request of the last call; WireError when there were none or several."""
        if len(self.requests) != 1:
            raise WireError(f"the code under audit sent {len(self.requests)} requests for one call")
        return self.requests[0]

    def only_body(self) -> dict[str, Any]:
        """The JSON object body of the one request of the last call (what ``render`` returns)."""
        body = self.only_request().body
        if not isinstance(body, dict):
            raise WireError("the code under audit sent a request body that is not a JSON object")
        return dict[str, Any](body)

    # --- calling the code under audit ----------------------------------------------------------
    def run(self, call: Any) -> Any:
        """Run one call of the code under audit: an awaitable (a coroutine such as
        ``client.chat.completions.create(...)``) on this wire's own event loop, or a
        zero-argument callable (sync code; an awaitable it returns is run too).

        One loop per wire, kept for its lifetime: SDK clients bind their connection pool to
        the loop of their first call, so ``asyncio.run`` per call would break the second one.
        """
        with self.intercept() if self.intercept_all else contextlib.nullcontext(self):
            if callable(call) and not inspect.isawaitable(call):
                call = call()
            if not inspect.isawaitable(call):
                return call
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
            return self._loop.run_until_complete(call)

    def render(self, call: Any, warnings: Sequence[RenderWarning] = ()) -> Rendered:
        """Render mode in one step: capture, run ``call`` (see ``run``), return the body it sent.

        The wire answers ``CAPTURED_STATUS``, so the code under audit raises its own client
        error afterwards: that is expected and dropped. A call that raised before sending
        anything is a ``WireError`` naming what it raised, except a ``harness.TargetRefusal``
        (a refusal the bridge declared, raised inside ``call``) and ``NotImplementedError``
        (unsupported), which pass through as they are, so the audit reports them as such.
        """
        self.capture()
        try:
            self.run(call)
        except (TargetRefusal, NotImplementedError):
            raise
        except Exception as exc:
            if not self.requests:
                raise WireError(
                    f"the code under audit sent no request: {type(exc).__name__}: {exc}".splitlines()[0]
                ) from exc
        return Rendered(body=self.only_body(), warnings=list(warnings))

    # --- the transport -----------------------------------------------------------------------
    def handler(self, request: Any) -> Any:
        """The mock transport's handler (httpx or httpx2 request in, the same library's response out)."""
        content: bytes = request.content
        try:
            body: Any = json.loads(content) if content else None
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = content.decode("utf-8", errors="replace")
        headers = dict(sorted((k.lower(), v) for k, v in request.headers.items()))
        self.requests.append(CapturedRequest(request.method, str(request.url), headers, body))
        response_class: Any = _httpx2().Response if _is_httpx2(request) else httpx.Response
        if self.reply is None:
            return response_class(CAPTURED_STATUS, json=_CAPTURED_BODY)
        return response_class(
            self.reply.status,
            headers=list(served_headers(self.reply)),
            stream=_stream_for(request, self.reply.body, self.chunk_size),
        )


#: The wires intercepting the default transports, innermost last; the originals while patched.
_INTERCEPTING: list[OfflineWire] = []
_INTERCEPT_LOCK = threading.Lock()
_ORIGINALS: list[tuple[type, str, Any]] = []


def _transport_classes() -> list[tuple[Any, Any]]:
    """(the library, its mock transport) for httpx and, when installed, httpx2."""
    found: list[tuple[Any, Any]] = [(httpx, httpx.MockTransport)]
    try:
        import httpx2
    except ImportError:
        return found
    return [*found, (httpx2, httpx2.MockTransport)]


def _patch_default_transports() -> None:
    for library, mock in _transport_classes():

        def handle(_: Any, request: Any, _mock: Any = mock) -> Any:
            return _mock(_INTERCEPTING[-1].handler).handle_request(request)

        async def handle_async(_: Any, request: Any, _mock: Any = mock) -> Any:
            return await _mock(_INTERCEPTING[-1].handler).handle_async_request(request)

        for cls, name, method in (
            (library.HTTPTransport, "handle_request", handle),
            (library.AsyncHTTPTransport, "handle_async_request", handle_async),
        ):
            _ORIGINALS.append((cls, name, cls.__dict__[name]))
            setattr(cls, name, method)


def _restore_default_transports() -> None:
    while _ORIGINALS:
        cls, name, original = _ORIGINALS.pop()
        setattr(cls, name, original)


def served_headers(exchange: Exchange) -> Iterator[tuple[str, str]]:
    """The recorded response headers a replay serves (every value; minus encoding and length)."""
    for name, values in sorted(exchange.headers.items()):
        if name.lower() not in _DROPPED_HEADERS:
            yield from ((name, value) for value in values)


def _is_httpx2(request: Any) -> bool:
    return type(request).__module__.split(".", 1)[0] == "httpx2"


@cache
def _httpx2_chunks() -> type[_Chunks]:
    """``_Chunks`` that is also an ``httpx2`` byte stream (httpx2 checks its own base classes)."""
    httpx2 = _httpx2()
    return type("_Chunks2", (_Chunks, httpx2.AsyncByteStream, httpx2.SyncByteStream), {})


def _stream_for(request: Any, body: bytes, chunk_size: Chunking) -> Any:
    return (_httpx2_chunks() if _is_httpx2(request) else _Chunks)(body, chunk_size)

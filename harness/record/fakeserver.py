"""A fake provider on 127.0.0.1: serves recorded responses over real HTTP, one SSE event per HTTP chunk.

Lets the whole record path (URL building, headers, streaming, scrubbing, writing) run
for real without the internet. It binds an ephemeral loopback port, runs in a daemon
thread, and shuts itself down after ``lifetime`` seconds even if a test forgets to.

Each POST to a model endpoint (the paths ``harness replay`` treats as model calls)
gets the next recorded response, in order; anything else gets a JSON 404. SSE bodies go
one event per chunk, AWS event-stream bodies (Bedrock) one binary frame per chunk. With
``echo_credentials`` the credentials the client sent are echoed into a text response
body, to prove the recorder scrubs what a provider echoes back.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import parse_qsl, urlsplit

from harness.providers.replay import Exchange, load_exchanges

__all__ = ["FakeProvider", "ReceivedRequest", "split_events", "split_frames"]

_CREDENTIAL_HEADERS = ("authorization", "x-api-key", "x-goog-api-key", "api-key", "x-amz-security-token")
_EVENT_END = re.compile(rb"(?<=\n\n)|(?<=\r\n\r\n)")


@dataclass(frozen=True)
class ReceivedRequest:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes


def split_events(body: bytes) -> list[bytes]:
    """SSE body -> one piece per event (each ends with its blank line), so each can be its own chunk."""
    return [piece for piece in _EVENT_END.split(body) if piece]


def split_frames(body: bytes) -> list[bytes]:
    """AWS event-stream body -> one piece per frame (each frame's prelude gives its total length);
    bytes after the last whole frame are a piece of their own."""
    pieces: list[bytes] = []
    at = 0
    while len(body) - at >= 4:
        total = int.from_bytes(body[at : at + 4], "big")
        if total < 16 or at + total > len(body):
            break
        pieces.append(body[at : at + total])
        at += total
    return [*pieces, body[at:]] if at < len(body) else pieces


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeProvider


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server  # pyright: ignore[reportIncompatibleVariableOverride]

    def log_message(self, format: str, *args: object) -> None:  # quiet: tests read .requests instead
        return

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def _handle(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        received = ReceivedRequest(
            self.command,
            url.path,
            dict(parse_qsl(url.query)),
            {k.lower(): v for k, v in self.headers.items()},
            body,
        )
        self.server.fake.respond(self, received)

    def send_chunked(self, status: int, content_type: str, pieces: Sequence[bytes], delay: float) -> int:
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("transfer-encoding", "chunked")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        for piece in pieces:
            self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            self.wfile.flush()
            if delay:
                time.sleep(delay)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
        return len(pieces)


class FakeProvider:
    """``with FakeProvider(exchanges) as fake:`` then send requests to ``fake.base_url``."""

    def __init__(
        self,
        exchanges: Sequence[Exchange],
        *,
        lifetime: float = 30.0,
        chunk_delay: float = 0.0,
        echo_credentials: bool = False,
    ) -> None:
        self.exchanges = list(exchanges)
        self.lifetime = lifetime
        self.chunk_delay = chunk_delay
        self.echo_credentials = echo_credentials
        self.requests: list[ReceivedRequest] = []
        self.chunks_sent: list[int] = []
        self._served = 0
        self.stopped = threading.Event()  # set once the port is released (by stop() or the expiry timer)
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._port: int | None = None
        self._thread: threading.Thread | None = None
        self._timer: threading.Timer | None = None

    @classmethod
    def from_cassette(cls, path: str | Path, provider: str, **options: object) -> FakeProvider:
        """Serve a cassette's model calls (non-model calls such as ``GET /models`` are left out)."""
        exchanges = [e for e in load_exchanges(path, provider) if e.is_model_call]
        return cls(exchanges, **options)  # pyright: ignore[reportArgumentType]

    @property
    def port(self) -> int:
        """The bound port (still known after stop, for messages that name the URL)."""
        if self._port is None:
            raise RuntimeError("FakeProvider was never started")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> FakeProvider:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._port = int(server.server_address[1])
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-provider", daemon=True
        )
        self._thread.start()
        self._timer = threading.Timer(self.lifetime, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port; safe to call twice and from the expiry timer."""
        with self._lock:
            server, self._server = self._server, None
        if self._timer is not None and self._timer is not threading.current_thread():
            self._timer.cancel()
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self.stopped.set()

    def __enter__(self) -> FakeProvider:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _next(self) -> Exchange | None:
        with self._lock:
            if self._served >= len(self.exchanges):
                return None
            exchange = self.exchanges[self._served]
            self._served += 1
            return exchange

    def respond(self, handler: _Handler, received: ReceivedRequest) -> None:
        with self._lock:
            self.requests.append(received)
        probe = Exchange(received.method, received.path, None, 200)
        exchange = self._next() if probe.is_model_call else None
        if exchange is None:
            status = 404 if not probe.is_model_call else 410
            message = "not a model endpoint" if status == 404 else "no recorded response left"
            error = json.dumps({"error": {"message": f"fake provider: {message}", "code": status}})
            handler.send_chunked(status, "application/json", [error.encode()], 0)
            return
        content_type = exchange.header("content-type") or "text/event-stream"
        frames = content_type.startswith("application/vnd.amazon.eventstream")
        body = exchange.body
        if self.echo_credentials and not frames:  # a frame's CRCs cover its bytes: frames are not edited
            body = self._echo(body, received)
        streamed = "event-stream" in content_type or body.lstrip()[:5] in (b"data:", b"event")
        pieces = split_frames(body) if frames else split_events(body) if streamed else [body]
        sent = handler.send_chunked(
            exchange.status, content_type, pieces, self.chunk_delay if streamed else 0
        )
        with self._lock:
            self.chunks_sent.append(sent)

    @staticmethod
    def _echo(body: bytes, received: ReceivedRequest) -> bytes:
        """Put every credential the client sent into the body: an SSE comment and a JSON field."""
        values = [received.headers[h] for h in _CREDENTIAL_HEADERS if h in received.headers]
        values += [v for k, v in received.query.items() if k.lower() in ("key", "api_key")]
        echo = "; ".join(values)
        field = b'{"echo":' + json.dumps(echo).encode() + b","
        if b"data: {" in body:
            return f": echo {echo}\n\n".encode() + body.replace(b"data: {", b"data: " + field, 1)
        return body.replace(b"{", field, 1)

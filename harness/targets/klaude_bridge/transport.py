"""Offline HTTP for klaude-code's clients: a mock transport behind the client factories they call.

klaude-code builds every SDK client with ``http_client=create_async_http_client()``
(``create_httpx2_async_http_client()`` for anthropic, whose SDK needs httpx2). While a
client is being constructed those factory names, looked up in the client's own module,
return a client whose transport is a ``MockTransport``; nothing else of klaude's is touched.
The transport hands each request to ``Wire.handler`` so one client serves many calls.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportUnknownParameterType=false, reportAttributeAccessIssue=false

from __future__ import annotations

import importlib
import json
from collections.abc import AsyncIterator, Callable, Generator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import httpx2

from harness.replay import Exchange

__all__ = ["CapturedRequest", "Wire", "patched_factories"]

#: klaude client module -> the factory names it imported from klaude_code.llm.http.
_FACTORIES: dict[str, tuple[str, ...]] = {
    "klaude_code.llm.anthropic.client": ("create_httpx2_async_http_client",),
    "klaude_code.llm.openai_compatible.client": ("create_async_http_client",),
    "klaude_code.llm.openai_responses.client": ("create_async_http_client",),
    "klaude_code.llm.google.client": ("create_async_http_client",),
    "klaude_code.llm.openrouter.client": ("create_async_http_client",),
}


@dataclass
class CapturedRequest:
    method: str
    url: str
    headers: dict[str, str]
    body: Any


class _Chunks(httpx.AsyncByteStream, httpx2.AsyncByteStream):
    """An async byte stream serving a recorded body in fixed-size chunks (chunk-boundary tests)."""

    def __init__(self, body: bytes, chunk_size: int | None) -> None:
        self.body, self.size = body, chunk_size or max(len(body), 1)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self.body), self.size):
            yield self.body[start : start + self.size]

    async def aclose(self) -> None:
        return None


@dataclass
class Wire:
    """What the mock transport does next: capture the request, then answer from ``reply``."""

    requests: list[CapturedRequest] = field(default_factory=list[CapturedRequest])
    reply: Exchange | None = None
    chunk_size: int | None = None

    def handler(self, request: Any) -> Any:
        content: bytes = request.content
        try:
            body: Any = json.loads(content) if content else None
        except json.JSONDecodeError:
            body = content.decode("utf-8", errors="replace")
        self.requests.append(CapturedRequest(request.method, str(request.url), dict(request.headers), body))
        response_class = httpx2.Response if type(request).__module__.startswith("httpx2") else httpx.Response
        if self.reply is None:  # render: a 400 ends the call at once (no SDK retries a 400)
            error = {"error": {"type": "invalid_request_error", "message": "harness: request captured"}}
            return response_class(400, json=error)
        headers = {
            k: v[0]
            for k, v in self.reply.headers.items()
            if v and k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        }
        return response_class(
            self.reply.status, headers=headers, stream=_Chunks(self.reply.body, self.chunk_size)
        )

    def httpx_client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.handler))

    def httpx2_client(self) -> Any:
        return httpx2.AsyncClient(transport=httpx2.MockTransport(self.handler))


@contextmanager
def patched_factories(wire: Wire) -> Generator[None]:
    """Point klaude's client modules' HTTP-client factories at ``wire`` while clients are built."""
    saved: list[tuple[Any, str, Callable[[], Any]]] = []
    try:
        for module_name, names in _FACTORIES.items():
            module = importlib.import_module(module_name)
            for name in names:
                saved.append((module, name, getattr(module, name)))
                make = wire.httpx2_client if "httpx2" in name else wire.httpx_client
                setattr(module, name, make)
        yield
    finally:
        for module, name, original in saved:
            setattr(module, name, original)

"""Offline HTTP for klaude-code's clients: the kit's ``OfflineWire`` behind the client factories they call.

klaude-code builds every SDK client with ``http_client=create_async_http_client()``
(``create_httpx2_async_http_client()`` for anthropic, whose SDK needs httpx2). While a
client is being constructed those factory names, looked up in the client's own module,
return the wire's offline client; nothing else of klaude's is touched.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import Any

from harness.kit import OfflineWire

__all__ = ["patched_factories"]

#: klaude client module -> the factory names it imported from klaude_code.llm.http.
_FACTORIES: dict[str, tuple[str, ...]] = {
    "klaude_code.llm.anthropic.client": ("create_httpx2_async_http_client",),
    "klaude_code.llm.openai_compatible.client": ("create_async_http_client",),
    "klaude_code.llm.openai_responses.client": ("create_async_http_client",),
    "klaude_code.llm.google.client": ("create_async_http_client",),
    "klaude_code.llm.openrouter.client": ("create_async_http_client",),
}


@contextmanager
def patched_factories(wire: OfflineWire) -> Generator[None]:
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

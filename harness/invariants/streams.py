"""Provider streams for the output-side checks (I3, I6, I11): emitted from canonical messages, then replayed.

``harness.emit`` (canonical assistant message -> provider SSE bytes) is optional here:
when it cannot be imported, or cannot express a message for a provider, the stream
checks say so in a note and skip that message instead of failing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from harness.invariants.base import CheckContext, Violation
from harness.model import AssistantMessage
from harness.replay import Exchange
from harness.stream.base import CallResult

__all__ = ["Emitter", "emit_for", "emitter", "replay_bytes", "sse_exchange"]

Emitter = Callable[[str, AssistantMessage], bytes]


def emitter() -> Emitter | None:
    """``harness.emit.emit_stream`` if the emitters are installed, else None."""
    try:
        module = importlib.import_module("harness.emit")
    except ImportError:
        return None
    emit: Emitter | None = getattr(module, "emit_stream", None)
    return emit


def emit_for(ctx: CheckContext, message: AssistantMessage, index: int) -> bytes | None:
    """The provider stream for one message, or None (with a note) when it cannot be made."""
    emit = emitter()
    if emit is None:
        ctx.note("stream checks skipped: harness.emit is not importable (no emitters installed)")
        return None
    try:
        return emit(ctx.provider, message)
    except (NotImplementedError, ValueError) as exc:
        ctx.note(f"{ctx.provider}: message {index} cannot be emitted as a stream ({type(exc).__name__}: {exc})")
        return None


def sse_exchange(body: bytes, status: int = 200, content_type: str = "text/event-stream") -> Exchange:
    return Exchange("POST", "(emitted stream)", None, status, {"content-type": [content_type]}, body)


def replay_bytes(
    ctx: CheckContext,
    invariant: str,
    index: int | None,
    exchange: Exchange,
    chunk_size: int | None = None,
) -> CallResult | Violation:
    """Run the target's output side; an exception escaping it is itself a violation (DESIGN "Output")."""
    try:
        return ctx.target.replay(ctx.provider, exchange, chunk_size)
    except NotImplementedError:
        raise
    except Exception as exc:
        return ctx.violation(
            invariant,
            index,
            f"the target's stream parser raised {type(exc).__name__}: {exc}".splitlines()[0],
            {"status": exchange.status, "body": exchange.body[:120].decode("utf-8", "replace")},
        )

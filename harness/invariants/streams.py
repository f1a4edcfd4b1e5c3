"""Provider streams for the output-side checks (I3, I6, I11): emitted from canonical messages, then replayed.

``harness.emit`` (canonical assistant message -> provider SSE bytes) is optional here:
when it cannot be imported, or cannot express a message for a provider, the stream
checks say so in a note and skip that message instead of failing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Protocol

from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.results import CallResult
from harness.contract.target import parser_missing
from harness.invariants.base import CheckContext, Violation
from harness.model import AssistantMessage, ThinkingSignaturePart, ThinkingTextPart

__all__ = [
    "DEFAULT_RESPONSE_ID",
    "Emitter",
    "emit_for",
    "emitter",
    "replay_bytes",
    "response_id_for",
    "sse_exchange",
    "stream_exchange",
    "stream_skip_reason",
]

#: The response id given to streams of messages that have none.
DEFAULT_RESPONSE_ID = "resp_emit"


class Emitter(Protocol):
    """``harness.emit.emit_stream``: canonical assistant message -> the provider's SSE body."""

    def __call__(self, provider: str, message: AssistantMessage, *, response_id: str = ...) -> bytes: ...


def _emit_module() -> ModuleType | None:
    try:
        return importlib.import_module("harness.emit")
    except ImportError:
        return None


def emitter() -> Emitter | None:
    """``harness.emit.emit_stream`` if the emitters are installed, else None."""
    module = _emit_module()
    emit: Emitter | None = getattr(module, "emit_stream", None) if module is not None else None
    return emit


def response_id_for(message: AssistantMessage) -> str:
    """The response id the emitted stream carries (the message's own, else a fixed one)."""
    return message.response_id or DEFAULT_RESPONSE_ID


def parsed_response_id(provider: str, message: AssistantMessage) -> str | None:
    """The response id a parse of the emitted stream gives: none where the stream names none (Bedrock)."""
    module = _emit_module()
    carries: Callable[[str], bool] | None = (
        getattr(module, "carries_ids", None) if module is not None else None
    )
    if carries is not None and not carries(provider):
        return None
    return response_id_for(message)


def emit_for(ctx: CheckContext, message: AssistantMessage, index: int) -> bytes | None:
    """The provider stream for one message (emitted once per context), or None when there is none.

    A message the provider's stream cannot carry as it is is projected onto what it can
    carry (``harness.emit.project``); ``ctx.stream_messages[index]`` is then the message
    the stream holds. None, with the reason in ``ctx.stream_skips``, when ``harness.emit``
    is missing or not even the projection has a stream form. The emission is the harness's
    own and pure, so it is kept in ``ctx.cache``, which the checks of one case share.
    """
    if index in ctx.streams:
        return ctx.streams[index]
    module = _emit_module()
    emit = emitter()
    body: bytes | None = None
    if module is None or emit is None:
        ctx.note("stream checks skipped: harness.emit is not importable (no emitters installed)")
    else:
        emitted: dict[int, _Emitted] = ctx.cache.setdefault("emitted", {})
        if index not in emitted:
            emitted[index] = _emission(module, emit, ctx.provider, message)
        body, carried, model, reason = emitted[index]
        if body is not None and carried is not None and model is not None:
            ctx.stream_messages[index] = carried
            ctx.stream_models[index] = model
        if reason is not None and body is None:
            ctx.stream_skips[index] = reason
    ctx.streams[index] = body
    return body


#: An emission: the stream, the message it carries, the model it names, or why there is none.
_Emitted = tuple[bytes | None, AssistantMessage | None, str | None, str | None]


#: Emissions by (provider, message as JSON), with the message they were made from, most recent
#: last: emitting is pure and the harness's own, and the same message is emitted for many checks'
#: contexts (a test plan asks ``stream_skip_reason`` at collection, then each case's context
#: emits it again).
_EMISSIONS: dict[tuple[str, str], tuple[AssistantMessage, _Emitted]] = {}
_EMISSIONS_LIMIT = 512


def _emission(module: ModuleType, emit: Emitter, provider: str, message: AssistantMessage) -> _Emitted:
    """``_emitted``, remembered for the last ``_EMISSIONS_LIMIT`` messages. A message is the one
    remembered when both its JSON and its values are equal (JSON alone writes NaN as null)."""
    key = (provider, message.model_dump_json())
    held = _EMISSIONS.pop(key, None)
    if held is None or held[0] != message:
        held = (message, _emitted(module, emit, provider, message))
        if len(_EMISSIONS) >= _EMISSIONS_LIMIT:
            del _EMISSIONS[next(iter(_EMISSIONS))]
    _EMISSIONS[key] = held
    return held[1]


def _emitted(module: ModuleType, emit: Emitter, provider: str, message: AssistantMessage) -> _Emitted:
    carried, reason = _carried(module, provider, message)
    if carried is None:
        return None, None, None, reason
    try:
        body = emit(provider, carried, response_id=response_id_for(carried))
    except (NotImplementedError, ValueError) as exc:
        return None, None, None, f"{type(exc).__name__}: {exc}"
    return body, carried, _stream_model(module, provider, carried), reason


def stream_skip_reason(provider: str, message: AssistantMessage) -> str | None:
    """Why ``provider``'s stream cannot carry ``message`` (nor its projection), or None when it can.

    What ``emit_for`` decides, without a context or a target: the emitters are the harness's
    own, so whether a message has a stream form is known before any target runs (collection).
    """
    module = _emit_module()
    emit = emitter()
    if module is None or emit is None:
        return "harness.emit is not importable (no emitters installed)"
    body, _, _, reason = _emission(module, emit, provider, message)
    return reason if body is None else None


def _stream_model(module: ModuleType, provider: str, message: AssistantMessage) -> str:
    """The model an emitted stream names: its thinking parts' ``model_id``, else the provider's default."""
    default: str = module.default_model(provider)
    ids = sorted(
        p.model_id
        for p in message.parts
        if isinstance(p, ThinkingTextPart | ThinkingSignaturePart) and p.model_id
    )
    return ids[0] if ids else default


def _carried(
    module: ModuleType, provider: str, message: AssistantMessage
) -> tuple[AssistantMessage | None, str | None]:
    """The message as the provider's stream carries it (itself, or its projection), or the reason there is none."""
    representable: Callable[[str, AssistantMessage], str | None] | None = getattr(
        module, "representable", None
    )
    if representable is None or representable(provider, message) is None:
        return message, None
    try:
        from harness.emit.project import project

        return project(provider, message, representable).message, None
    except ValueError as exc:
        return None, str(exc)


def sse_exchange(
    body: bytes, status: int = 200, content_type: str = "text/event-stream", *, model: str | None = None
) -> Exchange:
    """An emitted body as a recorded exchange; ``model`` is what the request asked for.

    A bridge configures its client from the request's model (as a real client asked for
    it), so the stream and the request agree on the model, as they do in real life.
    """
    request = None if model is None else {"model": model}
    return Exchange("POST", "(emitted stream)", request, status, {"content-type": [content_type]}, body)


def stream_exchange(ctx: CheckContext, index: int, body: bytes) -> Exchange:
    """The exchange of the stream emitted for message ``index``, with the model the stream names."""
    return sse_exchange(body, model=ctx.stream_models.get(index))


def replay_bytes(
    ctx: CheckContext,
    invariant: str,
    index: int | None,
    exchange: Exchange,
    chunk_size: Chunking = None,
) -> CallResult | Violation:
    """Run the target's output side; an exception escaping it is itself a violation (DESIGN "Output").

    Targets are pure, so one exchange in one chunking is replayed once per context: I3, I6
    and I11 all read the whole emitted stream of each message, and share that replay. A target
    without a stream parser is never replayed: the check cannot judge it (NotImplementedError).
    """
    missing = parser_missing(ctx.target)
    if missing is not None:
        raise NotImplementedError(missing)
    replays: dict[tuple[object, ...], CallResult | Exception] = ctx.cache.setdefault("replays", {})
    key = (exchange.status, exchange.body, repr(exchange.headers), repr(exchange.request_body), chunk_size)
    if key not in replays:
        try:
            replays[key] = ctx.target.replay(ctx.provider, exchange, chunk_size)
        except Exception as exc:
            replays[key] = exc
    outcome = replays[key]
    if isinstance(outcome, NotImplementedError):
        raise outcome
    if isinstance(outcome, Exception):
        return ctx.violation(
            invariant,
            index,
            f"the target's stream parser raised {type(outcome).__name__}: {outcome}".splitlines()[0],
            {"status": exchange.status, "body": exchange.body[:120].decode("utf-8", "replace")},
            kind="degrade",
        )
    return outcome

"""The canonical output rules a target's ``replay`` must honour, stated once.

The judges (``harness.invariants``: I3 one-assistant-per-call, the replay round trips, the
audit's replay summary) hold every target to these rules, and the reference stream parsers
(``harness.stream.base``) build their final message with ``stop_reason`` (stated in
``harness.contract.stops``, which both sides import), so a bridge that uses these helpers
cannot disagree with either.

1. One call, one final ``AssistantMessage``, with ``usage`` and ``stop_reason`` set, however
   the stream ends; replay never raises for anything the provider sent.
2. Stop reason (``stop_reason``): ``aborted`` when the user interrupted; ``error`` when the
   call failed (an HTTP error, an error event, a stream cut before its final event, a
   stream that never said how it ended), always with at least one ``ErrorEvent`` saying
   why; ``tool_use`` when the message calls tools and the provider said ``stop`` or nothing
   (OpenAI says ``tool_calls``, Anthropic ``tool_use``, Gemini ``STOP``: all are
   ``tool_use``); otherwise the provider's mapped reason (``stop``, ``length``). A call
   whose provider never said how it ended is ``error`` (``final_result`` adds the event).
3. Usage (``usage``): ``input_tokens`` (cached tokens included) and ``output_tokens`` are
   always numbers, 0 when the provider reported none. Every optional count
   (``cached_input_tokens``, ``cache_creation_input_tokens``, ``reasoning_tokens``,
   ``total_tokens``) is None when the provider did not say and 0 only when it said zero.
   Do not derive a count the provider did not send (no ``total = input + output``).
   The checks treat None and 0 of an optional count as one class, since a stream often
   cannot say which it was, so a library that collapses them (pydantic-ai does) is not
   penalised; one that invents a non-zero count is.
4. Ids (``sent_id``): copy ids the provider sent; never mint one. An optional id the
   provider did not send (``response_id``, a part's ``item_id`` or ``id``) stays None. A
   tool call needs a ``call_id``; when the code under audit minted one (Gemini sends none),
   keep it and say so in ``CallResult.notes`` (``minted_id_notes``): the audit compares only
   ids that occur in the recorded body.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.contract.exchange import Exchange
from harness.contract.results import CallResult, StreamItem
from harness.contract.stops import stop_reason
from harness.model import AnyPart, AssistantMessage, ErrorEvent, StopReason, ToolCallPart, Usage

__all__ = [
    "failed_result",
    "final_result",
    "minted_id_notes",
    "provider_stop",
    "sent_id",
    "stop_reason",
    "usage",
]

#: The words providers (and the libraries that pass them on) end an answer with -> the canonical
#: provider stop: Anthropic, OpenAI Chat and Responses, Gemini, Bedrock Converse, Cohere.
_STOP_WORDS: dict[str, StopReason] = {
    **dict.fromkeys(
        ("end_turn", "stop_sequence", "stop", "STOP", "completed", "tool_use", "tool_calls", "COMPLETE",
         "TOOL_CALL"),
        "stop",
    ),
    **dict.fromkeys(
        ("max_tokens", "length", "MAX_TOKENS", "max_output_tokens", "model_context_window_exceeded"), "length"
    ),
}  # fmt: skip
#: Safety stops: the provider withheld the answer (rule 2: an error, with an event saying so).
_SAFETY_WORDS = frozenset(
    {"refusal", "content_filter", "SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII",
     "IMAGE_SAFETY", "guardrail_intervened", "content_filtered"}
)  # fmt: skip


def provider_stop(word: str | None) -> tuple[StopReason | None, list[str]]:
    """A provider's own word for how the answer ended -> (``provider_stop`` for ``final_result``, errors).

    ``stop``/``length`` for the words that mean them (tool-call words are ``stop``: ``final_result``
    makes a message with calls ``tool_use``); a safety stop is None with one error saying so; an
    unknown word or None is None ("not said", which ``final_result`` reports as an error).
    """
    if word in _SAFETY_WORDS:
        return None, [f"the provider ended with {word} (it withheld the answer)"]
    return _STOP_WORDS.get(word or ""), []


def usage(
    input_tokens: int | None = None,
    output_tokens: int | None = None,
    *,
    cached_input_tokens: int | None = None,
    cache_creation_input_tokens: int | None = None,
    reasoning_tokens: int | None = None,
    total_tokens: int | None = None,
) -> Usage:
    """Rule 3: pass None for what the provider did not report; the two required counts become 0."""
    return Usage(
        input_tokens=input_tokens or 0,
        output_tokens=output_tokens or 0,
        cached_input_tokens=cached_input_tokens,
        cache_creation_input_tokens=cache_creation_input_tokens,
        reasoning_tokens=reasoning_tokens,
        total_tokens=total_tokens,
    )


def sent_id(value: str | None, exchange: Exchange) -> str | None:
    """Rule 4: ``value`` when the provider sent it (it occurs in the recorded body), else None."""
    return value if value and value.encode() in exchange.body else None


def minted_id_notes(parts: Sequence[AnyPart], exchange: Exchange) -> list[str]:
    """Rule 4: one note per tool call whose ``call_id`` the provider did not send."""
    return [
        f"tool call {p.tool_name!r}: call_id {p.call_id!r} was minted by the code under audit, not sent"
        for p in parts
        if isinstance(p, ToolCallPart) and sent_id(p.call_id, exchange) is None
    ]


def final_result(
    parts: Sequence[AnyPart],
    *,
    provider_stop: StopReason | None,
    usage: Usage | None,
    errors: Sequence[str] = (),
    items: Sequence[StreamItem] = (),
    response_id: str | None = None,
    notes: Sequence[str] = (),
    aborted: bool = False,
) -> CallResult:
    """Rules 1-3 at once: the one final message plus error events (``errors`` are their messages).

    A failed call (any error) ends ``error``; so does a call whose provider never said how it
    ended (``provider_stop`` None: a stream cut before its final event looks exactly like this),
    with an error event saying so. ``usage`` None (nothing reported) becomes zeros.
    """
    if not errors and not aborted and provider_stop in (None, "error"):
        said = (
            "the provider ended the response with an error"
            if provider_stop
            else "the response did not say how it ended (no stop reason): treated as cut short"
        )
        errors = [said]
    has_calls = any(isinstance(p, ToolCallPart) for p in parts)
    stop = stop_reason(provider_stop, has_tool_calls=has_calls, failed=bool(errors), aborted=aborted)
    message = AssistantMessage(
        parts=list(parts), usage=usage or Usage(), stop_reason=stop, response_id=response_id
    )
    events = [ErrorEvent(error_message=text, response_id=response_id) for text in errors]
    return CallResult(message, list(items), events, list(notes))


def failed_result(exc: BaseException, items: Sequence[StreamItem] = ()) -> CallResult:
    """Rules 1-2 for a call the code under audit could not complete (an HTTP error, a body it could
    not read, a cut stream it refused): an empty ``error`` message with one event naming the
    exception, first line only. Never for a ``NotImplementedError``: that one says "unsupported"."""
    text = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return final_result([], provider_stop=None, usage=None, errors=[text], items=items)

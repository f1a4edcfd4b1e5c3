"""What a bridge reads off a recorded exchange before replaying it: streamed or not, the model, the wire.

Why here: every bridge that replays through an SDK client must choose the streaming or the
non-streaming call, name a model to build the client with and refuse a recording its
client cannot read; stated once, the bridges cannot disagree on which recordings are streams.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from harness.contract.exchange import Exchange
from harness.contract.providers import wire_of
from harness.contract.routing import route

__all__ = ["is_streamed", "recorded_call", "recorded_model", "require_openrouter_chat"]

#: Wires that name the model in the URL, not the body: Gemini's ``.../models/<model>:streamGenerateContent``.
_MODEL_IN_URL = {"gemini": re.compile(r"/models/([^/:?]+):")}
#: Bedrock names the model and the streaming in the URL: ``/model/{modelId}/converse[-stream]``.
_BEDROCK_CALL = re.compile(r"/model/([^/]+)/([a-z-]+)$")


def recorded_call(provider: str, exchange: Exchange) -> tuple[str | None, bool]:
    """The recorded call's model and whether to make the streaming call.

    Bedrock's stream is AWS event-stream binary, never SSE, and only its URL says so
    (``converse-stream``); a Bedrock operation other than Converse is NotImplementedError
    (a Converse client cannot read it). Elsewhere: ``recorded_model`` and ``is_streamed``.
    """
    if wire_of(provider) != "bedrock-converse":
        return recorded_model(provider, exchange), is_streamed(exchange)
    match = _BEDROCK_CALL.search(urlsplit(exchange.uri).path)
    if match is None:  # an emitted stream (the invariants'): its model is the request's, JSON is no stream
        return recorded_model(provider, exchange), "json" not in exchange.header("content-type")
    if match.group(2) not in ("converse", "converse-stream"):
        raise NotImplementedError(f"a Bedrock {match.group(2)} recording: a Converse client cannot read it")
    return unquote(match.group(1)), match.group(2) == "converse-stream"


def is_streamed(exchange: Exchange) -> bool:
    """Whether the recorded response is a server-sent event stream (by content type, else by its first bytes)."""
    if "event-stream" in exchange.header("content-type"):
        return True
    head = exchange.body.lstrip()
    return head.startswith((b"data:", b"event:", b":"))


def recorded_model(provider: str, exchange: Exchange) -> str | None:
    """The model the recorded request named (Gemini: in the URL), or None when it names none."""
    in_url = _MODEL_IN_URL.get(wire_of(provider))
    if in_url is not None and (match := in_url.search(exchange.uri)):
        return match.group(1)
    body = exchange.request_body
    if isinstance(body, dict) and isinstance(body.get("model"), str):  # pyright: ignore[reportUnknownMemberType]
        return str(body["model"])  # pyright: ignore[reportUnknownArgumentType]
    return None


def require_openrouter_chat(provider: str, exchange: Exchange, refusal: str) -> None:
    """Refuse an OpenRouter recording of another endpoint than Chat Completions, for clients that speak only that.

    ``refusal`` is the bridge's message; ``{wire}`` in it becomes the recording's wire format
    (``harness.contract.routing``). Raises NotImplementedError, which the audit reports as unsupported.
    """
    found = route(exchange.method, exchange.uri)
    if provider == "openrouter" and found is not None and found.wire != "openai-chat":
        raise NotImplementedError(refusal.format(wire=found.wire))

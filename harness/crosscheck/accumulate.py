"""Both accumulations of the same bytes: the official SDK's (served offline) and ours.

The recorded body is served to the real client through an ``httpx2.MockTransport``, so
each SDK's own accumulator builds its final message with no network; ours goes through
the replay path. google-genai has no accumulator: its result is the list of parsed chunks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.providers.replay import Exchange, parser_for, replay_exchange
from harness.stream.base import CallResult

if TYPE_CHECKING:  # the SDKs (and their httpx2) are the optional `oracles` extra: imported on use
    import httpx2
    from anthropic import Anthropic
    from anthropic.types import Message
    from google.genai import Client as GenaiClient
    from google.genai.types import GenerateContentResponse
    from openai import OpenAI
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response

    SdkResult = ChatCompletion | Response | Message | list[GenerateContentResponse]
else:
    SdkResult = Any

from harness.contract.providers import PROVIDERS, wire_of


@dataclass
class _Served:
    """What the mock transport answers next (one request at a time: tests and benchmarks are serial)."""

    body: bytes = b""
    chunk_size: int | None = None
    content_type: str = "text/event-stream"


_SERVED = _Served()


def _chunks(body: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start : start + size]


def _serve(request: httpx2.Request) -> httpx2.Response:
    import httpx2

    body, size = _SERVED.body, _SERVED.chunk_size
    content = _chunks(body, size) if size else body
    return httpx2.Response(200, headers={"content-type": _SERVED.content_type}, content=content)


def _http() -> httpx2.Client:
    import httpx2

    return httpx2.Client(transport=httpx2.MockTransport(_serve))


@functools.cache
def _openai() -> OpenAI:
    from openai import OpenAI

    return OpenAI(api_key="sk-test", base_url="http://oracle.invalid/v1", max_retries=0, http_client=_http())


@functools.cache
def _anthropic() -> Anthropic:
    from anthropic import Anthropic

    return Anthropic(
        api_key="sk-ant-test", base_url="http://oracle.invalid", max_retries=0, http_client=_http()
    )


@functools.cache
def _gemini() -> GenaiClient:
    """Built once: ``genai.Client()`` alone costs ~120 ms."""
    from google import genai
    from google.genai import types as gt

    return genai.Client(
        api_key="k", http_options=gt.HttpOptions(base_url="http://oracle.invalid", httpx_client=_http())
    )


def is_json(body: bytes) -> bool:
    return body.lstrip()[:1] == b"{"


_HI: Any = [{"role": "user", "content": "hi"}]


def sdk_accumulate(provider: str, body: bytes, chunk_size: int | None = None) -> SdkResult:
    """The SDK's own final object for a response body, fed in ``chunk_size`` pieces.

    A JSON object body is a non-streamed response and goes through ``create()``; a stream
    through the SDK of the provider's wire (``_ACCUMULATORS``). The model names passed are
    placeholders: the mock serves ``body`` whatever is asked.
    """
    streamed = not is_json(body)
    _SERVED.body, _SERVED.chunk_size = body, chunk_size
    _SERVED.content_type = "text/event-stream" if streamed else "application/json"
    accumulate = _ACCUMULATORS.get(wire_of(provider)) if provider in PROVIDERS else None
    if accumulate is None:
        raise ValueError(f"unknown provider {provider!r} (expected one of: {', '.join(PROVIDERS)})")
    return accumulate(streamed)


def _chat(streamed: bool) -> SdkResult:
    """The openai SDK's Chat accumulator raises on ``length``/``content_filter`` finishes: the
    completion it carries is its accumulation."""
    completions = _openai().chat.completions
    if not streamed:
        return completions.create(model="m", messages=_HI)
    from openai import ContentFilterFinishReasonError, LengthFinishReasonError

    with completions.stream(model="m", messages=_HI) as chat:
        try:
            for _ in chat:
                pass
            return chat.get_final_completion()
        except (LengthFinishReasonError, ContentFilterFinishReasonError) as refused:
            if refused.completion is None:
                raise
            return refused.completion  # what it accumulated before refusing to finish


def _responses(streamed: bool) -> SdkResult:
    """A stream that ends in ``response.incomplete``/``failed`` has no final response: that
    terminal event's response is the SDK's last word."""
    responses = _openai().responses
    if not streamed:
        return responses.create(model="m", input="hi")
    from openai.types.responses import ResponseFailedEvent, ResponseIncompleteEvent

    ended: Response | None = None
    with responses.stream(model="m", input="hi") as stream:
        for event in stream:
            if isinstance(event, ResponseIncompleteEvent | ResponseFailedEvent):
                ended = event.response  # the SDK filled its output from the items it accumulated
        return stream.get_final_response() if ended is None else ended


def _anthropic_messages(streamed: bool) -> SdkResult:
    messages = _anthropic().messages
    if not streamed:
        return messages.create(model="claude-oracle-test", max_tokens=64, messages=_HI)
    with messages.stream(model="claude-oracle-test", max_tokens=64, messages=_HI) as stream:
        for _ in stream:
            pass
        return stream.get_final_message()


def _gemini_chunks(streamed: bool) -> SdkResult:
    """No accumulator: the parsed chunks."""
    models = _gemini().models
    if not streamed:
        return [models.generate_content(model="gemini-2.5-flash", contents="hi")]  # pyright: ignore[reportUnknownMemberType]
    return list(models.generate_content_stream(model="gemini-2.5-flash", contents="hi"))  # pyright: ignore[reportUnknownMemberType]


#: The official SDK's accumulation of each wire it serves (Bedrock's is botocore's: ``bedrock.py``).
_ACCUMULATORS: dict[str, Callable[[bool], SdkResult]] = {
    "openai-chat": _chat,
    "openai-responses": _responses,
    "anthropic": _anthropic_messages,
    "gemini": _gemini_chunks,
}


def ours(provider: str, body: bytes, chunk_size: int | None = None) -> CallResult:
    """Our final message for the same body (streamed or not), through the replay path."""
    exchange = Exchange("POST", "(crosscheck)", None, 200, {}, body)
    return replay_exchange(parser_for(provider, exchange), exchange, chunk_size)

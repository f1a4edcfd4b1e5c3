"""A litellm-style bridge on the kit: one client for every provider, OpenAI Chat messages in, completions out.

litellm's shape: the caller hands OpenAI Chat messages for any provider and gets an OpenAI-shaped
completion back. Here the library is the openai SDK itself, pointed at each provider's
OpenAI-compatible endpoint (OpenAI, OpenRouter, Groq, DeepSeek), so the fixture runs in the
harness's own environment. On the kit a bridge of this shape is the message conversion
(``harness.kit.shapes.chat_messages``), the call, and ``chat_completion_result``; its line count
is ``tests/test_kit_bridges.py``'s measure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import openai
from openai.types.chat import ChatCompletion

from harness import CallParams, CallResult, Chunking, Exchange, HistoryEvent, Rendered, default_model
from harness.kit import OfflineWire, chat_completion_result, failed_result, is_streamed, recorded_model
from harness.kit.shapes import chat_messages

__all__ = ["TARGET", "LitellmStyle"]

BASE_URLS = {
    "openai-chat": "https://api.openai.com/v1",
    "openrouter": "https://openrouter.ai/api/v1",
    "groq": "https://api.groq.com/openai/v1",
    "deepseek": "https://api.deepseek.com",
}


class LitellmStyle:
    name = "litellm-style"
    version = None
    lacks: frozenset[str] = frozenset()
    warning_channels = frozenset({"returned"})

    def __init__(self) -> None:
        self.wire = OfflineWire()
        self.clients = {
            p: openai.AsyncOpenAI(
                api_key="offline", base_url=url, http_client=self.wire.httpx2_client(), max_retries=0
            )
            for p, url in BASE_URLS.items()
        }

    def providers(self) -> Sequence[str]:
        return tuple(BASE_URLS)

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        converted = chat_messages(history, params.system)
        tools = [
            {"type": "function", "function": t.model_dump(exclude={"strict"})} for t in params.tools or []
        ]
        kwargs: dict[str, Any] = {
            "model": params.model or default_model(provider),
            "messages": converted.messages,
        }
        if tools:
            kwargs["tools"] = tools
        return self.wire.render(self.clients[provider].chat.completions.create(**kwargs), converted.warnings)

    async def _complete(self, provider: str, model: str, stream: bool) -> ChatCompletion:
        client = self.clients[provider].chat.completions
        if not stream:
            return await client.create(model=model, messages=[])
        async with client.stream(model=model, messages=[]) as events:
            async for _ in events:
                pass
            return await events.get_final_completion()

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        model = recorded_model(provider, exchange) or default_model(provider)
        self.wire.serve(exchange, chunk_size)
        try:
            completion = self.wire.run(self._complete(provider, model, is_streamed(exchange)))
        except Exception as exc:  # an HTTP error, a body the SDK cannot read, a cut stream it refuses
            return failed_result(exc)
        return chat_completion_result(completion, exchange)


TARGET = LitellmStyle()

"""What every bridge would repeat, stated once in the kit: ``OfflineWire.render``/``run``, ``failed_result``,
``chat_completion_result`` and ``harness.default_model``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import harness
from harness.contract.exchange import Exchange
from harness.contract.providers import PROVIDERS
from harness.kit import OfflineWire, WireError, chat_completion_result, failed_result
from harness.providers import get_profile


def _exchange(body: bytes) -> Exchange:
    return Exchange(
        method="POST",
        uri="https://api.openai.com/v1/chat/completions",
        request_body={},
        status=200,
        headers={"content-type": ["application/json"]},
        body=body,
    )


COMPLETION: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": "Looking it up.",
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}}
                ],
            },
        }
    ],
    "usage": {
        "prompt_tokens": 12,
        "completion_tokens": 5,
        "total_tokens": 17,
        "prompt_tokens_details": {"cached_tokens": 4},
    },
}


def test_a_completion_becomes_what_the_reference_parser_makes_of_the_same_body() -> None:
    import json

    exchange = _exchange(json.dumps(COMPLETION).encode())
    ours = chat_completion_result(COMPLETION, exchange)
    reference = harness.get_target("reference").replay("openai-chat", exchange)
    assert ours.message.parts == reference.message.parts
    assert ours.message.stop_reason == reference.message.stop_reason == "tool_use"
    assert ours.message.usage == reference.message.usage
    assert ours.message.response_id == "chatcmpl-1" and not ours.errors


def test_an_id_the_provider_never_sent_is_not_kept_and_a_safety_stop_is_an_error() -> None:
    filtered = {**COMPLETION, "choices": [{**COMPLETION["choices"][0], "finish_reason": "content_filter"}]}
    result = chat_completion_result(filtered, _exchange(b"{}"))
    assert result.message.response_id is None
    assert result.message.stop_reason == "error" and result.errors
    assert result.notes  # call_1 does not occur in the recorded body: minted, and said so


def test_failed_result_is_one_error_event_of_one_line() -> None:
    result = failed_result(ValueError("cut short\nsecond line"))
    assert result.message.stop_reason == "error"
    assert [e.error_message for e in result.errors] == ["ValueError: cut short"]


def test_wire_render_keeps_the_request_and_drops_the_client_error_that_follows() -> None:
    wire = OfflineWire()
    client = wire.httpx_client()

    async def call() -> None:
        response = await client.post("https://api.example.test/v1/x", json={"model": "m", "n": 1})
        response.raise_for_status()  # the captured 400: dropped by render

    assert wire.render(call()).body == {"model": "m", "n": 1}
    assert wire.run(lambda: 3) == 3  # sync code runs as it is
    with pytest.raises(WireError, match="sent no request: KeyError"):
        wire.render(lambda: dict[str, int]()["missing"])
    assert isinstance(client, httpx.AsyncClient)


def test_default_model_is_public_and_is_the_reference_default() -> None:
    assert "default_model" in harness.__all__
    for provider in PROVIDERS:
        assert harness.default_model(provider) == get_profile(provider).DEFAULT_MODEL
    with pytest.raises(ValueError, match="unknown provider"):
        harness.default_model("no-such-provider")

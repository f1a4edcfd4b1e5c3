"""I11 stream round trips: ``parse(emit(m)) == m`` for every provider, at any chunk split, and the
official SDKs accept every emitted stream and agree with our parse of it.

Compared exactly: the whole message except ``id`` and ``created_at`` (not on the wire):
``parts`` (every field; thinking ``model_id`` is the stream's model), ``usage``,
``stop_reason``, and ``response_id`` (the stream's). Representability rules: each
``harness/emit/<provider>.py`` docstring.
"""

from __future__ import annotations

from itertools import pairwise

import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.contract.providers import CHAT_DIALECTS
from harness.crosscheck import (
    SdkComparison,
    SdkResult,
    compare,
    ours,
    recorded_calls,
    sdk_accumulate,
)
from harness.crosscheck.bedrock import botocore_accumulate, project
from harness.emit import PROVIDERS, NotRepresentable, carries_ids, emit_stream, representable
from harness.model import (
    AssistantMessage,
    ImageURLPart,
    TextPart,
    ThinkingTextPart,
)
from harness.providers import get_parser
from harness.strategies import representable_messages
from harness.stream.drive import parse_bytes, parse_chunks
from tests.support.cassettes import cassette_cases, model_calls
from tests.support.messages import (
    ANTHROPIC_USAGE,
    RICH,
    USAGE,
    assistant_msg,
    call_part,
    sig_part,
    text_part,
    think_part,
)

RID = "resp_roundtrip"


def expected(message: AssistantMessage, response_id: str = RID, provider: str = "") -> AssistantMessage:
    """``message`` as the parser returns it; a stream that names no response id (Bedrock) gives None."""
    rid = response_id if not provider or carries_ids(provider) else None
    return message.model_copy(update={"id": None, "created_at": None, "response_id": rid})


# ---------------------------------------------------------------- parse(emit(m)) == m


@pytest.mark.parametrize("provider", PROVIDERS)
@given(data=st.data())
def test_parse_of_emit_is_the_message(provider: str, data: st.DataObject) -> None:
    message = data.draw(representable_messages(provider), label="message")
    assert representable(provider, message) is None
    body = emit_stream(provider, message, response_id=RID)
    result = parse_bytes(get_parser(provider), body)
    assert result.message == expected(message, provider=provider)
    # a complete stream: an error event only for the provider's own error ending
    assert len(result.errors) == (message.stop_reason == "error")
    assert emit_stream(provider, message, response_id=RID) == body  # deterministic


@pytest.mark.parametrize("provider", PROVIDERS)
@given(data=st.data())
def test_any_chunk_split_gives_the_same_message(provider: str, data: st.DataObject) -> None:
    message = data.draw(representable_messages(provider), label="message")
    body = emit_stream(provider, message, response_id=RID)
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(body)), max_size=16), label="cuts")))
    chunks = [body[a:b] for a, b in pairwise([0, *cuts, len(body)])]
    assert parse_chunks(get_parser(provider)(), chunks).message == expected(message, provider=provider)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_byte_at_a_time(provider: str) -> None:
    message = RICH[provider]
    body = emit_stream(provider, message, response_id=RID)
    assert parse_bytes(get_parser(provider), body, chunk_size=1).message == expected(
        message, provider=provider
    )


# ---------------------------------------------------------------- the official SDKs agree


def crosscheck(provider: str, body: bytes, chunk_size: int | None) -> SdkComparison:
    """``harness.crosscheck.crosscheck``, but a Chat stream ending in ``length``/``content_filter`` too.

    The openai SDK's ``get_final_completion()`` raises for those finish reasons (its
    parse step refuses them) although it accumulated the whole stream; the accumulated
    completion rides on the exception, so it is the SDK's final word here.
    """
    sdk: SdkResult
    try:
        sdk = sdk_accumulate(provider, body, chunk_size)
    except (openai.LengthFinishReasonError, openai.ContentFilterFinishReasonError) as exc:
        if exc.completion is None:
            raise
        sdk = exc.completion
    return compare(provider, ours(provider, body, chunk_size), sdk, body)


#: The dialects' official SDKs (mistralai, groq, cerebras-cloud-sdk) have no stream accumulator;
#: DeepSeek, Z.ai and Hugging Face's router publish no SDK: nothing to agree with. The cohere SDK's
#: ``chat_stream`` yields the events and accumulates nothing either.
ACCUMULATING = [p for p in PROVIDERS if p not in (*CHAT_DIALECTS, "cohere")]


@pytest.mark.parametrize("provider", ACCUMULATING)
@given(data=st.data())
def test_the_sdk_accepts_the_stream_and_agrees(provider: str, data: st.DataObject) -> None:
    message = data.draw(representable_messages(provider), label="message")
    body = emit_stream(provider, message, response_id=RID)
    chunk_size = data.draw(st.sampled_from([None, 13, 256]), label="chunk_size")
    if provider == "bedrock":  # botocore has no accumulator: its events, folded (harness.crosscheck.bedrock)
        sdk = botocore_accumulate(body, chunk_size)
        assert project(ours(provider, body, chunk_size).message) == [
            p for b in sdk["blocks"] for p in b["pieces"]
        ]
        return
    verdict = crosscheck(provider, body, chunk_size)
    assert verdict.ok, str(verdict)


# ---------------------------------------------------------------- real recordings re-emit to themselves


def _recorded() -> list[tuple[str, str, bytes]]:
    out: list[tuple[str, str, bytes]] = []
    for provider, path in cassette_cases():  # each call with the provider that judges it (RecordedCall)
        for call in recorded_calls(provider, path.stem, model_calls(provider, path)):
            if ours(call.provider, call.body).errors:
                continue  # a stream that ended in an error event (Groq's tool_use_failed): no final message
            out.append((call.provider, call.id, call.body))
    return out


RECORDED = _recorded()


def test_recordings_found() -> None:
    # The dialects' calls are judged (and re-emitted) on their wire: openai-chat, or openai-responses
    # for DeepSeek's Responses endpoint; their own emitters are covered by tests/test_dialects_traffic.py.
    assert {p for p, _, _ in RECORDED} == set(PROVIDERS) - set(CHAT_DIALECTS)


@pytest.mark.parametrize(
    ("provider", "body"), [(p, b) for p, _, b in RECORDED], ids=[i for _, i, _ in RECORDED]
)
def test_every_recorded_message_is_representable_and_re_emits_to_itself(provider: str, body: bytes) -> None:
    """The emitter covers what the real APIs sent: each recorded final message round-trips."""
    message = ours(provider, body).message
    assert representable(provider, message) is None
    response_id = message.response_id or RID
    again = parse_bytes(get_parser(provider), emit_stream(provider, message, response_id=response_id))
    assert again.message == message


# ---------------------------------------------------------------- representability rules


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_rich_examples_are_representable(provider: str) -> None:
    assert representable(provider, RICH[provider]) is None


REJECTED: list[tuple[str, AssistantMessage, str]] = [
    # shared rules
    ("openai-chat", assistant_msg(TextPart(text="x"), stop="aborted"), "client-side interrupt"),
    ("openai-chat", assistant_msg(TextPart(text="x"), usage=None), "no usage"),
    ("openai-chat", assistant_msg(ImageURLPart(url="https://x/y.png")), "image_url"),
    ("openai-chat", assistant_msg(call_part(), stop="stop"), "tool_use"),
    (
        "openai-chat",
        assistant_msg(think_part(), ThinkingTextPart(text="x", model_id="other")),
        "different model_ids",
    ),
    ("openai-chat", assistant_msg(TextPart(text="\ud800")), "lone surrogate"),
    (
        "anthropic",
        assistant_msg(text_part("x", "msg_1"), usage=ANTHROPIC_USAGE),
        "Responses message item fields",
    ),
    ("gemini", assistant_msg(TextPart(text="x", phase="commentary")), "Responses message item fields"),
    # anthropic
    ("anthropic", assistant_msg(sig_part("google"), usage=ANTHROPIC_USAGE), "not Anthropic's"),
    ("anthropic", assistant_msg(think_part(), usage=ANTHROPIC_USAGE), "without its anthropic signature"),
    ("anthropic", assistant_msg(sig_part("anthropic"), usage=ANTHROPIC_USAGE), "no thinking before it"),
    (
        "anthropic",
        assistant_msg(call_part("[1]"), stop="tool_use", usage=ANTHROPIC_USAGE),
        "not a JSON object",
    ),
    ("anthropic", assistant_msg(TextPart(text="x")), "total_tokens"),
    ("anthropic", assistant_msg(TextPart(text=""), usage=ANTHROPIC_USAGE), "empty text"),
    # chat / openrouter
    ("openai-chat", assistant_msg(TextPart(text="a"), TextPart(text="b")), "merges"),
    ("openai-chat", assistant_msg(think_part(), sig_part("anthropic")), "no reasoning signatures"),
    ("openrouter", assistant_msg(think_part(), sig_part("anthropic")), "not an OpenRouter"),
    # responses
    ("openai-responses", assistant_msg(think_part()), "needs its id"),
    ("openai-responses", assistant_msg(call_part(), stop="tool_use"), "item_id"),
    (
        "openai-responses",
        assistant_msg(think_part("a", "rs_1"), sig_part("openai-responses", id="rs_2")),
        "carries its reasoning item's id",
    ),
    ("openai-responses", assistant_msg(text_part("x", "msg_1"), stop="tool_use"), "without tool calls"),
    (
        "openai-responses",
        assistant_msg(text_part("x", "msg_1"), usage=USAGE.model_copy(update={"cached_input_tokens": None})),
        "cached_input_tokens",
    ),
    ("openai-responses", assistant_msg(TextPart(text="x")), "needs item_id"),
    (
        "openai-responses",
        assistant_msg(
            text_part("a", "msg_1"), call_part(item_id="fc_1"), text_part("b", "msg_1"), stop="tool_use"
        ),
        "used twice",
    ),
    (
        "openai-responses",
        assistant_msg(text_part("a", "msg_1"), text_part("b", "msg_1", "final_answer")),
        "used twice",
    ),
    # gemini
    ("gemini", assistant_msg(sig_part("anthropic")), "not a Gemini thoughtSignature"),
    ("gemini", assistant_msg(sig_part("google", "not base64!")), "base64"),
    ("gemini", assistant_msg(call_part('{"a": 1}'), stop="tool_use"), "compact JSON"),
    (
        "gemini",
        assistant_msg(TextPart(text="a"), sig_part("google"), TextPart(text="b")),
        "unless both are signed",
    ),
    (
        "gemini",
        assistant_msg(TextPart(text="x"), usage=USAGE.model_copy(update={"cache_creation_input_tokens": 1})),
        "Gemini reports none",
    ),
]


@pytest.mark.parametrize(
    ("provider", "message", "reason"), REJECTED, ids=[f"{p}-{r}" for p, _, r in REJECTED]
)
def test_unrepresentable_messages_are_rejected_up_front(
    provider: str, message: AssistantMessage, reason: str
) -> None:
    why = representable(provider, message)
    assert why is not None and reason in why, why
    with pytest.raises(NotRepresentable, match=provider):
        emit_stream(provider, message)


def test_a_model_that_contradicts_the_parts_is_rejected() -> None:
    message = RICH["openai-chat"]
    with pytest.raises(NotRepresentable, match="differs from the parts' model_id"):
        emit_stream("openai-chat", message, model="another-model")
    assert b'"model":"m-1"' in emit_stream("openai-chat", message)


def test_unknown_provider() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        representable("nope", RICH["openai-chat"])

"""Assistant messages for the stream tests: builders, and a rich message each provider's stream carries
whole (``RICH``: thinking, signatures, text and a tool call, as far as the provider has them)."""

from __future__ import annotations

from harness.model import (
    AssistantMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    Usage,
)

__all__ = [
    "ANTHROPIC_USAGE",
    "MODEL",
    "RICH",
    "USAGE",
    "assistant_msg",
    "call_part",
    "sig_part",
    "text_part",
    "think_part",
]

MODEL = "m-1"
USAGE = Usage(input_tokens=5, output_tokens=3, cached_input_tokens=1, reasoning_tokens=1, total_tokens=8)
ANTHROPIC_USAGE = USAGE.model_copy(update={"total_tokens": None})


def assistant_msg(*parts: object, stop: str = "stop", usage: Usage | None = USAGE) -> AssistantMessage:
    """A final assistant message of ``parts`` (validated as the codec would), with usage and stop reason."""
    return AssistantMessage.model_validate({"parts": [p for p in parts], "usage": usage, "stop_reason": stop})


def sig_part(fmt: str, signature: str = "c2ln", id: str | None = None) -> ThinkingSignaturePart:
    """A signature of ``MODEL`` in format ``fmt``."""
    return ThinkingSignaturePart(signature=signature, format=fmt, model_id=MODEL, id=id)


def think_part(text: str = "hmm", id: str | None = None) -> ThinkingTextPart:
    """Thinking text of ``MODEL``."""
    return ThinkingTextPart(text=text, model_id=MODEL, id=id)


def call_part(args: str = '{"a":1}', item_id: str | None = None) -> ToolCallPart:
    """A ``bash`` call whose arguments are ``args`` as sent (valid JSON or not)."""
    return ToolCallPart(call_id="c1", tool_name="bash", arguments_json=args, item_id=item_id)


def text_part(text: str, item_id: str, phase: str | None = None) -> TextPart:
    """Text of a Responses message item (``item_id``, ``phase``)."""
    return TextPart(text=text, item_id=item_id, phase=phase)


RICH: dict[str, AssistantMessage] = {
    "anthropic": assistant_msg(
        think_part("plan: é🙂"),
        sig_part("anthropic"),
        sig_part("anthropic-redacted"),
        TextPart(text="answer"),
        call_part(),
        stop="tool_use",
        usage=ANTHROPIC_USAGE,
    ),
    "gemini": assistant_msg(
        think_part(),
        TextPart(text="x"),
        sig_part("google"),
        call_part(),
        sig_part("google", "Zw=="),
        stop="tool_use",
    ),
    "openai-chat": assistant_msg(
        think_part(), TextPart(text="answer"), call_part("{not json"), stop="tool_use"
    ),
    "openai-responses": assistant_msg(
        think_part("a", "rs_1"),
        think_part("b", "rs_1"),
        sig_part("openai-responses", id="rs_1"),
        text_part("t", "msg_1", "commentary"),
        text_part("u", "msg_1", "commentary"),
        call_part(item_id="fc_1"),
        text_part("v", "msg_2"),
        stop="tool_use",
    ),
    "openrouter": assistant_msg(
        think_part(),
        sig_part("anthropic-claude-v1"),
        think_part("sum", "rs_1"),
        sig_part("openai-responses-v1", id="rs_1"),
        TextPart(text="t"),
        call_part(),
        stop="tool_use",
    ),
    "bedrock": assistant_msg(
        ThinkingTextPart(text="plan: é🙂"),
        ThinkingSignaturePart(signature="c2ln", format="bedrock"),
        ThinkingSignaturePart(signature="cmVk", format="bedrock-redacted"),
        TextPart(text="answer"),
        call_part(),
        stop="tool_use",
        usage=ANTHROPIC_USAGE.model_copy(update={"reasoning_tokens": None}),
    ),
    # the OpenAI-compatible dialects: Chat's message, reasoning in each dialect's own field
    **{
        p: assistant_msg(think_part(), TextPart(text="answer"), call_part("{not json"), stop="tool_use")
        for p in ("mistral", "groq", "deepseek", "cerebras", "zai", "huggingface")
    },
    # Cohere v2: thinking and text content items, then a tool call; the stream names no model
    "cohere": assistant_msg(
        ThinkingTextPart(text="plan: é🙂"),
        TextPart(text="answer"),
        call_part("{not json"),
        stop="tool_use",
        usage=Usage(input_tokens=12, output_tokens=5, cached_input_tokens=3),
    ),
}

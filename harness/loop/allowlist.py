"""The closed loop's allowlist: differences between a recorded request N+1 and ours that are harmless.

Each entry names one provider, one JSON path pattern (``harness.loop.jsondiff``), the kind
of difference and, almost always, a predicate on the two values, with the reason it is
harmless. Content (text, tool ids, arguments, signatures, tool result text, order of
messages and blocks) is never allowed to differ. This module holds data and predicates
only: it imports no reference code, so import-check (``harness.importcheck.allowlist``)
and ``docs/accepted.md`` read it without loading the adapters.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any, cast

from harness.importer.gemini import camel
from harness.loop.jsondiff import (
    DiffContext,
    JsonAllowance,
    is_null,
    same_json,
    string_is_one_block,
    value_is,
)

__all__ = ["ALLOWLIST"]

Json = dict[str, Any]


def _b64_bytes(text: str) -> bytes | None:
    try:
        padded = text + "=" * (-len(text) % 4)
        return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None


def _same_signature_bytes(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """Base64url vs standard base64 of the very same bytes."""
    if not isinstance(recorded, str) or not isinstance(ours, str):
        return False
    a, b = _b64_bytes(recorded), _b64_bytes(ours)
    return a is not None and a == b


def _minted_pair(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """The recording client's own call id where ours is the id our parser minted for the same call."""
    return isinstance(recorded, str) and ctx.minted_ids.get(recorded) == ours


def _gemini_camel_keys(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """The same object with its own (top-level) keys spelled snake_case instead of lowerCamel."""
    if not isinstance(recorded, dict) or not isinstance(ours, dict):
        return False
    renamed = camel(cast(Json, recorded))
    return renamed != recorded and same_json(renamed, ours)


def _gemini_response_key(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """``{"return_value"|"result": v}`` recorded where ours is ``{"output": v}`` with the same v."""
    if not isinstance(recorded, dict) or not isinstance(ours, dict):
        return False
    rec, our = cast(Json, recorded), cast(Json, ours)
    return (
        len(rec) == 1
        and len(our) == 1
        and next(iter(rec)) in ("return_value", "result")
        and "output" in our
        and same_json(next(iter(rec.values())), our["output"])
    )


def _recorder_trailing_space(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    return isinstance(recorded, str) and isinstance(ours, str) and recorded == ours + " "


_CURLY_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def _ascii_quotes_folded(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """``recorded`` is ``ours`` with its curly quotes replaced by ASCII ones (and nothing else)."""
    return isinstance(recorded, str) and isinstance(ours, str) and recorded == ours.translate(_CURLY_QUOTES)


_THINK_TAGS = re.compile(r"<think>.*?</think>\s*", re.DOTALL)


def _think_tags_then_ours(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """``recorded`` is one ``<think>...</think>`` block, then exactly ``ours`` (no text: ours absent)."""
    if not isinstance(recorded, str):
        return False
    head = _THINK_TAGS.match(recorded)
    if head is None:
        return False
    rest = recorded[head.end() :]
    return rest == ours if isinstance(ours, str) else (ours is None and rest == "")


def _client_retry_turn(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """A turn pydantic-ai wrote after Groq's tool_use_failed: the failed call under an id the client
    minted (``pyd_ai_``), or the tool message carrying its validation error for that id."""
    if ours is not None or not isinstance(recorded, dict):
        return False
    turn = cast(Json, recorded)
    if turn.get("role") == "tool":
        return str(turn.get("tool_call_id", "")).startswith("pyd_ai_") and "validation error" in str(
            turn.get("content", "")
        )
    calls = cast(list[Json], turn.get("tool_calls") or [])
    return (
        turn.get("role") == "assistant"
        and bool(calls)
        and all(str(c.get("id", "")).startswith("pyd_ai_") for c in calls)
    )


_THINK_SPLIT = re.compile(r"<think>(.*?)</think>(.*)", re.DOTALL)


def _think_block_rewrapped(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """The same think text and the same answer, up to the newlines around the tags the client re-wrapped."""
    if not isinstance(recorded, str) or not isinstance(ours, str):
        return False
    a, b = _THINK_SPLIT.fullmatch(recorded), _THINK_SPLIT.fullmatch(ours)
    return (
        a is not None
        and b is not None
        and a[1].strip("\n") == b[1].strip("\n")
        and a[2].lstrip("\n") == b[2].lstrip("\n")
    )


_HF_THINK = "models__test_huggingface__test_hf_model_thinking_part"
_GROQ_RETRY = "models__test_groq__test_tool_use_failed_error_streaming"
_CEREBRAS_THINK = "models__test_cerebras__test_cerebras_zai_reasoning_replayed_as_think_tags"
_BEDROCK_STREAM = "models__test_bedrock__test_bedrock_model_iter_stream"
_COHERE_AUTO = "models__test_tool_choice_matrix__test_tool_choice_matrix[auto-cohere]"

ALLOWLIST: tuple[JsonAllowance, ...] = (
    # ---------------------------------------------------------------- anthropic
    JsonAllowance(
        "anthropic-tool-choice-auto",
        "anthropic",
        "tool_choice",
        "the recording client sent tool_choice {type: auto}, which is the API default when tools are "
        "given; we send none for tool_choice None (auto)",
        kind="missing",
        accepts=value_is({"type": "auto"}),
    ),
    JsonAllowance(
        "anthropic-empty-tool-description",
        "anthropic",
        "tools[*].description",
        "an empty description is the same as none; our adapter omits empty descriptions (Tool.description "
        "is optional)",
        kind="missing",
        accepts=value_is(""),
    ),
    JsonAllowance(
        "anthropic-is-error-false",
        "anthropic",
        "messages[*].content[*].is_error",
        "is_error: false is the API default; our adapter sends is_error only for error/aborted results",
        kind="missing",
        accepts=value_is(False),
    ),
    JsonAllowance(
        "anthropic-tool-result-string-content",
        "anthropic",
        "messages[*].content[*].content",
        "a tool_result's string content is shorthand for one text block (RequestToolResultBlock.content "
        "is string | block[]); ours sends the same text as [{type: text}]",
        kind="changed",
        accepts=string_is_one_block("text"),
    ),
    JsonAllowance(
        "anthropic-llm-recorder-trailing-space",
        "anthropic",
        "messages[*].content[*].text",
        "recorder artifact, not content: llm-anthropic yields an extra ' ' after a tool-using response "
        "(llm_anthropic.py: `yield \" \"`, 'Avoid can have dragons.Now that I bug') and replays it; the "
        "stream never sent it. Only exactly one appended space is accepted, only in this recording",
        kind="changed",
        accepts=_recorder_trailing_space,
        cassettes=frozenset({"llmanthropic__haiku35_parallel_tool_use_roundtrip"}),
    ),
    # ---------------------------------------------------------------- openai-chat
    JsonAllowance(
        "chat-tool-choice-auto",
        "openai-chat",
        "tool_choice",
        "tool_choice 'auto' is the API default when tools are given; we send none for tool_choice None",
        kind="missing",
        accepts=value_is("auto"),
    ),
    JsonAllowance(
        "chat-empty-tool-description",
        "openai-chat",
        "tools[*].function.description",
        "an empty description is the same as none; our adapter omits empty descriptions",
        kind="missing",
        accepts=value_is(""),
    ),
    JsonAllowance(
        "chat-assistant-null-content",
        "openai-chat",
        "messages[*].content",
        "content: null on an assistant turn with tool_calls is the same as no content; our adapter omits it",
        kind="missing",
        accepts=is_null,
    ),
    # ---------------------------------------------------------------- openai-responses
    JsonAllowance(
        "responses-tool-choice-auto",
        "openai-responses",
        "tool_choice",
        "tool_choice 'auto' is the API default; we send none for tool_choice None",
        kind="missing",
        accepts=value_is("auto"),
    ),
    JsonAllowance(
        "responses-null-tool-description",
        "openai-responses",
        "tools[*].description",
        "description: null is the same as none; our adapter omits empty descriptions",
        kind="missing",
        accepts=is_null,
    ),
    JsonAllowance(
        "responses-store-false",
        "openai-responses",
        "store",
        "our adapter replays statelessly (store: false, documented decision); the recording used the "
        "default store: true. Reasoning items carry encrypted_content either way",
        kind="extra",
        accepts=value_is(False),
    ),
    JsonAllowance(
        "responses-message-type",
        "openai-responses",
        "input[*].type",
        "an input item without type is an EasyInputMessage; we spell out type: message",
        kind="extra",
        accepts=value_is("message"),
    ),
    JsonAllowance(
        "responses-user-content-string",
        "openai-responses",
        "input[*].content",
        "EasyInputMessage string content is shorthand for one input_text part; ours sends the same text "
        "as [{type: input_text}]",
        kind="changed",
        accepts=string_is_one_block("input_text"),
    ),
    JsonAllowance(
        "responses-output-text-logprobs",
        "openai-responses",
        "input[*].content[*].logprobs",
        "our adapter adds logprobs: [] to replayed output_text (the spec requires it; the API echoes it)",
        kind="extra",
        accepts=value_is([]),
    ),
    JsonAllowance(
        "responses-recorded-ascii-quotes",
        "openai-responses",
        "input[2].content[0].text",
        "recording edit, not content: the gpt-5.5 stream sent curly quotes (U+2019, U+201C, U+201D) and our "
        "request replays them byte for byte; the recorded request 2 has them folded to ASCII (verified "
        "upstream). Only that folding is accepted, only in this recording and at this path",
        kind="changed",
        accepts=_ascii_quotes_folded,
        cassettes=frozenset({"pai__gpt55_reasoning_function_call_phase_roundtrip"}),
    ),
    # ---------------------------------------------------------------- gemini
    JsonAllowance(
        "gemini-response-modalities-text",
        "gemini",
        "generationConfig.responseModalities",
        "['TEXT'] is the default output modality of text models; CallParams has no modalities",
        kind="missing",
        accepts=value_is(["TEXT"]),
    ),
    JsonAllowance(
        "gemini-snake-case-field",
        "gemini",
        "tools[*].functionDeclarations[*]",
        "the recording client spelled a proto field snake_case (parameters_json_schema); Gemini's JSON "
        "accepts snake_case and lowerCamel alike and ours sends lowerCamel; accepted only when the "
        "declaration is otherwise identical",
        kind="changed",
        accepts=_gemini_camel_keys,
    ),
    JsonAllowance(
        "gemini-minted-call-id",
        "gemini",
        "contents[*].parts[*].{functionCall,functionResponse}.id",
        "Gemini sent no functionCall.id; the recording client (pydantic-ai) minted one and our parser mints "
        "its own (call_<responseId>_<n>), consistently in call and response. Accepted only for that "
        "exact pair of minted ids",
        kind="changed",
        accepts=_minted_pair,
    ),
    JsonAllowance(
        "gemini-signature-base64url",
        "gemini",
        "contents[*].parts[*].thoughtSignature",
        "Gemini streams thoughtSignature in standard base64 and the recording client re-sent it base64url; "
        "the decoded bytes are identical (both spellings are accepted)",
        kind="changed",
        accepts=_same_signature_bytes,
    ),
    JsonAllowance(
        "gemini-function-response-key",
        "gemini",
        "contents[*].parts[*].functionResponse.response",
        "FunctionResponse.response is free-form JSON; pydantic-ai wraps the result as return_value, ours "
        "uses the documented 'output' key. The value must be identical",
        kind="changed",
        accepts=_gemini_response_key,
    ),
    # ---------------------------------------------------------------- openrouter
    JsonAllowance(
        "openrouter-stream-options",
        "openrouter",
        "stream_options",
        "OpenRouter always sends usage; our adapter leaves out stream_options (documented decision)",
        kind="missing",
        accepts=value_is({"include_usage": True}),
    ),
    JsonAllowance(
        "openrouter-stream-false",
        "openrouter",
        "stream",
        "stream: false is the default; our adapter sends stream only when streaming",
        kind="missing",
        accepts=value_is(False),
    ),
    # ---------------------------------------------------------------- bedrock
    JsonAllowance(
        "bedrock-tool-result-success",
        "bedrock",
        "messages[*].content[*].toolResult.status",
        "status: success is the meaning of a toolResult without status (ToolResultBlock.status is "
        "optional, 'Required: No', in the Converse API reference); we send status only for errors",
        (
            f"cassettes/bedrock/{_BEDROCK_STREAM}.yaml#1 (success sent, accepted); Converse API reference, "
            "ToolResultBlock: status Required: No",
        ),
        kind="missing",
        accepts=value_is("success"),
    ),
    JsonAllowance(
        "bedrock-top-p-not-representable",
        "bedrock",
        "inferenceConfig.topP",
        "a sampling setting CallParams cannot hold (it has max_tokens and temperature, no top_p); the "
        "importer names it as unrepresented, so the loop cannot carry it into our request. A params "
        "limit, not conversation content; only in this recording",
        (f"cassettes/bedrock/{_BEDROCK_STREAM}.yaml#0 and #1 (topP 0.5 sent, accepted)",),
        kind="missing",
        accepts=value_is(0.5),
        cassettes=frozenset({_BEDROCK_STREAM}),
    ),
    # ---------------------------------------------------------------- the OpenAI-compatible dialects
    *(
        JsonAllowance(
            f"{provider}-stream-false",
            provider,
            "stream",
            "stream: false is the API default; our adapter sends stream only when streaming",
            (f"recorded stream: false accepted ({where}); {docs}: stream defaults to false",),
            kind="missing",
            accepts=value_is(False),
        )
        for provider, where, docs in (
            (
                "cerebras",
                "traffic/pydantic-ai-more/models__test_cerebras__test_cerebras_model_simple.yaml#0",
                "Cerebras API reference (inference-docs.cerebras.ai, chat completions)",
            ),
            (
                "zai",
                "traffic/pydantic-ai-more/models__test_zai__test_zai_model_simple.yaml#0",
                "Z.ai API reference (docs.z.ai, chat completion)",
            ),
        )
    ),
    JsonAllowance(
        "groq-n-one",
        "groq",
        "n",
        "n: 1 (one choice) is the API default and the only value Groq accepts; CallParams has no n and "
        "our adapter never sends it",
        (
            "n: 1 accepted: traffic/pydantic-ai-more/models__test_groq__test_extra_headers.yaml#0; Groq "
            "OpenAI compatibility docs (console.groq.com/docs/openai): n other than 1 is a 400, n defaults to 1",
        ),
        kind="missing",
        accepts=value_is(1),
    ),
    JsonAllowance(
        "groq-tool-choice-auto",
        "groq",
        "tool_choice",
        "tool_choice 'auto' is the default when tools are given (the dialect follows the Chat Completions "
        "schema); we send none for tool_choice None",
        (
            "recorded auto accepted: traffic/pydantic-ai-more/models__test_groq__test_tool_use_failed_error."
            "yaml#1; Groq API reference (console.groq.com/docs/api-reference): tool_choice defaults to auto "
            "when tools are present",
        ),
        kind="missing",
        accepts=value_is("auto"),
    ),
    JsonAllowance(
        "groq-empty-tool-description",
        "groq",
        "tools[*].function.description",
        "an empty description is the same as none; our adapter omits empty descriptions",
        (
            "empty description accepted: traffic/pydantic-ai-more/models__test_groq__test_tool_use_failed_"
            "error.yaml#1; Groq API reference: tools[].function.description optional",
        ),
        kind="missing",
        accepts=value_is(""),
    ),
    JsonAllowance(
        "groq-client-retry-turns",
        "groq",
        "messages[*]",
        "after a response that ended in Groq's tool_use_failed error, pydantic-ai's agent loop writes "
        "the failed generation as an assistant call under an id it minted (pyd_ai_...) and its own "
        "validation error as that call's tool result: client content, not derivable from response 1 "
        "(an error event), so our history after it has neither. Only those two turns, only here",
        (f"cassettes/groq/{_GROQ_RETRY}.yaml#1 (accepted with both turns)",),
        kind="missing",
        accepts=_client_retry_turn,
        cassettes=frozenset({_GROQ_RETRY}),
    ),
    JsonAllowance(
        "groq-reasoning-as-think-tags",
        "groq",
        "messages[*].content",
        "pydantic-ai replays the reasoning Groq returned as a <think>...</think> block in the assistant "
        "content; our adapter sends the turn's text only (the client's choice on an accepted request). "
        "Only one leading think block with nothing else is accepted, only here",
        (f"cassettes/groq/{_GROQ_RETRY}.yaml#2 (accepted with the think block)",),
        kind="missing",
        accepts=_think_tags_then_ours,
        cassettes=frozenset({_GROQ_RETRY}),
    ),
    JsonAllowance(
        "cerebras-reasoning-as-think-tags",
        "cerebras",
        "messages[*].content",
        "pydantic-ai replays the reasoning Cerebras returned as a <think>...</think> block before the "
        "text (the cassette's name says so); our adapter sends the text only (the client's choice on an "
        "accepted request). Only one leading think block followed by exactly our text, only here",
        (f"cassettes/cerebras/{_CEREBRAS_THINK}.yaml#1 (accepted with the think block)",),
        kind="changed",
        accepts=_think_tags_then_ours,
        cassettes=frozenset({_CEREBRAS_THINK}),
    ),
    # huggingface_hub's ChatCompletionInputMessage serialises every optional field as null
    *(
        JsonAllowance(
            f"huggingface-null-{field.replace('_', '-')}",
            "huggingface",
            f"messages[*].{field}",
            f"{field}: null is the field absent (the client serialises every optional field); our "
            f"adapter sends {field} only with a value",
            (f"cassettes/huggingface/{_HF_THINK}.yaml#0 and #1 (null sent, accepted)",),
            kind="missing",
            accepts=is_null,
        )
        for field in ("name", "tool_calls")
    ),
    JsonAllowance(
        "huggingface-stream-false",
        "huggingface",
        "stream",
        "stream: false is the API default; our adapter sends stream only when streaming",
        (
            "recorded stream: false accepted (traffic/pydantic-ai-more/models__test_huggingface__test_max_"
            "completion_tokens.yaml#0); Hugging Face Inference Providers chat completion reference: stream "
            "defaults to false",
        ),
        kind="missing",
        accepts=value_is(False),
    ),
    JsonAllowance(
        "huggingface-empty-tools",
        "huggingface",
        "tools",
        "an empty tools list offers no tool, the same as none; our adapter sends tools only when there are "
        "some",
        (
            "tools: [] accepted: traffic/pydantic-ai-more/models__test_huggingface__test_max_completion_"
            "tokens.yaml#0; tools is optional (Hugging Face Inference Providers chat completion reference)",
        ),
        kind="missing",
        accepts=value_is([]),
    ),
    JsonAllowance(
        "huggingface-think-tags-rewrapped",
        "huggingface",
        "messages[*].content",
        "the model answered '<think>\\n...\\n</think>\\n...' in content and our adapter replays it byte for "
        "byte; pydantic-ai split it into thinking and text and re-wrapped them with extra newlines around "
        "the tags. Only newlines next to the tags may differ; think text and answer are compared exactly; "
        "only here",
        (f"cassettes/huggingface/{_HF_THINK}.yaml#1 (re-wrapped form accepted; response 1 holds ours)",),
        kind="changed",
        accepts=_think_block_rewrapped,
        cassettes=frozenset({_HF_THINK}),
    ),
    # cohere
    JsonAllowance(
        "cohere-stream-false",
        "cohere",
        "stream",
        "stream: false is the non-streaming call (the cohere SDK's chat writes stream: false, chat_stream "
        "true); our adapter sends stream only when streaming",
        (
            "recorded stream: false accepted (traffic/pydantic-ai-more/models__test_cohere__test_request_"
            "simple_success_with_vcr.yaml#0); the cohere SDK's RawV2Client.chat writes stream: false",
        ),
        kind="missing",
        accepts=value_is(False),
    ),
    JsonAllowance(
        "cohere-tool-plan-sent-back",
        "cohere",
        "messages[*].tool_plan",
        "our adapter sends the model's tool_plan back with its tool_calls, as Cohere's tool-use guide "
        "does; pydantic-ai left it out. The plan is the text the model wrote before its calls, replayed "
        "from the recorded response; only a string, only in this recording",
        (
            f"cassettes/cohere/{_COHERE_AUTO}.yaml#1 (without it, accepted); "
            "https://docs.cohere.com/v2/docs/tool-use (messages.append({'role': 'assistant', "
            "'tool_plan': ..., 'tool_calls': ...}))",
        ),
        kind="extra",
        accepts=lambda recorded, ours, ctx: isinstance(ours, str) and bool(ours),
        cassettes=frozenset({_COHERE_AUTO}),
    ),
)

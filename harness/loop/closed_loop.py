"""Closed loop on recorded round trips: does our request N+1 equal the one the real API accepted?

A recorded round trip (a cassette with 2+ model calls) holds, for each call N, the
request the recording client sent and the response it got; request N+1 is the wire form
of the history *including response N*, and the API answered it with HTTP 200. So:

    history_N  = import_conversation(request N)    (the canonical history before call N)
    reply_N    = our output adapter on response N  (harness.stream)
    appended   = what import_conversation(request N+1) holds after its last assistant turn
                 (the tool results / user turns the client added)
    ours_N+1   = our input adapter on history_N + [reply_N] + appended,
                 with the params read from request N+1

and ``diff_json(request N+1, ours_N+1)`` (``harness.loop.jsondiff``) must be empty except for the differences in
``ALLOWLIST``: each names one provider, one JSON path pattern, the kind of difference
and, almost always, a predicate on the two values, with the reason it is harmless.
Content (text, tool ids, arguments, signatures, tool result text, order of messages and
blocks) is never allowed to differ; anything not allowed is a mapping finding.

``harness.importer.import_conversation`` decodes a provider *request* body back into the
canonical model (the reader ``harness import-request`` uses). It raises ``ValueError`` on
conversation content the importer cannot represent rather than dropping it, so a loop
never closes by losing content.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from harness.contract.rendered import RenderWarning
from harness.importer.conversation import import_conversation
from harness.importer.gemini import camel
from harness.loop.jsondiff import (
    DiffContext,
    JsonAllowance,
    JsonDifference,
    diff_json,
    is_null,
    same_json,
    string_is_one_block,
    value_is,
)
from harness.model import (
    AssistantMessage,
    Message,
    ToolCallPart,
    ToolResultMessage,
)
from harness.providers import get_adapter, get_parser
from harness.providers.replay import Exchange, load_exchanges, replay_exchange

__all__ = ["ALLOWLIST", "LoopReport", "close_loop", "close_pair", "reproduce_request"]

Json = dict[str, Any]


def _obj(value: Any) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


# ================================================================ the allowlist (harness.loop.jsondiff)


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
)


# ================================================================ the loop


@dataclass
class LoopReport:
    """Response ``turn`` (1-based) closed into request ``turn + 1``: the differences and our warnings."""

    cassette: str
    provider: str
    turn: int
    differences: list[JsonDifference]
    warnings: list[RenderWarning]
    rendered: Json
    recorded: Json

    @property
    def findings(self) -> list[JsonDifference]:
        """Differences no allowance accepts: mapping bugs until shown otherwise."""
        return [d for d in self.differences if d.allowed_by is None]

    def __str__(self) -> str:
        lines = [f"{self.provider} {self.cassette}: response {self.turn} -> request {self.turn + 1}"]
        lines += [f"  {d}" for d in self.differences] or ["  (identical)"]
        return "\n".join(lines)


def _last_assistant(history: list[Message]) -> int:
    for index in range(len(history) - 1, -1, -1):
        if isinstance(history[index], AssistantMessage):
            return index
    raise ValueError("request N+1 holds no assistant turn, so it does not replay response N")


def _calls_of(message: AssistantMessage) -> list[ToolCallPart]:
    return [p for p in message.parts if isinstance(p, ToolCallPart)]


def _minted_ids(recorded: AssistantMessage, ours: AssistantMessage, response: bytes) -> dict[str, str]:
    """Pair calls by position; ids neither side got from the response were minted by each client."""
    text = response.decode("utf-8", errors="replace")
    minted: dict[str, str] = {}
    for rec, our in zip(_calls_of(recorded), _calls_of(ours), strict=False):
        if (
            rec.call_id != our.call_id
            and rec.tool_name == our.tool_name
            and rec.call_id not in text
            and our.call_id not in text
        ):
            minted[rec.call_id] = our.call_id
    return minted


def _rename_results(turns: list[Message], minted: dict[str, str]) -> list[Message]:
    """Point the recorded results at our minted ids (only ids both clients minted for the same call)."""
    out: list[Message] = []
    for message in turns:
        if isinstance(message, ToolResultMessage) and message.call_id in minted:
            message = message.model_copy(update={"call_id": minted[message.call_id]})
        out.append(message)
    return out


def close_pair(provider: str, cassette: str, turn: int, first: Exchange, second: Exchange) -> LoopReport:
    """Close response ``turn`` (exchange ``first``) into the request of exchange ``second``."""
    history, _ = import_conversation(provider, first.request_body, first.uri)
    reply = replay_exchange(get_parser(provider), first).message
    recorded_history, params = import_conversation(provider, second.request_body, second.uri)
    last = _last_assistant(recorded_history)
    recorded_reply = recorded_history[last]
    assert isinstance(recorded_reply, AssistantMessage)
    minted = _minted_ids(recorded_reply, reply, first.body)
    appended = _rename_results(recorded_history[last + 1 :], minted)
    rendered = get_adapter(provider).render([*history, reply, *appended], params)
    ctx = DiffContext(provider, cassette, minted)
    recorded = _obj(second.request_body)
    differences = diff_json(recorded, rendered.body, ctx, ALLOWLIST)
    return LoopReport(cassette, provider, turn, differences, rendered.warnings, rendered.body, recorded)


def close_loop(provider: str, cassette_path: str | Path) -> list[LoopReport]:
    """One report per consecutive pair of model calls in a cassette (none for a single call)."""
    path = Path(cassette_path)
    calls = [e for e in load_exchanges(path, provider) if e.is_model_call]
    return [close_pair(provider, path.stem, n + 1, calls[n], calls[n + 1]) for n in range(len(calls) - 1)]


def reproduce_request(provider: str, cassette: str, exchange: Exchange) -> list[JsonDifference]:
    """Our render of ``import_conversation(recorded)`` against the recorded request itself.

    Checks the decoder that seeds the loop: whatever it reads must render back to the
    same request, up to the allowlist.
    """
    history, params = import_conversation(provider, exchange.request_body, exchange.uri)
    rendered = get_adapter(provider).render(history, params)
    return diff_json(_obj(exchange.request_body), rendered.body, DiffContext(provider, cassette), ALLOWLIST)

"""Closed loop on recorded round trips: does our request N+1 equal the one the real API accepted?

A recorded round trip (a cassette with 2+ model calls) holds, for each call N, the
request the recording client sent and the response it got; request N+1 is the wire form
of the history *including response N*, and the API answered it with HTTP 200. So:

    history_N  = read_request(request N)             (the canonical history before call N)
    reply_N    = our output adapter on response N     (harness.stream)
    appended   = what read_request(request N+1) holds after its last assistant turn
                 (the tool results / user turns the client added)
    ours_N+1   = our input adapter on history_N + [reply_N] + appended,
                 with the params read from request N+1

and ``diff_json(request N+1, ours_N+1)`` must be empty except for the differences in
``ALLOWLIST``: each names one provider, one JSON path pattern, the kind of difference
and, almost always, a predicate on the two values, with the reason it is harmless.
Content (text, tool ids, arguments, signatures, tool result text, order of messages and
blocks) is never allowed to differ; anything not allowed is a mapping finding.

``read_request`` decodes a provider *request* body back into the canonical model through
``harness.importer`` (the same reader ``harness import-request`` uses). It raises
``ValueError`` on conversation content the importer cannot represent rather than dropping
it, so a loop never closes by losing content.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from harness.contract.rendered import RenderWarning
from harness.importer import import_request
from harness.model import (
    AnyPart,
    AssistantMessage,
    Message,
    ToolCallPart,
    ToolResultMessage,
)
from harness.params import CallParams
from harness.providers import get_adapter, get_parser
from harness.replay import Exchange, load_exchanges, replay_exchange

__all__ = [
    "ALLOWLIST",
    "Allowance",
    "Difference",
    "LoopContext",
    "LoopReport",
    "close_loop",
    "close_pair",
    "diff_json",
    "read_request",
    "reproduce_request",
]

Json = dict[str, Any]
Kind = Literal["missing", "extra", "changed"]


# ================================================================ request decoders


def _obj(value: Any) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


# ---------------------------------------------------------------- dispatch


#: Unrepresented-path prefixes that hold conversation content (the rest are request settings the
#: allowlist speaks to): the loop refuses a request whose content the importer cannot hold.
_CONTENT_PATHS = ("messages", "contents", "input", "system", "systemInstruction", "instructions")


def _mint_gemini_ids(history: list[Message]) -> list[Message]:
    """Gemini may send calls without ids: number them per turn, as the recording clients do, and
    point each id-less result at the call of its turn with the same name."""
    out: list[Message] = []
    pending: list[ToolCallPart] = []
    for message in history:
        if isinstance(message, AssistantMessage):
            parts: list[AnyPart] = []
            pending = []
            for number, part in enumerate(message.parts):
                if isinstance(part, ToolCallPart) and not part.call_id:
                    part = part.model_copy(update={"call_id": f"gemini_call_{number}"})
                if isinstance(part, ToolCallPart):
                    pending.append(part)
                parts.append(part)
            message = message.model_copy(update={"parts": parts})
        elif isinstance(message, ToolResultMessage) and not message.call_id:
            match = next((c for c in pending if c.tool_name == message.tool_name), None)
            if match is not None:
                pending.remove(match)
                message = message.model_copy(update={"call_id": match.call_id})
        out.append(message)
    return out


def read_request(provider: str, body: Any, uri: str | None = None) -> tuple[list[Message], CallParams]:
    """A provider request body -> (canonical history, call params), through ``harness.importer``.

    ``uri`` matters only for Gemini, whose model and streaming live in the URL.
    Raises ValueError on content the importer cannot represent (a block, part or item type
    it does not know), so a loop never closes by losing content.
    """
    imported = import_request(provider, body, uri=uri)
    content = [
        line
        for line in imported.unrepresented
        if line.startswith(_CONTENT_PATHS) and not (provider == "gemini" and ".id: absent" in line)
    ]
    if content:
        raise ValueError(f"{provider}: {content[0]}")
    history = cast(list[Message], imported.history)
    return (_mint_gemini_ids(history) if provider == "gemini" else history), imported.params


# ================================================================ JSON diff


@dataclass(frozen=True)
class Difference:
    """One difference between the recorded request (``recorded``) and ours (``ours``).

    ``missing``: only the recorded request has the path; ``extra``: only ours has it;
    ``changed``: both have it with different values. ``allowed_by`` is the id of the
    allowance that accepts it, or None for a finding.
    """

    path: str
    kind: Kind
    recorded: Any = None
    ours: Any = None
    allowed_by: str | None = None

    def __str__(self) -> str:
        def show(value: Any) -> str:
            text = json.dumps(value, ensure_ascii=False, sort_keys=True)
            return text if len(text) <= 80 else text[:77] + "..."

        verdict = f"allowed: {self.allowed_by}" if self.allowed_by else "NOT ALLOWED"
        if self.kind == "missing":
            what = f"only recorded: {show(self.recorded)}"
        elif self.kind == "extra":
            what = f"only ours: {show(self.ours)}"
        else:
            what = f"recorded {show(self.recorded)} != ours {show(self.ours)}"
        return f"{self.path}: {self.kind}: {what} [{verdict}]"


@dataclass
class LoopContext:
    """What allowance predicates may consult besides the two values."""

    provider: str
    cassette: str
    # Tool call ids the recording client minted (absent from the response) -> the id our parser minted.
    minted_ids: dict[str, str] = field(default_factory=dict[str, str])


Accepts = Callable[[Any, Any, LoopContext], bool]


@dataclass(frozen=True)
class Allowance:
    """One acceptable kind of difference, as narrow as it can be.

    ``path`` is a glob over JSON paths: ``[*]`` any list index, ``*`` one object key,
    ``{a,b}`` alternatives. ``accepts(recorded, ours, ctx)`` must also hold when given;
    ``cassettes`` (stems) restricts recorder-specific artifacts to their recording.
    """

    id: str
    provider: str
    path: str
    kind: Kind
    reason: str
    accepts: Accepts | None = None
    cassettes: frozenset[str] | None = None

    def matches(self, difference: Difference, ctx: LoopContext) -> bool:
        if self.provider != ctx.provider or self.kind != difference.kind:
            return False
        if self.cassettes is not None and ctx.cassette not in self.cassettes:
            return False
        if _glob(self.path).fullmatch(difference.path) is None:
            return False
        return self.accepts is None or self.accepts(difference.recorded, difference.ours, ctx)


def _glob(pattern: str) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("[*]", i):
            out.append(r"\[\d+\]")
            i += 3
        elif pattern[i] == "*":
            out.append(r"[^.\[\]]+")
            i += 1
        elif pattern[i] == "{":
            end = pattern.index("}", i)
            out.append("(?:" + "|".join(re.escape(a) for a in pattern[i + 1 : end].split(",")) + ")")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def _same(a: Any, b: Any) -> bool:
    """JSON equality: booleans are not numbers; 1 and 1.0 are the same number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and bool(a == b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        da, db = cast(Json, a), cast(Json, b)
        return da.keys() == db.keys() and all(_same(da[k], db[k]) for k in da)
    if isinstance(a, list) and isinstance(b, list):
        la, lb = cast(list[Any], a), cast(list[Any], b)
        return len(la) == len(lb) and all(_same(x, y) for x, y in zip(la, lb, strict=True))
    left, right = cast(object, a), cast(object, b)
    return type(left) is type(right) and left == right


def diff_json(
    recorded: Any, ours: Any, ctx: LoopContext, allowances: Sequence[Allowance] = ()
) -> list[Difference]:
    """Every difference, by JSON path, each marked with the allowance that accepts it (if any).

    Allowances are tried at every node before descending, so an equivalence (for
    example base64 vs base64url) can accept a whole value; otherwise objects are
    compared key by key and lists index by index, down to the leaves.
    """
    out: list[Difference] = []

    def judge(difference: Difference) -> Difference | None:
        for allowance in allowances:
            if allowance.matches(difference, ctx):
                return Difference(
                    difference.path, difference.kind, difference.recorded, difference.ours, allowance.id
                )
        return None

    def one_sided(value: Any, path: str, kind: Kind, descend: bool) -> None:
        candidate = Difference(
            path, kind, value if kind == "missing" else None, value if kind == "extra" else None
        )
        allowed = judge(candidate)
        if allowed is not None:
            out.append(allowed)
        elif descend and isinstance(value, dict) and value:
            for key, sub in sorted(cast(Json, value).items()):
                one_sided(sub, f"{path}.{key}", kind, True)
        else:
            out.append(candidate)

    def walk(a: Any, b: Any, path: str) -> None:
        if _same(a, b):
            return
        candidate = Difference(path or "$", "changed", a, b)
        allowed = judge(candidate)
        if allowed is not None:
            out.append(allowed)
        elif isinstance(a, dict) and isinstance(b, dict):
            da, db = cast(Json, a), cast(Json, b)
            for key in sorted(da.keys() | db.keys()):
                sub = f"{path}.{key}" if path else key
                if key not in db:
                    one_sided(da[key], sub, "missing", True)
                elif key not in da:
                    one_sided(db[key], sub, "extra", True)
                else:
                    walk(da[key], db[key], sub)
        elif isinstance(a, list) and isinstance(b, list):
            la, lb = cast(list[Any], a), cast(list[Any], b)
            for i in range(max(len(la), len(lb))):
                sub = f"{path}[{i}]"
                if i >= len(lb):
                    one_sided(la[i], sub, "missing", False)
                elif i >= len(la):
                    one_sided(lb[i], sub, "extra", False)
                else:
                    walk(la[i], lb[i], sub)
        else:
            out.append(candidate)

    walk(recorded, ours, "")
    return out


# ================================================================ the allowlist


def _is(expected: Any) -> Accepts:
    """The one-sided value must be exactly ``expected`` (a default the other side left implicit)."""

    def accepts(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
        return _same(recorded if recorded is not None else ours, expected)

    return accepts


def _is_null(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    return recorded is None and ours is None


def _b64_bytes(text: str) -> bytes | None:
    try:
        padded = text + "=" * (-len(text) % 4)
        return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None


def _same_signature_bytes(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    """Base64url vs standard base64 of the very same bytes."""
    if not isinstance(recorded, str) or not isinstance(ours, str):
        return False
    a, b = _b64_bytes(recorded), _b64_bytes(ours)
    return a is not None and a == b


def _minted_pair(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    """The recording client's own call id where ours is the id our parser minted for the same call."""
    return isinstance(recorded, str) and ctx.minted_ids.get(recorded) == ours


def _string_is_one_block(block_type: str) -> Accepts:
    """A string ``content`` where ours sends the same text as a one-element block list."""

    def accepts(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
        return isinstance(recorded, str) and _same(ours, [{"type": block_type, "text": recorded}])

    return accepts


def _gemini_camel_keys(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    """The same object with its own (top-level) keys spelled snake_case instead of lowerCamel."""
    if not isinstance(recorded, dict) or not isinstance(ours, dict):
        return False
    camel = {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k): v for k, v in cast(Json, recorded).items()}
    return camel != recorded and _same(camel, ours)


def _gemini_response_key(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    """``{"return_value"|"result": v}`` recorded where ours is ``{"output": v}`` with the same v."""
    if not isinstance(recorded, dict) or not isinstance(ours, dict):
        return False
    rec, our = cast(Json, recorded), cast(Json, ours)
    return (
        len(rec) == 1
        and len(our) == 1
        and next(iter(rec)) in ("return_value", "result")
        and "output" in our
        and _same(next(iter(rec.values())), our["output"])
    )


def _strict_true_sent_false(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    return recorded is True and ours is False


def _recorder_trailing_space(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    return isinstance(recorded, str) and isinstance(ours, str) and recorded == ours + " "


_CURLY_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def _ascii_quotes_folded(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    """``recorded`` is ``ours`` with its curly quotes replaced by ASCII ones (and nothing else)."""
    return isinstance(recorded, str) and isinstance(ours, str) and recorded == ours.translate(_CURLY_QUOTES)


ALLOWLIST: tuple[Allowance, ...] = (
    # ---------------------------------------------------------------- anthropic
    Allowance(
        "anthropic-tool-choice-auto",
        "anthropic",
        "tool_choice",
        "missing",
        "the recording client sent tool_choice {type: auto}, which is the API default when tools are "
        "given; we send no tool_choice (CallParams has none)",
        _is({"type": "auto"}),
    ),
    Allowance(
        "anthropic-empty-tool-description",
        "anthropic",
        "tools[*].description",
        "missing",
        "an empty description is the same as none; our adapter omits empty descriptions (Tool.description "
        "is optional)",
        _is(""),
    ),
    Allowance(
        "anthropic-is-error-false",
        "anthropic",
        "messages[*].content[*].is_error",
        "missing",
        "is_error: false is the API default; our adapter sends is_error only for error/aborted results",
        _is(False),
    ),
    Allowance(
        "anthropic-tool-result-string-content",
        "anthropic",
        "messages[*].content[*].content",
        "changed",
        "a tool_result's string content is shorthand for one text block (RequestToolResultBlock.content "
        "is string | block[]); ours sends the same text as [{type: text}]",
        _string_is_one_block("text"),
    ),
    Allowance(
        "anthropic-llm-recorder-trailing-space",
        "anthropic",
        "messages[*].content[*].text",
        "changed",
        "recorder artifact, not content: llm-anthropic yields an extra ' ' after a tool-using response "
        "(llm_anthropic.py: `yield \" \"`, 'Avoid can have dragons.Now that I bug') and replays it; the "
        "stream never sent it. Only exactly one appended space is accepted, only in this recording",
        _recorder_trailing_space,
        frozenset({"llmanthropic__haiku35_parallel_tool_use_roundtrip"}),
    ),
    # ---------------------------------------------------------------- openai-chat
    Allowance(
        "chat-tool-choice-auto",
        "openai-chat",
        "tool_choice",
        "missing",
        "tool_choice 'auto' is the API default when tools are given; CallParams has no tool_choice",
        _is("auto"),
    ),
    Allowance(
        "chat-empty-tool-description",
        "openai-chat",
        "tools[*].function.description",
        "missing",
        "an empty description is the same as none; our adapter omits empty descriptions",
        _is(""),
    ),
    Allowance(
        "chat-tool-strict",
        "openai-chat",
        "tools[*].function.strict",
        "missing",
        "the recording client asked for strict schema adherence; ToolSpec has no strict flag, so the "
        "canonical params cannot carry it (a parameter gap, not a message mapping difference)",
        _is(True),
    ),
    Allowance(
        "chat-assistant-null-content",
        "openai-chat",
        "messages[*].content",
        "missing",
        "content: null on an assistant turn with tool_calls is the same as no content; our adapter omits it",
        _is_null,
    ),
    # ---------------------------------------------------------------- openai-responses
    Allowance(
        "responses-tool-choice-auto",
        "openai-responses",
        "tool_choice",
        "missing",
        "tool_choice 'auto' is the API default; CallParams has no tool_choice",
        _is("auto"),
    ),
    Allowance(
        "responses-null-tool-description",
        "openai-responses",
        "tools[*].description",
        "missing",
        "description: null is the same as none; our adapter omits empty descriptions",
        _is_null,
    ),
    Allowance(
        "responses-tool-strict",
        "openai-responses",
        "tools[*].strict",
        "changed",
        "the recording client sent strict: true; ToolSpec has no strict flag and our adapter always sends "
        "strict: false (canonical schemas are not written for strict mode) - a parameter gap",
        _strict_true_sent_false,
    ),
    Allowance(
        "responses-store-false",
        "openai-responses",
        "store",
        "extra",
        "our adapter replays statelessly (store: false, documented decision); the recording used the "
        "default store: true. Reasoning items carry encrypted_content either way",
        _is(False),
    ),
    Allowance(
        "responses-message-type",
        "openai-responses",
        "input[*].type",
        "extra",
        "an input item without type is an EasyInputMessage; we spell out type: message",
        _is("message"),
    ),
    Allowance(
        "responses-user-content-string",
        "openai-responses",
        "input[*].content",
        "changed",
        "EasyInputMessage string content is shorthand for one input_text part; ours sends the same text "
        "as [{type: input_text}]",
        _string_is_one_block("input_text"),
    ),
    Allowance(
        "responses-output-text-logprobs",
        "openai-responses",
        "input[*].content[*].logprobs",
        "extra",
        "our adapter adds logprobs: [] to replayed output_text (the spec requires it; the API echoes it)",
        _is([]),
    ),
    Allowance(
        "responses-recorded-ascii-quotes",
        "openai-responses",
        "input[2].content[0].text",
        "changed",
        "recording edit, not content: the gpt-5.5 stream sent curly quotes (U+2019, U+201C, U+201D) and our "
        "request replays them byte for byte; the recorded request 2 has them folded to ASCII (verified "
        "upstream). Only that folding is accepted, only in this recording and at this path",
        _ascii_quotes_folded,
        frozenset({"pai__gpt55_reasoning_function_call_phase_roundtrip"}),
    ),
    # ---------------------------------------------------------------- gemini
    Allowance(
        "gemini-response-modalities-text",
        "gemini",
        "generationConfig.responseModalities",
        "missing",
        "['TEXT'] is the default output modality of text models; CallParams has no modalities",
        _is(["TEXT"]),
    ),
    Allowance(
        "gemini-snake-case-field",
        "gemini",
        "tools[*].functionDeclarations[*]",
        "changed",
        "the recording client spelled a proto field snake_case (parameters_json_schema); Gemini's JSON "
        "accepts snake_case and lowerCamel alike and ours sends lowerCamel; accepted only when the "
        "declaration is otherwise identical",
        _gemini_camel_keys,
    ),
    Allowance(
        "gemini-minted-call-id",
        "gemini",
        "contents[*].parts[*].{functionCall,functionResponse}.id",
        "changed",
        "Gemini sent no functionCall.id; the recording client (pydantic-ai) minted one and our parser mints "
        "its own (call_<responseId>_<n>), consistently in call and response. Accepted only for that "
        "exact pair of minted ids",
        _minted_pair,
    ),
    Allowance(
        "gemini-signature-base64url",
        "gemini",
        "contents[*].parts[*].thoughtSignature",
        "changed",
        "Gemini streams thoughtSignature in standard base64 and the recording client re-sent it base64url; "
        "the decoded bytes are identical (both spellings are accepted)",
        _same_signature_bytes,
    ),
    Allowance(
        "gemini-function-response-key",
        "gemini",
        "contents[*].parts[*].functionResponse.response",
        "changed",
        "FunctionResponse.response is free-form JSON; pydantic-ai wraps the result as return_value, ours "
        "uses the documented 'output' key. The value must be identical",
        _gemini_response_key,
    ),
    # ---------------------------------------------------------------- openrouter
    Allowance(
        "openrouter-stream-options",
        "openrouter",
        "stream_options",
        "missing",
        "OpenRouter always sends usage; our adapter leaves out stream_options (documented decision)",
        _is({"include_usage": True}),
    ),
    Allowance(
        "openrouter-stream-false",
        "openrouter",
        "stream",
        "missing",
        "stream: false is the default; our adapter sends stream only when streaming",
        _is(False),
    ),
)


# ================================================================ the loop


@dataclass
class LoopReport:
    """Response ``turn`` (1-based) closed into request ``turn + 1``: the differences and our warnings."""

    cassette: str
    provider: str
    turn: int
    differences: list[Difference]
    warnings: list[RenderWarning]
    rendered: Json
    recorded: Json

    @property
    def findings(self) -> list[Difference]:
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
    history, _ = read_request(provider, first.request_body, first.uri)
    reply = replay_exchange(get_parser(provider), first).message
    recorded_history, params = read_request(provider, second.request_body, second.uri)
    last = _last_assistant(recorded_history)
    recorded_reply = recorded_history[last]
    assert isinstance(recorded_reply, AssistantMessage)
    minted = _minted_ids(recorded_reply, reply, first.body)
    appended = _rename_results(recorded_history[last + 1 :], minted)
    rendered = get_adapter(provider).render([*history, reply, *appended], params)
    ctx = LoopContext(provider, cassette, minted)
    recorded = _obj(second.request_body)
    differences = diff_json(recorded, rendered.body, ctx, ALLOWLIST)
    return LoopReport(cassette, provider, turn, differences, rendered.warnings, rendered.body, recorded)


def close_loop(provider: str, cassette_path: str | Path) -> list[LoopReport]:
    """One report per consecutive pair of model calls in a cassette (none for a single call)."""
    path = Path(cassette_path)
    calls = [e for e in load_exchanges(path, provider) if e.is_model_call]
    return [close_pair(provider, path.stem, n + 1, calls[n], calls[n + 1]) for n in range(len(calls) - 1)]


def reproduce_request(provider: str, cassette: str, exchange: Exchange) -> list[Difference]:
    """Our render of ``read_request(recorded)`` against the recorded request itself.

    Checks the decoder that seeds the loop: whatever it reads must render back to the
    same request, up to the allowlist.
    """
    history, params = read_request(provider, exchange.request_body, exchange.uri)
    rendered = get_adapter(provider).render(history, params)
    return diff_json(_obj(exchange.request_body), rendered.body, LoopContext(provider, cassette), ALLOWLIST)

"""The official SDKs as stream oracles: the same bytes, their accumulation against ours.

Why: our output adapters are hand-written state machines; each provider's official SDK
ships its own accumulator (openai ``get_final_completion``/``get_final_response``,
anthropic ``get_final_message``). Serving the recorded bytes to the real client through an
``httpx2.MockTransport`` (notes/oracles.md, section 3) gives an independent final
message for every recording, offline. google-genai has no accumulator: its oracle is the
list of parsed chunks, so our Gemini merge rules are ours alone (``gemini-merge`` below).

Both results are projected onto one shape (``project_sdk``, ``project_ours``): parts in
order (text; thinking text with its unit id; signatures as decoded bytes, so standard and
URL-safe base64 agree; tool calls with id, name, JSON-equal arguments and item id), the
canonical stop reason, token usage, response id, the model ids on reasoning parts, and
error events. ``compare`` then applies ``DIFFERENCES``, the one list of deliberate
differences, each a narrow named normalisation that only rewrites what its rule
explains; whatever still differs is a disagreement.

    sdk = sdk_accumulate("anthropic", body)
    verdict = compare("anthropic", parse_bytes(PARSER, body), sdk, body)
    verdict.ok, verdict.mismatches, verdict.applied
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from harness.contract.routing import route
from harness.contract.wires import PROVIDER_WIRES, sniff_wire, split_responses
from harness.model import TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart, Usage
from harness.providers import PROVIDERS
from harness.replay import Exchange, parser_for, replay_exchange
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

__all__ = [
    "DIFFERENCES",
    "PROVIDERS",
    "Comparison",
    "Context",
    "Difference",
    "RecordedCall",
    "SdkResult",
    "compare",
    "crosscheck",
    "decode_signature",
    "ours",
    "project_ours",
    "project_sdk",
    "recorded_calls",
    "sdk_accumulate",
    "split_calls",
]

Shape = dict[str, Any]
Part = tuple[Any, ...]

# ---------------------------------------------------------------- the SDK clients, offline


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


def _is_json(body: bytes) -> bool:
    return body.lstrip()[:1] == b"{"


_HI: Any = [{"role": "user", "content": "hi"}]


def sdk_accumulate(provider: str, body: bytes, chunk_size: int | None = None) -> SdkResult:
    """The SDK's own final object for a response body, fed in ``chunk_size`` pieces.

    A JSON object body is a non-streamed response and goes through ``create()``. The chat
    accumulator raises on ``length``/``content_filter`` finishes: the completion it carries
    is its accumulation. A Responses
    stream that ends in ``response.incomplete``/``failed`` has no final response
    (``get_final_response`` raises): that terminal event's response is the SDK's last word.
    The model names passed are placeholders: the mock serves ``body`` whatever is asked.
    """
    streamed = not _is_json(body)
    _SERVED.body, _SERVED.chunk_size = body, chunk_size
    _SERVED.content_type = "text/event-stream" if streamed else "application/json"
    if provider in ("openai-chat", "openrouter"):
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
    if provider == "openai-responses":
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
    if provider == "anthropic":
        messages = _anthropic().messages
        if not streamed:
            return messages.create(model="claude-oracle-test", max_tokens=64, messages=_HI)
        with messages.stream(model="claude-oracle-test", max_tokens=64, messages=_HI) as stream:
            for _ in stream:
                pass
            return stream.get_final_message()
    if provider == "gemini":  # no accumulator: the parsed chunks
        models = _gemini().models
        if not streamed:
            return [models.generate_content(model="gemini-2.5-flash", contents="hi")]  # pyright: ignore[reportUnknownMemberType]
        return list(models.generate_content_stream(model="gemini-2.5-flash", contents="hi"))  # pyright: ignore[reportUnknownMemberType]
    raise ValueError(f"unknown provider {provider!r} (expected one of: {', '.join(PROVIDERS)})")


def ours(provider: str, body: bytes, chunk_size: int | None = None) -> CallResult:
    """Our final message for the same body (streamed or not), through the replay path."""
    exchange = Exchange("POST", "(crosscheck)", None, 200, {}, body)
    return replay_exchange(parser_for(provider, exchange), exchange, chunk_size)


# ---------------------------------------------------------------- projections


def decode_signature(signature: str | bytes) -> bytes | str:
    """Signature bytes, from standard or URL-safe base64; the string itself when it is neither."""
    if isinstance(signature, bytes):
        return signature
    text = signature.strip().replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return signature


def _args(arguments: str) -> Any:
    """Tool arguments as JSON, compared by value; unparseable ones as a tagged string."""
    try:
        return json.loads(arguments)
    except json.JSONDecodeError:
        return ("<not JSON>", arguments)


def _usage(
    input_tokens: int,
    output_tokens: int,
    *,
    cached: int | None = None,
    created: int | None = None,
    reasoning: int | None = None,
    total: int | None = None,
) -> dict[str, int | None]:
    return Usage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cached_input_tokens=cached,
        cache_creation_input_tokens=created,
        reasoning_tokens=reasoning,
        total_tokens=total,
    ).model_dump()


def _finish_shape(
    parts: list[Part], stop: str, usage: dict[str, Any], response_id: str | None, model: str | None
) -> Shape:
    """The canonical rules both sides share: a turn that ends in tool calls is ``tool_use``."""
    if stop == "stop" and any(p[0] == "tool_call" for p in parts):
        stop = "tool_use"
    reasoning = any(p[0] in ("thinking", "signature") for p in parts)
    return {
        "parts": parts,
        "stop_reason": stop,
        "usage": usage,
        "response_id": response_id,
        "model_ids": [model] if reasoning and model else [],
        "errors": [],
    }


def project_ours(result: CallResult) -> Shape:
    """Our final message on the comparable shape."""
    message = result.message
    parts: list[Part] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            parts.append(("text", part.text))
        elif isinstance(part, ThinkingTextPart):
            parts.append(("thinking", part.id, part.text))
        elif isinstance(part, ThinkingSignaturePart):
            parts.append(("signature", part.id, part.format, decode_signature(part.signature)))
        elif isinstance(part, ToolCallPart):
            parts.append(
                ("tool_call", part.call_id, part.tool_name, _args(part.arguments_json), part.item_id)
            )
        else:
            parts.append(("other", part.type))
    models = {
        p.model_id
        for p in message.parts
        if isinstance(p, ThinkingTextPart | ThinkingSignaturePart) and p.model_id
    }
    return {
        "parts": parts,
        "stop_reason": message.stop_reason,
        "usage": (message.usage or Usage()).model_dump(),
        "response_id": message.response_id,
        "model_ids": sorted(models),
        "errors": [e.error_message for e in result.errors],
    }


def project_sdk(provider: str, sdk_result: SdkResult) -> Shape:
    """The SDK's final object on the comparable shape, read with the canonical field rules.

    Provider stop reasons with no canonical counterpart (refusal, content_filter, SAFETY,
    an incomplete response) are kept as the provider's word: mapping them to ``error``
    is our deliberate choice (``safety-stop-is-error``).
    """
    if provider in ("openai-chat", "openrouter"):
        return _project_chat(cast("ChatCompletion", sdk_result), provider == "openrouter")
    if provider == "openai-responses":
        return _project_responses(cast("Response", sdk_result))
    if provider == "anthropic":
        return _project_anthropic(cast("Message", sdk_result))
    if provider == "gemini":
        return _project_gemini(cast("list[GenerateContentResponse]", sdk_result))
    raise ValueError(f"unknown provider {provider!r} (expected one of: {', '.join(PROVIDERS)})")


_ANTHROPIC_STOP = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_use",
}


def _project_anthropic(message: Message) -> Shape:
    parts: list[Part] = []
    for block in message.content:
        if block.type == "text":
            if block.text:
                parts.append(("text", block.text))
        elif block.type == "thinking":
            parts.append(("thinking", None, block.thinking))
            if block.signature:
                parts.append(("signature", None, "anthropic", decode_signature(block.signature)))
        elif block.type == "redacted_thinking":
            parts.append(("signature", None, "anthropic-redacted", decode_signature(block.data)))
        elif block.type == "tool_use":
            parts.append(("tool_call", block.id, block.name, block.input, None))
        else:
            parts.append(("no_canonical", block.type))
    usage = message.usage
    read, created = usage.cache_read_input_tokens, usage.cache_creation_input_tokens
    details: Any = getattr(usage, "output_tokens_details", None)
    stop = str(message.stop_reason)
    return _finish_shape(
        parts,
        _ANTHROPIC_STOP.get(stop, stop),
        _usage(
            usage.input_tokens + (read or 0) + (created or 0),
            usage.output_tokens,
            cached=read,
            created=created,
            reasoning=getattr(details, "thinking_tokens", None),
        ),
        message.id,
        message.model,
    )


_CHAT_STOP = {"stop": "stop", "length": "length", "tool_calls": "tool_use", "function_call": "tool_use"}


def _project_chat(completion: ChatCompletion, openrouter: bool) -> Shape:
    """The SDK joins each delta field into one string: reasoning, then text, refusal, tool calls."""
    choice = next((c for c in completion.choices if c.index == 0), None)
    if choice is None:  # nothing accumulated (an error-only body): no parts, no finish
        return _finish_shape([], "<no choice 0>", _usage(0, 0), completion.id, completion.model)
    message = choice.message
    extra: dict[str, Any] = message.model_extra or {}
    details: list[dict[str, Any]] = (extra.get("reasoning_details") or []) if openrouter else []
    parts: list[Part] = []
    if details:
        parts += _openrouter_reasoning(details)
    else:
        reasoning = extra.get("reasoning_content") or extra.get("reasoning")
        if reasoning:
            parts.append(("thinking", None, reasoning))
    if message.content:
        parts.append(("text", message.content))
    if message.refusal:
        parts.append(("refusal", message.refusal))
    for call in message.tool_calls or ():
        if call.type == "function":
            parts.append(("tool_call", call.id, call.function.name, _args(call.function.arguments), None))
    usage = completion.usage
    shaped_usage = _usage(0, 0)
    if usage is not None:
        prompt, done = usage.prompt_tokens_details, usage.completion_tokens_details
        usage_extra: dict[str, Any] = usage.model_extra or {}
        cached = prompt.cached_tokens if prompt else None
        shaped_usage = _usage(
            usage.prompt_tokens,
            usage.completion_tokens,
            cached=cached if cached is not None else usage_extra.get("prompt_cache_hit_tokens"),
            created=getattr(prompt, "cache_write_tokens", None),
            reasoning=done.reasoning_tokens if done else None,
            total=usage.total_tokens,
        )
    stop = str(choice.finish_reason)
    return _finish_shape(parts, _CHAT_STOP.get(stop, stop), shaped_usage, completion.id, completion.model)


def _openrouter_reasoning(details: list[dict[str, Any]]) -> list[Part]:
    """``reasoning_details`` as the SDK's generic merge left them (one entry per index)."""
    parts: list[Part] = []
    for detail in details:
        kind, fmt, item_id = detail.get("type"), detail.get("format") or "unknown", detail.get("id")
        if kind == "reasoning.text":
            parts.append(("thinking", item_id, detail.get("text") or ""))
            if detail.get("signature"):
                parts.append(("signature", item_id, fmt, decode_signature(detail["signature"])))
        elif kind == "reasoning.summary":
            parts.append(("thinking", item_id, detail.get("summary") or ""))
        elif kind == "reasoning.encrypted" and detail.get("data"):
            parts.append(("signature", item_id, fmt, decode_signature(detail["data"])))
        else:
            parts.append(("no_canonical", kind))
    return parts


def _project_responses(response: Response) -> Shape:
    parts: list[Part] = []
    for item in response.output:
        if item.type == "reasoning":
            parts += [("thinking", item.id, s.text) for s in item.summary if s.text]
            parts += [("thinking", item.id, c.text) for c in item.content or () if c.text]
            if item.encrypted_content:
                parts.append(
                    ("signature", item.id, "openai-responses", decode_signature(item.encrypted_content))
                )
        elif item.type == "message":
            for content in item.content:
                if content.type == "output_text":
                    if content.text:
                        parts.append(("text", content.text))
                elif content.refusal:
                    parts.append(("refusal", content.refusal))
        elif item.type == "function_call":
            parts.append(("tool_call", item.call_id, item.name, _args(item.arguments), item.id))
        else:
            parts.append(("no_canonical", item.type))
    stop = str(response.status)
    if stop == "completed":
        stop = "stop"
    elif stop == "incomplete":
        reason = response.incomplete_details.reason if response.incomplete_details else None
        stop = "length" if reason == "max_output_tokens" else f"incomplete:{reason}"
    usage = response.usage
    shaped_usage = _usage(0, 0)
    if usage is not None:
        shaped_usage = _usage(
            usage.input_tokens,
            usage.output_tokens,
            cached=usage.input_tokens_details.cached_tokens,
            created=getattr(usage.input_tokens_details, "cache_write_tokens", None),
            reasoning=usage.output_tokens_details.reasoning_tokens,
            total=usage.total_tokens,
        )
    return _finish_shape(parts, stop, shaped_usage, response.id, response.model)


_GEMINI_STOP = {"STOP": "stop", "MAX_TOKENS": "length"}
_GEMINI_PART_FIELDS = frozenset({"text", "thought", "thought_signature", "function_call"})


def _project_gemini(chunks: list[GenerateContentResponse]) -> Shape:
    """Every chunk's parts in arrival order, unmerged; a signature right after its own part."""
    parts: list[Part] = []
    usage, finish, response_id, model = None, None, None, None
    blocked: str | None = None
    for chunk in chunks:
        usage = chunk.usage_metadata or usage
        response_id = chunk.response_id or response_id
        model = chunk.model_version or model
        if chunk.prompt_feedback and chunk.prompt_feedback.block_reason:
            blocked = chunk.prompt_feedback.block_reason.value
        for candidate in chunk.candidates or ():
            if candidate.index not in (None, 0):
                continue
            finish = candidate.finish_reason or finish
            for part in candidate.content.parts or () if candidate.content else ():
                call = part.function_call
                if call is not None:
                    parts.append(("tool_call", call.id, call.name, call.args or {}, None))
                elif part.text and part.thought:
                    parts.append(("thinking", None, part.text))
                elif part.text:
                    parts.append(("text", part.text))
                elif part.text is None:
                    kinds = sorted(part.model_dump(exclude_none=True).keys() - _GEMINI_PART_FIELDS)
                    if kinds:
                        parts.append(("no_canonical", ",".join(kinds)))
                if part.thought_signature:
                    parts.append(("signature", None, "google", part.thought_signature))
    stop = "stop"
    if blocked:
        stop = f"blocked:{blocked}"
    elif finish is not None:
        stop = _GEMINI_STOP.get(finish.value, finish.value)
    shaped_usage = _usage(0, 0)
    if usage is not None:
        thoughts = usage.thoughts_token_count
        shaped_usage = _usage(
            (usage.prompt_token_count or 0) + (usage.tool_use_prompt_token_count or 0),
            (usage.candidates_token_count or 0) + (thoughts or 0),
            cached=usage.cached_content_token_count,
            reasoning=thoughts,
            total=usage.total_token_count,
        )
    return _finish_shape(parts, stop, shaped_usage, response_id, model)


# ---------------------------------------------------------------- the deliberate differences


@dataclass(frozen=True)
class Context:
    """What a normalisation may consult besides the two shapes: the provider and the raw body."""

    provider: str
    body: bytes

    @functools.cached_property
    def payloads(self) -> list[dict[str, Any]]:
        """The JSON objects of the body's SSE data lines (or the body itself when it is JSON)."""
        if _is_json(self.body):
            return [json.loads(self.body)]
        out: list[dict[str, Any]] = []
        for line in self.body.decode("utf-8", errors="replace").splitlines():
            if line.startswith("data:"):
                try:
                    value = json.loads(line[5:])
                except json.JSONDecodeError:
                    continue
                if isinstance(value, dict):
                    out.append(cast(dict[str, Any], value))
        return out


Normalise = Callable[[Shape, Shape, Context], tuple[Shape, Shape]]


@dataclass(frozen=True)
class Difference:
    """One deliberate difference: where it applies, what differs, why, and the narrow rewrite."""

    id: str
    providers: frozenset[str]
    what: str
    why: str
    normalise: Normalise = field(repr=False, compare=False)


def _obj(value: object) -> dict[str, Any]:
    """``value`` if it is a JSON object, else an empty one."""
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _join_adjacent(parts: list[Part], joinable: Callable[[Part, Part], bool]) -> list[Part]:
    """Join neighbours ``joinable`` says belong together; a part's text is its last field."""
    out: list[Part] = []
    for part in parts:
        if out and joinable(out[-1], part):
            previous = out[-1]
            out[-1] = (*previous[:-1], previous[-1] + part[-1])
        else:
            out.append(part)
    return out


def _with_parts(shape: Shape, parts: list[Part]) -> Shape:
    return {**shape, "parts": parts}


def _repeated(value: object, unit: object) -> bool:
    """``value`` is ``unit`` repeated two or more times (the generic merge's concatenation)."""
    if not isinstance(value, str) or not isinstance(unit, str) or not unit or value == unit:
        return False
    count, rest = divmod(len(value), len(unit))
    return rest == 0 and unit * count == value


def _responses_item_signatures(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    done: dict[str, str] = {}
    completed: dict[str, str] = {}
    for payload in ctx.payloads:
        kind = payload.get("type")
        if kind == "response.output_item.done":
            item = _obj(payload.get("item"))
            if item.get("type") == "reasoning" and item.get("encrypted_content"):
                done[item["id"]] = item["encrypted_content"]
        elif kind == "response.completed":
            for output in _obj(payload.get("response")).get("output") or ():
                item = _obj(output)
                if item.get("type") == "reasoning" and item.get("encrypted_content"):
                    completed[item["id"]] = item["encrypted_content"]
    ours_sigs = {p[1]: p[3] for p in ours_["parts"] if p[0] == "signature"}
    parts: list[Part] = []
    for part in sdk["parts"]:
        item_id = part[1] if part[0] == "signature" else None
        if (
            item_id in done
            and item_id in completed
            and part[3] == decode_signature(completed[item_id])
            and ours_sigs.get(item_id) == decode_signature(done[item_id])
        ):
            part = (*part[:3], decode_signature(done[item_id]))
        parts.append(part)
    return ours_, _with_parts(sdk, parts)


def _responses_streamed_item_ids(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    """The SDK's item ids (response.completed's output) mapped to the ids the stream's events used."""
    streamed: dict[int, str] = {}
    completed: dict[int, str] = {}
    for payload in ctx.payloads:
        kind = payload.get("type")
        index = payload.get("output_index")
        item = _obj(payload.get("item"))
        if (
            kind == "response.output_item.added"
            and isinstance(index, int)
            and isinstance(item.get("id"), str)
        ):
            streamed.setdefault(index, item["id"])
        elif kind == "response.completed":
            for n, output in enumerate(_obj(payload.get("response")).get("output") or ()):
                if isinstance(_obj(output).get("id"), str):
                    completed[n] = _obj(output)["id"]
    renamed = {completed[n]: streamed[n] for n in completed if n in streamed and streamed[n] != completed[n]}
    if not renamed:
        return ours_, sdk
    parts: list[Part] = []
    for part in sdk["parts"]:
        if part[0] in ("thinking", "signature") and part[1] in renamed:
            part = (part[0], renamed[part[1]], *part[2:])
        elif part[0] == "tool_call" and part[4] in renamed:
            part = (*part[:4], renamed[part[4]])
        parts.append(part)
    return ours_, _with_parts(sdk, parts)


def _openrouter_format(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    ours_formats = [p[2] for p in ours_["parts"] if p[0] == "signature"]
    parts: list[Part] = []
    n = 0
    for part in sdk["parts"]:
        if part[0] == "signature":
            if n < len(ours_formats) and _repeated(part[2], ours_formats[n]):
                part = (part[0], part[1], ours_formats[n], part[3])
            n += 1
        parts.append(part)
    return ours_, _with_parts(sdk, parts)


def _chat_first_id_and_name(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    ours_calls = [p for p in ours_["parts"] if p[0] == "tool_call"]
    parts: list[Part] = []
    n = 0
    for part in sdk["parts"]:
        if part[0] == "tool_call":
            if n < len(ours_calls):
                mine = ours_calls[n]
                call_id = mine[1] if _repeated(part[1], mine[1]) else part[1]
                name = mine[2] if _repeated(part[2], mine[2]) else part[2]
                part = ("tool_call", call_id, name, *part[3:])
            n += 1
        parts.append(part)
    return ours_, _with_parts(sdk, parts)


_CHAT_RANK = {"thinking": 0, "signature": 0, "text": 1, "refusal": 1, "tool_call": 2}


def _chat_field_order(parts: list[Part]) -> list[Part]:
    """Reasoning, then text, then tool calls (stable); adjacent text, and thinking of one unit, joined."""
    ordered = sorted(parts, key=lambda p: _CHAT_RANK.get(p[0], 3))
    return _join_adjacent(
        ordered, lambda a, b: a[0] == b[0] == "text" or a[:2] == b[:2] == ("thinking", None)
    )


def _chat_stream_order(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    return (
        _with_parts(ours_, _chat_field_order(ours_["parts"])),
        _with_parts(sdk, _chat_field_order(sdk["parts"])),
    )


def _refusal_as_text(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    parts = [("text", p[1]) if p[0] == "refusal" else p for p in sdk["parts"]]
    return ours_, _with_parts(sdk, parts)


# The provider stop reasons our parsers turn into an error (each parser's docstring).
_SAFETY: dict[str, re.Pattern[str]] = {
    "anthropic": re.compile(r"refusal"),
    "openai-chat": re.compile(r"content_filter"),
    "openrouter": re.compile(r"content_filter"),
    "openai-responses": re.compile(r"incomplete:(?!max_output_tokens$).+"),
    "gemini": re.compile(r"(?!STOP$|MAX_TOKENS$)[A-Z_]+|blocked:.+"),
}


def _safety_stop(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    reason: str = sdk["stop_reason"]
    errors: list[str] = ours_["errors"]
    pattern = _SAFETY[ctx.provider]
    if (
        pattern.fullmatch(reason)
        and ours_["stop_reason"] == "error"
        and len(errors) == 1
        and reason.split(":", 1)[-1] in errors[0]
    ):
        return ours_, {**sdk, "stop_reason": "error", "errors": list(errors)}
    return ours_, sdk


def _gemini_runs(parts: list[Part]) -> list[Part]:
    """Content parts with adjacent text (and thinking) joined across chunks, then the signatures."""
    content = [p for p in parts if p[0] != "signature"]
    joined = _join_adjacent(content, lambda a, b: a[0] == b[0] and a[0] in ("text", "thinking"))
    return joined + [p for p in parts if p[0] == "signature"]


def _gemini_merge(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    return (
        _with_parts(ours_, _gemini_runs(ours_["parts"])),
        _with_parts(sdk, _gemini_runs(sdk["parts"])),
    )


def _gemini_minted_ids(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    ours_calls = [p for p in ours_["parts"] if p[0] == "tool_call"]
    response_id = sdk["response_id"]
    parts: list[Part] = []
    n = 0
    for part in sdk["parts"]:
        if part[0] == "tool_call":
            minted = f"call_{response_id}_{n}" if response_id else f"call_{n}"
            if part[1] is None and n < len(ours_calls) and ours_calls[n][1] == minted:
                part = ("tool_call", minted, *part[2:])
            n += 1
        parts.append(part)
    return ours_, _with_parts(sdk, parts)


def _no_canonical_part(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    return ours_, _with_parts(sdk, [p for p in sdk["parts"] if p[0] != "no_canonical"])


def _anthropic_signatures_appended(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    deltas: dict[int, list[str]] = {}
    for payload in ctx.payloads:
        delta = _obj(payload.get("delta"))
        if payload.get("type") == "content_block_delta" and delta.get("type") == "signature_delta":
            deltas.setdefault(payload["index"], []).append(delta["signature"])
    pairs = {
        decode_signature(chunks[-1]): decode_signature("".join(chunks))
        for chunks in deltas.values()
        if len(chunks) > 1
    }
    ours_sigs = {p[3] for p in ours_["parts"] if p[0] == "signature"}
    parts: list[Part] = []
    for part in sdk["parts"]:
        if part[0] == "signature" and part[3] in pairs and pairs[part[3]] in ours_sigs:
            part = (*part[:3], pairs[part[3]])
        parts.append(part)
    return ours_, _with_parts(sdk, parts)


_CHATS = frozenset({"openai-chat", "openrouter"})

# Applied in this order: the value rewrites first, the structural ones (order, merging) last.
DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "responses-signature-from-output-item-done",
        frozenset({"openai-responses"}),
        "A reasoning item's encrypted_content is taken from response.output_item.done; the SDK's final "
        "response is response.completed's output, whose copy can differ (another valid encryption).",
        "The output_item.done copy is the one a recorded follow-up request replayed and the API accepted, "
        "and it arrives before response.completed, so a stream cut after the item still has it.",
        _responses_item_signatures,
    ),
    Difference(
        "responses-streamed-item-id",
        frozenset({"openai-responses"}),
        "An item's id is the one its response.output_item.added event gave (its output_index's first id); "
        "the SDK's final response takes response.completed's output, where OpenRouter's /responses "
        "renames temporary reasoning ids (rs_tmp_...) and id-rotating proxies give yet another id.",
        "Every event of the stream addresses the item by the added id (OpenRouter), or by output_index "
        "with a fresh id per event (GitHub Copilot); the streamed id is the one a consumer saw, and keying "
        "by output_index is what keeps a rotating stream one item.",
        _responses_streamed_item_ids,
    ),
    Difference(
        "openrouter-format-verbatim",
        frozenset({"openrouter"}),
        "A reasoning_details format repeated in every chunk comes out concatenated from the SDK's generic "
        "delta merge (anthropic-claude-v1anthropic-claude-v1...); we keep the format once.",
        "The format names whose signature it is; the concatenation is an artefact of a merge that treats "
        "every string field as text, not an OpenRouter contract.",
        _openrouter_format,
    ),
    Difference(
        "chat-first-id-and-name",
        _CHATS,
        "A tool-call id or name repeated in later fragments of the same index is concatenated by the SDK's "
        "generic merge; we keep the first.",
        "Some OpenAI-compatible servers repeat id and name in every fragment; a doubled id would break "
        "tool-result pairing.",
        _chat_first_id_and_name,
    ),
    Difference(
        "anthropic-signature-deltas-appended",
        frozenset({"anthropic"}),
        "A second signature_delta for one thinking block is appended to the signature; the SDK keeps only "
        "the last one.",
        "Anthropic sends exactly one, right before content_block_stop; appending never drops bytes if a "
        "signature ever arrives in pieces.",
        _anthropic_signatures_appended,
    ),
    Difference(
        "gemini-minted-call-id",
        frozenset({"gemini"}),
        "A functionCall without an id gets call_<responseId>_<n> (n = its position among the response's "
        "calls); the SDK's function_call.id stays None.",
        "Canonical tool calls need an id to pair results with; a deterministic one keeps replay and "
        "goldens stable.",
        _gemini_minted_ids,
    ),
    Difference(
        "no-canonical-part",
        frozenset({"anthropic", "openai-responses", "gemini", "openrouter"}),
        "Server-side tool blocks and items (server_tool_use, web_search_call, ...), other Gemini part "
        "kinds (inlineData, executableCode, ...) and unknown reasoning_details types are noted and "
        "skipped; the SDK keeps them.",
        "They run or live on the provider's side and the canonical model has no part for them; turning "
        "them into client tool calls would be wrong.",
        _no_canonical_part,
    ),
    Difference(
        "refusal-kept-as-text",
        frozenset({"openai-chat", "openrouter", "openai-responses"}),
        "A refusal (delta.refusal, a refusal content part) becomes a text part; the SDK keeps it in its own "
        "refusal field.",
        "It is what the model said, to be shown and replayed; the canonical model has no refusal part and "
        "the finish reason decides the stop reason.",
        _refusal_as_text,
    ),
    Difference(
        "safety-stop-is-error",
        frozenset(PROVIDERS),
        "A safety or filter stop (Anthropic refusal, Chat content_filter, Responses incomplete for a reason "
        "other than max_output_tokens, Gemini SAFETY/RECITATION/... or a blocked prompt) ends with "
        "stop_reason error and one error event naming the reason; the SDK reports the provider's reason "
        "on an otherwise normal message.",
        "Shared rule: a partial, withheld answer must never be taken for a complete one.",
        _safety_stop,
    ),
    Difference(
        "chat-stream-order",
        _CHATS,
        "The SDK joins each delta field into one string (all reasoning, all content); we start a new part "
        "when the stream switches between text and thinking, keeping stream order.",
        "Canonical parts are ordered; interleaved reasoning and answer text must replay in the order "
        "the model produced them.",
        _chat_stream_order,
    ),
    Difference(
        "gemini-merge",
        frozenset({"gemini"}),
        "google-genai has no accumulator: its chunks are unmerged parts. Our merge joins consecutive text "
        "(and thought) chunks into one part and places each signature after the part it signs; compared "
        "as the joined runs in order plus the signatures in order.",
        "Our merge rules are ours alone (nothing official accumulates Gemini streams); they are pinned "
        "by the structure tests in tests/test_stream_gemini.py.",
        _gemini_merge,
    ),
)


# ---------------------------------------------------------------- comparison


@dataclass(frozen=True)
class Comparison:
    """The verdict on one call: disagreements left after the differences, and which ones applied."""

    provider: str
    mismatches: list[str]
    applied: list[str]
    ours: Shape
    sdk: Shape

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def __str__(self) -> str:
        lines = [
            f"{self.provider}: {'agrees' if self.ok else 'DISAGREES'} (applied: {self.applied or 'none'})"
        ]
        return "\n".join([*lines, *(f"  {m}" for m in self.mismatches)])


def _diff(ours_: Shape, sdk: Shape) -> list[str]:
    out: list[str] = []
    for key in ours_.keys() | sdk.keys():
        mine, theirs = ours_.get(key), sdk.get(key)
        if key == "parts" and mine != theirs:
            mine_parts, their_parts = cast(list[Part], mine), cast(list[Part], theirs)
            for n in range(max(len(mine_parts), len(their_parts))):
                a = mine_parts[n] if n < len(mine_parts) else None
                b = their_parts[n] if n < len(their_parts) else None
                if a != b:
                    out.append(f"parts[{n}]: ours {_short(a)} != sdk {_short(b)}")
        elif mine != theirs:
            out.append(f"{key}: ours {_short(mine)} != sdk {_short(theirs)}")
    return sorted(out)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def compare(
    provider: str,
    result: CallResult,
    sdk_result: SdkResult,
    body: bytes,
    *,
    disabled: Collection[str] = (),
) -> Comparison:
    """Our result against the SDK's for the same ``body``, through every applicable difference.

    ``disabled`` switches differences off by id (to prove each one is needed somewhere).
    """
    mine, theirs = project_ours(result), project_sdk(provider, sdk_result)
    context = Context(provider, body)
    applied: list[str] = []
    for difference in DIFFERENCES:
        if provider not in difference.providers or difference.id in disabled:
            continue
        new_mine, new_theirs = difference.normalise(mine, theirs, context)
        if (new_mine, new_theirs) != (mine, theirs):
            applied.append(difference.id)
        mine, theirs = new_mine, new_theirs
    return Comparison(provider, _diff(mine, theirs), applied, mine, theirs)


def crosscheck(
    provider: str, body: bytes, chunk_size: int | None = None, *, disabled: Collection[str] = ()
) -> Comparison:
    """Parse ``body`` with our adapter and with the official SDK, and compare."""
    return compare(
        provider,
        ours(provider, body, chunk_size),
        sdk_accumulate(provider, body, chunk_size),
        body,
        disabled=disabled,
    )


# ---------------------------------------------------------------- recorded calls


@dataclass(frozen=True)
class RecordedCall:
    """One model call of a cassette: ``id`` is ``<provider>-<cassette>-<n>``.

    ``provider`` is the provider whose parser and SDK judge the call: a cassette's own,
    except OpenRouter's Responses endpoint, judged as ``openai-responses`` (the same
    parser rules, and the openai SDK's Responses accumulator is the oracle for that wire).
    ``following`` is the request body of the cassette's next model call (the history that
    replays this response, accepted by the API), None for the last or a converted fixture.
    """

    id: str
    provider: str
    body: bytes
    following: Any = None


def split_calls(provider: str, body: bytes) -> list[bytes]:
    """A body that holds several responses back to back (an AI SDK multi-step fixture
    converted into one interaction) as one body per response; any other body as is."""
    wires = PROVIDER_WIRES.get(provider, ())
    wire = sniff_wire(body) if len(wires) > 1 else (wires[0] if wires else None)
    return split_responses(wire, body) if wire else [body]


def _judge(provider: str, exchange: Exchange) -> str:
    routed = route(exchange.method, exchange.uri)
    if provider == "openrouter" and routed is not None and routed.wire == "openai-responses":
        return "openai-responses"
    return provider


def recorded_calls(provider: str, cassette: str, exchanges: Sequence[Exchange]) -> list[RecordedCall]:
    """The model calls of one cassette's model-call exchanges, as crosscheck and stream tests use them."""
    out: list[RecordedCall] = []
    for n, exchange in enumerate(exchanges):
        judge = _judge(provider, exchange)
        bodies = split_calls(judge, exchange.body)
        following = exchanges[n + 1].request_body if n + 1 < len(exchanges) and len(bodies) == 1 else None
        for body in bodies:
            out.append(RecordedCall(f"{provider}-{cassette}-{len(out)}", judge, body, following))
    return out

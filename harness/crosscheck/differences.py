"""The deliberate differences between our stream parsers and the official SDKs.

Each is an ``SdkDifference`` (one provider) with a narrow normalisation that only
rewrites what its rule explains; ``compare`` applies them in the order listed. Unlike the
request-side entries of the registry of accepted differences (``harness.accepted``), which
are data a judge reads, these are rewrites of the reference parsers' output and live with
the stream oracle; ``docs/accepted.md`` lists them beside the registry.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, cast

from harness.contract.providers import PROVIDERS
from harness.crosscheck.accumulate import is_json
from harness.crosscheck.projection import Part, Shape, decode_signature


@dataclass(frozen=True)
class Context:
    """What a normalisation may consult besides the two shapes: the provider and the raw body."""

    provider: str
    body: bytes

    @functools.cached_property
    def payloads(self) -> list[dict[str, Any]]:
        """The JSON objects of the body's SSE data lines (or the body itself when it is JSON)."""
        if is_json(self.body):
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
class SdkDifference:
    """One deliberate difference for one provider: ``where`` says what differs, ``why`` why
    ours is right, and ``normalise`` is the narrow rewrite of both shapes that explains it."""

    id: str
    provider: str
    where: str
    why: str
    normalise: Normalise = field(kw_only=True, repr=False, compare=False)


def _each(
    id: str, providers: Collection[str], what: str, why: str, normalise: Normalise
) -> tuple[SdkDifference, ...]:
    """One difference shared by several providers: one entry per provider, same id and rewrite."""
    return tuple(SdkDifference(id, p, what, why, normalise=normalise) for p in PROVIDERS if p in providers)


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


def _chat_executed_tools_latest(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    calls: dict[Any, dict[str, Any]] = {
        p[1]: cast(dict[str, Any], p[3])
        for p in ours_["parts"]
        if p[0] == "server_tool_call" and isinstance(p[3], dict)
    }
    parts: list[Part] = []
    for part in sdk["parts"]:
        mine = calls.get(part[1]) if part[0] == "server_tool_call" else None
        if mine is not None and isinstance(part[3], dict):
            theirs = cast(dict[str, Any], part[3])
            fixed: dict[str, Any] = {
                k: mine[k] if k in mine and _repeated(v, mine[k]) else v for k, v in theirs.items()
            }
            part = (*part[:3], fixed)
        parts.append(part)
    return ours_, _with_parts(sdk, parts)


def _anthropic_mcp_input(ours_: Shape, sdk: Shape, ctx: Context) -> tuple[Shape, Shape]:
    streamed: dict[str, str] = {}  # mcp_tool_use id -> the input its input_json_deltas gave
    blocks: dict[int, str] = {}
    for payload in ctx.payloads:
        block, delta = _obj(payload.get("content_block")), _obj(payload.get("delta"))
        if payload.get("type") == "content_block_start" and block.get("type") == "mcp_tool_use":
            blocks[payload["index"]] = str(block.get("id"))
        elif delta.get("type") == "input_json_delta" and payload.get("index") in blocks:
            call_id = blocks[payload["index"]]
            streamed[call_id] = streamed.get(call_id, "") + str(delta.get("partial_json") or "")
    calls = {p[1]: p[3] for p in ours_["parts"] if p[0] == "server_tool_call"}
    parts: list[Part] = []
    for part in sdk["parts"]:
        raw, mine = _obj(part[3]) if part[0] == "server_tool_call" else {}, _obj(calls.get(part[1]))
        text = streamed.get(str(part[1]))
        if raw.get("type") == "mcp_tool_use" and raw.get("input") == {} and text:
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                value = None
            if value is not None and mine == {**raw, "input": value}:
                part = (*part[:3], mine)
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

# One entry per provider (``_each``), applied in this order: the value rewrites first, the
# structural ones (order, merging) last.
DIFFERENCES: tuple[SdkDifference, ...] = (
    *_each(
        "responses-signature-from-output-item-done",
        frozenset({"openai-responses"}),
        "A reasoning item's encrypted_content is taken from response.output_item.done; the SDK's final "
        "response is response.completed's output, whose copy can differ (another valid encryption).",
        "The output_item.done copy is the one a recorded follow-up request replayed and the API accepted, "
        "and it arrives before response.completed, so a stream cut after the item still has it.",
        _responses_item_signatures,
    ),
    *_each(
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
    *_each(
        "openrouter-format-verbatim",
        frozenset({"openrouter"}),
        "A reasoning_details format repeated in every chunk comes out concatenated from the SDK's generic "
        "delta merge (anthropic-claude-v1anthropic-claude-v1...); we keep the format once.",
        "The format names whose signature it is; the concatenation is an artefact of a merge that treats "
        "every string field as text, not an OpenRouter contract.",
        _openrouter_format,
    ),
    *_each(
        "chat-first-id-and-name",
        _CHATS,
        "A tool-call id or name repeated in later fragments of the same index is concatenated by the SDK's "
        "generic merge; we keep the first.",
        "Some OpenAI-compatible servers repeat id and name in every fragment; a doubled id would break "
        "tool-result pairing.",
        _chat_first_id_and_name,
    ),
    *_each(
        "anthropic-signature-deltas-appended",
        frozenset({"anthropic"}),
        "A second signature_delta for one thinking block is appended to the signature; the SDK keeps only "
        "the last one.",
        "Anthropic sends exactly one, right before content_block_stop; appending never drops bytes if a "
        "signature ever arrives in pieces.",
        _anthropic_signatures_appended,
    ),
    *_each(
        "anthropic-mcp-tool-input-streamed",
        frozenset({"anthropic"}),
        "An mcp_tool_use block's input is what its input_json_delta events streamed; the SDK's accumulator "
        "tracks input deltas only for tool_use and server_tool_use blocks (TRACKS_TOOL_INPUT), so its "
        "mcp_tool_use keeps the empty input of content_block_start.",
        "The non-streamed Message carries the MCP call's input, and the block goes back byte-exact: an empty "
        "input would replay a call the model never made.",
        _anthropic_mcp_input,
    ),
    *_each(
        "chat-executed-tools-latest",
        _CHATS,
        "A field of an executed_tools entry repeated in a later chunk of the same index (Groq repeats "
        "arguments with the output) is concatenated by the SDK's generic merge; we keep the latest copy.",
        "The entry is the provider's own record of what it ran; a doubled arguments string is no call the "
        "provider made.",
        _chat_executed_tools_latest,
    ),
    *_each(
        "gemini-minted-call-id",
        frozenset({"gemini"}),
        "A functionCall without an id gets call_<responseId>_<n> (n = its position among the response's "
        "calls); the SDK's function_call.id stays None.",
        "Canonical tool calls need an id to pair results with; a deterministic one keeps replay and "
        "goldens stable.",
        _gemini_minted_ids,
    ),
    *_each(
        "no-canonical-part",
        frozenset({"anthropic", "openai-responses", "gemini", "openrouter"}),
        "Blocks, items and parts with no canonical part (an Anthropic block type, a Responses item type or "
        "a Gemini part kind the model does not hold; server tools, citations and inlineData have parts) and "
        "unknown reasoning_details types are noted, named, and skipped; the SDK keeps them.",
        "The canonical model has no part for them; the note names what was left out, and turning them "
        "into text or client tool calls would be wrong.",
        _no_canonical_part,
    ),
    *_each(
        "refusal-kept-as-text",
        frozenset({"openai-chat", "openrouter", "openai-responses"}),
        "A refusal (delta.refusal, a refusal content part) becomes a text part; the SDK keeps it in its own "
        "refusal field.",
        "It is what the model said, to be shown and replayed; the canonical model has no refusal part and "
        "the finish reason decides the stop reason.",
        _refusal_as_text,
    ),
    *_each(
        "safety-stop-is-error",
        frozenset(PROVIDERS),
        "A safety or filter stop (Anthropic refusal, Chat content_filter, Responses incomplete for a reason "
        "other than max_output_tokens, Gemini SAFETY/RECITATION/... or a blocked prompt) ends with "
        "stop_reason error and one error event naming the reason; the SDK reports the provider's reason "
        "on an otherwise normal message.",
        "Shared rule: a partial, withheld answer must never be taken for a complete one.",
        _safety_stop,
    ),
    *_each(
        "chat-stream-order",
        _CHATS,
        "The SDK joins each delta field into one string (all reasoning, all content); we start a new part "
        "when the stream switches between text and thinking, keeping stream order.",
        "Canonical parts are ordered; interleaved reasoning and answer text must replay in the order "
        "the model produced them.",
        _chat_stream_order,
    ),
    *_each(
        "gemini-merge",
        frozenset({"gemini"}),
        "google-genai has no accumulator: its chunks are unmerged parts. Our merge joins consecutive text "
        "(and thought) chunks into one part and places each signature after the part it signs; compared "
        "as the joined runs in order plus the signatures in order.",
        "Our merge rules are ours alone (nothing official accumulates Gemini streams); they are pinned "
        "by the structure tests in tests/providers/gemini/test_stream_gemini.py.",
        _gemini_merge,
    ),
)

"""Continuity across turns: does request N+1 carry forward what response N gave?

Recorded agent loops show, pair by pair, whether a client sent back what the model
produced. A pair is checked when request N+1 continues request N's conversation: it is
longer and starts with the same first entry, roles in the same order (or, on the
Responses API, names response N in ``previous_response_id``). Then:

- ``continuity-reasoning``: every opaque reasoning payload of response N (signature,
  redacted data, encrypted_content, thoughtSignature, reasoning_details) is in request
  N+1, compared as decoded bytes (base64 and base64url are one value);
- ``continuity-tool-answered``: every tool call of response N is answered once, by its id
  verbatim, in call order;
- ``continuity-text``: response N's text and tool arguments come back unchanged;
- ``continuity-server-tools``: every provider-executed tool block of response N (Anthropic
  ``server_tool_use`` / ``*_tool_result``, a Responses ``web_search_call`` ..., Gemini's
  ``executableCode`` ...) is in request N+1 as the same JSON value; ``continuity-citations``:
  so is every citation of its answer (a text's ``citations``, an ``output_text``'s
  ``annotations``). Only on a conversation continuation (``previous_response_id`` keeps them
  on the server);
- ``continuity-prefix``: request N's conversation, system and tools are a byte-identical
  prefix of request N+1's (Anthropic ``cache_control`` markers and Bedrock ``cachePoint``
  blocks aside: they are breakpoints, not prompt, and move by design).

What a difference costs: ``degrade`` only where the provider reads what was lost on
the next request (reasoning state it validates or carries, an answered call) or the model is
shown something else (text or arguments changed, earlier turns rewritten); ``policy`` where
nothing the model wrote is lost (the same JSON value re-serialised, whitespace at a text's ends,
instructions or tools changed from this turn on: a handoff, a tool revealed).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from harness.contract.kinds import Kind
from harness.contract.providers import wire_of
from harness.traffic.cache import cache_tokens, check_cache_prefix, flat_blocks
from harness.traffic.findings import TrafficFinding
from harness.traffic.loader import RecordedCall
from harness.traffic.replies import Reasoning, Reply
from harness.traffic.requests import Request, answers, echo, read_request, role, strings

__all__ = ["PairResult", "check_pair", "continues"]

Json = Any
_B64 = re.compile(r"^[A-Za-z0-9+/_-]+=*$")
_GEMINI_MODEL = re.compile(r"/models/([^/:]+):")
_BEDROCK_MODEL = re.compile(r"/model/([^/]+)/converse(?:-stream)?$")
#: Providers that reject a request whose tool call is not answered in the next message
#: (Bedrock: the rule ``bedrock-tool-pairing``, harness/rules/bedrock.py, with its evidence).
_PAIRING_REJECTS = ("anthropic", "bedrock", "openai-chat", "openai-responses", "openrouter")
_ASCII_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


@dataclass
class PairResult:
    """What one consecutive pair showed (all zero when request N+1 does not continue N)."""

    continuation: str = ""  # "" | "conversation" | "previous_response_id"
    #: The interaction index of response N (request N+1 is where findings point).
    previous: int = 0
    reasoning: int = 0
    reasoning_exact: int = 0
    reasoning_reencoded: int = 0
    reasoning_by_reference: int = 0
    tool_calls: int = 0
    tool_calls_answered: int = 0
    texts: int = 0
    texts_kept: int = 0
    prefixes: int = 0
    prefixes_stable: int = 0
    provider_blocks: int = 0
    provider_blocks_exact: int = 0
    #: Pairs whose first request sets a cache breakpoint, and of them those whose next request
    #: keeps the cached prefix (``harness.traffic.cache``).
    cache_prefixes: int = 0
    cache_prefixes_kept: int = 0
    findings: list[TrafficFinding] = field(default_factory=lambda: [])


def _dumps(value: Json) -> str:
    """Bytes as sent, modulo JSON parsing: key order and every character kept."""
    return json.dumps(value, ensure_ascii=False)


def _is_cache_point(value: Json) -> bool:
    """A Bedrock ``cachePoint`` block (in content, system or tools): a breakpoint like ``cache_control``."""
    return isinstance(value, dict) and set(cast(dict[str, Any], value)) == {"cachePoint"}


def _without_cache_markers(value: Json) -> Json:
    if isinstance(value, dict):
        return {
            k: _without_cache_markers(v)
            for k, v in cast(dict[str, Any], value).items()
            if k != "cache_control"
        }
    if isinstance(value, list):
        return [_without_cache_markers(v) for v in cast(list[Any], value) if not _is_cache_point(v)]
    return value


def _loose(value: Json) -> str:
    """An entry compared loosely (sorted keys, whitespace collapsed): to detect a continuation only."""
    return re.sub(r"\s+", " ", json.dumps(_without_cache_markers(value), sort_keys=True, ensure_ascii=False))


def continues(before: Request, after: Request, reply: Reply) -> str:
    """How request ``after`` continues ``before`` + ``reply`` ("" when it does not).

    A continuation extends the earlier history: the same entries in the same order, each entry the
    user or a tool gave (loosely: key order, whitespace) unchanged; the model's own entries may come
    back rewritten (what the text and prefix checks judge). Neighbours in a file that do not extend
    each other (two agents of one recording, each with its own history: google-adk's multi-agent
    test, openinference/.../test_google_adk_instrumentor_multi_agent.yaml) are two conversations."""
    if after.previous_response_id and after.previous_response_id == reply.id:
        return "previous_response_id"
    old, new = before.conversation, after.conversation
    if not old or len(new) <= len(old):
        return ""
    for a, b in zip(old, new, strict=False):
        speaker = role(before.wire, a)
        if speaker != role(after.wire, b):
            return ""
        if not _said_by_model(speaker) and _loose(_text_form(_without_cache_markers(a))) != _loose(
            _text_form(_without_cache_markers(b))
        ):
            return ""  # what the user or a tool said differs: another conversation (another agent's)
    following = new[len(old)]
    if (reply.text.strip() or reply.tool_calls) and not _said_by_model(role(after.wire, following)):
        called = {c.id for c in reply.tool_calls} | {c.name for c in reply.tool_calls}
        if not any(a.id in called or a.name in called for a in answers(after.wire, [following])):
            return ""  # the reply is neither sent back nor answered next: the history does not extend it
    return "conversation"


def _text_form(entry: Json) -> Json:
    """An entry whose content is text blocks only, with its text as one string (the two forms every
    wire takes for the same words; the prefix check reports the change of form)."""
    if not isinstance(entry, dict):
        return entry
    item: dict[str, Any] = cast(dict[str, Any], entry)
    key = "content" if "content" in item else "parts"
    raw: Any = item.get(key)
    parts: list[dict[str, Any]] = []
    for p in cast(list[Any], raw) if isinstance(raw, list) else []:
        if not isinstance(p, dict):
            return item
        parts.append(cast(dict[str, Any], p))
    if parts and all(
        isinstance(p.get("text"), str) and p.get("type", "text") in ("text", "input_text") for p in parts
    ):
        joined: dict[str, Any] = dict(item)
        joined[key] = "".join(str(p["text"]) for p in parts)
        return joined
    return item


#: Conversation entries the model produced (roles, and Responses item types without a role).
_MODEL_ROLES = frozenset({"assistant", "model", "function_call", "custom_tool_call", "reasoning"})


def _said_by_model(speaker: str) -> bool:
    """Whether an entry is the model's (its echo is judged by the text and prefix checks, not here)."""
    return speaker in _MODEL_ROLES or (speaker.endswith("_call") and not speaker.endswith("_output"))


def _decoded(text: str) -> bytes | None:
    if len(text) < 16 or not _B64.match(text):
        return None
    try:
        return base64.urlsafe_b64decode(text.replace("+", "-").replace("/", "_").rstrip("=") + "==")
    except (binascii.Error, ValueError):
        return None


def _thinking_on(thinking: Any) -> bool:
    """Whether an Anthropic ``thinking`` setting (on the Messages API, or in Bedrock's
    ``additionalModelRequestFields``) turns thinking on."""
    return isinstance(thinking, dict) and cast(dict[str, Any], thinking).get("type") in (
        "enabled",
        "adaptive",
    )


_Why = tuple[Kind, str]


def _bedrock_reasoning_kind(model: str, item: Reasoning, reply: Reply, body1: dict[str, Any]) -> _Why:
    """Claude on Bedrock keeps Anthropic's rule (thinking is switched on in
    ``additionalModelRequestFields.thinking``; AWS user guide "Extended thinking",
    https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html,
    defers to Anthropic's: thinking blocks of a tool-use turn come back with it); other
    families carry no documented rule, so a reasoning not sent back costs nothing known (``policy``)."""
    if "anthropic." in model:
        fields = body1.get("additionalModelRequestFields")
        enabled = _thinking_on(
            cast(dict[str, Any], fields).get("thinking") if isinstance(fields, dict) else None
        )
        if reply.tool_calls and enabled:
            return "reject", (
                "Claude on Bedrock validates the reasoningContent of the assistant turn a toolResult "
                "answers: it must come back unmodified with the toolUse (Anthropic's rule, 400 otherwise)"
            )
        return "policy", (
            "Claude does not require the reasoning of a completed turn (one that ended in text) to come back"
        )
    return (
        "policy",
        "no documented rule that Bedrock reads back the reasoningContent of other model families (AWS "
        "documents the rule for Claude only; DeepSeek's own API: 'the CoT from previous rounds is not "
        "concatenated into the context')",
    )


def _anthropic_reasoning_kind(model: str, item: Reasoning, reply: Reply, body1: dict[str, Any]) -> _Why:
    enabled = _thinking_on(body1.get("thinking"))
    if reply.tool_calls and enabled:
        return "reject", (
            "Anthropic validates the thinking blocks of the assistant turn a tool result answers: "
            "they must come back unmodified with the tool_use (400 otherwise, with thinking on)"
        )
    return "policy", (
        "Anthropic does not require thinking blocks of a completed turn (a turn that ended in text) "
        "to come back; older models drop them from context anyway"
    )


def _gemini_reasoning_kind(model: str, item: Reasoning, reply: Reply, body1: dict[str, Any]) -> _Why:
    if item.on_tool_call and model.startswith("gemini-3"):
        return (
            "reject",
            "Gemini 3 validates the thoughtSignature of the current turn's function calls (400)",
        )
    return "degrade", "Gemini keeps reasoning across turns only through the thoughtSignature sent back"


def _responses_reasoning_kind(model: str, item: Reasoning, reply: Reply, body1: dict[str, Any]) -> _Why:
    return (
        "degrade",
        "the Responses API carries reasoning across turns only through the reasoning item sent back",
    )


def _chat_reasoning_kind(model: str, item: Reasoning, reply: Reply, body1: dict[str, Any]) -> _Why:
    return (
        "degrade",
        "OpenRouter passes reasoning_details back to the upstream model only when they are sent back",
    )


#: What a lost reasoning unit costs, by the wire of the provider's own API (Chat: OpenRouter's
#: ``reasoning_details``, the one signed reasoning on that wire).
_REASONING_KINDS: dict[str, Callable[[str, Reasoning, Reply, dict[str, Any]], _Why]] = {
    "bedrock-converse": _bedrock_reasoning_kind,
    "anthropic": _anthropic_reasoning_kind,
    "gemini": _gemini_reasoning_kind,
    "openai-responses": _responses_reasoning_kind,
}


def _reasoning_kind(provider: str, model: str, item: Reasoning, reply: Reply, body1: dict[str, Any]) -> _Why:
    judge = _REASONING_KINDS.get(wire_of(provider), _chat_reasoning_kind)
    return judge(model, item, reply, body1)


def _check_reasoning(
    call: RecordedCall, provider: str, reply: Reply, body1: dict[str, Any], out: PairResult
) -> None:
    if not reply.reasoning:
        return
    sent = set(strings(body1))
    decoded: set[bytes] | None = None  # what the strings sent decode to, read when first needed
    path = unquote(urlsplit(call.uri).path)
    match = _GEMINI_MODEL.search(path) or _BEDROCK_MODEL.search(path)
    model = match.group(1) if match else ""
    for item in reply.reasoning:
        out.reasoning += 1
        if out.continuation == "previous_response_id":
            out.reasoning_by_reference += 1  # kept server-side with the response it names
            continue
        if item.value in sent or any(v in sent for v in item.alternates):
            out.reasoning_exact += 1
            continue
        raw = _decoded(item.value)
        if raw is not None and decoded is None:
            decoded = {d for d in (_decoded(s) for s in sent) if d is not None}
        if raw is not None and decoded is not None and raw in decoded:
            out.reasoning_reencoded += 1
            continue
        if item.ref and item.ref in sent:
            out.reasoning_by_reference += 1
            continue
        kind, why = _reasoning_kind(provider, model, item, reply, body1)
        out.findings.append(
            TrafficFinding(
                "continuity-reasoning", kind, call.file, call.index, provider, "",
                f"{item.kind} of response #{out.previous} ({len(item.value)} chars) is not sent back",
                why, call.status,
            )
        )  # fmt: skip


def _no_arguments(value: Json) -> bool:
    """A call without arguments: absent, empty, or the empty object (``{}``, the form every API takes)."""
    if value is None or value == "" or value == {}:
        return True
    return isinstance(value, str) and value.strip() == "{}"


def _same_arguments(a: Json, b: Json) -> str:
    """ "" when unchanged, else how it changed. A call the model made with no arguments (a stream
    that never sent ``arguments``) and ``{}`` are the same call."""
    if _no_arguments(a) and _no_arguments(b):
        return ""
    if isinstance(a, str) and isinstance(b, str):
        if a == b:
            return ""
        try:
            same = json.loads(a) == json.loads(b)
        except json.JSONDecodeError:
            same = False
        return "re-serialised (same JSON, different bytes)" if same else "changed"
    if _dumps(a) == _dumps(b):
        return ""
    if isinstance(a, str) != isinstance(b, str):
        try:
            parsed = json.loads(a) if isinstance(a, str) else json.loads(cast(str, b))
        except json.JSONDecodeError:
            return "changed"
        return (
            "re-serialised (same JSON, different bytes)"
            if parsed == (b if isinstance(a, str) else a)
            else "changed"
        )
    return "re-serialised (same JSON, different key order)" if a == b else "changed"


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
#: A re-serialised response (YAML ``parsed_body``) that holds ``--`` where the request sent back
#: an em dash: models__test_bedrock__test_bedrock_model_thinking_part_anthropic_legacy.yaml#0 vs #1,
#: whose request (a JSON string, ``\u2014``) shows what the client received; the YAML text and
#: pydantic-ai's own snapshot of it (tests/models/test_bedrock.py) were edited to ``--`` afterwards.
EDITED_RESPONSE = "with an em dash where the recorded response has '--'"
#: The same text but for whitespace at its ends (a client that trims, llm-anthropic's added ``" "``).
TRIMMED = "with whitespace changed at its ends only"


def _text_change(before: str, after: str, *, reserialised: bool = False) -> str:
    if before == after:
        return ""
    if not after and not before.strip():
        return ""  # a blank text is not sent back: Anthropic rejects blank text blocks, others ignore them
    if unicodedata.normalize("NFC", before) == unicodedata.normalize("NFC", after):
        return "Unicode-normalised"
    if before.strip() == after.strip():
        return TRIMMED
    if re.sub(r"\s+", "", before) == re.sub(r"\s+", "", after):
        return "whitespace rewritten"
    if before.translate(_ASCII_QUOTES) == after.translate(_ASCII_QUOTES):
        return "with typographic quotes replaced by ASCII ones"
    if reserialised and "--" in before and before.replace("--", "\u2014") == after:
        return EDITED_RESPONSE
    if "<think>" in after and _THINK.sub("", after).strip() == before.strip():
        return "with the model's reasoning added as <think> text"
    return "dropped" if not after else "changed"


def _finding(
    call: RecordedCall, provider: str, check: str, kind: Kind, message: str, why: str
) -> TrafficFinding:
    return TrafficFinding(check, kind, call.file, call.index, provider, "", message, why, call.status)


def _check_echo(
    call: RecordedCall,
    provider: str,
    reply: Reply,
    new: list[Json],
    wire: str,
    out: PairResult,
    *,
    key_order: bool,
) -> None:
    """``key_order``: whether response N's key order is the API's (not when the cassette re-serialised it)."""
    sent = echo(wire, new)
    out.texts += 1
    change = _text_change(reply.text, sent.text, reserialised=not key_order)
    if change == EDITED_RESPONSE:
        out.findings.append(
            _finding(
                call, provider, "continuity-text", "policy",
                f"the text of response #{out.previous} comes back {change}",
                "the response was stored re-serialised and its text edited after recording ('--' for an "
                "em dash); the request shows what the client received: the recording is inconsistent, "
                "not the client",
            )
        )  # fmt: skip
    elif change == TRIMMED:
        out.findings.append(
            _finding(
                call, provider, "continuity-text", "policy",
                f"the text of response #{out.previous} comes back {change} "
                f"({len(reply.text)} -> {len(sent.text)} chars)",
                "the words and their layout are the model's; only whitespace before or after them differs",
            )
        )  # fmt: skip
    elif change:
        out.findings.append(
            _finding(
                call, provider, "continuity-text", "degrade",
                f"the text of response #{out.previous} comes back {change} "
                f"({len(reply.text)} -> {len(sent.text)} chars)",
                "the model is shown words it did not write as its own",
            )
        )  # fmt: skip
    else:
        out.texts_kept += 1
    for tool in reply.tool_calls:
        if tool.id not in sent.arguments:
            out.findings.append(
                _finding(
                    call, provider, "continuity-text", "degrade",
                    f"tool call {tool.id} ({tool.name}) of response #{out.previous} is not sent back",
                    "the model loses the record of what it asked for",
                )
            )  # fmt: skip
            continue
        how = _same_arguments(tool.arguments, sent.arguments[tool.id])
        if how.endswith("different key order)") and not key_order:
            continue  # the recorded order is the cassette writer's, not the API's: no evidence either way
        if how.startswith("re-serialised"):
            out.findings.append(
                _finding(
                    call, provider, "continuity-text", "policy",
                    f"arguments of tool call {tool.id} ({tool.name}) come back {how}",
                    "the same JSON value in other bytes: every key and value the model wrote is kept",
                )
            )  # fmt: skip
        elif how:
            out.findings.append(
                _finding(
                    call, provider, "continuity-text", "degrade",
                    f"arguments of tool call {tool.id} ({tool.name}) come back {how}",
                    "the model is shown arguments it did not write",
                )
            )  # fmt: skip


def _check_answers(
    call: RecordedCall, provider: str, reply: Reply, new: list[Json], wire: str, out: PairResult
) -> None:
    given = answers(wire, new)
    # Gemini calls without an id (the client may add its own) are answered by name.
    by_name = wire == "gemini" and any(t.id.startswith("#") for t in reply.tool_calls)
    keys = [a.name if by_name else a.id for a in given]
    echoed = echo(wire, new).arguments
    order: list[int] = []
    for tool in reply.tool_calls:
        out.tool_calls += 1
        key = tool.name if by_name else tool.id
        count = keys.count(key)
        # By name, the k-th call of a name is answered by the k-th result of that name.
        calls_named = [t.name for t in reply.tool_calls].count(key) if by_name else 1
        if count == calls_named:
            out.tool_calls_answered += 1
            order.append(keys.index(key))
        elif count == 0:
            kind: Kind = "reject" if provider in _PAIRING_REJECTS and tool.id in echoed else "degrade"
            mine = {t.id for t in reply.tool_calls}
            others = sorted({k for k in keys if k not in mine})
            instead = f" (the request answers id(s) {', '.join(others)} instead)" if others else ""
            out.findings.append(
                _finding(
                    call, provider, "continuity-tool-answered", kind,
                    f"tool call {tool.id} ({tool.name}) of response #{out.previous} is not answered{instead}",
                    "an unanswered tool call is rejected by the API when the call is sent back, "
                    "and leaves the model waiting for a result when it is not",
                )
            )  # fmt: skip
        else:
            out.findings.append(
                _finding(
                    call, provider, "continuity-tool-answered", "degrade",
                    f"tool call {tool.id} ({tool.name}) is answered {count} times"
                    + (" (matched by name: Gemini sent no ids)" if by_name else ""),
                    "the model cannot tell which result belongs to its call",
                )
            )  # fmt: skip
    if order != sorted(order):
        kind = "degrade" if by_name else "policy"
        out.findings.append(
            _finding(
                call, provider, "continuity-tool-answered", kind,
                f"tool results come back in another order than the calls of response #{out.previous}",
                "without ids (Gemini) results are matched to calls by position"
                if by_name else "ids pair them, so the API accepts any order",
            )
        )  # fmt: skip


def _text_only(items: list[Any]) -> bool:
    return bool(items) and all(
        isinstance(b, dict)
        and set(cast(dict[str, Any], b)) == {"type", "text"}
        and cast(dict[str, Any], b)["type"] in ("text", "input_text")
        for b in items
    )


def _flat(value: Json) -> Json:
    """Text-only block lists as plain strings, keys sorted: the same prompt in another JSON form."""
    if isinstance(value, dict):
        return {k: _flat(v) for k, v in sorted(cast(dict[str, Any], value).items())}
    if isinstance(value, list):
        items = cast(list[Any], value)
        if _text_only(items):
            return "".join(str(cast(dict[str, Any], b)["text"]) for b in items)
        return [_flat(v) for v in items]
    return value


def _tools_change(a: Json, b: Json) -> str:
    old: list[Any] = cast(list[Any], a) if isinstance(a, list) else []
    new: list[Any] = cast(list[Any], b) if isinstance(b, list) else []
    if old and len(new) > len(old) and _dumps(new[: len(old)]) == _dumps(old):
        return f"tools (appended: {', '.join(_tool_names(new[len(old) :]))})"
    names = [_tool_names(x) for x in (old, new)]
    return f"tools ({', '.join(names[0])} -> {', '.join(names[1])})" if names[0] != names[1] else "tools"


def _tool_names(tools: list[Any]) -> list[str]:
    """Tool names on every wire (Chat nests them in ``function``, Gemini in ``functionDeclarations``,
    Bedrock in ``toolSpec``)."""
    out: list[str] = []
    for raw in tools:
        tool = _as_dict(raw)
        declarations = tool.get("functionDeclarations") or tool.get("function_declarations")
        if isinstance(declarations, list):
            out += [str(_as_dict(d).get("name", "?")) for d in cast(list[Any], declarations)]
        else:
            nested = _as_dict(tool.get("function") or tool.get("toolSpec"))
            out.append(str(tool.get("name") or nested.get("name") or tool.get("type") or "?"))
    return out


def _as_dict(value: Json) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _check_prefix(
    call: RecordedCall, provider: str, before: Request, after: Request, out: PairResult
) -> None:
    out.prefixes += 1
    moved: list[str] = []
    reformed: list[str] = []
    pairs = [("system", before.system, after.system), ("tools", before.tools, after.tools)]
    pairs += [
        (f"conversation entry {i}", a, b)
        for i, (a, b) in enumerate(zip(before.conversation, after.conversation, strict=False))
    ]
    for name, a, b in pairs:
        a, b = _without_cache_markers(a), _without_cache_markers(b)
        if _dumps(a) == _dumps(b):
            continue
        if _dumps(_flat(a)) == _dumps(_flat(b)):
            reformed.append(name)  # e.g. a text block turned into a string, or keys reordered
        else:
            moved.append(_tools_change(a, b) if name == "tools" else name)
    history = [m for m in moved if m.startswith("conversation entry")]
    if history:
        out.findings.append(
            _finding(
                call, provider, "continuity-prefix", "degrade",
                f"request #{out.previous} is not a byte-identical prefix: {', '.join(moved)} changed",
                "an earlier turn comes back changed: the model is shown a conversation that did not "
                "happen (and the provider's prompt cache is invalidated)",
            )
        )  # fmt: skip
    elif moved:
        out.findings.append(
            _finding(
                call, provider, "continuity-prefix", "policy",
                f"request #{out.previous} is not a byte-identical prefix: {', '.join(moved)} changed",
                "the client offers other instructions or tools from this turn on (an agent handoff, tools "
                "withdrawn): nothing of the conversation is lost; the provider's prompt cache is invalidated",
            )
        )  # fmt: skip
    elif reformed:
        out.findings.append(
            _finding(
                call, provider, "continuity-prefix", "policy",
                f"request #{out.previous} comes back in another form: {', '.join(reformed)} "
                "(same text: text blocks <-> plain string, or keys in another order)",
                "the same text in another JSON form; whether the provider's cache treats both alike is not documented",
            )
        )  # fmt: skip
    else:
        out.prefixes_stable += 1


def _objects(value: Json) -> list[dict[str, Any]]:
    """Every JSON object of ``value``."""
    found: list[dict[str, Any]] = []
    stack: list[Json] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            obj = cast(dict[str, Any], item)
            found.append(obj)
            stack.extend(obj.values())
        elif isinstance(item, list):
            stack.extend(cast(list[Any], item))
    return found


#: Fields of a Responses item that name it rather than say anything (a stateless client may
#: leave them out: traffic/pydantic-ai/test_tool_search__test_openai_hosted_tool_search_stateless_continuation_without_item_ids.yaml#1, accepted).
_REFERENCES = frozenset({"id", "status"})


def _covers(sent: Json, given: Json, top: bool = True) -> bool:
    """``sent`` keeps every non-null value of ``given`` (it may add fields or fill a null one, and
    leave out the item's own id and status)."""
    if isinstance(given, dict):
        if not isinstance(sent, dict):
            return False
        out = cast(dict[str, Any], sent)
        return all(
            v is None or (top and k in _REFERENCES) or (k in out and _covers(out[k], v, False))
            for k, v in cast(dict[str, Any], given).items()
        )
    if isinstance(given, list):
        items, want = cast(list[Any], sent) if isinstance(sent, list) else None, cast(list[Any], given)
        return (
            items is not None
            and len(items) == len(want)
            and all(_covers(a, b, False) for a, b in zip(items, want, strict=False))
        )
    return sent == given


def _check_provider_blocks(
    call: RecordedCall, provider: str, reply: Reply, body1: dict[str, Any], out: PairResult
) -> None:
    """Server tool blocks and citations of response N back in request N+1, as sent.

    ``degrade``: a value the provider wrote in a block or citation is missing or changed (its
    search results, code output or attribution are gone from the conversation). ``policy``:
    every value kept, the client only leaving out null fields or filling them (pydantic-ai
    fills a null ``call_id`` with the item id): nothing the provider wrote is lost."""
    if not reply.server_blocks and not reply.citations:
        return
    objects = _objects(body1)
    exact = {json.dumps(o, sort_keys=True, ensure_ascii=False) for o in objects}
    for check, values in (
        ("continuity-server-tools", reply.server_blocks),
        ("continuity-citations", reply.citations),
    ):
        for value in values:
            out.provider_blocks += 1
            if json.dumps(value, sort_keys=True, ensure_ascii=False) in exact:
                out.provider_blocks_exact += 1
                continue
            what = str(value.get("type") or next(iter(value), "block"))
            kept = any(_covers(o, value) for o in objects if o.get("type") == value.get("type"))
            kind: Kind = "policy" if kept else "degrade"
            message = (
                f"response #{out.previous}'s {what} comes back with every value kept, not byte-exact"
                if kept
                else f"response #{out.previous}'s {what} is not sent back as the provider sent it"
            )
            why = (
                "nothing the provider wrote is lost (null fields left out or filled, the item's id or status left out)"
                if kept
                else "the provider's own result or attribution is gone from the conversation"
            )
            out.findings.append(_finding(call, provider, check, kind, message, why))


def check_pair(
    provider: str,
    wire: str,
    first: tuple[RecordedCall, dict[str, Any]],
    reply: Reply,
    second: tuple[RecordedCall, dict[str, Any]],
) -> PairResult:
    """The continuity checks on one consecutive pair (nothing when the second does not continue the first)."""
    (_, body0), (call1, body1) = first, second
    before, after = read_request(wire, body0), read_request(wire, body1)
    out = PairResult(continuation=continues(before, after, reply), previous=first[0].index)
    if not out.continuation:
        return out
    new = (
        after.conversation
        if out.continuation == "previous_response_id"
        else after.conversation[len(before.conversation) :]
    )
    if out.continuation == "previous_response_id" and body0.get("store") is False:
        out.findings.append(
            _finding(
                call1, provider, "continuity-stored", "reject",
                f"previous_response_id names response #{out.previous}, which was created with store: false",
                "an unstored response cannot be continued by reference: the API answers 'Previous "
                "response with id ... not found' (field lesson 5, vercel/ai 7543); send the history "
                "with encrypted reasoning instead, or store the response",
            )
        )  # fmt: skip
    _check_reasoning(call1, provider, reply, body1, out)
    _check_answers(call1, provider, reply, new, wire, out)
    if out.continuation == "conversation":
        _check_provider_blocks(call1, provider, reply, body1, out)
        _check_echo(call1, provider, reply, new, wire, out, key_order=not first[0].response_reserialised)
        _check_prefix(call1, provider, before, after, out)
        if flat_blocks(wire, body0)[1] is not None:
            out.cache_prefixes += 1
            usage = (cache_tokens(first[0].response), cache_tokens(call1.response))
            found = check_cache_prefix(call1, provider, wire, out.previous, (body0, body1), usage)
            if found is None:
                out.cache_prefixes_kept += 1
            else:
                out.findings.append(found)
    return out

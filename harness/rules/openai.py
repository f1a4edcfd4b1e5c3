"""OpenAI Chat Completions (and OpenRouter's copy of it) and Responses API pairing rules."""

from __future__ import annotations

from typing import Any

from harness.contract.providers import CHAT_DIALECTS
from harness.rules.base import Rule, RuleFinding, as_dict, as_list

__all__ = ["CHAT_RULES", "RESPONSES_RULES"]

_CHAT = ("openai-chat", "openrouter", *CHAT_DIALECTS)  # the dialects keep Chat's pairing rules
_RESPONSES = ("openai-responses",)
_MAX_CALL_ID = 64


def _messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [as_dict(m) for m in as_list(body.get("messages"))]


def _call_ids(message: dict[str, Any]) -> list[str]:
    return [i for c in as_list(message.get("tool_calls")) if isinstance(i := as_dict(c).get("id"), str)]


def _tool_calls_answered(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    msgs = _messages(body)
    for i, msg in enumerate(msgs):
        if msg.get("role") != "assistant" or not (ids := _call_ids(msg)):
            continue
        answered: set[str] = set()
        k = i + 1
        while k < len(msgs) and msgs[k].get("role") == "tool":
            if isinstance(tid := msgs[k].get("tool_call_id"), str):
                answered.add(tid)
            k += 1
        if k == len(msgs) and k == i + 1:
            continue  # the request ends on the calls: nothing follows them yet
        if missing := [t for t in ids if t not in answered]:
            out.append(
                TOOL_CALLS_ANSWERED.finding(
                    f"messages/{i}",
                    "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                    f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(missing)}",
                    {"role": "assistant", "tool_calls": [{"id": missing[0]}]},
                    "the API answers 400; every call needs its result before the conversation moves on",
                )
            )
    return out


TOOL_CALLS_ANSWERED = Rule(
    "chat-tool-calls-answered",
    _CHAT,
    "reject",
    "every assistant `tool_calls` id is answered by a `tool` message before the next non-tool message",
    (
        "https://github.com/langgenius/dify/issues/32222 and https://github.com/aliasrobotics/cai/issues/111 "
        "(API error text)",
        "https://platform.openai.com/docs/guides/function-calling",
    ),
    _tool_calls_answered,
)


def _tool_message_has_call(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    open_ids: set[str] | None = None  # the calls of the assistant message the current tool run answers
    for i, msg in enumerate(_messages(body)):
        role = msg.get("role")
        if role == "tool":
            tid = msg.get("tool_call_id")
            if open_ids is None or (isinstance(tid, str) and tid not in open_ids):
                out.append(
                    TOOL_MESSAGE_HAS_CALL.finding(
                        f"messages/{i}",
                        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
                        "with 'tool_calls'.",
                        {"role": "tool", "tool_call_id": tid},
                        "the API answers 400; an orphan result usually means history was trimmed mid-pair",
                    )
                )
            continue
        open_ids = set(_call_ids(msg)) if role == "assistant" and _call_ids(msg) else None
    return out


TOOL_MESSAGE_HAS_CALL = Rule(
    "chat-tool-message-has-call",
    _CHAT,
    "reject",
    "a `tool` message answers a call of the assistant message right before its run of tool messages",
    (
        "https://github.com/smarter-sh/smarter/issues/264 and https://github.com/miurla/morphic/issues/136 "
        "(API error text)",
    ),
    _tool_message_has_call,
)

_CALLS = {"function_call": "function_call_output", "custom_tool_call": "custom_tool_call_output"}
_OUTPUTS = {v: k for k, v in _CALLS.items()}


def _items(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [as_dict(x) for x in as_list(body.get("input"))]


def _output_has_call(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    if body.get("previous_response_id") or body.get("conversation"):
        return []  # the call may live in the stored response
    out: list[RuleFinding] = []
    calls: set[str] = set()
    for i, item in enumerate(_items(body)):
        kind, cid = item.get("type"), item.get("call_id")
        if isinstance(kind, str) and not kind.endswith("_output") and isinstance(cid, str):
            calls.add(cid)  # function_call, custom_tool_call, tool_search_call, ... (accepted in traffic)
        elif kind in _OUTPUTS and isinstance(cid, str) and cid not in calls:
            out.append(
                OUTPUT_HAS_CALL.finding(
                    f"input/{i}",
                    f"No tool call found for function call output with call_id {cid}.",
                    {"type": kind, "call_id": cid},
                    "the API answers 400; send the call item (or previous_response_id) with its output",
                )
            )
    return out


OUTPUT_HAS_CALL = Rule(
    "responses-output-has-call",
    _RESPONSES,
    "reject",
    "a `function_call_output` follows a `function_call` with the same `call_id` in `input`",
    (
        "https://github.com/vercel/ai/issues/8216 and https://github.com/continuedev/continue/issues/10092 "
        "(API error text)",
    ),
    _output_has_call,
)


def _call_id_length(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    return [
        CALL_ID_LENGTH.finding(
            f"input/{i}/call_id",
            f"Invalid 'input[{i}].call_id': string too long. Expected a string with maximum length "
            f"{_MAX_CALL_ID}, but got a string with length {len(cid)} instead.",
            {"type": item.get("type"), "call_id": cid},
            "ids minted by another provider can exceed 64 characters; map them consistently",
        )
        for i, item in enumerate(_items(body))
        if (item.get("type") in _CALLS or item.get("type") in _OUTPUTS)
        and isinstance(cid := item.get("call_id"), str)
        and len(cid) > _MAX_CALL_ID
    ]


CALL_ID_LENGTH = Rule(
    "responses-call-id-length",
    _RESPONSES,
    "reject",
    "`call_id` of call and output items is at most 64 characters",
    ("https://github.com/AnswerDotAI/fastllm/issues/45 (API error text, code string_above_max_length)",),
    _call_id_length,
)


def _reasoning_followed(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    if body.get("store") is False:
        # The evidence (a recorded 400) is a stored conversation, where the API looks the
        # reasoning item up by id and expects its sibling; with ``store: false`` no request
        # in the calibration set shows the rule, so no reject is claimed there.
        return out
    items = _items(body)
    for i, item in enumerate(items):
        rid = item.get("id")
        if item.get("type") != "reasoning" or not isinstance(rid, str):
            continue
        nxt = items[i + 1] if i + 1 < len(items) else {}
        if not nxt.get("id"):  # the item produced with it, replayed by id; a re-typed message is not it
            out.append(
                REASONING_FOLLOWED.finding(
                    f"input/{i}",
                    f"Item '{rid}' of type 'reasoning' was provided without its required following item.",
                    {
                        "type": "reasoning",
                        "id": rid,
                        "next": {k: nxt.get(k) for k in ("type", "role", "id") if k in nxt},
                    },
                    "the API answers 400; replay the output item that came with the reasoning, with its id",
                )
            )
    return out


REASONING_FOLLOWED = Rule(
    "responses-reasoning-followed",
    _RESPONSES,
    "reject",
    "a replayed `reasoning` item (with id) is immediately followed by the output item it came with (by id); "
    "stored conversations (`store` not false) only",
    (
        "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml#1 "
        "(rejected: reasoning followed by an id-less assistant message)",
    ),
    _reasoning_followed,
)


def _empty_arrays(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    if body.get("tools") == []:
        out.append(
            EMPTY_ARRAYS.finding(
                "tools",
                "Invalid 'tools': empty array. Expected an array with minimum length 1, "
                "but got an empty array instead.",
                {"tools": []},
                "the API answers 400 for the whole request: leave `tools` out when there are none",
            )
        )
    for i, msg in enumerate(_messages(body)):
        if msg.get("role") == "assistant" and msg.get("tool_calls") == []:
            out.append(
                EMPTY_ARRAYS.finding(
                    f"messages/{i}/tool_calls",
                    f"Invalid 'messages[{i}].tool_calls': empty array. Expected an array with minimum "
                    "length 1, but got an empty array instead.",
                    {"role": "assistant", "tool_calls": []},
                    "the API answers 400 for the whole request: leave `tool_calls` out of a message without calls",
                )
            )
    return out


EMPTY_ARRAYS = Rule(
    "chat-no-empty-arrays",
    ("openai-chat",),
    "reject",
    "`tools` and an assistant message's `tool_calls` are absent or non-empty, never `[]` (api.openai.com)",
    (
        "https://github.com/continuedev/continue/issues/3370 (gpt-4o on api.openai.com: \"Invalid 'tools': "
        'empty array. Expected an array with minimum length 1, but got an empty array instead")',
        "https://github.com/dnakov/anon-kode/issues/20 (\"API Error: 400 Invalid 'tools': empty array. "
        'Expected an array with minimum length 1, but got an empty array instead.")',
        'https://github.com/vllm-project/vllm/pull/39780 ("OpenAI returns 400 with error code `empty_array`")',
        "https://github.com/openai/openai-node/pull/1341 (\"400 Invalid 'messages[1].tool_calls': empty array. "
        'Expected an array with minimum length 1")',
        "api.openai.com only: the OpenAPI spec states no minItems, and OpenAI-compatible hosts accept `tools: []` "
        "(router.huggingface.co, 7 accepted requests in traffic/pydantic-ai-more/models__test_huggingface__*). "
        "Not marked for OpenRouter, Responses, Anthropic or Gemini: no recorded or reported 400 found",
    ),
    _empty_arrays,
    hosts=("api.openai.com",),
)

CHAT_RULES: tuple[Rule, ...] = (TOOL_CALLS_ANSWERED, TOOL_MESSAGE_HAS_CALL, EMPTY_ARRAYS)
RESPONSES_RULES: tuple[Rule, ...] = (OUTPUT_HAS_CALL, CALL_ID_LENGTH, REASONING_FOLLOWED)

"""Hard rules of the OpenAI-compatible Chat Completions dialects, each with its evidence.

The rules Chat Completions itself has (pairing of calls and results) apply to every dialect
too (``harness.rules.openai``); these are what a dialect adds. Sources and the recordings
each rule was calibrated on: docs/field-rules.md, "OpenAI-compatible dialects".
"""

from __future__ import annotations

import re
from typing import Any

from harness.rules.base import Rule, RuleFinding, as_dict, as_list

__all__ = ["DIALECT_RULES"]

_MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")


def _messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [as_dict(m) for m in as_list(body.get("messages"))]


def _mistral_ids(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    for i, msg in enumerate(_messages(body)):
        sites = [
            (f"messages/{i}/tool_calls/{j}/id", as_dict(c).get("id"))
            for j, c in enumerate(as_list(msg.get("tool_calls")))
        ]
        if msg.get("role") == "tool":
            sites.append((f"messages/{i}/tool_call_id", msg.get("tool_call_id")))
        for path, value in sites:
            if isinstance(value, str) and _MISTRAL_ID.fullmatch(value) is None:
                out.append(
                    MISTRAL_TOOL_CALL_ID.finding(
                        path,
                        f"Tool call id was {value} but must be a-z, A-Z, 0-9, with a length of 9.",
                        {"id": value},
                        "Mistral answers 400; ids minted by another provider must be renumbered, the same way "
                        "in the call and its result",
                    )
                )
    return out


MISTRAL_TOOL_CALL_ID = Rule(
    "mistral-tool-call-id",
    ("mistral",),
    "reject",
    "every tool call id and tool_call_id is exactly 9 characters from [a-zA-Z0-9]",
    (
        "HTTP 400 'Tool call id was abc123 but must be a-z, A-Z, 0-9, with a length of 9.' "
        "(https://github.com/langchain-ai/langchain/pull/24668, https://github.com/openclaw/openclaw/issues/57672, "
        "https://github.com/jackmpcollins/magentic/issues/276)",
        "every id Mistral minted in traffic/pydantic-ai-more/ (api.mistral.ai, 37 calls) is 9 such characters",
    ),
    _mistral_ids,
)

_GROQ_REFUSED = ("logprobs", "logit_bias", "top_logprobs")


def _groq_refused(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    why = "Groq answers 400 for fields it does not support (docs: OpenAI compatibility)"
    out = [
        GROQ_REFUSED_FIELDS.finding(key, f"`{key}` is not supported by Groq", {key: body[key]}, why)
        for key in _GROQ_REFUSED
        if key in body and body[key] not in (None, False)
    ]
    if "n" in body and body["n"] != 1:
        out.append(GROQ_REFUSED_FIELDS.finding("n", "`n` must be 1 on Groq", {"n": body["n"]}, why))
    for i, msg in enumerate(_messages(body)):
        if "name" in msg:
            out.append(
                GROQ_REFUSED_FIELDS.finding(
                    f"messages/{i}/name",
                    "`messages[].name` is not supported by Groq",
                    {"name": msg["name"]},
                    why,
                )
            )
    return out


GROQ_REFUSED_FIELDS = Rule(
    "groq-refused-fields",
    ("groq",),
    "reject",
    "no logprobs, logit_bias, top_logprobs or messages[].name, and n only 1",
    (
        "https://console.groq.com/docs/openai ('The following fields are currently not supported and will "
        "result in a 400 error if they are supplied: logprobs, logit_bias, top_logprobs, messages[].name; "
        "if N is supplied, it must be equal to 1')",
    ),
    _groq_refused,
)


def _groq_raw_format(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    tools = bool(as_list(body.get("tools")))
    json_mode = as_dict(body.get("response_format")).get("type") in ("json_object", "json_schema")
    if body.get("reasoning_format") == "raw" and (tools or json_mode):
        return [
            GROQ_RAW_REASONING.finding(
                "reasoning_format",
                "reasoning_format 'raw' is not supported with tool use or JSON mode",
                {"reasoning_format": "raw"},
                "Groq answers 400; use 'parsed' or 'hidden'",
            )
        ]
    return []


GROQ_RAW_REASONING = Rule(
    "groq-raw-reasoning-with-tools",
    ("groq",),
    "reject",
    "reasoning_format 'raw' is refused together with tools or JSON mode",
    (
        "https://console.groq.com/docs/reasoning ('If reasoning is explicitly set to raw with JSON mode or "
        "tool use enabled, we will return a 400 error')",
    ),
    _groq_raw_format,
)


def _current_loop(messages: list[dict[str, Any]]) -> list[int]:
    """Indexes of the assistant messages after the last user message, when one of them called a
    tool: the tool loop of the turn being answered."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    span = [i for i in range(last_user + 1, len(messages)) if messages[i].get("role") == "assistant"]
    return span if any(as_list(messages[i].get("tool_calls")) for i in span) else []


def _deepseek_thinks(body: dict[str, Any], model: str | None) -> bool:
    """Thinking mode: ``deepseek-reasoner`` by name; else the ``thinking`` switch; else the model's
    default (on, except ``deepseek-chat``; guides/thinking_mode "The thinking toggle defaults to enabled")."""
    if model is None:
        return False
    if model == "deepseek-reasoner":
        return True
    switch = as_dict(body.get("thinking")).get("type")
    if switch in ("enabled", "disabled"):
        return switch == "enabled"
    return model != "deepseek-chat"


def _deepseek_loop(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    if not _deepseek_thinks(body, model):
        return []
    messages = _messages(body)
    return [
        DEEPSEEK_TOOL_LOOP_REASONING.finding(
            f"messages/{i}",
            f"Missing reasoning_content field in the assistant message at message index {i}",
            {"role": "assistant", "tool_calls": "..."},
            "DeepSeek answers 400 when the current turn's tool loop lacks its reasoning_content",
        )
        for i in _current_loop(messages)
        if "reasoning_content" not in messages[i]
    ]


DEEPSEEK_TOOL_LOOP_REASONING = Rule(
    "deepseek-tool-loop-reasoning",
    ("deepseek",),
    "reject",
    "in thinking mode every assistant message of the current turn's tool loop carries its reasoning_content",
    (
        "https://api-docs.deepseek.com/guides/thinking_mode ('Between two user messages, if the model performed a "
        "tool call, the intermediate assistant's reasoning_content must participate in the context concatenation "
        "and must be passed back ... the API will return a 400 error')",
        "HTTP 400 'Missing reasoning_content field in the assistant message at message index 2' on deepseek-reasoner "
        "and on deepseek-chat with thinking enabled (zed-industries/zed#44301, anomalyco/opencode#9397, #24722)",
        "Scope, the current turn only: pydantic-ai's recorded requests (test_deepseek_auto_mode_thinking_backfill, "
        "cited in pydantic_ai/models/openai/_chat_model.py lines 1181-1185) show DeepSeek rejecting a current-turn "
        "tool call without it and accepting an earlier-turn one; an earlier turn's omission is not judged a reject",
    ),
    _deepseek_loop,
)

#: Kimi models that think by default (K2 Thinking; K2.5 and later unless thinking is disabled).
_KIMI_THINKING = re.compile(r"kimi-k2(-thinking|[.-]?[5-9])", re.IGNORECASE)


#: Where a host takes the assistant's reasoning back: Groq documents ``reasoning`` on the
#: assistant message (groq SDK types/chat/chat_completion_assistant_message_param.py) and its
#: SDK refuses ``reasoning_content``; Moonshot's own API and the other hosts use ``reasoning_content``.
_KIMI_FIELDS = {"groq": ("reasoning", "reasoning_content")}


def _kimi(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    if model is None or _KIMI_THINKING.search(model) is None:
        return []
    fields = _KIMI_FIELDS.get(provider, ("reasoning_content",))
    if as_dict(body.get("thinking")).get("type") == "disabled":
        return []
    return [
        KIMI_TOOL_CALL_REASONING.finding(
            f"messages/{i}",
            f"thinking is enabled but reasoning_content is missing in assistant tool call message at index {i}",
            {"role": "assistant", "tool_calls": "..."},
            "Moonshot's Kimi answers 400; send the turn's reasoning_content back (empty if none was kept)",
        )
        for i, msg in enumerate(_messages(body))
        if msg.get("role") == "assistant"
        and as_list(msg.get("tool_calls"))
        and not any(field in msg for field in fields)
    ]


KIMI_TOOL_CALL_REASONING = Rule(
    "kimi-tool-call-reasoning",
    ("groq", "huggingface"),
    "reject",
    "with thinking on, a Kimi K2 assistant tool-call message carries reasoning_content",
    (
        "HTTP 400 'thinking is enabled but reasoning_content is missing in assistant tool call message at index N' "
        "(https://github.com/continuedev/continue/issues/11527, https://github.com/MoonshotAI/kimi-agent-sdk/issues/169, "
        "https://github.com/bytedance/deer-flow/issues/3043)",
    ),
    _kimi,
)


def _items(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [as_dict(i) for i in as_list(body.get("input"))]


def _deepseek_interleaved(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    pending: dict[str, int] = {}
    for i, item in enumerate(_items(body)):
        kind = item.get("type")
        if kind == "function_call" and isinstance(cid := item.get("call_id"), str):
            pending.setdefault(cid, i)
        elif kind == "function_call_output":
            pending.pop(str(item.get("call_id")), None)
        elif pending:
            cid, at = next(iter(pending.items()))
            out.append(
                DEEPSEEK_RESPONSES_INTERLEAVED.finding(
                    f"input/{at}",
                    f"No tool output found for tool call {cid}.",
                    {"call_id": cid, "type": "function_call"},
                    "DeepSeek's Responses endpoint needs a call's output before the next message item",
                )
            )
            pending.clear()
    return out


DEEPSEEK_RESPONSES_INTERLEAVED = Rule(
    "deepseek-responses-output-before-message",
    ("deepseek:openai-responses",),
    "reject",
    "on DeepSeek's Responses endpoint a function_call's output comes before the next message item",
    (
        "traffic/pydantic-ai-more/models__test_deepseek_responses__test_deepseek_responses_rejects_interleaved_"
        "function_calls.yaml#0 (400 'No tool output found for tool call call-a.'); the same items with the "
        "messages first are accepted: ..._replay_interleaved_settled_function_calls.yaml#0",
    ),
    _deepseek_interleaved,
)

DIALECT_RULES: tuple[Rule, ...] = (
    MISTRAL_TOOL_CALL_ID,
    GROQ_REFUSED_FIELDS,
    GROQ_RAW_REASONING,
    DEEPSEEK_TOOL_LOOP_REASONING,
    KIMI_TOOL_CALL_REASONING,
    DEEPSEEK_RESPONSES_INTERLEAVED,
)

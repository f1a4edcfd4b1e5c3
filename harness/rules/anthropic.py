"""Anthropic Messages API hard rules that its schema cannot express (pairing, uniqueness, content).

Not a rule: a ``system`` role inside ``messages``. The API accepts a mid-conversation system
message (traffic/pydantic-ai/models__test_anthropic_mid_conversation_system__*.yaml), so a
check that refused one would fail requests the API takes.
"""

from __future__ import annotations

import re
from typing import Any

from harness.rules.base import Rule, RuleFinding, as_dict, as_list, blocks

__all__ = ["ANTHROPIC_RULES"]

_ID = re.compile(r"[a-zA-Z0-9_-]+")
_IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
_A = ("anthropic",)


def _messages(body: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(i, m) for i, m in enumerate(as_list(body.get("messages"))) if isinstance(m, dict)]


Block = tuple[str, dict[str, Any]]  # (path, block)


def _turns(body: dict[str, Any]) -> list[tuple[str, list[Block]]]:
    """Messages with consecutive same-role ones merged, as the API does before pairing
    (docs.anthropic.com/en/api/messages: "consecutive user or assistant turns ... will be
    combined into a single turn"); accepted in traffic, e.g. two assistant messages whose
    tool_use blocks are answered together by the next user message."""
    turns: list[tuple[str, list[Block]]] = []
    for i, msg in _messages(body):
        role = str(msg.get("role", ""))
        found = [(f"messages/{i}/content/{j}", b) for j, b in blocks(msg)]
        if turns and turns[-1][0] == role:
            turns[-1][1].extend(found)
        else:
            turns.append((role, found))
    return turns


def _ids(turn: list[Block], kind: str, key: str) -> list[tuple[str, str]]:
    return [(p, b[key]) for p, b in turn if b.get("type") == kind and isinstance(b.get(key), str)]


def _msg(path: str) -> str:
    """``messages/3/content/1`` -> ``messages.3`` (the API's way of naming a place)."""
    return ".".join(path.split("/")[:2])


def _tool_use_answered(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    turns = _turns(body)
    for k, (role, turn) in enumerate(turns):
        if role != "assistant" or k + 1 >= len(turns):
            continue  # the last assistant turn is a prefill: nothing answers it yet
        uses = _ids(turn, "tool_use", "id")
        nrole, nxt = turns[k + 1]
        answered = (
            {tid for _, tid in _ids(nxt, "tool_result", "tool_use_id")} if nrole == "user" else set[str]()
        )
        if missing := [(p, tid) for p, tid in uses if tid not in answered]:
            path = missing[0][0]
            out.append(
                TOOL_USE_ANSWERED.finding(
                    "/".join(path.split("/")[:2]),
                    f"{_msg(path)}: `tool_use` ids were found without `tool_result` blocks immediately after: "
                    f"{', '.join(t for _, t in missing)}. Each `tool_use` block must have a corresponding "
                    "`tool_result` block in the next message.",
                    {"role": "assistant", "content": [{"type": "tool_use", "id": missing[0][1]}]},
                    "the API answers 400; the call never reaches the model",
                )
            )
    return out


TOOL_USE_ANSWERED = Rule(
    "anthropic-tool-use-answered",
    _A,
    "reject",
    "every client `tool_use` is answered by a `tool_result` in the very next user turn",
    (
        "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use (tool results "
        "must immediately follow their tool use requests)",
        "https://github.com/anthropics/claude-code/issues/8210 (API error text)",
    ),
    _tool_use_answered,
)


def _tool_result_has_use(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    turns = _turns(body)
    for k, (role, turn) in enumerate(turns):
        if role != "user":
            continue
        prole, prev = turns[k - 1] if k > 0 else ("", [])
        used = {tid for _, tid in _ids(prev, "tool_use", "id")} if prole == "assistant" else set[str]()
        for path, tid in _ids(turn, "tool_result", "tool_use_id"):
            if tid not in used:
                out.append(
                    TOOL_RESULT_HAS_USE.finding(
                        path,
                        f"{path.replace('/', '.')}: unexpected `tool_use_id` found in `tool_result` blocks: {tid}. "
                        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
                        {"type": "tool_result", "tool_use_id": tid},
                        "the API answers 400; an orphan result usually means history was trimmed mid-pair",
                    )
                )
    return out


TOOL_RESULT_HAS_USE = Rule(
    "anthropic-tool-result-has-use",
    _A,
    "reject",
    "every `tool_result` answers a `tool_use` of the immediately preceding assistant turn",
    (
        "https://github.com/anthropics/claude-code/issues/13460 (API error text)",
        "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
    ),
    _tool_result_has_use,
)


def _tool_use_ids(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    for _, turn in _turns(body):
        seen: set[str] = set()  # per turn: reuse across turns was accepted (see evidence)
        for path, tid in _ids(turn, "tool_use", "id"):
            if tid in seen:
                out.append(
                    TOOL_USE_IDS.finding(
                        f"{path}/id",
                        f"{path.replace('/', '.')}: `tool_use` ids must be unique",
                        {"type": "tool_use", "id": tid},
                        "the API answers 400; results could not be told apart",
                    )
                )
            elif _ID.fullmatch(tid) is None:
                out.append(
                    TOOL_USE_IDS.finding(
                        f"{path}/id",
                        f"tool_use id {tid!r} must match ^[a-zA-Z0-9_-]+$",
                        {"type": "tool_use", "id": tid},
                        "ids from another provider (with dots, colons) are rejected",
                    )
                )
            seen.add(tid)
    return out


TOOL_USE_IDS = Rule(
    "anthropic-tool-use-ids",
    _A,
    "reject",
    "`tool_use` ids are unique within an assistant turn and match ^[a-zA-Z0-9_-]+$",
    (
        "https://github.com/anthropics/claude-code/issues/20901 ('messages.1.content.1: `tool_use` ids must "
        "be unique': a duplicate inside one message)",
        "harness/oracles/specs/anthropic-openapi.json (RequestToolResultBlock.tool_use_id pattern ^[a-zA-Z0-9_-]+$)",
        "accepted with one id reused in two different turns: traffic/pydantic-ai/test_tool_search__"
        "test_cross_provider_capability_replay[google-gemini-3-flash-preview-anthropic-claude-sonnet-4-5].yaml#3",
    ),
    _tool_use_ids,
)


def _texts(content: Any, path: str) -> list[tuple[str, str, bool]]:
    """(path, text, alone) of text blocks in a content list, also inside tool_result content; ``alone``:
    no other block of the same list carries anything (a non-blank text, or any block not a text)."""
    out: list[tuple[str, str, bool]] = []
    items = [as_dict(raw) for raw in as_list(content)]
    carried = [b.get("type") != "text" or str(b.get("text", "")).strip() != "" for b in items]
    for j, block in enumerate(items):
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            alone = not any(c for k, c in enumerate(carried) if k != j)
            out.append((f"{path}/{j}/text", block["text"], alone))
        elif block.get("type") == "tool_result":
            out += _texts(block.get("content"), f"{path}/{j}/content")
    return out


def _non_blank_text(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    """An empty text block is refused anywhere; a whitespace-only one when nothing else in its list
    carries content (LibreChat-AI/agents#124 probed the API: ``[text:' ']`` alone refused,
    ``[text:' ', text:'real']`` accepted; llm-anthropic sent ``[text:' ', tool_use, tool_use]``,
    answered 200: traffic/clients2/simonw-llm/llm-anthropic/tests/cassettes/test_anthropic/test_tools.yaml#1)."""
    found: list[tuple[str, str, bool]] = []
    for i, msg in _messages(body):
        found += _texts(msg.get("content"), f"messages/{i}/content")
    found += _texts(body.get("system"), "system")
    return [
        NON_BLANK_TEXT.finding(
            path,
            "text content blocks must be non-empty"
            if not text
            else "text content blocks must contain non-whitespace text",
            {"type": "text", "text": text},
            "the API answers 400; drop the block instead of sending it empty",
        )
        for path, text, alone in found
        if not text or (alone and not text.strip())
    ]


NON_BLANK_TEXT = Rule(
    "anthropic-non-blank-text",
    _A,
    "reject",
    "text blocks (messages, tool_result content, system) are not empty, nor whitespace-only with nothing beside them",
    (
        "https://github.com/anthropics/claude-code/issues/23440 ('messages: text content blocks must "
        "contain non-whitespace text')",
        "https://github.com/LibreChat-AI/agents/pull/124 (the API probed: '' refused anywhere, ' ' refused "
        "alone, accepted beside a non-blank text)",
        "traffic/clients2/simonw-llm/llm-anthropic/tests/cassettes/test_anthropic/test_tools.yaml#1 (' ' beside "
        "two tool_use blocks, answered 200)",
    ),
    _non_blank_text,
)


def _error_result_content(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    for i, msg in _messages(body):
        for j, block in blocks(msg):
            if block.get("type") != "tool_result" or block.get("is_error") is not True:
                continue
            content = block.get("content")
            if content is None or content == "" or content == []:
                out.append(
                    ERROR_RESULT_CONTENT.finding(
                        f"messages/{i}/content/{j}",
                        f"messages.{i}.content.{j}.tool_result: content cannot be empty if `is_error` is true",
                        {"type": "tool_result", "is_error": True, "content": content},
                        "the API answers 400; say what failed, the model needs it to recover",
                    )
                )
    return out


ERROR_RESULT_CONTENT = Rule(
    "anthropic-error-result-content",
    _A,
    "reject",
    "a `tool_result` with `is_error: true` has non-empty content",
    (
        "https://github.com/anthropics/claude-agent-sdk-python/issues/248 ('messages.2.content.0.tool_result: "
        "content cannot be empty if `is_error` is true')",
    ),
    _error_result_content,
)


def _image_sources(content: Any, path: str) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for j, raw in enumerate(as_list(content)):
        block = as_dict(raw)
        if block.get("type") == "image":
            out.append((f"{path}/{j}/source/media_type", as_dict(block.get("source"))))
        elif block.get("type") == "tool_result":
            out += _image_sources(block.get("content"), f"{path}/{j}/content")
    return out


def _image_media_type(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    for i, msg in _messages(body):
        for path, source in _image_sources(msg.get("content"), f"messages/{i}/content"):
            media = source.get("media_type")
            if source.get("type") == "base64" and media not in _IMAGE_TYPES:
                out.append(
                    IMAGE_MEDIA_TYPE.finding(
                        path,
                        f"image media_type {media!r}: must be one of {', '.join(_IMAGE_TYPES)}",
                        {"type": "base64", "media_type": media},
                        "the API answers 400 (e.g. `image/jpg` is not a registered type; send `image/jpeg`)",
                    )
                )
    return out


IMAGE_MEDIA_TYPE = Rule(
    "anthropic-image-media-type",
    _A,
    "reject",
    "base64 images are image/jpeg, image/png, image/gif or image/webp",
    (
        "https://docs.anthropic.com/en/docs/build-with-claude/vision (supported formats: JPEG, PNG, GIF, WebP)",
        "harness/oracles/specs/anthropic-openapi.json (Base64ImageSource.media_type enum)",
    ),
    _image_media_type,
)


ANTHROPIC_RULES: tuple[Rule, ...] = (
    TOOL_USE_ANSWERED,
    TOOL_RESULT_HAS_USE,
    TOOL_USE_IDS,
    NON_BLANK_TEXT,
    ERROR_RESULT_CONTENT,
    IMAGE_MEDIA_TYPE,
)

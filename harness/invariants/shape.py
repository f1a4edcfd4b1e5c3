"""I8 provider-shape: what each provider demands of a conversation, beyond its JSON schema.

Kinds: what a provider rejects comes from its calibrated hard rules
(``provider_rules``: empty conversations, blank Anthropic text, empty error results, a
Responses reasoning item with nothing after it). The checks below judge the pinned
design, which real APIs accept more loosely (recorded traffic shows Anthropic taking
``system`` messages mid-list, and Gemini an empty text part), so their findings are
``policy``, except a system prompt that never reaches the request at all (``degrade``).

Rules (DESIGN "Provider rules", seed 001): strict user/assistant alternation where the
provider requires it (Anthropic, Gemini user/model; an Anthropic conversation may start
with an assistant message: accepted in traffic, docs/import-check-decisions.md#placeholder-turns;
Gemini media stays in a user content of its own after function responses,
docs/import-check-decisions.md#gemini-tool-result-media),
the system prompt exactly once and only in the system carrier (never dropped when the
history or params have one), no empty content lists or text blocks (for Anthropic, no
whitespace-only ones either; a Responses request whose only input is an empty user
message is the accepted stand-in for "nothing to send", the same decision), and no explicit
``null`` (none of the five request schemas needs one; tool arguments and tool schemas
are the caller's JSON and may hold nulls).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from harness.invariants.base import CheckContext, Json, Violation, as_dict, as_list, leaves
from harness.invariants.wire import list_key, system_carriers, view, wire_messages, wire_role
from harness.model import (
    AssistantMessage,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    SystemMessage,
)

__all__ = ["check_provider_shape"]

ID = "I8"
_TEXT_BLOCKS = frozenset({"text", "input_text", "output_text"})
_SCHEMA_KEYS = frozenset({"parameters", "input_schema", "parametersJsonSchema"})
#: Bedrock Converse: free-form JSON under these keys (``toolUse.input``, ``inputSchema.json``,
#: ``toolResult.content[].json``, ``additionalModelRequestFields``).
_BEDROCK_JSON_KEYS = frozenset({"input", "json", "additionalModelRequestFields"})


def check_provider_shape(ctx: CheckContext) -> list[Violation]:
    return _alternation(ctx) + _system(ctx) + _empty(ctx) + _nulls(ctx)


def _alternation(ctx: CheckContext) -> list[Violation]:
    reader = view(ctx.provider)
    if not reader.alternates:
        return []
    out: list[Violation] = []
    items = wire_messages(ctx.provider, ctx.body)
    roles = [wire_role(ctx.provider, m) for m in items]
    for pos in range(1, len(roles)):
        if roles[pos] == roles[pos - 1] and not reader.paired_contents(items[pos - 1], items[pos]):
            out.append(
                ctx.violation(
                    ID,
                    None,
                    f"two {roles[pos]} messages in a row at position {pos}",
                    roles[pos - 1 : pos + 1],
                    kind="policy",
                )
            )
    for pos, role in enumerate(roles):
        if role not in ("user", "assistant") and not _adds_tools_only(items[pos]):
            out.append(
                ctx.violation(ID, None, f"message role {role!r} at position {pos}", role, kind="policy")
            )
    return out


def _at(items: Sequence[object], carrier: str, key: str) -> object:
    """The wire message a carrier path (``messages[3]``) names, or None."""
    index = carrier.removeprefix(f"{key}[").split("]", 1)[0]
    return items[int(index)] if index.isdigit() and int(index) < len(items) else None


def _adds_tools_only(message: object) -> bool:
    """An Anthropic ``system`` message of ``tool_addition`` blocks only: tools added in place
    (recorded accepted: traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#1),
    not a system prompt."""
    content: Any = cast(dict[str, Any], message).get("content") if isinstance(message, dict) else None
    blocks: list[Any] = cast(list[Any], content) if isinstance(content, list) else []
    return bool(blocks) and all(
        isinstance(b, dict) and cast(dict[str, Any], b).get("type") == "tool_addition" for b in blocks
    )


def _system(ctx: CheckContext) -> list[Violation]:
    items = wire_messages(ctx.provider, ctx.body)
    key = list_key(ctx.provider)
    carriers = [
        c
        for c in system_carriers(ctx.provider, ctx.body)
        if not (c.startswith(f"{key}[") and _adds_tools_only(_at(items, c, key)))
    ]
    has_system = bool((ctx.params.system or "").strip()) or any(
        isinstance(e, SystemMessage) and any(p.text.strip() for p in e.parts) for e in ctx.history
    )
    out: list[Violation] = []
    if len(carriers) > 1:
        out.append(
            ctx.violation(
                ID, None, f"the system prompt is sent {len(carriers)} times", carriers, kind="policy"
            )
        )
    reader = view(ctx.provider)
    if reader.system_first and carriers and carriers[0] != f"{list_key(ctx.provider)}[0]":
        out.append(
            ctx.violation(
                ID, None, f"the system message is not first ({carriers[0]})", carriers, kind="policy"
            )
        )
    if reader.alternates and any(c.startswith(list_key(ctx.provider)) for c in carriers):
        out.append(
            ctx.violation(ID, None, "a system message inside the conversation list", carriers, kind="policy")
        )
    if has_system and not carriers and not _in_first_user_turn(ctx):
        out.append(
            ctx.violation(
                ID, None, "the history has a system prompt but the request carries none", None, kind="degrade"
            )
        )
    return out


def _in_first_user_turn(ctx: CheckContext) -> bool:
    """The system text travels at the start of the first user turn (models without a system slot, e.g. Gemma)."""
    texts = [ctx.params.system or ""] + [
        p.text for e in ctx.history if isinstance(e, SystemMessage) for p in e.parts
    ]
    wanted = [t.strip() for t in texts if t.strip()]
    users = [m for m in wire_messages(ctx.provider, ctx.body) if wire_role(ctx.provider, m) == "user"]
    if not users or not wanted:
        return False
    first = [leaf for _, leaf in leaves(users[0])]
    return all(any(t in leaf for leaf in first) for t in wanted)


def _empty(ctx: CheckContext) -> list[Violation]:
    out: list[Violation] = []
    key = list_key(ctx.provider)
    items = wire_messages(ctx.provider, ctx.body)
    reader = view(ctx.provider)
    if reader.nothing_to_send(items):
        return []
    for pos, item in enumerate(items):
        where = f"{key}[{pos}]"
        for field in ("content", "parts"):
            value = item.get(field)
            if isinstance(value, list) and not value:
                out.append(ctx.violation(ID, None, f"{where}.{field} is empty", item, kind="policy"))
            elif (
                isinstance(value, str)
                and reader.blank(value)
                and field == "content"
                and _needs_content(ctx, item)
            ):
                out.append(
                    ctx.violation(ID, None, f"{where}.content is an empty string", item, kind="policy")
                )
        for block in _blocks(item):
            if block.get("type") in _TEXT_BLOCKS and reader.blank(str(block.get("text", ""))):
                out.append(
                    ctx.violation(
                        ID,
                        None,
                        f"empty text block ({block.get('type')}) in {where}",
                        block,
                        kind="policy",
                    )
                )
            elif reader.empty_part(block):
                out.append(ctx.violation(ID, None, f"empty text part in {where}", block, kind="policy"))
    return out


def _needs_content(ctx: CheckContext, item: Json) -> bool:
    """A blank string is an empty message, except a tool's own (empty) output or content beside tool calls."""
    role = wire_role(ctx.provider, item)
    return role == "user" or (role == "assistant" and not item.get("tool_calls"))


def _blocks(item: Json) -> list[Json]:
    found: list[Json] = []
    for field in ("content", "parts", "output"):
        for block in as_list(item.get(field)):
            d = as_dict(block)
            if d is not None:
                found.append(d)
                found += [b for b in (as_dict(x) for x in as_list(d.get("content"))) if b]
    return found


def _caller_json(obj: Json, key: str) -> bool:
    """Tool arguments and tool schemas are the caller's JSON: their nulls are the caller's values."""
    if key in _SCHEMA_KEYS:
        return True
    if key == "input":
        return obj.get("type") == "tool_use" or "toolUseId" in obj  # Anthropic tool_use, Bedrock toolUse
    if key in _BEDROCK_JSON_KEYS and key != "input":
        return True
    return key == "args" and "name" in obj  # a Gemini functionCall


def _provider_blocks(ctx: CheckContext) -> set[str]:
    """The provider's own blocks of the history (server tools, citations), as JSON: their nulls are
    the provider's, sent back as it sent them."""
    return {
        json.dumps(p.raw, sort_keys=True)
        for e in ctx.history
        if isinstance(e, AssistantMessage)
        for p in e.parts
        if isinstance(p, ServerToolCallPart | ServerToolResultPart | SourcePart) and p.raw is not None
    }


def _nulls(ctx: CheckContext) -> list[Violation]:
    paths: list[str] = []
    own = _provider_blocks(ctx)

    def walk(value: Any, path: str) -> None:
        obj = as_dict(value)
        if value is None:
            paths.append(path or "<root>")
        elif obj is not None and own and json.dumps(obj, sort_keys=True) in own:
            return
        elif obj is not None:
            for k, v in obj.items():
                if not _caller_json(obj, k):
                    walk(v, f"{path}.{k}" if path else k)
        else:
            for n, v in enumerate(as_list(value)):
                walk(v, f"{path}[{n}]")

    walk(ctx.body, "")
    return [
        ctx.violation(ID, None, f"explicit null at {path}", {path: None}, kind="policy") for path in paths[:5]
    ]

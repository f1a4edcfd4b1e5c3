"""I1 developer-degradation: developer parts land where the design says, UI-only fields never leave.

Rule (DESIGN "Developer degradation", seed 000 decision 7): a developer message never
reaches a provider as its own message; each text is appended, with a trailing ``\\n``,
to the immediately preceding user or tool message, or becomes a user message at its
own position when there is none. ``command_output``, ``at_files`` and ``ui_extra`` are
UI-only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import cast

from harness.invariants.base import CheckContext, Json, Violation, leaves
from harness.invariants.canonical import (
    degradation_target,
    effective_model,
    explained,
    result_sent_ids,
    sendable_strings,
    sent_call_ids,
)
from harness.invariants.memo import body_scope, same_args
from harness.invariants.wire import system_carriers, tool_turns, wire_messages, wire_role
from harness.model import DeveloperMessage, TextPart, ToolResultMessage, UserMessage

__all__ = ["check_developer_degradation"]

ID = "I1"
_TEXT_KEYS = frozenset({"text", "content", "output"})
# Values this short are judged by equality with a text leaf only (else "a" is everywhere).
_SUBSTRING_MIN = 8


def check_developer_degradation(ctx: CheckContext) -> list[Violation]:
    body = ctx.body
    with body_scope():  # tool turns and call ids computed once, not once per developer message
        return _check(ctx, body)


def _check(ctx: CheckContext, body: Json) -> list[Violation]:
    out: list[Violation] = []
    developer_texts = [
        p.text
        for e in ctx.history
        if isinstance(e, DeveloperMessage)
        for p in e.parts
        if isinstance(p, TextPart) and p.text.strip()
    ]
    for pos, item in enumerate(wire_messages(ctx.provider, body)):
        # A developer-role message may carry the system prompt (reasoning models); that is I8's to judge.
        if wire_role(ctx.provider, item) == "developer" and any(_contains(item, t) for t in developer_texts):
            out.append(
                ctx.violation(
                    ID,
                    None,
                    f"a developer message was sent as its own message (position {pos})",
                    item,
                    kind="policy",
                )
            )
    for index, event in enumerate(ctx.history):
        if isinstance(event, DeveloperMessage):
            out += _check_parts(ctx, index, event)
            out += _check_ui_fields(ctx, index, event)
    return out


def _texts(ctx: CheckContext, index: int) -> list[str]:
    """The non-blank texts message ``index`` contributes to a request (developer texts with ``\\n``)."""
    event = ctx.history[index]
    if isinstance(event, UserMessage):
        return [p.text for p in event.parts if isinstance(p, TextPart) and p.text.strip()]
    if isinstance(event, DeveloperMessage):
        return [p.text + "\n" for p in event.parts if isinstance(p, TextPart) and p.text.strip()]
    return []


def _contains(container: object, value: str) -> bool:
    return any(value in leaf for key, leaf in leaves(container) if key in _TEXT_KEYS)


def _user_containers(ctx: CheckContext) -> list[Json]:
    return [m for m in wire_messages(ctx.provider, ctx.body) if wire_role(ctx.provider, m) == "user"]


def _result_containers(ctx: CheckContext, tool_index: int) -> list[Json] | None:
    """The units carrying the tool result at ``tool_index``; None when it was not sent."""
    event = ctx.history[tool_index]
    assert isinstance(event, ToolResultMessage)
    sent = result_sent_ids(ctx.history, ctx.provider, ctx.body).get(  # ids reused across turns
        tool_index, sent_call_ids(ctx.history, ctx.provider, ctx.body).get(event.call_id, event.call_id)
    )
    return _containers_by_id(ctx.provider, ctx.body).get(sent) or None


@same_args
def _containers_by_id(provider: str, body: Json) -> dict[object, list[Json]]:
    """Result containers by sent id, in body order (turns, then orphans); memoized in ``body_scope``."""
    turns, orphans = tool_turns(provider, body)
    out: dict[object, list[Json]] = {}
    for result in [r for t in turns for r in t.results] + orphans:
        out.setdefault(result.id, []).append(result.container)
    return out


def _check_parts(ctx: CheckContext, index: int, event: DeveloperMessage) -> list[Violation]:
    kind, target = degradation_target(ctx.history, index)
    out: list[Violation] = []
    for pidx, part in enumerate(event.parts):
        if not isinstance(part, TextPart) or not part.text.strip():
            continue
        value = part.text + "\n"
        example = {"developer": part.text, "expected": value, "target": f"{kind} message {target}"}
        if not _contains(ctx.body, value):
            out.append(_not_appended(ctx, index, pidx, part.text, _where(kind, target), example))
            continue
        if kind == "tool":
            containers = _result_containers(ctx, target)
            if containers is None:
                continue  # the result itself was not sent (I7/I13 judge that); the text was kept
        else:
            containers = _user_containers(ctx)
            anchor = _texts(ctx, target) if kind == "user" else []
            containers = [c for c in containers if all(_contains(c, t) for t in anchor)]
        where = _where(kind, target)
        if not any(_contains(c, value) for c in containers):
            out.append(
                ctx.violation(
                    ID, index, f"developer text (part {pidx}) is not inside {where}", example, kind="policy"
                )
            )
        elif kind == "user" and not _appended(containers, _texts(ctx, target), value):
            out.append(
                ctx.violation(
                    ID, index, f"developer text (part {pidx}) comes before {where}", example, kind="policy"
                )
            )
    return out


def _where(kind: str, target: int) -> str:
    if kind == "tool":
        return f"the tool result of message {target}"
    return f"the user message {target}" if kind == "user" else "a user message at its own position"


def _not_appended(
    ctx: CheckContext, index: int, pidx: int, text: str, where: str, example: Json
) -> Violation:
    """The developer text with its trailing newline is in no text field: say what was found instead.

    Present in another form (without the newline, or as a system block of its own) the
    model still reads it: ``policy``. In no string of the body at all: ``degrade``.
    """
    found = _find(ctx.body, text.strip(), "")
    if found is None:
        reason = (
            f"developer text (part {pidx}) is in no string of the request (looked for it with and "
            f"without its trailing newline; expected it appended to {where})"
        )
        return ctx.violation(ID, index, reason, example, kind="degrade")
    path = found
    carriers = set(system_carriers(ctx.provider, ctx.body))
    own_block = any(path == c or path.startswith((f"{c}.", f"{c}[")) for c in carriers)
    if own_block:
        reason = (
            f"developer text (part {pidx}) is sent as a system block of its own (at {path}), "
            f"expected appended to {where} with a trailing newline"
        )
    else:
        reason = (
            f"developer text (part {pidx}) is sent at {path} without the trailing newline the design "
            f"appends (expected {json.dumps(text + chr(10))} appended to {where})"
        )
    return ctx.violation(ID, index, reason, example, kind="policy")


def _find(value: object, needle: str, path: str) -> str | None:
    """The path (``messages[2].content[0].text``) of the first string containing ``needle``."""
    if isinstance(value, str):
        return path if needle and needle in value else None
    if isinstance(value, dict):
        for key, sub in cast(dict[str, object], value).items():
            found = _find(sub, needle, f"{path}.{key}" if path else key)
            if found is not None:
                return found
    elif isinstance(value, list):
        for n, sub in enumerate(cast(list[object], value)):
            found = _find(sub, needle, f"{path}[{n}]")
            if found is not None:
                return found
    return None


def _appended(containers: Sequence[Json], anchor: Sequence[str], value: str) -> bool:
    """Whether ``value`` occurs after the anchor texts in some container (appended, not prepended)."""
    for container in containers:
        texts = [leaf for key, leaf in leaves(container) if key in _TEXT_KEYS]
        starts = [next((n for n, t in enumerate(texts) if a in t), None) for a in anchor]
        if any(n is None for n in starts):
            continue
        last = max((n for n in starts if n is not None), default=-1)
        tail = max(
            (texts[last].find(a) + len(a) for a in anchor if last >= 0 and a in texts[last]), default=0
        )
        if any(value in t for t in texts[last + 1 :]) or (last >= 0 and value in texts[last][tail:]):
            return True
        if last < 0 and any(value in t for t in texts):
            return True
    return False


def _ui_values(event: DeveloperMessage) -> list[str]:
    values: list[str] = []
    if event.command_output:
        values.append(event.command_output)
    values += event.at_files or []
    if event.ui_extra:
        values += [v for _, v in leaves(event.ui_extra)]
        values.append(json.dumps(event.ui_extra))
        values.append(json.dumps(event.ui_extra, ensure_ascii=False, sort_keys=True))
    return [v for v in values if v.strip()]


def _check_ui_fields(ctx: CheckContext, index: int, event: DeveloperMessage) -> list[Violation]:
    values = _ui_values(event)
    if not values:
        return []
    model = effective_model(ctx.provider, ctx.params, ctx.body)
    sendable = sendable_strings(ctx.history, ctx.params, ctx.provider, model)
    body_leaves = list(leaves(ctx.body))
    out: list[Violation] = []
    for value in values:
        if explained(value, sendable):
            continue
        long_enough = len(value.strip()) >= _SUBSTRING_MIN
        leaked = any(
            (key in _TEXT_KEYS and leaf.strip() == value.strip()) or (long_enough and value.strip() in leaf)
            for key, leaf in body_leaves
        )
        if leaked:
            out.append(
                ctx.violation(
                    ID,
                    index,
                    "a UI-only developer field value was sent to the provider",
                    {"value": value},
                    kind="policy",
                )
            )
            break
    return out

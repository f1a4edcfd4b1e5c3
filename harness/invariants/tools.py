"""I7 tool-pairing and id preservation: every call sent has exactly one result, same id, in call order.

Rules (DESIGN "Tool results", field lessons 4 and 6): each tool call id in the request
is answered by exactly one result carrying the same id, after the call's turn and
before the next one, results in call order (Chat additionally needs them right after
the assistant message); no result without its call; a canonical call id reaches the
provider verbatim unless the provider's id rules force a change, which is warned.
"""

from __future__ import annotations

from harness.contract.kinds import Kind
from harness.invariants.base import CheckContext, Violation
from harness.invariants.canonical import canonical_calls, result_sent_ids, sent_call_ids
from harness.invariants.wire import ToolTurn, sent_text_blocks, tool_turns, view, wire_messages, wire_role
from harness.model import AssistantMessage, ToolCallPart, ToolResultMessage

__all__ = ["check_tool_pairing"]

ID = "I7"


def check_tool_pairing(ctx: CheckContext) -> list[Violation]:
    return _pairing(ctx) + _ids(ctx) + _replaced(ctx)


def _replaced(ctx: CheckContext) -> list[Violation]:
    """A call answered with something else while its real result is in the history (``degrade``).

    A result recorded after a later assistant turn still answers its call (litellm and
    LangChain send it); answering the call with an invented "not executed" error and
    dropping the real result tells the model a tool that ran never did. A warning does
    not excuse it: the real result was there to send. Calls answered without an id
    (Gemini pairs those by name) are left to the pairing check.
    """
    turns, _ = tool_turns(ctx.provider, ctx.body)
    sent_texts: dict[object, list[str | None]] = {}
    for turn in turns:
        for r in turn.results:
            if r.id is not None:
                blocks = sent_text_blocks(r.unit)  # a result sent as several text blocks: all of them
                sent_texts.setdefault(r.id, []).append("".join(blocks) if len(blocks) > 1 else r.text)
    mapping = sent_call_ids(ctx.history, ctx.provider, ctx.body)
    per_result = result_sent_ids(ctx.history, ctx.provider, ctx.body)  # ids reused across turns
    called: set[str] = set()
    real: dict[tuple[str, object], list[tuple[int, str]]] = {}  # (call id, id sent under) -> results
    for index, event in enumerate(ctx.history):
        if isinstance(event, AssistantMessage):
            called |= {p.call_id for p in event.parts if isinstance(p, ToolCallPart)}
        elif isinstance(event, ToolResultMessage) and event.call_id in called and event.output_text.strip():
            sent = per_result.get(index, mapping.get(event.call_id, event.call_id))
            real.setdefault((event.call_id, sent), []).append((index, event.output_text.strip()))
    out: list[Violation] = []
    for (cid, sent), results in real.items():
        texts = sent_texts.get(sent)
        if not texts or any(t is None for t in texts):
            continue  # not sent at all (``_ids``), or sent in a form whose text this view cannot read
        if any(value in (t or "") for t in texts for _, value in results):
            continue
        index, value = results[0]
        out.append(
            ctx.violation(
                ID,
                index,
                f"call id {cid!r} is answered with {texts[0]!r}, while its real result (message {index}) "
                "is in the history and was not sent",
                {"sent": texts[0], "real": value},
                kind="degrade",
            )
        )
    return out


def _pairing(ctx: CheckContext) -> list[Violation]:
    reader = view(ctx.provider)
    turns, orphans = tool_turns(ctx.provider, ctx.body)
    roles = [wire_role(ctx.provider, m) for m in wire_messages(ctx.provider, ctx.body)]
    out = [
        ctx.violation(
            ID,
            None,
            f"result for call id {r.id!r} comes before any tool call",
            r.unit,
            kind=_pairing_kind(ctx),
        )
        for r in orphans
    ]
    for turn in turns:
        calls: list[str | None] = []
        for call in turn.calls:
            if call.id not in calls:
                calls.append(call.id)
        results = [r.id for r in turn.results]
        if reader.pairs_by_position and None in calls:
            out += _positional(ctx, turn)
            continue
        for cid in calls:
            count = results.count(cid)
            # answered by position: as many results as call parts with that id (``pairs_by_position``)
            expected = sum(c.id == cid for c in turn.calls) if reader.pairs_by_position else 1
            if count != expected:
                out.append(
                    ctx.violation(
                        ID,
                        None,
                        f"call id {cid!r} (position {turn.position}) has {count} results; {expected} expected",
                        {"calls": calls, "results": results},
                        kind=_pairing_kind(ctx),
                    )
                )
        for result in turn.results:
            if result.id not in calls:
                out.append(
                    ctx.violation(
                        ID,
                        None,
                        f"result for call id {result.id!r} (position {result.position}) answers no call of its turn",
                        result.unit,
                        kind=_pairing_kind(ctx),
                    )
                )
        answered = [r for r in dict.fromkeys(results) if r in calls]
        expected = [c for c in calls if c in answered]
        if answered != expected:
            out.append(
                ctx.violation(
                    ID,
                    None,
                    "tool results are not in call order",
                    {"calls": calls, "results": results},
                    kind=_pairing_kind(ctx),
                )
            )
        if reader.results_follow_calls and turn.results:
            last = max(r.position for r in turn.results)
            between = roles[turn.position + 1 : last]
            if any(role != "tool" for role in between):
                out.append(
                    ctx.violation(
                        ID,
                        None,
                        f"a non-tool message sits between the tool calls at position {turn.position} and their results",
                        {"roles": roles[turn.position : last + 1]},
                        kind="policy",
                    )
                )
    return out


def _pairing_kind(ctx: CheckContext) -> Kind:
    """The design's pairing (exactly one result per call, inside its own turn).

    What a provider refuses is reported by its calibrated rules (``provider_rules``),
    which know that Anthropic merges consecutive turns and Chat keys results by id. Here a
    broken pairing is ``policy``, except on Gemini, where results without ids pair by
    position and name, so a broken pairing answers the wrong call (``degrade``).
    """
    return "degrade" if view(ctx.provider).pairs_by_position else "policy"


def _positional(ctx: CheckContext, turn: ToolTurn) -> list[Violation]:
    """Gemini's function call ids are optional: without them results pair by position and name."""
    calls = [c.name for c in turn.calls]
    results = [r.name for r in turn.results]
    if calls == results:
        return []
    return [
        ctx.violation(
            ID,
            None,
            f"function calls without ids at position {turn.position} are not answered one by one, in order, by name",
            {"calls": calls, "results": results},
            kind="degrade",
        )
    ]


def _ids(ctx: CheckContext) -> list[Violation]:
    body = ctx.body
    turns, orphans = tool_turns(ctx.provider, body)
    sent_calls = {c.id for t in turns for c in t.calls}
    # An orphan result was sent (the pairing check judges where): it is not "not sent".
    sent_results = {r.id for t in turns for r in t.results} | {r.id for r in orphans}
    # Gemini's functionResponse id is optional: an id-less result is sent under its function's name.
    unnamed = {r.name for t in turns for r in [*t.results] if r.id is None} | {
        r.name for r in orphans if r.id is None
    }
    mapping = sent_call_ids(ctx.history, ctx.provider, body)
    calls = canonical_calls(ctx.history)
    # An id the provider's rules force to change is warned once, at the first call that uses it.
    warned_ids = {c.part.call_id for c in calls if ctx.warned(c.message_index, c.part_index, exact=True)}
    out: list[Violation] = []
    for call in calls:
        cid = call.part.call_id
        if cid in sent_calls or cid in warned_ids:
            continue
        reason = f"call id {cid!r} is not sent verbatim and no warning names the call"
        if cid in mapping:
            reason += f" (sent as {mapping[cid]!r})"
        out.append(
            ctx.violation(
                ID, call.message_index, reason, call.part.model_dump(exclude_none=True), kind="policy"
            )
        )
    for index, event in enumerate(ctx.history):
        if isinstance(event, ToolResultMessage):
            sent = mapping.get(event.call_id, event.call_id)
            by_name = view(ctx.provider).pairs_by_position and event.tool_name in unnamed
            if sent not in sent_results and not by_name and not ctx.warned(index):
                out.append(
                    ctx.violation(
                        ID,
                        index,
                        f"tool result for call id {event.call_id!r} is not sent and no warning names it",
                        {"call_id": event.call_id, "tool_name": event.tool_name},
                        kind=ctx.unwarned_kind(user_content=True),
                    )
                )
    return out

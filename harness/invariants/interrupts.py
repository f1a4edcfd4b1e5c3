"""I5 interrupt-semantics: ``aborted`` means a user interrupt, everywhere it shows.

Rules (seed 000 decision 6, seed 002 "Cancellation/interrupt"): an assistant
``stop_reason == "aborted"`` or a tool ``status == "aborted"`` is the interrupt marker.
Replayed into UI events it yields an ``interrupt`` event and no ``response_complete``;
an aborted tool result shows as status ``error`` (the UI has no abort status). A call
that ends aborted has the same runtime events. In a request an aborted (or failed) tool
result is an error result: flagged where the provider has a flag (Anthropic
``is_error``, Gemini ``response.error``), warned where it has none.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.contract.results import CallResult
from harness.invariants.base import CheckContext, Violation, snippet
from harness.invariants.canonical import answered_results, result_sent_ids, sent_call_ids
from harness.invariants.wire import WireResult, tool_turns, view
from harness.model import AssistantMessage, HistoryEvent, ToolResultMessage

__all__ = ["check_interrupt_semantics"]

ID = "I5"


def check_interrupt_semantics(ctx: CheckContext) -> list[Violation]:
    return _ui_events(ctx) + _call_events(ctx) + _request(ctx)


def _ui_events(ctx: CheckContext) -> list[Violation]:
    events = ctx.ui_events(ctx.history)
    by_index: dict[int, list[str]] = {}
    result_statuses: dict[int, list[object]] = {}  # grouped once: a pass per result is quadratic
    for event in events:
        index = event.get("history_index")
        if isinstance(index, int):
            by_index.setdefault(index, []).append(str(event.get("type")))
            if event.get("type") == "tool_result":
                result_statuses.setdefault(index, []).append(event.get("status"))
    out: list[Violation] = []
    history = ctx.history
    for index, event in enumerate(history):
        kinds = by_index.get(index, [])
        if isinstance(event, AssistantMessage):
            aborted = event.stop_reason == "aborted"
            if aborted and "interrupt" not in kinds:
                out.append(
                    _violation(index, "aborted assistant message replays without an interrupt event", kinds)
                )
            if aborted and "response_complete" in kinds:
                out.append(_violation(index, "aborted assistant message replays a response_complete", kinds))
            if not aborted and "interrupt" in kinds:
                out.append(
                    _violation(index, "interrupt event for an assistant message that was not aborted", kinds)
                )
        elif isinstance(event, ToolResultMessage):
            statuses = result_statuses.get(index, [])
            expected = "success" if event.status == "success" else "error"
            if statuses != [expected]:
                out.append(
                    _violation(
                        index,
                        f"tool result with status {event.status} replays as {statuses or 'nothing'}, expected [{expected!r}]",
                        statuses,
                    )
                )
            if event.status == "aborted":
                run_end = index
                while run_end + 1 < len(history) and isinstance(history[run_end + 1], ToolResultMessage):
                    run_end += 1
                if not any("interrupt" in by_index.get(i, []) for i in range(index, run_end + 1)):
                    out.append(
                        _violation(index, "aborted tool result replays without an interrupt event", kinds)
                    )
            elif "interrupt" in kinds and not _in_aborted_run(history, index):
                out.append(_violation(index, "interrupt event for a tool result that was not aborted", kinds))
    return out


def _in_aborted_run(history: Sequence[HistoryEvent], index: int) -> bool:
    """Whether an aborted result shares this result's run (their one interrupt may follow this one)."""
    lo = hi = index
    while lo > 0 and isinstance(history[lo - 1], ToolResultMessage):
        lo -= 1
    while hi + 1 < len(history) and isinstance(history[hi + 1], ToolResultMessage):
        hi += 1
    run = history[lo : hi + 1]
    return any(isinstance(e, ToolResultMessage) and e.status == "aborted" for e in run)


def _violation(index: int, reason: str, kinds: object) -> Violation:
    return Violation(ID, None, index, reason, snippet(kinds), "policy")


def _call_events(ctx: CheckContext) -> list[Violation]:
    """The runtime events of an aborted call: an interrupt, no response_complete."""
    out: list[Violation] = []
    for index, event in enumerate(ctx.history):
        if isinstance(event, AssistantMessage) and event.stop_reason == "aborted":
            kinds = [str(e.get("type")) for e in ctx.events(CallResult(event, [], []))]
            if "interrupt" not in kinds or "response_complete" in kinds:
                out.append(
                    ctx.violation(
                        ID,
                        index,
                        "an aborted call's runtime events need an interrupt and no response_complete",
                        kinds,
                        kind="policy",
                    )
                )
    return out


def _request(ctx: CheckContext) -> list[Violation]:
    ids = sent_call_ids(ctx.history, ctx.provider, ctx.body)
    per_result = result_sent_ids(ctx.history, ctx.provider, ctx.body)  # ids reused across turns
    turns, orphans = tool_turns(ctx.provider, ctx.body)
    by_id: dict[object, list[WireResult]] = {}  # grouped once: a pass per result is quadratic
    for result in [r for t in turns for r in t.results] + orphans:
        by_id.setdefault(result.id, []).append(result)
    answered = answered_results(ctx.history)
    out: list[Violation] = []
    for index, event in enumerate(ctx.history):
        if not isinstance(event, ToolResultMessage) or index not in answered:
            continue
        sent = per_result.get(index, ids.get(event.call_id, event.call_id))
        mine = by_id.get(sent, [])
        if not mine:
            continue
        failed = event.status != "success"
        if view(ctx.provider).error_flag:
            if all(r.is_error != failed for r in mine):  # ids may recur across turns: one must match
                what = "is not sent as an error" if failed else "is sent as an error"
                out.append(
                    ctx.violation(
                        ID,
                        index,
                        f"tool result with status {event.status} {what}",
                        mine[0].unit,
                        kind="degrade",
                    )
                )
        elif failed and not ctx.warned(index):
            out.append(
                ctx.violation(
                    ID,
                    index,
                    f"tool status {event.status} cannot be flagged for this provider and no warning says so",
                    mine[0].unit,
                    kind=ctx.unwarned_kind(user_content=False),
                )
            )
    return out

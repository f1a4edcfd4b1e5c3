"""The invariants I1..I13 (ids and names pinned in DESIGN.md), and running them over a history.

Each invariant is a named, reusable check: ``check(CheckContext) -> list[Violation]``.
``run_invariants`` runs any of them for one history over a target's providers, turning
a check that crashes into a violation (a target must never crash on a valid history)
and dropping duplicates (history-side findings do not depend on the provider).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from harness.contract.events import derive_events
from harness.contract.target import TargetRefusal, refusal_kind
from harness.invariants.assistant import check_one_assistant_per_call
from harness.invariants.base import CheckContext, Continuation, EventDeriver, UIEventDeriver, Violation
from harness.invariants.continuation import next_turn
from harness.invariants.determinism import check_determinism
from harness.invariants.developer import check_developer_degradation
from harness.invariants.event_order import check_event_order
from harness.invariants.interrupts import check_interrupt_semantics
from harness.invariants.loss import check_no_silent_loss
from harness.invariants.prefix import check_prefix_stability
from harness.invariants.replay_events import history_to_ui_events
from harness.invariants.round_trips import check_round_trips
from harness.invariants.schema import check_schema_conformance
from harness.invariants.shape import check_provider_shape
from harness.invariants.thinking import check_thinking_pairing
from harness.invariants.tool_text import check_tool_result_text
from harness.invariants.tools import check_tool_pairing
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.targets import Target, get_target

__all__ = [
    "INVARIANTS",
    "CheckContext",
    "CheckReport",
    "Invariant",
    "Violation",
    "get_invariant",
    "run_invariants",
]


@dataclass(frozen=True)
class Invariant:
    """A pinned id (``I1``..``I13``), its pinned name, one line on what it demands, and its check."""

    id: str
    name: str
    description: str
    check: Callable[[CheckContext], list[Violation]] = field(repr=False, compare=False)
    #: One line on why a violation matters, in the provider's and the user's terms.
    why: str = ""


INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "I1",
        "developer-degradation",
        "developer text is appended (with a trailing newline) to the preceding user/tool message, "
        "else sent as a user message; UI-only fields are never sent",
        check_developer_degradation,
        "a dropped reminder is an instruction the model never sees; a misplaced one changes what it reads as the user's",
    ),
    Invariant(
        "I2",
        "thinking-pairing",
        "each native thinking/signature pair is sent as one native unit, byte-exact; "
        "no foreign, unsigned or empty signature is sent",
        check_thinking_pairing,
        "Anthropic and Gemini 3 reject altered or foreign signatures (400); dropped native reasoning costs the model its chain of thought",
    ),
    Invariant(
        "I3",
        "one-assistant-per-call",
        "one assistant message per model call, with usage and stop_reason, however the stream ends",
        check_one_assistant_per_call,
        "a stream that ends without saying how (no usage, a stop reason that lies) hides a cut answer from the user",
    ),
    Invariant(
        "I4",
        "tool-result-text",
        "a tool's output_text is sent exactly once, as its result's own text",
        check_tool_result_text,
        "tool output that is missing or duplicated is evidence the model never saw, or saw twice",
    ),
    Invariant(
        "I5",
        "interrupt-semantics",
        "aborted turns and tool results replay as an interrupt; an aborted tool shows as status error",
        check_interrupt_semantics,
        "an interrupt shown as a normal end (or a failure shown as success) misleads the user and the model",
    ),
    Invariant(
        "I6",
        "event-order",
        "start before delta, one end, text ends before a tool-call start, "
        "one response_complete per completed response and none on cancel",
        check_event_order,
        "UI consumers rely on start/delta/end order; a missing end leaves a spinner running, a late completion lies about a cancel",
    ),
    Invariant(
        "I7",
        "tool-pairing",
        "every tool call sent has exactly one result with the same id, in call order; ids kept verbatim or warned",
        check_tool_pairing,
        "providers reject unanswered calls and orphan results (400); a result sent to the wrong call answers the wrong question",
    ),
    Invariant(
        "I8",
        "provider-shape",
        "role alternation where required, the system prompt exactly once, no empty blocks, no nulls",
        check_provider_shape,
        "providers reject system messages in the conversation and empty blocks; a dropped system prompt changes the model's instructions",
    ),
    Invariant(
        "I9",
        "prefix-stability",
        "appending a turn keeps the previous request's messages (all but the last) and system byte-identical",
        check_prefix_stability,
        "a moved prefix invalidates the provider's prompt cache: every turn pays for the whole conversation again",
    ),
    Invariant(
        "I10",
        "determinism",
        "the same history renders byte-identical requests and warnings, also from a copy",
        check_determinism,
        "a request that differs between runs cannot be cached, reviewed or reproduced",
    ),
    Invariant(
        "I11",
        "round-trips",
        "codec encode/decode identity; parse(emit(message)) == message; chunk boundaries change nothing",
        check_round_trips,
        "what the parser loses on the way back is lost from the history for every later turn",
    ),
    Invariant(
        "I12",
        "schema-conformance",
        "the request validates against the provider's published schema and the official SDK's types",
        check_schema_conformance,
        "the provider answers a request outside its schema with a 400",
    ),
    Invariant(
        "I13",
        "no-silent-loss",
        "every canonical part is in the request or named by a warning with its message index",
        check_no_silent_loss,
        "a part dropped without a word is content the user believes the model saw",
    ),
)

_ORDER = {inv.id: n for n, inv in enumerate(INVARIANTS)}


def get_invariant(key: str) -> Invariant:
    """An invariant by id (``I7``, any case) or name (``tool-pairing``); KeyError listing the valid ones."""
    for inv in INVARIANTS:
        if key.upper() == inv.id or key == inv.name:
            return inv
    known = ", ".join(f"{i.id} ({i.name})" for i in INVARIANTS)
    raise KeyError(f"no invariant {key!r} (expected one of: {known})")


@dataclass
class CheckReport:
    """Violations of one history, ordered I1..I13, then provider, then message index; plus notes."""

    providers: list[str]
    invariants: list[Invariant]
    violations: list[Violation] = field(default_factory=list[Violation])
    notes: list[str] = field(default_factory=list[str])

    @property
    def ok(self) -> bool:
        return not self.violations

    def of(self, invariant: str) -> list[Violation]:
        return [v for v in self.violations if v.invariant == invariant]


def run_invariants(
    history: Sequence[HistoryEvent],
    params: CallParams | None = None,
    *,
    target: Target | None = None,
    providers: Iterable[str] | None = None,
    invariants: Iterable[Invariant | str] | None = None,
    events: EventDeriver = derive_events,
    ui_events: UIEventDeriver = history_to_ui_events,
    next_turn: Continuation = next_turn,
) -> CheckReport:
    """Run invariants (all by default) for ``history`` on each provider of ``target`` (reference by default).

    ``events``, ``ui_events`` and ``next_turn`` replace the runtime event deriver, the
    history replay and I9's continuation (to check another implementation of them).
    """
    chosen = target or get_target("reference")
    chosen_providers = list(providers if providers is not None else chosen.providers())
    selected = [get_invariant(i) if isinstance(i, str) else i for i in (invariants or INVARIANTS)]
    report = CheckReport(chosen_providers, selected)
    seen: set[Violation] = set()
    for provider in chosen_providers:
        ctx = CheckContext(
            list(history), params or CallParams(), provider, chosen, events, ui_events, next_turn
        )
        refused = False
        for inv in selected:
            try:
                found = inv.check(ctx)
            except NotImplementedError as exc:
                ctx.note(f"{inv.id} skipped for {provider}: the target does not implement it ({exc})")
                continue
            except TargetRefusal as refusal:  # declared on purpose: one finding per provider, never a crash
                if refused:
                    ctx.note(f"{inv.id} skipped for {provider}: the target refused this input ({refusal})")
                    continue
                refused = True
                reason = f"the target refused this input: {refusal}"
                found = [Violation(inv.id, provider, None, reason, "", refusal_kind(refusal))]
            except Exception as exc:  # a crash in the target (or a check) is a finding, not a traceback
                reason = f"check could not run: {type(exc).__name__}: {exc}".splitlines()[0]
                found = [Violation(inv.id, provider, None, reason, "", "degrade")]
            for violation in found:
                if violation not in seen:
                    seen.add(violation)
                    report.violations.append(violation)
        report.notes += [n for n in ctx.all_notes() if n not in report.notes]
    report.violations.sort(
        key=lambda v: (_ORDER.get(v.invariant, 99), v.provider or "", v.message_index or -1)
    )
    return report

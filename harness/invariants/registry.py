"""The invariants (ids and names pinned in DESIGN.md): one entry each, and running them over a history.

Each invariant is a named, reusable check: ``check(CheckContext) -> list[Violation]``.
``INVARIANTS`` is the one list: ``harness check``, ``run_invariants``, the audit's columns,
``harness.testing``'s tests and ``docs/invariants.md`` all read it. An entry also says what
the check needs in a history (``subject``), whether its verdict rests on the target's stream
parser (``streams``) and whether it reports the provider hard rules (``rules``), so nothing
outside this table knows an invariant by its id.

Checks load on first use (``_Lazy``): importing the registry reads ids and names only, and
a check module that fails to import fails the first run that needs it (the audit loads them
all at its start, ``harness.audit.invariant_checks.load_runner``). ``run_invariants`` runs any
of them for one history over a target's providers, turning a check that crashes into a
violation (a target must never crash on a valid history) and dropping duplicates
(history-side findings do not depend on the provider).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib import import_module
from typing import Any

from harness.contract.events import derive_events
from harness.contract.target import TargetRefusal, refusal_kind
from harness.invariants import subjects
from harness.invariants.base import CheckContext, Continuation, EventDeriver, UIEventDeriver, Violation
from harness.invariants.continuation import next_turn
from harness.invariants.provider_rules import rule_violations
from harness.invariants.replay_events import history_to_ui_events
from harness.invariants.subjects import Subject
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.targets import Target, get_target
from harness.workers import ordered_map

__all__ = [
    "INVARIANTS",
    "CheckContext",
    "CheckReport",
    "Invariant",
    "Violation",
    "get_invariant",
    "load_checks",
    "run_invariants",
]

Check = Callable[[CheckContext], list[Violation]]


class _Lazy:
    """A function of a module of ``harness.invariants``, imported on its first call."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name
        self._loaded: Callable[..., Any] | None = None

    def load(self) -> Callable[..., Any]:
        loaded = self._loaded
        if loaded is None:
            loaded = self._loaded = getattr(import_module(f"harness.invariants.{self.module}"), self.name)
        return loaded

    def __call__(self, *args: Any) -> Any:
        return self.load()(*args)

    def __repr__(self) -> str:
        return f"harness.invariants.{self.module}.{self.name}"


class _WithRules:
    """An invariant's own check after the provider hard rules it reports (``Rule.invariant``)."""

    def __init__(self, invariant: str, own: Check) -> None:
        self.invariant, self.own = invariant, own

    def __call__(self, ctx: CheckContext) -> list[Violation]:
        return rule_violations(ctx, self.invariant) + self.own(ctx)


@dataclass(frozen=True)
class Invariant:
    """A pinned id (``I1``...), its pinned name, one line on what it demands, and its check."""

    id: str
    name: str
    description: str
    check: Check = field(repr=False, compare=False)
    #: One line on why a violation matters, in the provider's and the user's terms.
    why: str = ""
    #: Why a history gives the check nothing to judge (a pass would be empty, so it is a skip).
    subject: Subject | None = field(default=None, repr=False, compare=False)
    #: The verdict on a target rests on its parser reading emitted streams: it judges nothing
    #: on a history none of whose assistant messages has the provider's stream form.
    streams: bool = False
    #: It reports the provider hard rules whose ``Rule.invariant`` is its id, before its own findings.
    rules: bool = False
    #: What the history alone breaks of the rule (no target involved): a history that breaks it
    #: cannot judge a target, so ``harness.testing`` plans no test for it.
    history_rule: Callable[[Sequence[HistoryEvent]], list[Violation]] | None = field(
        default=None, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if self.rules and not isinstance(self.check, _WithRules):
            object.__setattr__(self, "check", _WithRules(self.id, self.check))


INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "I1",
        "developer-degradation",
        "developer text is appended (with a trailing newline) to the preceding user/tool message, "
        "else sent as a user message; UI-only fields are never sent",
        _Lazy("developer", "check_developer_degradation"),
        "a dropped reminder is an instruction the model never sees; a misplaced one changes what it reads as the user's",
        subject=subjects.developer_messages,
    ),
    Invariant(
        "I2",
        "thinking-pairing",
        "each native thinking/signature pair is sent as one native unit, byte-exact; "
        "no foreign, unsigned or empty signature is sent",
        _Lazy("thinking", "check_thinking_pairing"),
        "Anthropic and Gemini 3 reject altered or foreign signatures (400); dropped native reasoning costs the model its chain of thought",
        subject=subjects.thinking,
    ),
    Invariant(
        "I3",
        "one-assistant-per-call",
        "one assistant message per model call, with usage and stop_reason, however the stream ends",
        _Lazy("assistant", "check_one_assistant_per_call"),
        "a stream that ends without saying how (no usage, a stop reason that lies) hides a cut answer from the user",
        streams=True,
        history_rule=_Lazy("assistant", "history_violations"),
    ),
    Invariant(
        "I4",
        "tool-result-text",
        "a tool's output_text is sent exactly once, as its result's own text",
        _Lazy("tool_text", "check_tool_result_text"),
        "tool output that is missing or duplicated is evidence the model never saw, or saw twice",
        subject=subjects.tool_results,
    ),
    Invariant(
        "I5",
        "interrupt-semantics",
        "aborted turns and tool results replay as an interrupt; an aborted tool shows as status error",
        _Lazy("interrupts", "check_interrupt_semantics"),
        "an interrupt shown as a normal end (or a failure shown as success) misleads the user and the model",
        subject=subjects.failures_or_interrupts,
    ),
    Invariant(
        "I6",
        "event-order",
        "start before delta, one end, text ends before a tool-call start, "
        "one response_complete per completed response and none on cancel",
        _Lazy("event_order", "check_event_order"),
        "UI consumers rely on start/delta/end order; a missing end leaves a spinner running, a late completion lies about a cancel",
        streams=True,
    ),
    Invariant(
        "I7",
        "tool-pairing",
        "every tool call sent has exactly one result with the same id, in call order; ids kept verbatim or warned",
        _Lazy("tools", "check_tool_pairing"),
        "providers reject unanswered calls and orphan results (400); a result sent to the wrong call answers the wrong question",
        subject=subjects.tool_calls,
        rules=True,
    ),
    Invariant(
        "I8",
        "provider-shape",
        "role alternation where required, the system prompt exactly once, no empty blocks, no nulls",
        _Lazy("shape", "check_provider_shape"),
        "providers reject system messages in the conversation and empty blocks; a dropped system prompt changes the model's instructions",
        rules=True,
    ),
    Invariant(
        "I9",
        "prefix-stability",
        "appending a turn keeps the previous request's messages (all but the last) and system byte-identical",
        _Lazy("prefix", "check_prefix_stability"),
        "a moved prefix invalidates the provider's prompt cache: every turn pays for the whole conversation again",
    ),
    Invariant(
        "I10",
        "determinism",
        "the same history renders byte-identical requests and warnings, also from a copy",
        _Lazy("determinism", "check_determinism"),
        "a request that differs between runs cannot be cached, reviewed or reproduced",
    ),
    Invariant(
        "I11",
        "round-trips",
        "codec encode/decode identity; parse(emit(message)) == message; chunk boundaries change nothing",
        _Lazy("round_trips", "check_round_trips"),
        "what the parser loses on the way back is lost from the history for every later turn",
        streams=True,
    ),
    Invariant(
        "I12",
        "schema-conformance",
        "the request validates against the provider's published schema and the official SDK's types",
        _Lazy("schema", "check_schema_conformance"),
        "the provider answers a request outside its schema with a 400",
        rules=True,
    ),
    Invariant(
        "I13",
        "no-silent-loss",
        "every canonical part is in the request or named by a warning with its message index",
        _Lazy("loss", "check_no_silent_loss"),
        "a part dropped without a word is content the user believes the model saw",
    ),
    Invariant(
        "I14",
        "files",
        "every file (document, audio, video, file reference) reaches the request in history order, or a "
        "warning names it; a tool result's files and structured value reach it",
        _Lazy("files", "check_files"),
        "a document, recording or clip the model never received is one the user believes it read; "
        "a structured result flattened away loses the fields the tool returned",
        subject=subjects.files,
    ),
    Invariant(
        "I15",
        "sources-reach-the-message",
        "every source or citation a provider stream carries is in the parsed assistant message",
        _Lazy("sources", "check_sources_reach_the_message"),
        "a grounded answer whose citations are dropped reads as the model's own claim (seed 004's "
        "'grounding citations are sent but silently dropped')",
        subject=subjects.sources,
        streams=True,
    ),
    Invariant(
        "I16",
        "provider-executed-calls",
        "a server tool's call keeps its result and both go back byte-exact to their provider; "
        "never sent as a client tool call or result",
        _Lazy("server_tools", "check_provider_executed_calls"),
        "a server tool's block altered or dropped loses what the provider found (or is refused); sent as "
        "a client call, it asks the client for a result it never produced",
        subject=subjects.server_tools,
    ),
    Invariant(
        "I17",
        "cache-breakpoints",
        "every prompt-cache breakpoint reaches the provider's marker after the block it ends, or is warned",
        _Lazy("cache", "check_cache_breakpoints"),
        "a dropped or moved breakpoint makes every later call pay for the whole prefix again",
        subject=_Lazy("cache", "history_breakpoints"),
    ),
    Invariant(
        "I18",
        "call-controls",
        "every call control set (sampling, stop, tool choice, tier, cache key, state) is sent at the "
        "field the provider reads, or warned",
        _Lazy("controls", "check_call_controls"),
        "a control under a name the provider ignores is silently not applied: the model answers as if it were never set",
    ),
)


def load_checks(invariants: Iterable[Invariant] = INVARIANTS) -> None:
    """Import every check now (the first run would otherwise), so a broken one fails up front."""
    for inv in invariants:
        check = inv.check.own if isinstance(inv.check, _WithRules) else inv.check
        for lazy in (check, inv.history_rule):
            if isinstance(lazy, _Lazy):
                lazy.load()


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
    """Violations of one history, in registry order, then provider, then message index; plus notes."""

    providers: list[str]
    invariants: list[Invariant]
    violations: list[Violation] = field(default_factory=lambda: [])
    notes: list[str] = field(default_factory=lambda: [])

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
    jobs: int = 1,
) -> CheckReport:
    """Run invariants (all by default) for ``history`` on each provider of ``target`` (reference by default).

    ``events``, ``ui_events`` and ``next_turn`` replace the runtime event deriver, the
    history replay and I9's continuation (to check another implementation of them).
    ``jobs`` processes share the providers (``harness.workers``: each builds only its
    providers' oracles); their findings are merged in provider order, so the report is the
    same for any ``jobs``.
    """
    chosen = target or get_target("reference")
    chosen_providers = list(providers if providers is not None else chosen.providers())
    selected = [get_invariant(i) if isinstance(i, str) else i for i in (invariants or INVARIANTS)]
    report = CheckReport(chosen_providers, selected)
    judge = partial(_run_provider, list(history), params, chosen, selected, events, ui_events, next_turn)
    seen: set[Violation] = set()
    for found, notes in ordered_map(judge, chosen_providers, jobs):
        for violation in found:
            if violation not in seen:
                seen.add(violation)
                report.violations.append(violation)
        report.notes += [n for n in notes if n not in report.notes]
    report.violations.sort(
        key=lambda v: (_ORDER.get(v.invariant, 99), v.provider or "", v.message_index or -1)
    )
    return report


def _run_provider(
    history: list[HistoryEvent],
    params: CallParams | None,
    target: Target,
    selected: list[Invariant],
    events: EventDeriver,
    ui_events: UIEventDeriver,
    next_turn: Continuation,
    provider: str,
) -> tuple[list[Violation], list[str]]:
    """One provider's findings, in the order found, and its notes (``run_invariants`` merges them)."""
    ctx = CheckContext(list(history), params or CallParams(), provider, target, events, ui_events, next_turn)
    out: list[Violation] = []
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
        out += found
    return out, list(ctx.all_notes())

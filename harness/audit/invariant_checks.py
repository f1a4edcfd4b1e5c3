"""The invariants as audit checks, one per entry of the registry (``harness.invariants.INVARIANTS``).

Only violations attributed to a provider count against the target; a violation of the
history itself (provider None, e.g. a generated assistant message without usage) makes
that check skip for the case, since the input, not the target, broke the rule. What an
invariant needs of a history and whether it reads streams are its registry entry's
(``subject``, ``streams``, ``history_rule``), so this module knows no invariant by its id.

A judge that cannot be imported is an error (``JudgeUnavailable``, naming the cause),
never a run that quietly judges less: ``load_runner`` imports every check before the run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harness.audit.model import Outcome
from harness.contract.kinds import Kind
from harness.contract.rendered import Rendered
from harness.contract.target import Target, TargetRefusal
from harness.invariants.registry import INVARIANTS, Invariant
from harness.model import AssistantMessage, HistoryEvent
from harness.params import CallParams

if TYPE_CHECKING:
    from harness.invariants import Violation

__all__ = [
    "INVARIANT_IDS",
    "PARSER_INVARIANTS",
    "InvariantRunner",
    "JudgeUnavailable",
    "load_runner",
    "nothing_to_judge",
]

#: The audit's invariant columns, in registry order.
INVARIANT_IDS: tuple[str, ...] = tuple(inv.id for inv in INVARIANTS)
#: The invariants that judge the target's own stream parser (``Invariant.streams``): reported as not
#: run for a target that declares it has none (``lacks`` ``parser``).
PARSER_INVARIANTS: tuple[str, ...] = tuple(inv.id for inv in INVARIANTS if inv.streams)
_BY_ID: dict[str, Invariant] = {inv.id: inv for inv in INVARIANTS}
#: The case id of the history-independent stream probes, run once per provider.
PROBE_CASE = "probe/stream-endings"
#: A check of one case: the history, its params, the provider, the target, the target's first
#: render of the case, and what the checks of the case share (``InvariantRunner.run``).
Check = Callable[[Sequence[HistoryEvent], CallParams, str, Target, Rendered, dict[str, Any]], Outcome]


class JudgeUnavailable(RuntimeError):
    """The invariant registry (a judge) failed to import; ``str()`` is one line with the cause."""


@dataclass
class InvariantRunner:
    """Runs every invariant for one (history, params, provider) and maps violations to outcomes."""

    checks: dict[str, Check]
    #: I3's history-independent probes (HTTP 500, empty body) for one provider.
    probe: Callable[[str, Target], Outcome]

    def run(
        self,
        history: Sequence[HistoryEvent],
        params: CallParams,
        provider: str,
        target: Target,
        first: Rendered,
        only: Sequence[str] = INVARIANT_IDS,
    ) -> dict[str, Outcome]:
        """The outcome of each invariant in ``only`` (all of them by default), in id order.

        Targets are pure, so the checks of one case share what they would each compute
        alike: the target's ``first`` render and the context cache (the provider rules'
        findings on that body, the target's replay of each emitted stream in each
        chunking), as ``harness.invariants.run_invariants`` shares one context among all
        checks. Each check keeps its own notes and stream bookkeeping, which decide its
        skip reasons.
        """
        shared: dict[str, Any] = {}
        return {
            inv_id: self.run_one(inv_id, history, params, provider, target, first, shared)
            for inv_id in INVARIANT_IDS
            if inv_id in only
        }

    def run_one(
        self,
        inv_id: str,
        history: Sequence[HistoryEvent],
        params: CallParams,
        provider: str,
        target: Target,
        first: Rendered,
        shared: dict[str, Any] | None = None,
    ) -> Outcome:
        check = self.checks[inv_id]
        try:
            return check(history, params, provider, target, first, {} if shared is None else shared)
        except NotImplementedError as exc:
            return Outcome.skip(f"unsupported: {exc}")
        except TargetRefusal as refusal:  # declared on purpose: ``render`` reports it once
            return Outcome.skip(f"the target refused this input: {refusal}")
        except Exception as exc:  # a crash in the target or the check is a finding
            return Outcome.fail(f"check could not run: {type(exc).__name__}: {exc}".splitlines()[0])


def _registry_check(invariant: Invariant) -> Check:
    def run(
        history: Sequence[HistoryEvent],
        params: CallParams,
        provider: str,
        target: Target,
        first: Rendered,
        shared: dict[str, Any],
    ) -> Outcome:
        from harness.invariants import CheckContext

        ctx = CheckContext(
            list(history), params, provider, target, probes=False, cache=shared, _rendered=first
        )
        violations = invariant.check(ctx)
        found: list[tuple[Kind, str]] = [(v.kind, _line(v)) for v in violations if v.provider]
        if found:
            return Outcome.failures(found)
        if violations:  # only the history itself breaks the rule: no verdict on the target
            return Outcome.skip(f"the history itself breaks {invariant.id}, so it cannot judge the target")
        vacuous = _vacuous(invariant.id, history, provider, ctx.stream_skips) or _unjudged(ctx.notes)
        return Outcome.skip(vacuous) if vacuous else Outcome.ok()

    return run


def _unjudged(notes: Sequence[str]) -> str | None:
    """Why a clean check judged only part of what it claims (a missing SDK oracle), or None."""
    from harness.invariants.schema import SDK_SKIPPED

    return next((note for note in notes if note.startswith(SDK_SKIPPED)), None)


def _line(violation: Violation) -> str:
    return f"{violation}" + (f" | example: {violation.example}" if violation.example else "")


def _absent(check: str, history: Sequence[HistoryEvent]) -> str | None:
    """Why a check has nothing of its subject in this history (so a pass would be empty), or None."""
    subject = _BY_ID[check].subject
    return subject(history) if subject is not None else None


def _vacuous(check: str, history: Sequence[HistoryEvent], provider: str, skips: dict[int, str]) -> str | None:
    """Why a check judged nothing of the target on this case (a skip, never a pass), or None."""
    absent = _absent(check, history)
    if absent is not None:
        return absent
    if not _BY_ID[check].streams:
        return None
    assistants = [n for n, e in enumerate(history) if isinstance(e, AssistantMessage)]
    if not assistants:
        return "no assistant message in the history to stream"
    if all(n in skips for n in assistants):
        return f"no assistant message has a {provider} stream form ({skips[assistants[0]]})"
    return None


def nothing_to_judge(check: str, history: Sequence[HistoryEvent], provider: str) -> str | None:
    """Why ``check`` can judge no target on this history for ``provider``, decided from the history alone.

    The target-independent part of what makes a check skip at run time: its subject is
    absent, the history itself breaks I3, or no assistant message has a stream form in the
    provider's emitted SSE (the emitters are the harness's own). ``harness.testing``
    generates no test for such a (provider, case, check), so no test id is vacuous; what
    only a run can tell (a target's NotImplementedError, a missing SDK oracle) still skips.
    """
    absent = _absent(check, history)
    if absent is not None:
        return absent
    history_rule = _BY_ID[check].history_rule
    if history_rule is not None and history_rule(history):
        return f"the history itself breaks {check}, so it cannot judge the target"
    if not _BY_ID[check].streams:
        return None
    assistants = [e for e in history if isinstance(e, AssistantMessage)]
    if not assistants:
        return "no assistant message in the history to stream"
    reasons = [_stream_skip_reason(provider, message) for message in assistants]
    if all(reasons):
        return f"no assistant message has a {provider} stream form ({reasons[0]})"
    return None


#: ``stream_skip_reason`` by (provider, message as JSON): the stream checks (I3, I6, I11) ask the same
#: question of the same messages, and emitting a stream to answer it is the costly part of a plan.
_STREAM_REASONS: dict[tuple[str, str], str | None] = {}
_STREAM_REASONS_LIMIT = 8192


def _stream_skip_reason(provider: str, message: AssistantMessage) -> str | None:
    from harness.invariants.streams import stream_skip_reason

    key = (provider, message.model_dump_json())
    if key not in _STREAM_REASONS:
        if len(_STREAM_REASONS) >= _STREAM_REASONS_LIMIT:
            _STREAM_REASONS.clear()
        _STREAM_REASONS[key] = stream_skip_reason(provider, message)
    return _STREAM_REASONS[key]


def _probe(provider: str, target: Target) -> Outcome:
    from harness.invariants import CheckContext, get_invariant

    violations = get_invariant("I3").check(CheckContext([], CallParams(), provider, target))
    return Outcome.failures([(v.kind, _line(v)) for v in violations if v.provider])


def load_runner() -> InvariantRunner:
    """The registry's invariants, every check imported; JudgeUnavailable (with the cause chained)
    when the registry or a check cannot load."""
    try:
        from harness.invariants import INVARIANTS as registered
        from harness.invariants.registry import load_checks

        load_checks(registered)
    except Exception as exc:
        raise JudgeUnavailable(
            f"harness.invariants failed to import, so no invariant can judge: {type(exc).__name__}: {exc}"
        ) from exc
    return InvariantRunner({inv.id: _registry_check(inv) for inv in registered}, probe=_probe)

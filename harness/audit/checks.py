"""The audit's own checks: a case renders, a cassette replays (whole, chunked, like the reference).

``render`` fails when the target raises for a valid history; every other request check
then skips. A declared refusal (``TargetRefusal``) is reported as one: ``policy``, or
``reject`` when the target cites the provider's 4xx, never as a crash. ``replay`` demands what DESIGN asks of an output adapter (one final message
with usage and a stop reason consistent with the errors and tool calls, and no token
count the response never carried: ``degrade``, invented data);
``replay-chunks`` that chunk boundaries change nothing; ``replay-vs-reference`` that the
text, thinking, signatures, tool calls, stop reason and token counts agree with the
reference parser, which is itself checked against the official SDKs' accumulation.
A target that declares no stream parser (``lacks`` ``parser``) is never replayed: the replay
checks and the invariants that judge its parser (``PARSER_INVARIANTS``) are skipped with the
reason, so no other parser's verdict is reported as the target's.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.audit.corpus import CassetteCase, RequestCase
from harness.audit.invariant_checks import INVARIANT_IDS, InvariantRunner
from harness.audit.model import Json, Outcome, Record
from harness.audit.replay_summary import compare, summarize
from harness.contract.channels import render_heard
from harness.contract.kinds import Kind
from harness.contract.results import CallResult
from harness.contract.target import Target, TargetRefusal, parser_missing, refusal_kind
from harness.contract.usage import invented_usage
from harness.kit.netguard import OfflineGuard, offline

__all__ = ["CHUNK_SIZE", "REPLAY_CHECKS", "REQUEST_CHECKS", "check_replay", "check_request"]

REQUEST_CHECKS: tuple[str, ...] = ("render", *INVARIANT_IDS)
REPLAY_CHECKS: tuple[str, ...] = ("replay", "replay-chunks", "replay-vs-reference")
#: An odd chunk size splits events, lines and UTF-8 sequences at many different offsets.
CHUNK_SIZE = 7


def _raised(exc: Exception) -> str:
    return f"raised {type(exc).__name__}: {exc}".splitlines()[0]


def _offline_verdict(record: Record, guard: OfflineGuard, check: str) -> Record:
    """A target that reached for the network fails ``check`` with the guard's one line (host and
    target named), even when the code under audit swallowed the refusal and carried on."""
    if guard.attempts:
        record.checks[check] = Outcome.fail(guard.attempts[0])
    return record


def check_request(
    target: Target,
    provider: str,
    case: RequestCase,
    runner: InvariantRunner,
    only: Sequence[str] = REQUEST_CHECKS,
) -> Record:
    """Render ``case`` and run the checks in ``only`` (all request checks by default) on it, offline."""
    with offline(target.name) as guard:
        record = _check_request(target, provider, case, runner, only)
    return _offline_verdict(record, guard, "render")


def _check_request(
    target: Target, provider: str, case: RequestCase, runner: InvariantRunner, only: Sequence[str]
) -> Record:
    record = Record(provider, case.case, case.kind, case.size)
    params = case.params_for(provider)
    chosen = [name for name in REQUEST_CHECKS if name in only]
    try:
        first = render_heard(target, provider, list(case.history), params)
    except NotImplementedError as exc:
        record.checks = {name: Outcome.skip(f"unsupported: {exc}") for name in chosen}
        return record
    except TargetRefusal as refusal:  # declared on purpose: reported as such, never a crash
        record.checks = {name: Outcome.skip(f"the target refused this input: {refusal}") for name in chosen}
        record.checks["render"] = Outcome.fail(f"refused: {refusal}", kind=refusal_kind(refusal))
    except Exception as exc:
        record.checks = {name: Outcome.skip("the history did not render") for name in chosen}
        record.checks["render"] = Outcome.fail(_raised(exc))
    else:
        record.request = first.body
        record.checks["render"] = Outcome.ok()
        unjudged = _parser_checks(target, chosen)
        judged = [name for name in chosen if name not in unjudged]
        record.checks.update(runner.run(case.history, params, provider, target, first, only=judged))
        record.checks.update(unjudged)
        record.checks = {name: record.checks[name] for name in REQUEST_CHECKS if name in record.checks}
    if record.failed:
        record.example = case.example
    return record


def _parser_checks(target: Target, chosen: Sequence[str]) -> dict[str, Outcome]:
    """The skips of the chosen invariants that judge a stream parser the target declares it lacks."""
    missing = parser_missing(target)
    if missing is None:
        return {}
    from harness.audit.invariant_checks import PARSER_INVARIANTS  # the judges load when a check runs

    return {name: Outcome.skip(missing) for name in chosen if name in PARSER_INVARIANTS}


def _structure(result: CallResult, body: bytes) -> list[str]:
    message = result.message
    problems: list[str] = invented_usage(message.usage, body)
    if message.usage is None:
        problems.append("the final message has no usage")
    if message.stop_reason is None:
        problems.append("the final message has no stop_reason")
    if result.errors and message.stop_reason not in ("error", "aborted"):
        problems.append(f"errors were reported but stop_reason is {message.stop_reason!r}")
    if not result.errors and message.stop_reason == "error":
        problems.append("stop_reason is 'error' but no error event says why")
    return problems


def _replay_kind(line: str, target: Json, reference: Json) -> Kind:
    """Token counts, and ``stop`` vs ``tool_use`` on a turn whose calls agree, are bookkeeping (``policy``);
    text, thinking, signatures, calls, or a stop reason that hides an error are ``degrade``."""
    if line.startswith("usage:"):
        return "policy"
    stops = {target.get("stop_reason"), reference.get("stop_reason")}
    if line.startswith("stop_reason:") and stops <= {"stop", "tool_use"}:
        return "policy" if target.get("tool_calls") == reference.get("tool_calls") else "degrade"
    return "degrade"


def check_replay(target: Target, case: CassetteCase, reference: CallResult | None) -> Record:
    """Replay one recorded call through the target, whole and chunked, offline."""
    with offline(target.name) as guard:
        record = _check_replay(target, case, reference)
    return _offline_verdict(record, guard, "replay")


def _check_replay(target: Target, case: CassetteCase, reference: CallResult | None) -> Record:
    record = Record(case.provider, case.case, "cassette", case.size)
    missing = parser_missing(target)
    if missing is not None:
        record.checks = {name: Outcome.skip(missing) for name in REPLAY_CHECKS}
        return record
    try:
        whole = target.replay(case.provider, case.exchange)
    except NotImplementedError as exc:
        record.checks = {name: Outcome.skip(f"unsupported: {exc}") for name in REPLAY_CHECKS}
        return record
    except Exception as exc:
        record.checks = {name: Outcome.skip("the response did not replay") for name in REPLAY_CHECKS}
        record.checks["replay"] = Outcome.fail(_raised(exc))
        record.example = case.example
        return record
    summary = summarize(whole, case.exchange)
    record.replay = summary
    problems = _structure(whole, case.exchange.body)
    record.checks["replay"] = Outcome.fail(*problems) if problems else Outcome.ok()
    try:
        chunked = summarize(target.replay(case.provider, case.exchange, CHUNK_SIZE), case.exchange)
        diff = compare(chunked, summary)
        record.checks["replay-chunks"] = (
            Outcome.fail(*(d.replace("reference", "whole body", 1) for d in diff)) if diff else Outcome.ok()
        )
    except Exception as exc:
        record.checks["replay-chunks"] = Outcome.fail(_raised(exc))
    if reference is None:
        record.checks["replay-vs-reference"] = Outcome.skip(
            "the reference parser could not replay this response"
        )
    else:
        keys = ("signatures", "stop_reason", "text", "thinking", "tool_calls", "usage")
        ref = summarize(reference, case.exchange)
        diff = compare(summary, ref, keys)
        record.checks["replay-vs-reference"] = Outcome.failures(
            [(_replay_kind(d, summary, ref), d) for d in diff]
        )
    if record.failed:
        record.example = case.example
    return record

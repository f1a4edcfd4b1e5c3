"""Run an audit: every request case and cassette through the target, checked, in a fixed order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from harness.audit.checks import REPLAY_CHECKS, REQUEST_CHECKS, check_replay, check_request
from harness.audit.corpus import CASSETTES, cassette_cases, request_cases
from harness.audit.generated import generated_histories
from harness.audit.invariant_checks import PROBE_CASE, load_runner
from harness.audit.model import DEFAULT_EXAMPLES, AuditResult, Outcome, Record
from harness.contract.exchange import Exchange
from harness.contract.results import CallResult
from harness.contract.target import parser_missing
from harness.targets import Target, get_target

__all__ = ["DEFAULT_EXAMPLES", "reference_replay", "run_audit"]


def reference_replay(provider: str, exchange: Exchange) -> CallResult | None:
    """The reference parser's reading of a recorded response, or None where it cannot read it."""
    try:
        return get_target("reference").replay(provider, exchange)
    except Exception:  # the reference cannot replay it: the comparison is skipped, not failed
        return None


def _no_progress(done: int, total: int) -> None:
    """No progress bar."""


def run_audit(
    target: Target,
    providers: Sequence[str] | None = None,
    *,
    examples: int = DEFAULT_EXAMPLES,
    model: str | None = None,
    cassettes: Path | None = CASSETTES,
    progress: Callable[[str], None] | None = None,
    advance: Callable[[int, int], None] = _no_progress,
) -> AuditResult:
    """Audit ``target`` for ``providers`` (all it implements by default); ``model`` overrides every case's.

    ``progress(line)`` hears each stage in a line; ``advance(done, total)`` every case (a
    progress bar: the total grows by the cassettes once they are read).
    """
    chosen = list(providers if providers is not None else target.providers())
    runner = load_runner()
    missing = parser_missing(target)
    notes: list[str] = []
    records: list[Record] = []
    cases = request_cases(generated_histories(examples), model)
    done, total = 0, len(cases) * len(chosen)
    for provider in chosen:
        if progress:
            progress(f"{provider}: {len(cases)} histories")
        for case in cases:
            records.append(check_request(target, provider, case, runner))
            done += 1
            advance(done, total)
        # history-independent: once per provider, not once per case
        outcome = Outcome.skip(missing) if missing else runner.probe(provider, target)
        probe = Record(provider, PROBE_CASE, "probe", 0, {"I3": outcome})
        if probe.failed:
            probe.example = "an HTTP 500 response and an empty 200 stream, replayed by the target"
        records.append(probe)
    checks = list(REQUEST_CHECKS)
    unreadable: list[str] = []
    if cassettes is not None and cassettes.is_dir():
        checks += REPLAY_CHECKS
        replays, unreadable = cassette_cases(cassettes, chosen)
        notes += [f"unreadable cassette skipped: {line}" for line in unreadable]
        if progress:
            progress(f"{len(replays)} recorded model calls")
        total += len(replays)
        for replay in replays:
            reference = None if missing else reference_replay(replay.provider, replay.exchange)
            records.append(check_replay(target, replay, reference))
            done += 1
            advance(done, total)
    else:
        notes.append(f"cassette replays skipped: no cassette directory at {cassettes}")
    order = {p: n for n, p in enumerate(chosen)}
    records.sort(key=lambda r: (order[r.provider], r.case))
    version = target.version
    return AuditResult(
        target=target.name,
        version=None if version is None else str(version),
        providers=chosen,
        checks=checks,
        records=records,
        notes=notes,
        options={"examples": examples, "model": model},
        unreadable=unreadable,
    )

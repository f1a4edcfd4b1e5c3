"""``harness audit-traffic``: audit whatever produced some recorded traffic, with no bridge.

Why from traffic: every library's test suite records its real requests (vcrpy cassettes,
HAR exports); the bytes it sent are the truth about its mapping, and consecutive calls of
one cassette are real agent loops. Two sets of checks:

- on every model request: the schema oracles and the provider rules (``reject`` checks
  are calibrated quiet on accepted requests; ``degrade`` rules too); a recorded 4xx is
  shown with the check that explains it, or classified, or marked unexplained
  (``calibrate.rejection_verdict``). A ``reject`` verdict on a request the API answered
  2xx is not a finding: the API's answer outranks the check, so it is an oracle
  disagreement, reported in its own section and count;
- on every consecutive pair of model calls in one cassette: the continuity checks
  (``continuity.py``).

Calls that are not model calls (by URL: ``harness.contract.routing``), and calls to hosts
of providers the harness has no id for yet (``pending.py``), are skipped and listed with
why; an unreadable file or interaction is one line, and the run goes on. Findings are one
per request and check, with the number of places (``findings.one_per_check``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from harness.contract.kinds import DEFAULT_FAIL_ON, Kind
from harness.oracles import PROVIDERS, validate
from harness.traffic.cache import cache_tokens
from harness.traffic.calibrate import (
    EDITED_REASON,
    error_text,
    label,
    oracle_view,
    rejection_verdict,
    rule_findings,
)
from harness.traffic.continuity import PairResult, check_pair
from harness.traffic.dialect_views import core_error
from harness.traffic.evidence import pasted_response
from harness.traffic.findings import TrafficFinding, one_per_check
from harness.traffic.hosts import HostMap
from harness.traffic.loader import EDITED, RecordedCall, load_file
from harness.traffic.not_judged import not_judged
from harness.traffic.pending import pending_provider
from harness.traffic.replies import read_reply
from harness.traffic.shares import file_shares
from harness.traffic.spool import Rows, temporary_spool

__all__ = [
    "BaselineError",
    "SpooledAudit",
    "TrafficAudit",
    "audit_file",
    "audit_traffic",
    "load_baseline",
    "spool_traffic",
]

#: Per-provider counters, in report order.
FIGURES: tuple[str, ...] = (
    "requests",
    "accepted",
    "rejected",
    "disagreements",
    "pairs",
    "continuations",
    "reasoning",
    "reasoning_exact",
    "reasoning_reencoded",
    "reasoning_by_reference",
    "tool_calls",
    "tool_calls_answered",
    "texts",
    "texts_kept",
    "prefixes",
    "prefixes_stable",
    "cache_prefixes",
    "cache_prefixes_kept",
    "cache_read_tokens",
    "cache_write_tokens",
)
_ORACLE_WHY = "the provider's published schema or official SDK types do not allow this shape"


class BaselineError(ValueError):
    """An unreadable baseline; ``str()`` is one line naming the file."""


@dataclass(frozen=True)
class Rejection:
    """A recorded 4xx: the API's words and what explains them."""

    where: str
    provider: str
    status: int
    verdict: str  # caught | classified | unexplained
    by: tuple[str, ...]
    reason: str
    error: str


@dataclass
class TrafficAudit:
    findings: list[TrafficFinding] = field(default_factory=lambda: [])
    #: ``reject`` verdicts on requests the API accepted (2xx): evidence against the check, not
    #: findings against the audited project (a calibration miss, see ``harness calibrate``).
    disagreements: list[TrafficFinding] = field(default_factory=lambda: [])
    rejections: list[Rejection] = field(default_factory=lambda: [])
    figures: dict[str, dict[str, int]] = field(default_factory=lambda: {})
    #: Calls not judged, with why (not a model call, no body, 5xx, unreadable response).
    skipped: list[str] = field(default_factory=lambda: [])
    unreadable: list[str] = field(default_factory=lambda: [])
    #: How a call was read when not the usual way (``file#n: routed by the body's shape``).
    notes: list[str] = field(default_factory=lambda: [])
    files: int = 0

    def count(self, provider: str, name: str, n: int = 1) -> None:
        row = self.figures.setdefault(provider, dict.fromkeys(FIGURES, 0))
        row[name] += n

    def failing(
        self, fail_on: Iterable[Kind] = DEFAULT_FAIL_ON, accepted: set[Any] | None = None
    ) -> list[TrafficFinding]:
        kinds, known = set(fail_on), accepted or set()
        return [f for f in self.findings if f.kind in kinds and f.key not in known]


def _request_findings(
    call: RecordedCall, provider: str, wire: str, body: dict[str, Any]
) -> list[TrafficFinding]:
    route = call.route
    assert route is not None
    oracle_provider, view = oracle_view(route, body, call.uri)
    report = validate(oracle_provider, view, host=urlsplit(call.uri).hostname)
    found = [
        TrafficFinding(f"oracle:{e.oracle}", "reject", call.file, call.index, provider, e.path, e.message,
                       _ORACLE_WHY, call.status)
        for e in report.errors
        if core_error(route, e.path, e.message, body)
    ]  # fmt: skip
    found += [
        TrafficFinding(
            f"rule:{f.rule}", f.kind, call.file, call.index, provider, f.path, f.message, f.why, call.status
        )
        for f in rule_findings(route, body, call.uri)
    ]
    return found


def _add_pair(result: TrafficAudit, provider: str, pair: PairResult) -> None:
    result.count(provider, "pairs")
    if not pair.continuation:
        return
    result.count(provider, "continuations")
    for name in FIGURES[FIGURES.index("reasoning") : FIGURES.index("cache_read_tokens")]:
        result.count(provider, name, cast(int, getattr(pair, name)))
    result.findings += pair.findings


def _audit_file(path: Path, result: TrafficAudit, hosts: HostMap | None = None) -> None:
    previous: tuple[RecordedCall, dict[str, Any]] | None = None
    for call in load_file(path, hosts):
        route = call.route
        if call.note is not None:
            result.notes.append(f"{call.where}: {call.note}")
        pending = (
            (pending_provider(call.uri) or not_judged(call.method, call.uri, call.body)) if call.uri else None
        )
        if pending is not None:
            result.skipped.append(f"{call.where}: {pending}")
            previous = None
            continue
        if route is None:
            if call.problem and call.problem.startswith(("file:", "interaction:")):
                result.unreadable.append(f"{call.where}: {call.problem}")
            else:
                result.skipped.append(f"{call.where}: not a model call ({call.method} {call.uri})")
            continue
        provider, wire = label(route), route.wire
        raw: Any = call.body
        if call.problem == "request body: empty":
            result.skipped.append(f"{call.where}: no request body recorded")
            previous = None
            continue
        if call.problem is not None and call.problem.startswith(EDITED):
            result.skipped.append(f"{call.where}: {EDITED_REASON}")  # as calibrate: listed, not judged
            previous = None
            continue
        if call.problem is not None or not isinstance(raw, dict):
            result.unreadable.append(f"{call.where}: {call.problem}")
            previous = None
            continue
        pasted = pasted_response(call)
        if pasted is not None:  # as calibrate: listed, not judged; nor is the next call's continuity
            result.skipped.append(f"{call.where}: {pasted}")
            previous = None
            continue
        body = cast(dict[str, Any], raw)
        result.count(provider, "requests")
        findings = _request_findings(call, provider, wire, body)
        if _accepted(call.status):
            # The API took this body: a reject verdict on it is the check's miss, reported apart.
            # A judge that raised on the body is not a verdict: it stays a failing finding (loud).
            missed = [
                f for f in findings if f.kind == "reject" and "could not judge this body" not in f.message
            ]
            result.disagreements += missed
            result.count(provider, "disagreements", len({f.check for f in missed}))
            findings = [f for f in findings if f not in missed]
        result.findings += findings
        if 400 <= call.status < 500:
            result.count(provider, "rejected")
            by = tuple(sorted({f.check for f in findings if f.kind == "reject"}))
            verdict, reason = rejection_verdict(call, by)
            error = error_text(call.response)
            result.rejections.append(Rejection(call.where, provider, call.status, verdict, by, reason, error))
        elif _accepted(call.status):
            result.count(provider, "accepted")
            read, write = cache_tokens(call.response)
            result.count(provider, "cache_read_tokens", read or 0)
            result.count(provider, "cache_write_tokens", write or 0)
        else:
            result.skipped.append(f"{call.where}: HTTP {call.status} (neither accepted nor a 4xx)")
        before = previous[0].route if previous is not None else None
        if (
            previous is not None
            and before is not None
            and (before.provider, before.wire) == (route.provider, wire)
        ):
            reply = read_reply(wire, previous[0].response)
            if reply.problem:
                result.unreadable.append(f"{previous[0].where}: {reply.problem}")
            else:
                _add_pair(result, provider, check_pair(route.provider, wire, previous, reply, (call, body)))
        previous = (call, body) if _accepted(call.status) else None


def _accepted(status: int) -> bool:
    """The API accepted the request (any 2xx)."""
    return 200 <= status < 300


def audit_file(path: Path, hosts: HostMap | None = None) -> TrafficAudit:
    """One cassette's share of the audit (findings not yet merged per check: ``spool_traffic`` does
    that as the share arrives)."""
    part = TrafficAudit(files=1)
    _audit_file(path, part, hosts)
    return part


#: The lists of an audit, as a share is spooled.
LISTS: tuple[str, ...] = ("findings", "disagreements", "rejections", "skipped", "unreadable", "notes")


@dataclass(frozen=True)
class SpooledAudit:
    """The merged audit with every list on disk (``spool.Rows``: a length, and the items in order
    on each iteration) and only the counters in memory: what the command's reports are read from.
    Valid inside ``spool_traffic``'s block only."""

    findings: Rows[TrafficFinding]
    disagreements: Rows[TrafficFinding]
    rejections: Rows[Rejection]
    skipped: Rows[str]
    unreadable: Rows[str]
    notes: Rows[str]
    figures: dict[str, dict[str, int]]
    files: int


def _add_figures(figures: dict[str, dict[str, int]], part: dict[str, dict[str, int]]) -> None:
    for provider, row in part.items():
        mine = figures.setdefault(provider, dict.fromkeys(FIGURES, 0))
        for name, n in row.items():
            mine[name] += n


@contextmanager
def spool_traffic(
    paths: Iterable[str | Path],
    hosts: HostMap | None = None,
    *,
    jobs: int | None = 1,
    advance: Callable[[int, int], None] | None = None,
) -> Generator[SpooledAudit]:
    """Audit every cassette under ``paths`` (``hosts``: the user's host -> dialect mapping,
    ``harness.traffic.hosts``) into a temporary spool on disk, removed when the block ends;
    TrafficInputError for a missing path.

    ``jobs`` processes share the files (None: one per core, for enough files: ``harness.workers.jobs_for``);
    each file is judged alone (a pair of calls never spans two cassettes), and each share is
    spooled as it arrives, in file order, so the result is the same for any ``jobs``. Findings
    are one per request and check (``one_per_check``: its groups never span two files, so it
    runs on each share) and read back in ``TrafficFinding.sort_key`` order."""
    by_key = {name: TrafficFinding.sort_key for name in ("findings", "disagreements")}
    with temporary_spool(LISTS, by_key) as spool:
        figures: dict[str, dict[str, int]] = {}
        count = 0
        for part in file_shares(audit_file, paths, hosts, jobs, advance):
            count += part.files
            _add_figures(figures, part.figures)
            part.findings = one_per_check(part.findings)
            part.disagreements = one_per_check(part.disagreements)
            for name in LISTS:
                spool.add(name, getattr(part, name))
            del part  # on disk now: not one finding stays in this process's memory
        spool.finish()
        for provider in PROVIDERS:
            figures.setdefault(provider, dict.fromkeys(FIGURES, 0))
        yield SpooledAudit(
            spool.rows("findings"),
            spool.rows("disagreements"),
            spool.rows("rejections"),
            spool.rows("skipped"),
            spool.rows("unreadable"),
            spool.rows("notes"),
            figures,
            count,
        )


def audit_traffic(
    paths: Iterable[str | Path],
    hosts: HostMap | None = None,
    *,
    jobs: int | None = 1,
    advance: Callable[[int, int], None] | None = None,
) -> TrafficAudit:
    """``spool_traffic``'s audit read back into memory: every list whole, for a caller that
    needs them as lists (a test, a small corpus). The command reads the spool instead."""
    with spool_traffic(paths, hosts, jobs=jobs, advance=advance) as spooled:
        return TrafficAudit(
            list(spooled.findings),
            list(spooled.disagreements),
            list(spooled.rejections),
            spooled.figures,
            list(spooled.skipped),
            list(spooled.unreadable),
            list(spooled.notes),
            spooled.files,
        )


def load_baseline(path: Path) -> set[tuple[str, str, int, str]]:
    """The findings an earlier ``audit-traffic`` JSON report recorded: accepted when found again."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"{path}: unreadable ({exc})") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}:{exc.lineno}: not JSON ({exc.msg})") from None
    findings: Any = cast(dict[str, Any], data).get("findings") if isinstance(data, dict) else None
    if not isinstance(findings, list):
        raise BaselineError(f"{path}: findings: not an audit-traffic JSON report (no 'findings' list)")
    out: set[tuple[str, str, int, str]] = set()
    for raw in cast(list[Any], findings):
        f = cast(dict[str, Any], raw) if isinstance(raw, dict) else {}
        if isinstance(f.get("index"), int):
            out.add(
                (str(f.get("check", "")), str(f.get("file", "")), int(f["index"]), str(f.get("path", "")))
            )
    return out

"""``harness calibrate``: judge every recorded model request with the oracles and the rules.

Why: a check is only worth trusting if it is quiet on every request a real API accepted
(HTTP 200) and says something about the ones it rejected (4xx). For each recorded
model call this runs both schema oracles (``harness.oracles.validate``) and every
provider hard rule (``harness.rules.check_body``):

- 2xx: every ``reject`` check must pass; each failure is an oracle disagreement (a
  calibration miss: the API's answer outranks the check), listed in its own section and
  counted per provider, never a reject against whoever sent the request.
- 4xx: caught (by which check), classified (``explained.py``: not visible in the body),
  or unexplained (a missing check).

Judges only: never imports adapters or stream parsers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from harness.contract.providers import home_provider, wire_of
from harness.contract.routing import BEDROCK_INVOKE, VERTEX, Route
from harness.oracles import PROVIDERS, validate
from harness.rules import RuleFinding, check_body
from harness.rules.bedrock_invoke import check_invoke, invoke_view
from harness.rules.vertex import check_vertex
from harness.traffic.dialect_views import azure_view, bedrock_converse_model, core_error, dialect_rules
from harness.traffic.evidence import pasted_response
from harness.traffic.explained import explain
from harness.traffic.hosts import AZURE, COMPATIBLE, HostMap
from harness.traffic.loader import EDITED, RecordedCall, load_file
from harness.traffic.not_judged import not_judged
from harness.traffic.pending import pending_provider
from harness.traffic.shares import file_shares
from harness.traffic.spool import Groups, Rows, temporary_spool

__all__ = [
    "EDITED_REASON",
    "Calibration",
    "Failure",
    "Rejection",
    "SpooledCalibration",
    "calibrate",
    "calibrate_file",
    "error_text",
    "label",
    "oracle_view",
    "rejection_verdict",
    "rule_findings",
    "spool_calibration",
]


#: Top-level request fields a provider adds to another provider's wire, which that wire's oracles
#: do not know: OpenRouter's documented extensions (openrouter.ai/docs/api-reference/overview:
#: provider routing, model fallbacks, plugins, transforms, presets, usage accounting), accepted
#: on its Responses endpoint too (traffic/pydantic-ai/
#: models__test_openai_prompt_cache__test_openrouter_responses_prompt_cache_e2e.yaml#0).
_EXTENSIONS: dict[str, tuple[str, ...]] = {
    "openrouter": ("provider", "models", "plugins", "transforms", "preset", "usage", "route"),
}


def label(route: Route) -> str:
    """The provider a report counts a call under: its id, with the host's dialect when that is not the
    provider's own API (``openai-chat (azure)``, ``openai-chat (compatible)``: ``hosts.py``)."""
    return f"{route.provider} ({route.endpoint})" if route.endpoint in (AZURE, COMPATIBLE) else route.provider


def oracle_view(route: Route, body: dict[str, Any], uri: str = "") -> tuple[str, dict[str, Any]]:
    """The oracle provider id and body to judge a routed call with.

    A provider's endpoint for another wire (OpenRouter's and DeepSeek's Responses endpoints) has
    no oracle of its own: it is judged by the oracles of the wire's own provider (OpenAI's
    request types), minus the provider's documented top-level extensions. Bedrock's InvokeModel
    with an Anthropic model is judged as Anthropic's Messages body, its envelope off and the
    URL's model in (``harness.rules.bedrock_invoke``).
    """
    if route.endpoint == BEDROCK_INVOKE:
        return "anthropic", invoke_view(body, uri)
    if route.wire != wire_of(route.provider):
        extensions = _EXTENSIONS.get(route.provider, ())
        return home_provider(route.wire), {k: v for k, v in body.items() if k not in extensions}
    return route.provider, azure_view(route, body, uri)


def rule_findings(route: Route, body: dict[str, Any], uri: str) -> list[RuleFinding]:
    """Every provider rule on a routed call's body: for Bedrock's InvokeModel, the envelope rules
    on the body as sent, then Anthropic's rules on the Messages body inside it; on Vertex AI,
    Gemini's rules and Vertex's own (``harness.rules.vertex``)."""
    host = urlsplit(uri).hostname
    if route.endpoint == BEDROCK_INVOKE:
        view = invoke_view(body, uri)
        return check_invoke(body) + check_body(route.provider, view, wire=route.wire, host=host)
    found = check_body(
        route.provider,
        azure_view(route, body, uri),
        wire=route.wire,
        host=host,
        model=bedrock_converse_model(uri),
    )
    found += dialect_rules(route, uri)
    return found + check_vertex(body) if route.endpoint == VERTEX else found


@dataclass(frozen=True)
class Failure:
    """A check that failed a request the API accepted: an oracle disagreement (calibration miss)."""

    where: str
    provider: str
    check: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.where} {self.provider} {self.check} {self.path or '<root>'}: {self.message}"


@dataclass(frozen=True)
class Rejection:
    """A recorded 4xx and what explains it."""

    where: str
    provider: str
    status: int
    verdict: str  # caught | classified | unexplained
    by: tuple[str, ...]  # the checks that caught it
    reason: str  # the classification reason, or the API's error text when unexplained

    def __str__(self) -> str:
        detail = ", ".join(self.by) if self.verdict == "caught" else self.reason
        return f"{self.where} {self.provider} {self.status} {self.verdict}: {detail}"


@dataclass
class Calibration:
    accepted: dict[str, int] = field(default_factory=lambda: {})
    accepted_pass: dict[str, int] = field(default_factory=lambda: {})
    failures: list[Failure] = field(default_factory=lambda: [])
    rejections: list[Rejection] = field(default_factory=lambda: [])
    unreadable: list[str] = field(default_factory=lambda: [])
    #: Model calls not judged, with why (no request body recorded, 5xx, ...).
    skipped: list[str] = field(default_factory=lambda: [])
    #: Request bodies the recording shows were changed after the call (one line each, with the
    #: figures): not evidence of what the API took, so not judged and no failure of the run.
    edited: list[str] = field(default_factory=lambda: [])
    #: allowance id -> the calls (file#interaction) it was needed for.
    allowances: dict[str, list[str]] = field(default_factory=lambda: {})
    #: How a call was read when not the usual way (``file#n: routed by the body's shape``), one line each.
    notes: list[str] = field(default_factory=lambda: [])

    @property
    def ok(self) -> bool:
        return (
            not self.failures
            and not self.unreadable
            and all(r.verdict != "unexplained" for r in self.rejections)
        )

    @property
    def disagreements(self) -> list[Failure]:
        """The checks' ``reject`` verdicts on accepted requests (the same list as ``failures``)."""
        return self.failures

    def labels(self) -> list[str]:
        """Every provider id, then each host dialect judged apart (``openai-chat (azure)``...)."""
        seen = {*self.accepted, *(r.provider for r in self.rejections)}
        return [*PROVIDERS, *sorted(seen - set(PROVIDERS))]

    def summary(self, provider: str) -> dict[str, int]:
        mine = [r for r in self.rejections if r.provider == provider]
        return {
            "accepted": self.accepted.get(provider, 0),
            "accepted_pass": self.accepted_pass.get(provider, 0),
            "disagreements": len({(f.where, f.check) for f in self.failures if f.provider == provider}),
            "rejected": len(mine),
            "caught": sum(r.verdict == "caught" for r in mine),
            "classified": sum(r.verdict == "classified" for r in mine),
            "unexplained": sum(r.verdict == "unexplained" for r in mine),
        }

    def failing_calls(self) -> int:
        """The accepted requests with at least one oracle disagreement."""
        return len({f.where for f in self.failures})

    def skip_reasons(self) -> dict[str, int]:
        return _reasons(self.skipped)

    def lines(self) -> list[str]:
        return list(_lines(self))

    def to_json(self) -> dict[str, Any]:
        return _document(
            self,
            [vars(f) for f in self.failures],
            [{**vars(r), "by": list(r.by)} for r in self.rejections],
            {k: sorted(v) for k, v in sorted(self.allowances.items())},
        )


def _reasons(skipped: Iterable[str]) -> dict[str, int]:
    reasons: dict[str, int] = {}
    for line in skipped:
        reason = line.split(": ", 1)[-1]
        reasons[reason] = reasons.get(reason, 0) + 1
    return reasons


def _lines(c: Calibration | SpooledCalibration) -> Iterator[str]:
    """The text report of an in-memory or a spooled calibration (the same lines)."""
    if c.failures:
        yield (
            f"oracle disagreements: {len(c.failures)} reject verdict(s) on {c.failing_calls()} accepted "
            "request(s) (calibration misses: the checks are wrong, not the request)"
        )
        yield from (f"  {f}" for f in c.failures)
    yield from (str(r) for r in c.rejections)
    yield from (f"{u}" for u in c.unreadable)
    yield from (f"not judged: {e}" for e in c.edited)
    yield from (f"note: {n}" for n in c.notes)
    for p in c.labels():
        s = c.summary(p)
        missed = f", {s['disagreements']} oracle disagreement(s)" if s["disagreements"] else ""
        yield (
            f"{p}: accepted {s['accepted_pass']}/{s['accepted']} pass{missed}, rejected "
            f"{s['caught']}/{s['rejected']} caught, {s['classified']} classified"
            + (f", {s['unexplained']} UNEXPLAINED" if s["unexplained"] else "")
        )
    if c.skipped:
        yield f"not judged: {len(c.skipped)} call(s) (each in --json 'skipped'), by reason:"
        yield from (f"  {n} {reason}" for reason, n in sorted(c.skip_reasons().items()))


def _document(
    c: Calibration | SpooledCalibration, failures: Any, rejections: Any, allowances: Any
) -> dict[str, Any]:
    """The ``--json`` document; a spooled calibration's lists stay ``Rows`` (``spool.iter_json``)."""
    return {
        "providers": {p: c.summary(p) for p in c.labels()},
        "failures": failures,
        "disagreements": len(c.failures),
        "rejections": rejections,
        "unreadable": c.unreadable,
        "skipped": c.skipped,
        "edited": c.edited,
        "notes": c.notes,
        "allowances": allowances,
        "ok": c.ok,
    }


@dataclass(frozen=True)
class SpooledCalibration:
    """``Calibration`` with every list on disk (``spool.Rows``) and counters in memory (what its
    lines and summaries need, counted as each share arrives): what the command prints from.
    Valid inside ``spool_calibration``'s block only."""

    accepted: dict[str, int]
    accepted_pass: dict[str, int]
    failures: Rows[Failure]
    rejections: Rows[Rejection]
    unreadable: Rows[str]
    skipped: Rows[str]
    edited: Rows[str]
    notes: Rows[str]
    #: (allowance id, call) pairs, sorted.
    allowances: Rows[tuple[str, str]]
    tally: _Tally

    @property
    def ok(self) -> bool:
        return not self.failures and not self.unreadable and not self.tally.unexplained

    @property
    def disagreements(self) -> Rows[Failure]:
        return self.failures

    def labels(self) -> list[str]:
        seen = {*self.accepted, *self.tally.rejected}
        return [*PROVIDERS, *sorted(seen - set(PROVIDERS))]

    def summary(self, provider: str) -> dict[str, int]:
        t = self.tally
        return {
            "accepted": self.accepted.get(provider, 0),
            "accepted_pass": self.accepted_pass.get(provider, 0),
            "disagreements": t.disagreeing.get(provider, 0),
            "rejected": t.rejected.get(provider, 0),
            "caught": t.verdicts.get((provider, "caught"), 0),
            "classified": t.verdicts.get((provider, "classified"), 0),
            "unexplained": t.verdicts.get((provider, "unexplained"), 0),
        }

    def failing_calls(self) -> int:
        return self.tally.failing_calls

    def skip_reasons(self) -> dict[str, int]:
        return self.tally.reasons

    def lines(self) -> Iterator[str]:
        return _lines(self)

    def to_json(self) -> dict[str, Any]:
        return _document(
            self,
            self.failures.map(vars),
            self.rejections.map(lambda r: {**vars(r), "by": list(r.by)}),
            Groups(self.allowances),
        )


@dataclass
class _Tally:
    """What a spooled calibration's summaries count, added up share by share (a call's ``where``
    names its file, so a distinct count over one share adds up to the count over all)."""

    failing_calls: int = 0
    unexplained: int = 0
    disagreeing: dict[str, int] = field(default_factory=lambda: {})
    rejected: dict[str, int] = field(default_factory=lambda: {})
    verdicts: dict[tuple[str, str], int] = field(default_factory=lambda: {})
    reasons: dict[str, int] = field(default_factory=lambda: {})

    def add(self, part: Calibration) -> None:
        self.failing_calls += part.failing_calls()
        for provider, _ in {(f.provider, (f.where, f.check)) for f in part.failures}:
            self.disagreeing[provider] = self.disagreeing.get(provider, 0) + 1
        for r in part.rejections:
            self.rejected[r.provider] = self.rejected.get(r.provider, 0) + 1
            self.verdicts[r.provider, r.verdict] = self.verdicts.get((r.provider, r.verdict), 0) + 1
            self.unexplained += r.verdict == "unexplained"
        for reason, n in part.skip_reasons().items():
            self.reasons[reason] = self.reasons.get(reason, 0) + n


#: Why a call whose recorded request body is not the request sent is not judged.
EDITED_REASON = "recorded request body is not the request sent (its length contradicts its Content-Length)"


def error_text(response: bytes) -> str:
    """The API's error message in a rejection body, on one line (at most 200 characters)."""
    text = response.decode("utf-8", errors="replace")
    try:
        data: Any = json.loads(text)
        error: Any = cast(dict[str, Any], data).get("error", data) if isinstance(data, dict) else data
        message: Any = cast(dict[str, Any], error).get("message", error) if isinstance(error, dict) else error
        text = str(message)
    except json.JSONDecodeError:
        pass
    return re.sub(r"\s+", " ", text).strip()[:200]


def rejection_verdict(call: RecordedCall, by: tuple[str, ...]) -> tuple[str, str]:
    """A recorded 4xx: caught (by the checks ``by``), classified (``explained.py``) or unexplained, and why."""
    row = explain(call.status, call.response)
    if row is not None and row.statuses:
        # Auth and quota answer before the body is read: never credited to a body check.
        return "classified", f"{row.category}: {row.reason}"
    if by:
        return "caught", ""
    if row is not None:
        return "classified", f"{row.category}: {row.reason}"
    return "unexplained", error_text(call.response)


def _judge(call: RecordedCall, route: Route, body: dict[str, Any], result: Calibration) -> list[Failure]:
    oracle_provider, view = oracle_view(route, body, call.uri)
    report = validate(oracle_provider, view, host=urlsplit(call.uri).hostname)
    for _, aid in report.allowed:
        where = result.allowances.setdefault(aid, [])
        if call.where not in where:
            where.append(call.where)
    found = [
        Failure(call.where, label(route), f"oracle:{e.oracle}", e.path, e.message)
        for e in report.errors
        if core_error(route, e.path, e.message, body)
    ]
    found += [
        Failure(call.where, label(route), f"rule:{f.rule}", f.path, f.message)
        for f in rule_findings(route, body, call.uri)
        if f.kind == "reject"
    ]
    return found


#: The lists of a calibration, as a share is spooled.
_LISTS = ("failures", "rejections", "unreadable", "skipped", "edited", "notes", "allowances")


@contextmanager
def spool_calibration(
    paths: Iterable[str | Path],
    hosts: HostMap | None = None,
    *,
    jobs: int | None = 1,
    advance: Callable[[int, int], None] | None = None,
) -> Generator[SpooledCalibration]:
    """Judge every model call recorded under ``paths`` (``hosts``: the user's host -> dialect
    mapping, ``harness.traffic.hosts``) into a temporary spool on disk, removed when the block
    ends; TrafficInputError for a missing path.

    ``jobs`` processes share the files (None: one per core, for enough files: ``harness.workers.jobs_for``);
    each share is spooled as it arrives, in file order, so the result is the same for any ``jobs``."""
    with temporary_spool(_LISTS, {"allowances": lambda pair: pair}) as spool:
        accepted: dict[str, int] = {}
        accepted_pass: dict[str, int] = {}
        tally = _Tally()
        for part in file_shares(calibrate_file, paths, hosts, jobs, advance):
            for who, n in part.accepted.items():
                accepted[who] = accepted.get(who, 0) + n
            for who, n in part.accepted_pass.items():
                accepted_pass[who] = accepted_pass.get(who, 0) + n
            tally.add(part)
            for name in _LISTS[:-1]:
                spool.add(name, getattr(part, name))
            spool.add(
                "allowances", [(aid, where) for aid, calls in part.allowances.items() for where in calls]
            )
            del part  # on disk now
        spool.finish()
        rows = {name: spool.rows(name) for name in _LISTS}
        yield SpooledCalibration(accepted, accepted_pass, **rows, tally=tally)


def calibrate(
    paths: Iterable[str | Path],
    hosts: HostMap | None = None,
    *,
    jobs: int | None = 1,
    advance: Callable[[int, int], None] | None = None,
) -> Calibration:
    """``spool_calibration``'s result read back into memory, every list whole (for tests and small
    corpora; the command prints from the spool). ``allowances``' calls come sorted."""
    with spool_calibration(paths, hosts, jobs=jobs, advance=advance) as spooled:
        allowances: dict[str, list[str]] = {}
        for aid, where in spooled.allowances:
            allowances.setdefault(aid, []).append(where)
        return Calibration(
            spooled.accepted,
            spooled.accepted_pass,
            list(spooled.failures),
            list(spooled.rejections),
            list(spooled.unreadable),
            list(spooled.skipped),
            list(spooled.edited),
            allowances,
            list(spooled.notes),
        )


def calibrate_file(path: Path, hosts: HostMap | None = None) -> Calibration:
    """One cassette's share of the calibration."""
    result = Calibration()
    for call in load_file(path, hosts):
        route = call.route
        if call.note is not None:
            result.notes.append(f"{call.where}: {call.note}")
        pending = (
            (pending_provider(call.uri) or not_judged(call.method, call.uri, call.body)) if call.uri else None
        )
        if pending is not None:
            result.skipped.append(f"{call.where}: {pending}")
            continue
        if route is None:
            if call.problem and call.problem.startswith("file:"):
                result.unreadable.append(f"{call.where}: {call.problem}")
            continue
        if call.problem == "request body: empty":
            result.skipped.append(f"{call.where}: no request body recorded")
            continue
        if call.problem is not None and call.problem.startswith(EDITED):
            result.skipped.append(f"{call.where}: {EDITED_REASON}")  # listed, not judged (loader._edited)
            result.edited.append(f"{call.where}: {call.problem}")
            continue
        raw: Any = call.body
        if call.problem is not None or not isinstance(raw, dict):
            result.unreadable.append(f"{call.where}: {call.problem}")
            continue
        pasted = pasted_response(call)
        if pasted is not None:
            result.skipped.append(f"{call.where}: {pasted}")
            continue
        body = cast(dict[str, Any], raw)
        if 200 <= call.status < 300:
            failures = _judge(call, route, body, result)
            who = label(route)
            result.accepted[who] = result.accepted.get(who, 0) + 1
            if failures:
                result.failures += failures
            else:
                result.accepted_pass[who] = result.accepted_pass.get(who, 0) + 1
        elif 400 <= call.status < 500:
            failures = _judge(call, route, body, result)
            by = tuple(sorted({f.check for f in failures}))
            verdict, reason = rejection_verdict(call, by)
            result.rejections.append(Rejection(call.where, label(route), call.status, verdict, by, reason))
        else:
            result.skipped.append(f"{call.where}: HTTP {call.status} (neither accepted nor a 4xx)")
    return result

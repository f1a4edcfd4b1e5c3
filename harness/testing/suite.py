"""Conformance tests for your own target, in your own CI: subclass, name the target, run pytest.

    # tests/test_conformance.py (install llm-wire-harness[testing])
    from harness.testing import TargetConformance

    class TestMyAdapters(TargetConformance):
        target = "my-cli"                          # an entry-point name, or the Target object itself
        providers = ("anthropic", "openai-chat")   # default: every provider the target implements
        known_failures = {("I4", "openai-chat-tool_error"): "tool errors go out as plain text (#12)"}

Each test id reads ``provider-case-check``; the checks are the audit's own
(``harness.audit``), so ``harness audit`` and these tests never disagree:

- ``test_scenario``: every bundled scenario through ``render`` and every invariant
  (``harness.invariants.INVARIANTS``);
- ``test_stream_endings``: the I3 probes (an HTTP 500, an empty stream) once per provider;
- ``test_generated``: generated histories (``harness.strategies``) through the request
  checks. By default a fixed set of ``GENERATED_EXAMPLES`` histories, the audit's own
  (``harness.audit.generated``: seeded, no example database, no shrinking), so a declared
  known failure fails or passes the same way on every run and a failure names the
  smallest failing history seen. Under the ``harness-deep`` hypothesis profile
  (``pytest --hypothesis-profile=harness-deep``) hypothesis draws fresh histories at
  length, shrinks a failure and keeps it in the profile's example database;
- ``test_check_coverage``: one per (provider, check): fails when no bundled scenario and
  no generated history gives the check anything to judge, so a check never goes
  silently vacuous (the terminal summary prints how many cases each check judged);
- ``test_cassette``: every bundled real recording replayed through the target's parser
  (``replay``, ``replay-chunks``, ``replay-vs-reference``). A target that declares no
  stream parser (``lacks = frozenset({"parser"})``) gets none of these, nor the
  invariants that judge its parser (I3, I6, I11): ``test_check_coverage`` reports each
  of those checks as not run, with the reason, once per provider;
- ``test_request_golden``: the target's request body for every scenario, a JSON golden
  under ``goldens/<ClassName>/`` beside the test module, reviewed with
  ``pytest --snapshot-update`` (syrupy; unused goldens fail the run);
- ``test_bundled_data``: the bundled cassettes are there and readable (no silent skip).

``group_checks`` trades test ids for speed in a big suite: ``test_scenario`` and
``test_cassette`` then make one test per (provider, case), id ``provider-case``, that
judges every applicable check of the case at once and fails listing each failing check
with its findings (a check that skips makes the test skip with the reasons, once no check
failed). Every check still runs on every applicable case; known failures keep one strict
xfail test per check (``provider-case-check``), and the coverage summary counts each judged
check as before. ``True`` groups every provider; a collection of provider ids groups those.

Only (provider, case, check) triples with something to judge become tests: a check
whose subject the case lacks (no developer message for I1, no thinking for I2, ...) is
decided at collection (``harness.audit.invariant_checks.nothing_to_judge``), so a skip
means something about the environment or the target (``unsupported``), never "nothing
here". A known failure is a ``(check, case)`` pair with a reason; it runs as a strict xfail, so
a fix shows up as a failure asking you to drop the entry. Every parametrised test takes one:
``test_request_golden``'s check is ``"golden"`` (``("golden", "anthropic-plain_single_turn")``:
a render that crashes, or a body that differs from run to run), ``test_check_coverage``'s
case is ``provider-coverage``, ``test_stream_endings``' ``provider-stream_endings``. A golden
that does not exist yet fails with one line saying that this is expected on a first run and
how to write it (``pytest --snapshot-update``), and the summary counts them. Findings of kind ``policy``
fail only when ``fail_on`` includes it (``harness.contract.kinds``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, NoReturn

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion
from syrupy.location import PyTestLocation

from harness.audit.checks import REPLAY_CHECKS, REQUEST_CHECKS, check_replay, check_request
from harness.audit.corpus import CassetteCase, RequestCase, cassette_cases
from harness.audit.generated import PARAMS, generated_histories, has_user_message
from harness.audit.invariant_checks import PARSER_INVARIANTS, InvariantRunner, load_runner, nothing_to_judge
from harness.audit.model import Outcome
from harness.audit.run import reference_replay
from harness.contract.channels import render_heard
from harness.contract.kinds import DEFAULT_FAIL_ON, Kind
from harness.contract.target import Target, TargetRefusal, parser_missing
from harness.data_paths import cassettes_dir
from harness.kit.netguard import offline
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.scenarios import Scenario, load_scenarios
from harness.strategies import histories
from harness.targets import TargetError, TargetNotInstalled, get_target
from harness.testing.goldens import GoldenJSON
from harness.testing.pytest_plugin import harness_profile

__all__ = [
    "DEEP_PROFILE",
    "GENERATED_EXAMPLES",
    "GOLDEN_CHECK",
    "JUDGED_PROPERTY",
    "MISSING_GOLDEN_PROPERTY",
    "Case",
    "TargetConformance",
    "TargetGoldens",
    "judge",
]

#: Generated histories per provider in a default run: a fixed set, the same on every run.
GENERATED_EXAMPLES = 50
#: The hypothesis profile (registered by the harness's pytest plugin) under which ``test_generated``
#: draws fresh random histories at length and shrinks failures, instead of the fixed set.
DEEP_PROFILE = "harness-deep"
#: ``user_properties`` key each test sets to ``(provider, check)`` for every check it judged; the
#: harness pytest plugin's terminal summary counts them (xdist carries them to the controller).
JUDGED_PROPERTY = "harness_judged"
#: ``user_properties`` key a request-golden test sets to the golden's path when it does not exist yet
#: (the plugin's summary says that is expected on a first run, and how to write them).
MISSING_GOLDEN_PROPERTY = "harness_missing_golden"
#: The check name of ``test_request_golden`` in ``known_failures``: ``("golden", "anthropic-plain")``.
GOLDEN_CHECK = "golden"


#: The tests that replay through the target's stream parser (none for a target that lacks one).
_PARSER_TESTS = frozenset({"test_cassette", "test_stream_endings"})


@dataclass(frozen=True)
class Case:
    """One test's parameters: ``case`` is ``provider-scenario``, ``provider-generated`` or ``provider-cassette#n``."""

    provider: str
    case: str
    check: str
    subject: str = ""  # the scenario name or cassette case id
    #: What a generated-history test runs (its ``check`` alone when that is a known failure).
    checks: tuple[str, ...] = ()
    #: A request-golden test: its id is the case alone (the golden's file name), its known-failure
    #: key ``(GOLDEN_CHECK, case)``.
    golden: bool = False

    @property
    def id(self) -> str:
        return f"{self.case}-{self.check}" if self.check else self.case

    @property
    def key(self) -> tuple[str, str]:
        """Its ``known_failures`` key: ``(check, case)``."""
        return (GOLDEN_CHECK if self.golden else self.check, self.case)


class TargetGoldens(GoldenJSON):
    """Request goldens beside the adopter's test module: ``goldens/<ClassName>/<provider-scenario>.json``.

    Located from the test alone (syrupy re-imports extensions by name under xdist, so an
    extension cannot carry per-class state).
    """

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        owner = test_location.classname or Path(test_location.filepath).stem
        return str(Path(test_location.filepath).parent / "goldens" / owner)


class TargetConformance:
    """Subclass it (name starting with ``Test``) and set ``target``; every test below is then parametrised."""

    #: The target: an entry-point name (``harness.targets`` group) or the object; None means ``--harness-target``.
    target: ClassVar[Target | str | None] = None
    #: Providers to test; None means every provider the target implements.
    providers: ClassVar[Sequence[str] | None] = None
    #: Scenario names to use; None means every bundled scenario.
    scenarios: ClassVar[Sequence[str] | None] = None
    #: ``(check, case) -> reason``: run as strict xfails. ``case`` is the test id without ``-check``.
    known_failures: ClassVar[Mapping[tuple[str, str], str]] = {}
    #: Finding kinds that fail a test; add ``"policy"`` to opt in to design differences.
    fail_on: ClassVar[Sequence[Kind]] = DEFAULT_FAIL_ON
    #: Keep goldens of the target's request bodies (``test_request_golden``).
    request_goldens: ClassVar[bool] = True
    #: One test per (provider, case) judging all its checks instead of one per check: True for
    #: every provider, or the provider ids to group (known failures stay one test per check).
    group_checks: ClassVar[bool | Collection[str]] = False

    # ------------------------------------------------------------------ collection

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """``request_goldens = False`` removes the golden test (no test id that can only skip)."""
        super().__init_subclass__(**kwargs)
        if not cls.request_goldens:
            setattr(cls, "test_request_golden", None)  # noqa: B010 - pytest collects no non-callable

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "harness_case" not in metafunc.fixturenames:
            return
        try:
            plan = _plan(type(self), metafunc.config)
        except TargetNotInstalled as exc:
            metafunc.parametrize(
                "harness_case", [pytest.param(None, marks=pytest.mark.skip(reason=str(exc)))]
            )
            return
        cases = plan.cases.get(metafunc.function.__name__, [])
        params = [pytest.param(c, id=c.id, marks=_xfail(self.known_failures.get(c.key))) for c in cases]
        if not params and metafunc.function.__name__ in _PARSER_TESTS and plan.not_run:
            # a target without a stream parser: one test per provider saying why nothing runs here
            reasons = {p: reason for (p, _), reason in plan.not_run.items()}
            params = [
                pytest.param(None, id=f"{p}-not-run", marks=pytest.mark.skip(reason=reason))
                for p, reason in reasons.items()
            ]
        metafunc.parametrize("harness_case", params)

    # ------------------------------------------------------------------ tests

    def test_scenario(self, harness_case: Case, request: pytest.FixtureRequest) -> None:
        outcomes = _plan(type(self), request.config).scenario(harness_case.provider, harness_case.subject)
        _judge_case(request, harness_case, outcomes, self.fail_on)

    def test_stream_endings(self, harness_case: Case, request: pytest.FixtureRequest) -> None:
        target = _plan(type(self), request.config).target
        with offline(target.name):
            outcome = _runner().probe(harness_case.provider, target)
        _judged(request, harness_case, outcome)
        judge(outcome, self.fail_on)

    def test_check_coverage(self, harness_case: Case, request: pytest.FixtureRequest) -> None:
        """Some case gives the check something to judge for the provider: a check is never silently vacuous."""
        plan = _plan(type(self), request.config)
        key = (harness_case.provider, harness_case.check)
        if key in plan.not_run:
            pytest.skip(plan.not_run[key])
        assert plan.coverage.get(key, 0) > 0, (
            f"{harness_case.check} has nothing to judge for {harness_case.provider}: no case of this class "
            f"applies ({plan.uncovered.get(key, 'no case')}); add a scenario that has its subject, or declare "
            f"({harness_case.check!r}, {harness_case.case!r}) in known_failures"
        )

    def test_generated(self, harness_case: Case, request: pytest.FixtureRequest) -> None:
        """Generated histories through every request check at once (one history serves all of them),
        except those declared known failures, which run alone as strict xfails."""
        target = _plan(type(self), request.config).target
        provider, checks, fail_on = harness_case.provider, harness_case.checks, self.fail_on
        if settings.get_current_profile_name() == DEEP_PROFILE:
            judged = _hunt(target, provider, checks, fail_on, request.node.nodeid)
        else:
            judged = _fixed_set(target, provider, checks, fail_on)
        for check in sorted(judged):
            request.node.user_properties.append((JUDGED_PROPERTY, (provider, check)))
        if not judged:
            pytest.skip(f"no generated history gave {', '.join(checks)} anything to judge for {provider}")

    def test_cassette(self, harness_case: Case, request: pytest.FixtureRequest) -> None:
        outcomes = _plan(type(self), request.config).recording(harness_case.subject)
        _judge_case(request, harness_case, outcomes, self.fail_on)

    def test_request_golden(
        self, harness_case: Case, request: pytest.FixtureRequest, snapshot: SnapshotAssertion
    ) -> None:
        target = _plan(type(self), request.config).target
        scenario = load_scenarios()[harness_case.subject]
        try:
            with offline(target.name):  # the other tests go offline through harness.audit.checks
                rendered = render_heard(
                    target,
                    harness_case.provider,
                    scenario.history,
                    scenario.params_for(harness_case.provider),
                )
        except NotImplementedError as exc:
            pytest.skip(f"unsupported: {exc}")
        except TargetRefusal as refusal:  # declared unsupported: no body to compare (the audit reports it)
            pytest.skip(f"refused: {refusal}")
        golden = {"body": rendered.body, "warnings": [str(w) for w in rendered.warnings]}
        path = _golden_path(request, harness_case)
        if not path.exists() and not request.config.getoption("update_snapshots", default=False):
            request.node.user_properties.append((MISSING_GOLDEN_PROPERTY, str(path)))
            pytest.fail(
                f"no golden yet at {path}: expected on the first run of a class, provider or scenario; "
                "write the goldens with `pytest --snapshot-update`, review them and commit them",
                pytrace=False,
            )
        assert golden == snapshot.use_extension(TargetGoldens)

    def test_bundled_data(self, request: pytest.FixtureRequest) -> None:
        """The recorded cassettes ship with the harness: missing or unreadable is a failure, never a skip."""
        try:
            plan = _plan(type(self), request.config)
        except TargetNotInstalled as exc:
            pytest.skip(str(exc))
        assert plan.cassettes.is_dir(), f"no bundled cassettes at {plan.cassettes}: a broken install"
        assert not plan.unreadable, "\n".join(plan.unreadable)
        assert plan.recordings, f"no recorded model call under {plan.cassettes}"


# ---------------------------------------------------------------------- verdicts


def _fatal(outcome: Outcome, fail_on: Sequence[Kind]) -> bool:
    return any(kind in fail_on for kind in outcome.found)


def _explain(outcome: Outcome) -> str:
    return "\n".join(f"[{k}] {d}" for d, k in zip(outcome.details, outcome.kinds, strict=True))


def judge(outcome: Outcome, fail_on: Sequence[Kind]) -> None:
    """A pass passes; a skip skips with its reason; a failure fails on any finding of a ``fail_on`` kind."""
    if outcome.status == "skip":
        pytest.skip("; ".join(outcome.details))
    assert not _fatal(outcome, fail_on), _explain(outcome)


def _judge_case(
    request: pytest.FixtureRequest, case: Case, outcomes: Mapping[str, Outcome], fail_on: Sequence[Kind]
) -> None:
    """One check (``case.check``), or every check of a grouped case: all judged, every failure named."""
    if case.check:
        _judged(request, case, outcomes[case.check])
        judge(outcomes[case.check], fail_on)
        return
    for check in case.checks:
        _judged(request, Case(case.provider, case.case, check), outcomes[check])
    failed = [f"{c}:\n{_explain(outcomes[c])}" for c in case.checks if _fatal(outcomes[c], fail_on)]
    assert not failed, "\n\n".join(failed)
    skipped = [f"{c}: {'; '.join(outcomes[c].details)}" for c in case.checks if outcomes[c].status == "skip"]
    if skipped:
        pytest.skip(" | ".join(skipped))


def _golden_path(request: pytest.FixtureRequest, case: Case) -> Path:
    """Where ``TargetGoldens`` keeps this test's golden (its folder, then the test id as the name)."""
    owner = request.node.cls.__name__ if request.node.cls is not None else Path(request.node.path).stem
    return Path(request.node.path).parent / "goldens" / owner / f"{case.id}.json"


def _xfail(reason: str | None) -> Any:
    return () if reason is None else pytest.mark.xfail(strict=True, reason=f"known failure: {reason}")


def _database_key(test: Any, nodeid: str) -> None:
    """One example-database key per test id (hypothesis's own pytest plugin does the same for parametrize)."""
    test.hypothesis.inner_test._hypothesis_internal_add_digest = nodeid.encode()


@cache
def _runner() -> InvariantRunner:
    return load_runner()


def _judged(request: pytest.FixtureRequest, case: Case, outcome: Outcome) -> None:
    """Note on the test's report that it judged its check (a skip judged nothing)."""
    if outcome.status != "skip":
        request.node.user_properties.append((JUDGED_PROPERTY, (case.provider, case.check)))


@cache
def _fixed_histories() -> tuple[tuple[list[HistoryEvent], CallParams], ...]:
    """The default run's generated histories: the audit's fixed, seeded set (identical on every run)."""
    return tuple(generated_histories(GENERATED_EXAMPLES))


def _fixed_set(target: Target, provider: str, checks: Sequence[str], fail_on: Sequence[Kind]) -> set[str]:
    """Every fixed history through ``checks``; fails naming the smallest failing history of each check."""
    judged: set[str] = set()
    smallest: dict[str, tuple[int, str, Outcome]] = {}
    for n, (history, params) in enumerate(_fixed_histories()):
        case = RequestCase(f"generated/{n:02d}", "generated", history, params)
        outcomes = check_request(target, provider, case, _runner(), only=checks).checks
        judged.update(c for c in checks if c in outcomes and outcomes[c].status != "skip")
        for check, outcome in outcomes.items():
            fatal = check in checks and _fatal(outcome, fail_on)
            if fatal and (check not in smallest or case.size < smallest[check][0]):
                smallest[check] = (case.size, case.example, outcome)
    failed = [
        f"{check}: {_explain(outcome)}\nsmallest failing history:\n{example}"
        for check, (_, example, outcome) in sorted(smallest.items())
    ]
    assert not failed, "\n\n".join(failed)
    return judged


def _hunt(
    target: Target, provider: str, checks: Sequence[str], fail_on: Sequence[Kind], nodeid: str
) -> set[str]:
    """The ``harness-deep`` profile: fresh hypothesis draws, shrunk, kept in the profile's database."""
    judged: set[str] = set()

    @settings(
        parent=harness_profile(),
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.large_base_example,
        ],
        deadline=None,
    )
    @given(history=histories.filter(has_user_message), params=st.sampled_from(PARAMS))
    def generated(history: list[HistoryEvent], params: CallParams) -> None:
        case = RequestCase("generated", "generated", history, params)
        outcomes = check_request(target, provider, case, _runner(), only=checks).checks
        judged.update(c for c in checks if outcomes[c].status != "skip")
        failed = [(c, o) for c, o in outcomes.items() if c in checks and _fatal(o, fail_on)]
        assert not failed, "\n".join(f"{c}: {_explain(o)}" for c, o in failed)

    _database_key(generated, nodeid)
    generated()
    return judged


# ---------------------------------------------------------------------- what a class tests


@dataclass(frozen=True)
class _Plan:
    """A class's target and test cases, and each (provider, case)'s outcomes once computed (all checks at once)."""

    target: Target
    cases: dict[str, list[Case]]
    recordings: dict[str, CassetteCase]
    cassettes: Path
    unreadable: tuple[str, ...]
    #: (provider, check) -> how many cases (scenarios, fixed generated histories, recorded calls) it judges.
    coverage: dict[tuple[str, str], int]
    #: (provider, check) -> why a case had nothing for it (the guard's message when none had).
    uncovered: dict[tuple[str, str], str]
    #: (provider, check) -> why the check does not run at all for this target (no stream parser).
    not_run: dict[tuple[str, str], str]
    outcomes: dict[tuple[str, str], dict[str, Outcome]] = field(default_factory=lambda: {})

    def scenario(self, provider: str, name: str) -> dict[str, Outcome]:
        if (provider, name) not in self.outcomes:
            scenario = load_scenarios()[name]
            case = RequestCase(f"scenario/{name}", "scenario", scenario.history, scenario.params)
            self.outcomes[provider, name] = check_request(self.target, provider, case, _runner()).checks
        return self.outcomes[provider, name]

    def recording(self, case_id: str) -> dict[str, Outcome]:
        case = self.recordings[case_id]
        if (case.provider, case_id) not in self.outcomes:
            reference = reference_replay(case.provider, case.exchange)
            self.outcomes[case.provider, case_id] = check_replay(self.target, case, reference).checks
        return self.outcomes[case.provider, case_id]


_PLANS: dict[tuple[type, str], _Plan] = {}


def _plan(cls: type[TargetConformance], config: pytest.Config) -> _Plan:
    chosen = str(config.getoption("harness_target", default="reference"))
    key = (cls, chosen)
    if key not in _PLANS:
        _PLANS[key] = _make_plan(cls, chosen)
    return _PLANS[key]


def _refuse(message: str) -> NoReturn:
    """A class whose settings name nothing real: one line in the collection error, no traceback."""
    pytest.fail(message, pytrace=False)


def _resolve(given: object, chosen: str) -> Target:
    name = chosen if given is None else given
    if not isinstance(name, str):
        if not isinstance(name, Target):
            _refuse(f"target {name!r} does not implement the harness Target protocol")
        return name
    try:
        return get_target(name)
    except TargetNotInstalled:
        raise  # environmental: every test of the class skips with the install hint
    except TargetError as exc:
        _refuse(f"harness.testing: {exc}")


def _provider_of(case: str) -> str | None:
    """The provider id a ``provider-case`` key starts with (longest match), or None."""
    from harness.contract.providers import PROVIDERS

    found = [p for p in PROVIDERS if case.startswith(f"{p}-")]
    return max(found, key=len) if found else None


def _per_case(
    provider: str,
    case: str,
    subject: str,
    checks: Sequence[str],
    group: bool,
    known: Mapping[tuple[str, str], str],
) -> list[Case]:
    """One test per check, or (``group``) one for all checks but the known failures, which stay alone."""
    if not group:
        return [Case(provider, case, check, subject) for check in checks]
    alone = [c for c in checks if (c, case) in known]
    rest = tuple(c for c in checks if c not in alone)
    together = [Case(provider, case, "", subject, checks=rest)] if rest else []
    return together + [Case(provider, case, check, subject) for check in alone]


def _generated_cases(
    provider: str, applicable: Sequence[str], known_failures: Mapping[tuple[str, str], str]
) -> list[Case]:
    """One test for every applicable check that is not a known failure, and one per known failure."""
    case = f"{provider}-generated"
    alone = tuple(c for c in REQUEST_CHECKS if (c, case) in known_failures)
    rest = tuple(c for c in applicable if c not in alone)
    together = [Case(provider, case, "", checks=rest)] if rest else []
    return together + [Case(provider, case, c, checks=(c,)) for c in alone]


def _parser_checks(target: Target) -> dict[str, str]:
    """The checks that judge a stream parser the target declares it lacks -> why they do not run."""
    missing = parser_missing(target)
    if missing is None:
        return {}
    return dict.fromkeys((*PARSER_INVARIANTS, *REPLAY_CHECKS), missing)


def _applicable(
    providers: Sequence[str], histories: Mapping[str, Sequence[HistoryEvent]], checks: Sequence[str]
) -> tuple[dict[tuple[str, str], list[str]], dict[tuple[str, str], str]]:
    """(provider, check) -> the named histories it has something to judge in, and one reason when none.

    Decided at collection (``nothing_to_judge``: from the history alone), so that no test
    is generated only to skip for want of a subject.
    """
    judged: dict[tuple[str, str], list[str]] = {}
    why: dict[tuple[str, str], str] = {}
    for provider in providers:
        for check in checks:
            names = judged.setdefault((provider, check), [])
            for name, history in histories.items():
                reason = None if check == "render" else nothing_to_judge(check, history, provider)
                if reason is None:
                    names.append(name)
                else:
                    why.setdefault((provider, check), reason)
    return judged, why


def _make_plan(cls: type[TargetConformance], chosen: str) -> _Plan:
    target = _resolve(cls.target, chosen)
    implemented = list(target.providers())
    providers = list(cls.providers if cls.providers is not None else implemented)
    missing = [p for p in providers if p not in implemented]
    if missing:
        _refuse(f"{cls.__name__}: target {target.name!r} does not implement {missing}")
    every = load_scenarios()
    names = sorted(cls.scenarios if cls.scenarios is not None else every)
    unknown = [n for n in names if n not in every]
    if unknown:
        _refuse(f"{cls.__name__}.scenarios: unknown scenario(s) {unknown}")
    scenarios: list[Scenario] = [every[n] for n in names]
    root = cassettes_dir()
    calls, unreadable = cassette_cases(root, providers) if root.is_dir() else ([], [])
    unjudged = _parser_checks(target)
    not_run = {(p, check): reason for p in providers for check, reason in unjudged.items()}
    judged = [check for check in REQUEST_CHECKS if check not in unjudged]
    in_scenarios, why = _applicable(providers, {s.name: s.history for s in scenarios}, judged)
    in_generated: dict[tuple[str, str], list[str]] = {}
    if not all(in_scenarios.values()):  # only then is the fixed generated set worth drawing at collection
        fixed = {f"generated/{n:02d}": h for n, (h, _) in enumerate(_fixed_histories())}
        in_generated, _ = _applicable(providers, fixed, judged)
    coverage = {key: len(names) + len(in_generated.get(key, ())) for key, names in in_scenarios.items()}
    replayed = [] if not_run else calls  # nothing is replayed through a target without a stream parser
    for p in providers:
        for check in REPLAY_CHECKS:
            coverage[p, check] = sum(1 for c in replayed if c.provider == p)
            if not coverage[p, check]:
                why[p, check] = f"no recorded {p} model call under {root}"
    grouped = set(providers if cls.group_checks is True else cls.group_checks or ())
    known_failures = cls.known_failures
    cases: dict[str, list[Case]] = {
        "test_scenario": [
            c
            for p in providers
            for s in scenarios
            for c in _per_case(
                p,
                f"{p}-{s.name}",
                s.name,
                [check for check in judged if s.name in in_scenarios[p, check]],
                p in grouped,
                known_failures,
            )
        ],
        "test_stream_endings": [
            Case(p, f"{p}-stream_endings", "I3") for p in providers if (p, "I3") not in not_run
        ],
        "test_generated": [
            c
            for p in providers
            for c in _generated_cases(
                p,
                [c for c in judged if not in_generated or in_generated[p, c]],
                cls.known_failures,
            )
        ],
        "test_cassette": [
            case
            for c in replayed
            for case in _per_case(
                c.provider,
                f"{c.provider}-{c.case.removeprefix('cassette/')}",
                c.case,
                REPLAY_CHECKS,
                c.provider in grouped,
                known_failures,
            )
        ],
        "test_check_coverage": [
            Case(p, f"{p}-coverage", check) for p in providers for check in (*REQUEST_CHECKS, *REPLAY_CHECKS)
        ],
        "test_request_golden": (
            [Case(p, f"{p}-{s.name}", "", s.name, golden=True) for p in providers for s in scenarios]
            if cls.request_goldens
            else []
        ),
    }
    known = {
        (check, c.case)
        for group in cases.values()
        for c in group
        for check in (c.checks or (c.key[0],))
        if check
    }
    known |= {(check, f"{p}-generated") for p in providers for check in judged}
    # A key for a provider this run does not test (the target does not implement it) is not stale.
    elsewhere = {k for k in cls.known_failures if _provider_of(k[1]) not in (None, *providers)}
    stale = sorted(set(cls.known_failures) - known - elsewhere)
    if stale:
        vacuous = {
            (check, f"{p}-{s.name}"): unjudged.get(check) or nothing_to_judge(check, s.history, p)
            for check, case in stale
            for p in providers
            for s in scenarios
            if case == f"{p}-{s.name}"
        }
        _refuse(
            f"{cls.__name__}.known_failures: no test for "
            + ", ".join(
                f"{k!r}" + (f" (nothing to judge: {vacuous[k]})" if vacuous.get(k) else "") for k in stale
            )
            + " (keys are (check, provider-case), e.g. ('I4', 'anthropic-tool_error'); a request golden's "
            + f"check is {GOLDEN_CHECK!r})"
        )
    return _Plan(
        target, cases, {c.case: c for c in calls}, root, tuple(unreadable), coverage, {**why}, not_run
    )

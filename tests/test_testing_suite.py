"""``harness.testing`` as an adopter uses it: known failures as strict xfails, goldens, a missing SDK."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest

from harness.audit.generated import SHARE_ENV
from harness.audit.invariant_checks import load_runner
from harness.codec import dumps_history
from harness.contract.target import Target
from harness.scenarios import load_scenarios
from harness.targets import get_target
from harness.testing.suite import _fixed_histories  # pyright: ignore[reportPrivateUsage]

pytest_plugins = ["pytester"]

SUITE = """
from harness.testing import TargetConformance

class TestAdopter(TargetConformance):
    target = "reference"
    providers = ("anthropic",)
    scenarios = {scenarios!r}
    known_failures = {known!r}
"""


def _suite(pytester: pytest.Pytester, scenarios: list[str], known: dict[tuple[str, str], str]) -> None:
    pytester.makepyfile(test_adopter=SUITE.format(scenarios=scenarios, known=known))


def test_a_known_failure_that_passes_fails_the_run_as_a_strict_xfail(pytester: pytest.Pytester) -> None:
    _suite(pytester, ["developer_at_start"], {("I1", "anthropic-developer_at_start"): "said to fail"})
    result = pytester.runpytest("-k", "test_scenario", "-p", "no:cacheprovider")
    assert result.parseoutcomes()["failed"] == 1
    result.stdout.fnmatch_lines(["*XPASS(strict)*known failure: said to fail*"])


def test_a_known_failure_naming_no_test_stops_collection(pytester: pytest.Pytester) -> None:
    _suite(pytester, ["developer_at_start"], {("I1", "anthropic-no_such_scenario"): "typo"})
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*known_failures: no test for ('I1', 'anthropic-no_such_scenario')*"])


def test_a_known_failure_for_a_provider_this_run_does_not_test_is_not_stale(
    pytester: pytest.Pytester,
) -> None:
    """A suite run against a target without Gemini keeps its Gemini entries (they are not typos)."""
    _suite(pytester, ["developer_at_start"], {("I1", "gemini-developer_at_start"): "gemini only"})
    result = pytester.runpytest("-p", "no:cacheprovider", "--co", "-q")
    assert result.ret == 0, result.stdout.str()


def test_request_goldens_are_written_reviewed_and_kept_tidy(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The inner run is a whole session of its own, even when this test runs in an xdist worker
    # (syrupy leaves unused-golden detection to the controller when it sees a worker's variables).
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    _suite(pytester, ["developer_at_start", "developer_after_user"], {})
    first = pytester.runpytest("-k", "test_request_golden", "-p", "no:cacheprovider")
    first.assert_outcomes(failed=2)
    pytester.runpytest("-k", "test_request_golden", "--snapshot-update", "-p", "no:cacheprovider")
    goldens = sorted(p.name for p in (pytester.path / "goldens" / "TestAdopter").iterdir())
    assert goldens == ["anthropic-developer_after_user.json", "anthropic-developer_at_start.json"]
    pytester.runpytest("-k", "test_request_golden", "-p", "no:cacheprovider").assert_outcomes(passed=2)
    # No generated history holds provider parts: with the server-tool scenarios left out, I15 and I16
    # have nothing to judge, which an adopter declares (the coverage tests then xfail, not fail).
    vacuous = "no server-tool scenario in this suite"
    _suite(
        pytester,
        ["developer_at_start"],
        {("I15", "anthropic-coverage"): vacuous, ("I16", "anthropic-coverage"): vacuous},
    )
    pruned = pytester.runpytest("-p", "no:cacheprovider")
    assert pruned.ret != 0
    pruned.stdout.fnmatch_lines(["*FAILED on golden hygiene only: 1 golden(s) no test uses*"])


def test_a_missing_sdk_makes_i12_skip_with_the_reason_never_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    import harness.oracles

    def no_sdk(provider: str) -> object:
        raise ImportError(f"No module named '{provider}'")

    monkeypatch.setattr(harness.oracles, "sdk_oracle", no_sdk)
    scenario = load_scenarios()["developer_at_start"]
    target: Target = get_target("reference")
    first = target.render("anthropic", scenario.history, scenario.params)
    outcome = load_runner().run_one("I12", scenario.history, scenario.params, "anthropic", target, first)
    assert outcome.status == "skip"
    assert "llm-wire-harness[oracles]" in outcome.details[0]


def test_policy_findings_fail_only_when_opted_in() -> None:
    from harness.audit.model import Outcome
    from harness.contract.kinds import KINDS
    from harness.testing.suite import judge

    policy = Outcome.failures([("policy", "stop_reason: stop vs tool_use")])
    judge(policy, ("reject", "degrade"))  # the default: a design difference is not a failure
    with pytest.raises(AssertionError, match=r"\[policy\] stop_reason"):
        judge(policy, KINDS)
    with pytest.raises(AssertionError, match=r"\[degrade\] text differs"):
        judge(Outcome.fail("text differs"), ("reject", "degrade"))
    with pytest.raises(pytest.skip.Exception, match="no tool result"):
        judge(Outcome.skip("no tool result in the history"), KINDS)


FLAKY_BEFORE = '''
from harness.model import DeveloperMessage
from harness.targets import get_target
from harness.testing import TargetConformance

REFERENCE = get_target("reference")


class DropsDeveloper:
    """The reference, except that developer messages vanish: I1 fails on some generated histories only."""

    name = "drops-developer"
    version = None
    lacks = frozenset()

    def providers(self):
        return ("anthropic",)

    def render(self, provider, history, params):
        kept = [e for e in history if not isinstance(e, DeveloperMessage)]
        return REFERENCE.render(provider, kept, params)

    def replay(self, provider, exchange, chunk_size=None):
        return REFERENCE.replay(provider, exchange, chunk_size)


class TestAdopter(TargetConformance):
    target = DropsDeveloper()
    scenarios = ("plain_single_turn",)
    request_goldens = False
    known_failures = {
        ("I1", "anthropic-generated"): "developer messages are dropped",
        ("I13", "anthropic-generated"): "developer messages are dropped without a warning",
    }
'''


def test_two_default_runs_give_the_same_verdicts_on_generated_histories(pytester: pytest.Pytester) -> None:
    """A declared known failure on generated histories stays known: each check alone fails on every run.

    The default draws the audit's fixed set (no example database, no shrinking, no random
    seed), so what two runs see differs only if the set does: the second half checks that a
    fresh interpreter draws the very same histories as this one.
    """
    pytester.makepyfile(test_adopter=FLAKY_BEFORE)
    runs = [
        pytester.runpytest("-p", "no:cacheprovider", "-q", "-rA", "-k", "test_generated and I1") for _ in "12"
    ]
    verdicts = [
        sorted(line for line in run.stdout.lines if line.startswith(("PASSED", "XFAIL", "FAILED", "XPASS")))
        for run in runs
    ]
    assert verdicts[0] == verdicts[1]
    outcomes = [run.parseoutcomes() for run in runs]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0]["xfailed"] == 2 and set(outcomes[0]) == {"xfailed", "deselected"}, outcomes[0]

    digest = "import hashlib; from harness.testing.suite import _fixed_histories as f; from harness.codec import dumps_history as d; print(hashlib.sha256(''.join(d(h) + p.model_dump_json() for h, p in f()).encode()).hexdigest())"
    alone = {k: v for k, v in os.environ.items() if k != SHARE_ENV}  # it draws, never reads the run's set
    fresh = subprocess.run(
        [sys.executable, "-c", digest],
        capture_output=True,
        text=True,
        check=True,
        cwd=pytester.path,
        env=alone,
    )
    here = hashlib.sha256(
        "".join(dumps_history(h) + p.model_dump_json() for h, p in _fixed_histories()).encode()
    )
    assert fresh.stdout.strip() == here.hexdigest()


GROUPED = FLAKY_BEFORE.replace(
    """    scenarios = ("plain_single_turn",)
    request_goldens = False
    known_failures = {
        ("I1", "anthropic-generated"): "developer messages are dropped",
        ("I13", "anthropic-generated"): "developer messages are dropped without a warning",
    }
""",
    """    scenarios = ("developer_at_start",)
    request_goldens = False
    group_checks = True
    known_failures = {known!r}
""",
)


def test_ungrouped_checks_are_one_test_each(pytester: pytest.Pytester) -> None:
    """The default layout (no ``group_checks``): one test per (provider, case, check), each failing alone."""
    pytester.makepyfile(test_adopter=GROUPED.replace("group_checks = True", "").format(known={}))
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-rA", "-k", "test_scenario or test_cassette")
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] == 2 and outcomes["passed"] > 2, outcomes
    result.stdout.fnmatch_lines_random(
        [
            "FAILED *test_scenario[[]anthropic-developer_at_start-I1[]]*",
            "FAILED *test_scenario[[]anthropic-developer_at_start-I13[]]*",
            "PASSED *test_scenario[[]anthropic-developer_at_start-render[]]",
            "PASSED *test_cassette[[]anthropic-*-replay[]]",
        ]
    )


def test_grouped_checks_judge_every_check_in_one_test_and_name_each_failure(
    pytester: pytest.Pytester,
) -> None:
    """``group_checks``: one test per (provider, case); its failure lists each failing check."""
    assert "group_checks = True" in GROUPED  # the replacement above took
    pytester.makepyfile(test_adopter=GROUPED.format(known={}))
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-rA", "-k", "test_scenario")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*AssertionError: I1:", "*I13:", "FAILED *test_scenario[[]anthropic-developer_at_start[]]*"]
    )


def test_a_grouped_case_keeps_a_strict_xfail_per_known_failure(pytester: pytest.Pytester) -> None:
    known = {
        ("I1", "anthropic-developer_at_start"): "developer messages are dropped",
        ("I13", "anthropic-developer_at_start"): "dropped without a warning",
    }
    pytester.makepyfile(test_adopter=GROUPED.format(known=known))
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-rA", "-k", "test_scenario")
    result.assert_outcomes(passed=1, xfailed=2)
    result.stdout.fnmatch_lines_random(
        [
            "PASSED *test_scenario[[]anthropic-developer_at_start[]]",
            "XFAIL *test_scenario[[]anthropic-developer_at_start-I1[]]*",
            "XFAIL *test_scenario[[]anthropic-developer_at_start-I13[]]*",
        ]
    )


NO_PARSER = '''
from harness.targets import get_target
from harness.testing import TargetConformance

REFERENCE = get_target("reference")


class WritesRequestsOnly:
    """The reference's requests; no stream parser of its own, and it says so."""

    name = "requests-only"
    version = None
    lacks = frozenset({"parser"})

    def providers(self):
        return ("anthropic",)

    def render(self, provider, history, params):
        return REFERENCE.render(provider, history, params)

    def replay(self, provider, exchange, chunk_size=None):
        raise AssertionError("a target that declares no parser is never replayed")


class TestAdopter(TargetConformance):
    target = WritesRequestsOnly()
    # the server-tool scenario gives I16 (a request check) its subject
    scenarios = ("tool_parallel_results_in_order", "server_tools_web_search_anthropic")
    request_goldens = False
'''


def test_a_target_without_a_stream_parser_reports_its_output_checks_not_run(
    pytester: pytest.Pytester,
) -> None:
    """Nothing is replayed and nothing stands in for the missing parser: each output check is one skip
    per provider, naming the reason; the request checks are collected as before."""
    pytester.makepyfile(test_adopter=NO_PARSER)
    collected = pytester.runpytest("-p", "no:cacheprovider", "--co", "-q").stdout.lines
    ids = {line.split("::")[-1] for line in collected if "::" in line}
    scenario = "test_scenario[anthropic-tool_parallel_results_in_order-{}]"
    assert {scenario.format(c) for c in ("render", "I4", "I13")} <= ids
    assert not {scenario.format(c) for c in ("I3", "I6", "I11")} & ids
    assert {"test_cassette[anthropic-not-run]", "test_stream_endings[anthropic-not-run]"} <= ids
    assert not [i for i in ids if i.startswith("test_cassette[anthropic-cassette")]
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "-q",
        "-rs",
        "-k",
        "test_cassette or test_stream_endings or test_check_coverage",
    )
    not_run = (
        "target 'requests-only' declares no stream parser (lacks 'parser'), so its output side is not judged"
    )
    skipped = [line for line in result.stdout.lines if line.startswith("SKIPPED")]
    assert skipped and all(line.endswith(not_run) for line in skipped), skipped
    outcomes = result.parseoutcomes()
    # I3, I6, I11, I15's and the three replay checks' coverage, the cassettes and the stream probes: 9
    # skips; the other 15 checks' coverage passes
    assert outcomes["skipped"] == 9 and outcomes["passed"] == 15 and "failed" not in outcomes, outcomes


PLANTED = '''
import dataclasses

from harness.contract.rendered import Rendered
from harness.model import SourcePart
from harness.targets import get_target
from harness.testing import TargetConformance


class _Planted:
    version = "1"
    lacks = frozenset()

    def __init__(self):
        self._reference = get_target("reference")

    def providers(self):
        return ["anthropic"]

    def render(self, provider, history, params):
        return self._reference.render(provider, history, params)

    def replay(self, provider, exchange, chunk_size=None):
        return self._reference.replay(provider, exchange, chunk_size)


class DropsSources(_Planted):
    """Seed 004's bug: the stream's citations never reach the message."""

    name = "drops-sources"

    def replay(self, provider, exchange, chunk_size=None):
        result = self._reference.replay(provider, exchange, chunk_size)
        kept = [p for p in result.message.parts if not isinstance(p, SourcePart)]
        return dataclasses.replace(result, message=result.message.model_copy(update={"parts": kept}))


class ServerResultAsClientResult(_Planted):
    """A server tool's result moved out of the assistant turn into a client tool_result."""

    name = "server-result-as-client"

    def render(self, provider, history, params):
        rendered = self._reference.render(provider, history, params)
        messages = []
        for message in rendered.body["messages"]:
            blocks = message["content"]
            moved = [b for b in blocks if b["type"].endswith("_tool_result") and b["type"] != "tool_result"]
            messages.append({**message, "content": [b for b in blocks if b not in moved]})
            if moved:
                results = [{"type": "tool_result", "tool_use_id": b["tool_use_id"], "content": "found"} for b in moved]
                messages.append({"role": "user", "content": results})
        return Rendered({**rendered.body, "messages": messages}, rendered.warnings)


class TestDropsSources(TargetConformance):
    target = DropsSources()
    scenarios = ("server_tools_web_search_anthropic",)
    request_goldens = False


class TestServerResultAsClientResult(TargetConformance):
    target = ServerResultAsClientResult()
    scenarios = ("server_tools_web_search_anthropic",)
    request_goldens = False


class DropsCohereSources(DropsSources):
    def providers(self):
        return ["cohere"]


class DropsBedrockSources(DropsSources):
    def providers(self):
        return ["bedrock"]


class TestDropsCohereSources(TargetConformance):
    target = DropsCohereSources()
    scenarios = ("sources_cohere_tool_citations",)
    request_goldens = False


class TestDropsBedrockSources(TargetConformance):
    target = DropsBedrockSources()
    scenarios = ("server_tools_code_interpreter_bedrock",)
    request_goldens = False
'''


def test_planted_provider_part_bugs_fail_their_named_checks(pytester: pytest.Pytester) -> None:
    """A target that drops a stream's sources fails I15 (on Anthropic, Cohere and Bedrock streams); one
    that sends a server tool's result back as a client tool result fails I16; the reference passes
    both on the same scenarios."""
    pytester.makepyfile(test_planted=PLANTED)
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-k", "test_scenario", "-rf")
    failed = [line for line in result.stdout.lines if line.startswith("FAILED")]
    assert any("TestDropsSources" in line and "I15" in line for line in failed), result.stdout.str()
    assert any("TestServerResultAsClientResult" in line and "I16" in line for line in failed), (
        result.stdout.str()
    )
    assert not any("TestDropsSources" in line and "I16" in line for line in failed)
    assert not any("TestServerResultAsClientResult" in line and "I15" in line for line in failed)
    # the new parsers' sources (Cohere citations, Bedrock citations beside its system tool): the same check
    for planted in ("TestDropsCohereSources", "TestDropsBedrockSources"):
        assert any(planted in line and "I15" in line for line in failed), (planted, result.stdout.str())
        assert not any(planted in line and "I16" in line for line in failed), planted

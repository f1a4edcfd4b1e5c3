"""The audit: the reference passes, the four forms are deterministic, baselines accept and diff."""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import pytest
from rich.console import Console
from typer.testing import CliRunner

from harness.audit import AuditResult, compare, load_baseline, print_report, run_audit, write_reports
from harness.audit.baseline import BaselineComparison
from harness.audit.generated import SHARE_ENV, generated_histories
from harness.cli.main import app
from harness.contract.chunking import Chunking
from harness.contract.rendered import Rendered
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.providers.replay import Exchange
from harness.stream.base import CallResult
from harness.targets import Target, get_target
from tests.support.targets import REFERENCE_AUDIT_PROVIDERS, ToyTarget, reference_audit, without_max_tokens

GOLDENS = Path(__file__).resolve().parent.parent / "goldens"
#: run_audit's progress callbacks: the CLI passes new ones on every run, the audit is the same.
_CALLBACKS = ("progress", "advance")


def _forms(result: AuditResult, comparison: BaselineComparison, out: Path) -> dict[str, bytes]:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    print_report(result, comparison, console)
    forms = {form: path.read_bytes() for form, path in write_reports(result, comparison, out).items()}
    forms["terminal"] = console.file.getvalue().encode()  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    return forms


@functools.cache
def _plain_toy() -> AuditResult:
    """One audit of the unchanged toy, shared (read only) by the tests that need a clean audit."""
    return run_audit(ToyTarget("toy", "1"), examples=1, cassettes=None)


@functools.cache
def _max_tokens_777() -> AuditResult:
    """One audit of a toy that writes max_tokens 777 in every body, shared (read only): a wire diff
    against the plain toy's audit and against the goldens."""
    return run_audit(ToyTarget("toy", "2", {"max_tokens": 777}), examples=1, cassettes=None)


class _Recording(ToyTarget):
    """The reference adapters for anthropic and gemini (a toy without a change), recording each model rendered."""

    def __init__(self) -> None:
        super().__init__("toy", "1")
        self.seen: dict[str, set[str | None]] = {}

    def providers(self) -> Sequence[str]:
        return ["anthropic", "gemini"]

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        self.seen.setdefault(provider, set()).add(params.model)
        return super().render(provider, history, params)


@functools.cache
def _recorded() -> tuple[AuditResult, dict[str, frozenset[str | None]]]:
    """One audit (no generated histories, no cassettes) of the reference's anthropic and gemini
    adapters, and the models each provider's renders got: shared by the probe and model tests."""
    target = _Recording()
    result = run_audit(target, examples=0, cassettes=None)
    return result, {provider: frozenset(models) for provider, models in target.seen.items()}


def test_reference_audit_passes_and_every_form_is_deterministic(tmp_path: Path) -> None:
    """Two audits of the reference: the run's shared one (computed by this process or another
    worker) and one run here, never the same object."""
    runs: list[dict[str, bytes]] = []
    shared = reference_audit()
    fresh = run_audit(get_target("reference"), list(REFERENCE_AUDIT_PROVIDERS), examples=5)
    assert fresh is not shared
    for n, result in enumerate((shared, fresh)):
        runs.append(_forms(result, compare(result, None), tmp_path / str(n)))
        assert result.failures() == []
        assert {r.kind for r in result.records} == {"scenario", "generated", "cassette", "probe"}
    assert runs[0] == runs[1]
    data = json.loads(runs[0]["json"])
    assert list(data) == sorted(data)
    assert data["target"]["name"] == "reference"
    html = runs[0]["html"].decode()
    assert "<link" not in html and "<script" not in html and "http" not in html.split("<body>")[0]


def test_generated_histories_are_fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SHARE_ENV, raising=False)  # both drawn here, not read from the run's shared set
    first, second = generated_histories(6), generated_histories(6)
    assert first == second and len(first) == 6


def test_a_baseline_accepts_known_failures_and_only_those(tmp_path: Path) -> None:
    result = without_max_tokens()
    assert result.failures(), "the toy target must fail something"
    (tmp_path / "audit.json").write_text(json.dumps(result.to_json()), encoding="utf-8")
    baseline = load_baseline(tmp_path / "audit.json")

    accepted = compare(result, baseline)
    assert accepted.ok and accepted.accepted == result.failures() and not accepted.new

    worse = run_audit(ToyTarget("toy", "2", {"max_tokens": None, "system": None}), examples=2, cassettes=None)
    regression = compare(worse, baseline)
    assert not regression.ok
    assert set(regression.new).isdisjoint(baseline.failures)
    assert not compare(worse, None).ok


def test_a_regression_between_two_targets_shows_as_a_wire_diff(tmp_path: Path) -> None:
    before = _plain_toy()
    after = _max_tokens_777()
    (tmp_path / "before.json").write_text(json.dumps(before.to_json()), encoding="utf-8")
    comparison = compare(after, load_baseline(tmp_path / "before.json"))
    assert comparison.changed and not comparison.added and not comparison.removed
    assert len(comparison.changed) == len([r for r in after.records if r.request is not None])
    for change in comparison.changed:
        edits = [line for line in change.diff[2:] if line[:1] in "+-"]
        assert edits[-1] == '+  "max_tokens": 777,', change.diff
        assert len(edits) == 2 and edits[0].startswith('-  "max_tokens": ')
    forms = _forms(after, comparison, tmp_path / "report")
    assert b"+  &quot;max_tokens&quot;: 777," in forms["html"]
    assert b'+  "max_tokens": 777,' in forms["markdown"]
    assert b"toy 1" in forms["markdown"] and b"toy 2" in forms["markdown"]


def test_goldens_are_a_baseline_for_wire_diffs() -> None:
    result = _max_tokens_777()  # every body differs from its golden in max_tokens
    comparison = compare(result, load_baseline(GOLDENS))
    assert comparison.baseline is not None and comparison.baseline.kind == "goldens"
    assert comparison.changed and all(c.case.startswith("scenario/") for c in comparison.changed)
    assert not comparison.added  # every scenario has a golden


def test_cli_exit_codes_follow_the_baseline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    toy: Target = ToyTarget("toy", "1", {"max_tokens": None})
    monkeypatch.setattr("harness.targets.get_target", lambda name: toy)  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    # The first two runs ask for the same audit (only --out and --baseline differ): it is run once
    # and the second run judges that result against the first run's audit.json.
    audits: dict[str, AuditResult] = {}
    asked: list[str] = []

    def audit_once(target: Target, providers: Sequence[str] | None = None, **options: object) -> AuditResult:
        key = repr(
            (target, providers, sorted((k, repr(v)) for k, v in options.items() if k not in _CALLBACKS))
        )
        asked.append(key)
        if key not in audits:
            audits[key] = run_audit(target, providers, **options)  # pyright: ignore[reportArgumentType]
        return audits[key]

    monkeypatch.setattr("harness.audit.run.run_audit", audit_once)
    runner = CliRunner()
    args = ["audit", "--target", "toy", "--examples", "0", "--cassettes", str(tmp_path / "none")]
    first = runner.invoke(app, [*args, "--out", str(tmp_path / "a")])
    assert first.exit_code == 1, first.output
    assert {p.name for p in (tmp_path / "a").iterdir()} == {"audit.json", "audit.html", "audit.md"}
    second = runner.invoke(
        app, [*args, "--out", str(tmp_path / "b"), "--baseline", str(tmp_path / "a/audit.json")]
    )
    assert second.exit_code == 0, second.output
    bad = runner.invoke(app, [*args, "--baseline", str(tmp_path / "missing.json")])
    assert bad.exit_code == 2
    assert len(asked) == 2 and len(audits) == 1  # the bad baseline stops the third before its audit


class _RenamedIdsTarget(ToyTarget):
    """Drops every native thinking pair and declares no warning channel (a deliberate, documented drop)."""

    lacks: frozenset[str] = frozenset({"warnings"})

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        from harness.model import AssistantMessage, ThinkingSignaturePart, ThinkingTextPart

        kept = [
            e.model_copy(
                update={
                    "parts": [
                        p for p in e.parts if not isinstance(p, ThinkingTextPart | ThinkingSignaturePart)
                    ]
                }
            )
            if isinstance(e, AssistantMessage)
            else e
            for e in history
        ]
        return Rendered(self._reference.render(provider, kept, params).body, [])


def test_kinds_are_kept_apart_and_only_fatal_kinds_fail_the_run(tmp_path: Path) -> None:
    rejected = run_audit(ToyTarget("toy", "1", {"messages": "nope"}), examples=0, cassettes=None)
    assert {f.kind for f in rejected.failures() if f.check == "I12"} == {"reject"}
    assert not compare(rejected, None).ok

    quiet = run_audit(_RenamedIdsTarget("toy", "1"), examples=0, cassettes=None)
    thinking = [f for f in quiet.failures() if f.check == "I2"]
    assert thinking and {f.kind for f in thinking} == {"policy"}, thinking
    policy_only = compare(quiet, None, ("reject",))
    assert policy_only.ok and policy_only.new
    forms = _forms(quiet, policy_only, tmp_path)
    assert b"policy" in forms["markdown"] and b"[policy]" in forms["terminal"]


class _WritesRequestsOnly(ToyTarget):
    """The reference's requests and no stream parser of its own, declared (``lacks`` ``parser``)."""

    lacks: frozenset[str] = frozenset({"parser"})

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        raise AssertionError("a target that declares no parser is never replayed")


def test_a_target_without_a_stream_parser_gets_its_output_checks_skipped_never_passed(
    tmp_path: Path,
) -> None:
    """No other parser stands in: every replay check, the stream probes and I3, I6, I11 say why they did not run."""
    cassettes = tmp_path / "cassettes"
    (cassettes / "anthropic").mkdir(parents=True)
    recorded = Path(__file__).resolve().parent.parent / "cassettes" / "anthropic"
    source = recorded / "pai__sonnet40_thinking_then_text.yaml"
    (cassettes / "anthropic" / source.name).write_bytes(source.read_bytes())
    result = run_audit(_WritesRequestsOnly("toy", "1"), examples=0, cassettes=cassettes)
    reason = "target 'toy' declares no stream parser (lacks 'parser')"
    output_side = [
        (r.case, check, outcome)
        for r in result.records
        for check, outcome in r.checks.items()
        if r.kind in ("cassette", "probe") or check in ("I3", "I6", "I11")
    ]
    assert {r.kind for r in result.records} >= {"cassette", "probe", "scenario"}
    assert {check for _, check, _ in output_side} == {
        "I3", "I6", "I11", "replay", "replay-chunks", "replay-vs-reference"
    }  # fmt: skip
    for case, check, outcome in output_side:
        assert outcome.status == "skip" and reason in outcome.details[0], (case, check, outcome)
    loop = next(r for r in result.records if r.case == "scenario/tool_parallel_results_in_order")
    assert loop.checks["I4"].status == "pass" and loop.checks["render"].status == "pass"


def test_stream_probes_run_once_per_provider_and_nothing_judged_is_a_skip() -> None:
    result, _ = _recorded()
    assert result.providers == ["anthropic", "gemini"]
    probes = [r for r in result.records if r.kind == "probe"]
    assert [(r.provider, r.case, sorted(r.checks)) for r in probes] == [
        (provider, "probe/stream-endings", ["I3"]) for provider in result.providers
    ]
    assert all(probe.checks["I3"].status == "pass" for probe in probes)
    for provider in result.providers:
        single = next(
            r for r in result.records if r.provider == provider and r.case == "scenario/plain_single_turn"
        )
        for check in ("I3", "I6", "I11"):
            assert single.checks[check].status == "skip", (provider, check, single.checks[check])
            assert "no assistant message" in single.checks[check].details[0]
        for check, subject in (
            ("I1", "developer"),
            ("I2", "thinking"),
            ("I4", "tool result"),
            ("I7", "tool call"),
        ):
            assert single.checks[check].status == "skip", (provider, check, single.checks[check])
            assert subject in single.checks[check].details[0]
        assert single.checks["I12"].status == "pass"  # every request has a schema to meet


def test_each_provider_renders_with_a_model_it_serves() -> None:
    _, seen = _recorded()
    assert not any(m and m.startswith("claude") for m in seen["gemini"]), seen["gemini"]
    assert any(m and m.startswith("claude") for m in seen["anthropic"])


@pytest.mark.parametrize(
    ("document", "says"),
    [
        ("[]", "the document: a JSON object expected"),
        ("null", "the document: a JSON object expected"),
        ('{"format": "harness-audit/1"}', "format: not a harness-audit/2 document"),
        (None, "options: a JSON object expected"),
        (None, "providers: unknown provider"),
        ("[" * 100_000 + "]" * 100_000, "nested deeper than"),
    ],
)
def test_a_bad_baseline_is_one_line_before_the_audit_runs(
    tmp_path: Path, document: str | None, says: str
) -> None:
    if document is None:
        good = _plain_toy().to_json()  # a fresh document: changed below
        if "options" in says:
            good["options"] = []
        else:
            good["providers"] = ["nope"]
        document = json.dumps(good)
    (tmp_path / "b.json").write_text(document, encoding="utf-8")
    result = CliRunner().invoke(app, ["audit", "--baseline", str(tmp_path / "b.json"), "--examples", "0"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], lines


@pytest.mark.parametrize("width", [80, 100, 160, 240])
def test_the_terminal_form_fits_the_width_and_cuts_nothing(width: int) -> None:
    result = without_max_tokens()
    console = Console(file=io.StringIO(), width=width, color_system=None)
    print_report(result, compare(result, None), console)
    out = cast(io.StringIO, console.file).getvalue()
    lines = out.splitlines()
    assert all(len(line) <= width for line in lines), max(lines, key=len)
    matrix = out.split("Conformance", 1)[1].split("failing (provider, check, case)", 1)[0]
    assert "…" not in matrix
    for check in result.checks:
        assert check in matrix or check in ("replay-chunks", "replay-vs-reference"), check
    for provider in result.providers:
        assert provider in matrix


def test_reports_link_cells_to_findings_and_explain_every_check(tmp_path: Path) -> None:
    import re

    result = without_max_tokens()
    forms = _forms(result, compare(result, None), tmp_path)
    html = forms["html"].decode()
    targets = set(re.findall(r'href="#([^"]+)"', html))
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert targets and targets <= ids, targets - ids
    for check in result.checks:
        assert f'id="check-{check}"' in html
    markdown = forms["markdown"].decode()
    assert "## Summary" in markdown and "why it matters" in markdown
    assert set(re.findall(r"\]\(#([^)]+)\)", markdown)) <= set(
        re.findall(r'<a name="([^"]+)"></a>', markdown)
    )


def test_an_unreadable_cassette_is_named_skipped_and_the_exit_status_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    toy: Target = ToyTarget("toy", "1")
    monkeypatch.setattr("harness.targets.get_target", lambda name: toy)  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    root = tmp_path / "cassettes" / "anthropic"
    root.mkdir(parents=True)
    shutil.copy(GOLDENS.parent / "cassettes/anthropic/pai__sonnet40_thinking_then_text.yaml", root)
    (root / "bomb.yaml").write_text(
        "a: &a [" + ",".join(["*a"] * 3) + "]\n" + "b: [*a]\n" * 2, encoding="utf-8"
    )
    (root / "bad.yaml").write_text("interactions: [\n  - {request: {", encoding="utf-8")
    args = ["audit", "--target", "toy", "--examples", "0", "--cassettes", str(tmp_path / "cassettes")]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    named = [line for line in result.output.splitlines() if line.startswith("harness: ")]
    assert any("bad.yaml" in line for line in named), result.output
    audit = json.loads((tmp_path / "out/audit.json").read_text(encoding="utf-8"))
    assert any(r["kind"] == "cassette" for r in audit["records"])  # the readable cassette was audited


def test_a_narrow_terminal_gets_the_matrix_turned_checks_down() -> None:
    """Issue 24: at 80 columns the matrix is a table with the providers across, not cut, not a list."""
    result = without_max_tokens()
    console = Console(file=io.StringIO(), width=80, color_system=None)
    print_report(result, compare(result, None), console)
    out = cast(io.StringIO, console.file).getvalue()
    header = next(line for line in out.splitlines() if " check " in line)
    assert all(provider in header for provider in result.providers), header
    assert max(len(line) for line in out.splitlines()) <= 80


def test_the_report_console_honours_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.audit.reports.terminal import report_console

    monkeypatch.setenv("COLUMNS", "80")
    assert report_console().width == 80
